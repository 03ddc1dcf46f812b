import Foundation
import JSONStream

// How the encoder writes as it goes. One `_EncodeState` per encode call holds a writer and
// the containers open in it, innermost last. A value is encoded into a "slot": the place
// after a key, an array's next element, or the top. Containers know their level (index in
// `open`) and serial number; before one writes, every container opened after it closes,
// which is how a synthesized `encode(to:)` moves from one member to the next. A container
// whose entry is gone has been finished: using it again is an error, since its text is out.
//
// The writer is always an in-memory one, a concrete type: Codable calls come through
// protocol witnesses, where code generic over the sink would look up the writer's type
// metadata on every call (a third of encoding time, measured). `encode(_:to:)` hands the
// finished value's text to the caller's writer.

/// A container open in the writer.
struct _OpenContainer {
  var serial: Int
  var isObject: Bool
  /// Elements written (an unkeyed container's `count`).
  var count = 0
  /// The mapping of the model value that opened it.
  var mapping: _ModelMapping?
}

/// What an `_EncodeState` changes as it goes, in memory of its own: the class's stored
/// properties would be checked for exclusive access at run time on every access.
struct _EncoderFields {
  var writer: _EncoderOutput
  var open: [_OpenContainer] = []
  var nextSerial = 0
  /// A value is due in the innermost open container (or at the top when none is open).
  var awaiting = false
  /// The coding path of what is being encoded; each container and encoder knows how many of
  /// these keys are its own.
  var path: [any CodingKey] = []
  /// An error met where none can be thrown (making a container); the next write throws it.
  var deferredError: (any Error)? = nil
  var types = _TypeInfos()
  /// The keyed container type of each key type met.
  var containerTypes = _KeyedContainerTypes()
  /// The mapping of a model value about to open its object at `pendingDepth`.
  var pendingMapping: _ModelMapping? = nil
  var pendingDepth = -1
  /// Converted keys (snake_case), each converted once per call.
  var convertedKeys: [String: String] = [:]
  /// A model's format for the property being encoded (``JSONModel/jsonDateFormatter(forKey:)``),
  /// for the dates in its value: in its arrays, optionals and dictionaries with `String` keys,
  /// not inside other types, whose keyed containers clear it.
  var dateFormatter: DateFormatter? = nil
  /// The keys written in the open objects (see `_EncodeState.emitKey`).
  var keyCheck = _KeyCheck()
  /// The key order (its number in `keyCheck`) of a value about to open its object at
  /// `pendingDepth`.
  var pendingKeyOrder: Int? = nil
  /// A key came twice in one object: the value is to be encoded again, merging.
  var repeatedKey = false
  /// This is that second encoding: keys go to the tree's `_MergingTree`.
  var mergesRepeatedKeys = false
  /// How many more values that are not scalars may be encoded inside the ones being encoded
  /// now (see `JSONStreamEncoder.maxDepth`).
  var nestingLeft: Int
  /// The class instances being encoded, one inside the next: one met again inside itself is
  /// a reference cycle.
  var instancesInProgress: Set<ObjectIdentifier> = []
  /// With `keepsObjectIdentity`, in binary output: each class instance written, by its
  /// number in the value table, and the instances themselves, kept alive so that no other
  /// instance takes an identity while the encode runs.
  var sharedInstances: [ObjectIdentifier: Int]? = nil
  var sharedRetained: [AnyObject] = []
}

extension _EncoderFields {
  /// Writes the key at `position` of the innermost object's key order (see `_KeyCheck`), read
  /// where the check keeps it.
  @inline(__always)
  mutating func writeQuotedKey(level: Int, position: Int) throws {
    try keyCheck.writeQuotedKey(level: level, position: position, to: &writer.json)
  }
}

final class _EncodeState {
  let options: JSONStreamEncoder.Settings
  /// What the state was made with, for a second encoding (see `encodeRootOrMerge`).
  let writeOptions: JSONWriteOptions
  let indentBase: Int
  /// The fields, in memory of the object's own: read and changed in place through
  /// `fields.value`, without the run-time exclusivity check that the class's stored
  /// properties would get on every access (see `_StateMemory`).
  let fields: _StateMemory<_EncoderFields>

  init(
    options: JSONStreamEncoder.Settings, writeOptions: JSONWriteOptions, indentBase: Int = 0,
    format: _EncoderOutput.Format = .json
  ) {
    self.options = options
    self.writeOptions = writeOptions
    self.indentBase = indentBase
    var writer = JSONWriter(wholeOutput: writeOptions)
    if indentBase > 0 { writer.setIndentBase(indentBase) }
    fields = _StateMemory(
      _EncoderFields(
        writer: _EncoderOutput(
          json: writer, binary: format == .binary ? JSONBinaryWriter() : nil,
          tree: format == .value || format == .merging
            ? _TreeOutput(options: writeOptions, mergingRepeatedKeys: format == .merging) : nil),
        mergesRepeatedKeys: format == .merging, nestingLeft: options.maxDepth))
    if format == .binary && options.keepsObjectIdentity { fields.value.sharedInstances = [:] }
    if format == .json {
      fields.value.keyCheck.quoting = _KeyQuoting(
        escapeUnicode: writeOptions.escapeUnicode, escapeSlash: writeOptions.escapeSlash)
    }
  }

  func codingPath(_ length: Int) -> [any CodingKey] { Array(fields.value.path.prefix(length)) }

  /// The path of a value under `key` (or index) of a container with a path of `length` keys.
  @inline(__always)
  func enter(_ key: any CodingKey, at length: Int) {
    if fields.value.path.count > length { fields.value.path.removeSubrange(length...) }
    fields.value.path.append(key)
  }

  // MARK: Slots

  /// Encodes `value` as the whole output; returns its text.
  func encodeTopLevel<T: Encodable>(_ value: T) throws -> [UInt8] {
    if fields.value.writer.isBinary { return try encodeBinaryTopLevel(value) }
    return try encodeTopLevel(value, finishing: _finishedBytes)
  }

  /// Encodes `value` as the whole JSON output; returns what `finish` makes of the writer (see
  /// `_finishedData`: the text is not copied out of the writer first).
  func encodeTopLevel<T: Encodable, R>(
    _ value: T, finishing finish: (inout JSONWriter<JSONByteSink>) throws -> R
  ) throws -> R {
    precondition(!fields.value.writer.isBinary)
    if let merged = try encodeRootOrMerge(value) {
      let output = _EncodeState(
        options: options, writeOptions: writeOptions, indentBase: indentBase)
      try output.fields.value.writer.write(merged)
      return try finish(&output.fields.value.writer.json)
    }
    return try finish(&fields.value.writer.json)
  }

  /// Encodes `value` as the whole binary output; returns its bytes. A key repeated in an
  /// object is an error there; the first encoding checks keys by hash, and when it meets one
  /// that came before, a second encoding that compares the keys themselves says whether the
  /// key did, or only its hash.
  private func encodeBinaryTopLevel<T: Encodable>(_ value: T) throws -> [UInt8] {
    guard try encodeRootMeetingRepeat(value) else {
      try fields.value.writer.finish()
      return fields.value.writer.bytes
    }
    let exact = _EncodeState(options: options, writeOptions: writeOptions, format: .binary)
    exact.fields.value.keyCheck.comparesNames()
    try exact.encodeRoot(value)
    try exact.fields.value.writer.finish()
    return exact.fields.value.writer.bytes
  }

  /// Encodes `value` as the whole output, a tree; returns it.
  func encodeTopLevelToValue<T: Encodable>(_ value: T) throws -> JSONValue {
    if let merged = try encodeRootOrMerge(value) {
      // Through the tree output, which sorts keys and checks numbers as it does for any value.
      var tree = _TreeOutput(options: writeOptions)
      try tree.write(merged)
      return tree.finish()
    }
    return fields.value.writer.finishValue()
  }

  /// Encodes `value` as the whole output; nil when done, or, when a key came twice in one
  /// object, `value` encoded again as a tree with Foundation's rules for that (see
  /// `_MergingTree`), to be written out instead.
  private func encodeRootOrMerge<T: Encodable>(_ value: T) throws -> JSONValue? {
    guard try encodeRootMeetingRepeat(value) else { return nil }
    let merging = _EncodeState(options: options, writeOptions: writeOptions, format: .merging)
    try merging.encodeRoot(value)
    return merging.fields.value.writer.tree!.finish()
  }

  /// Encodes `value` as the whole output; true when a key came twice in one object, which
  /// stops the encoding (`_RepeatedKey`), and the output is then to be made again. True even
  /// if the value's own code caught the signal and went on.
  private func encodeRootMeetingRepeat<T: Encodable>(_ value: T) throws -> Bool {
    do {
      try encodeRoot(value)
    } catch {
      guard fields.value.repeatedKey else { throw error }
    }
    return fields.value.repeatedKey
  }

  func encodeRoot<T: Encodable>(_ value: T) throws {
    fields.value.awaiting = true
    try encodeValue(value, depth: 0, pathLength: 0)
    if let deferredError = fields.value.deferredError { throw deferredError }
  }

  /// Encodes `value` into the slot at `depth` (where `open.count == depth`, a value due).
  func encodeValue<T: Encodable>(_ value: T, depth: Int, pathLength: Int) throws {
    fields.value.awaiting = false
    if try scalar(value, nil, pathLength) { return }
    fields.value.awaiting = true
    try encodeComposite(value, depth: depth, pathLength: pathLength)
  }

  /// Writes `value` if it is one of the scalar types, straight to the writer (the caller has
  /// placed it: after a key, as an element, or in an empty slot); false otherwise.
  @inline(__always)
  func scalar<T: Encodable>(
    _ value: T, _ key: @autoclosure () -> (any CodingKey)?, _ pathLength: Int
  ) throws -> Bool {
    if T.self == String.self {
      try fields.value.writer.string(_same(value, as: String.self))
    } else if T.self == Int.self {
      try fields.value.writer.number(_same(value, as: Int.self))
    } else if T.self == Double.self {
      try writeDouble(_same(value, as: Double.self), key(), pathLength)
    } else if T.self == Bool.self {
      try fields.value.writer.bool(_same(value, as: Bool.self))
    } else if T.self == Float.self {
      try writeFloat(_same(value, as: Float.self), key(), pathLength)
    } else if T.self == Int64.self {
      try fields.value.writer.number(_same(value, as: Int64.self))
    } else if T.self == UInt64.self {
      try fields.value.writer.number(_same(value, as: UInt64.self))
    } else {
      return false
    }
    return true
  }

  /// A child of the container at `level`, after its key or as its next element: a scalar
  /// straight to the writer, anything else in a slot of its own, under `key` in the path.
  @inline(__always)
  func encodeChild<T: Encodable>(
    _ value: T, under key: some CodingKey, level: Int, pathLength: Int
  ) throws {
    if try scalar(value, key, pathLength) { return }
    fields.value.awaiting = true
    enter(key, at: pathLength)
    try encodeComposite(value, depth: level &+ 1, pathLength: pathLength &+ 1)
  }

  /// Encodes a value that is not a scalar into the slot at `depth`, then closes what it
  /// opened.
  func encodeComposite<T: Encodable>(_ value: T, depth: Int, pathLength: Int) throws {
    // A keyed container of this value clears the property's date format: it is this value's
    // again afterwards.
    let dateFormatter = fields.value.dateFormatter
    defer { fields.value.dateFormatter = dateFormatter }
    if T.self == Date.self {
      try encodeDate(value as! Date, depth: depth, pathLength: pathLength)
    } else if T.self == Data.self {
      try encodeData(value as! Data, depth: depth, pathLength: pathLength)
    } else if T.self == URL.self {
      try claimSlot(depth, pathLength)
      try fields.value.writer.string((value as! URL).absoluteString)
    } else if T.self == Decimal.self {
      try encodeDecimal(value as! Decimal, depth: depth, pathLength: pathLength)
    } else if T.self == JSONValue.self || T.self == JSONObject.self || T.self == JSONArray.self
      || T.self == JSONValue.Number.self
    {
      try claimSlot(depth, pathLength)
      try fields.value.writer.write(Self.documentValue(value))
    } else if fields.value.sharedInstances != nil, T.self is AnyClass,
      let index = writtenInstance(value)
    {
      try claimSlot(depth, pathLength)
      try fields.value.writer.binary!.reference(toShared: index)
    } else {
      // Without these checks a cycle, or a value deeper than the stack, would crash.
      guard fields.value.nestingLeft > 0 else { throw tooDeep(value, pathLength) }
      let instance = T.self is AnyClass ? try enterInstance(value, pathLength) : nil
      if let instance, fields.value.sharedInstances != nil { try share(value, instance) }
      fields.value.nestingLeft &-= 1
      defer {
        fields.value.nestingLeft &+= 1
        if let instance { fields.value.instancesInProgress.remove(instance) }
      }
      let (conformances, mapping, keyOrder) = fields.value.types.withInfo(for: T.self) {
        ($0.conformances, $0.mapping, $0.number)
      }
      fields.value.pendingKeyOrder = keyOrder
      fields.value.pendingDepth = depth
      if let mapping {
        var model = value as! any JSONModel
        try model.willEncode()
        fields.value.pendingMapping = mapping
        try (model as! T).encode(
          to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
        if let problem = mapping.problem { throw misuse(pathLength, problem) }
      } else if let set = conformances.encodableSet, fields.value.writer.isBinary {
        // Sets, ordered sets and maps are native in the binary format.
        try set._encodeSetElements(value, self, depth, pathLength)
      } else if let orderedSet = conformances.orderedSet, fields.value.writer.isBinary {
        try orderedSet._encodeOrderedElements(value, self, depth, pathLength)
      } else if let array = conformances.encodableArray {
        // Through the cached metatype: `value as! any _EncodableArray` would look the
        // conformance up for every array (11% of encoding canada.json).
        try array._encodeElements(value, self, depth, pathLength)
      } else if let dictionary = conformances.stringKeyedEncodable {
        try dictionary._encodeMembers(value, self, depth, pathLength)
      } else if let map = conformances.encodableMap, fields.value.writer.isBinary {
        try map._encodeEntries(value, self, depth, pathLength)
      } else {
        try value.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      }
    }
    try finishSlot(depth: depth, pathLength: pathLength, type: T.self)
  }

  /// The number in the value table of `value`, a class instance, when it has been written
  /// whole before (not when it is being written: a cycle, which `enterInstance` reports).
  func writtenInstance<T>(_ value: T) -> Int? {
    let instance = ObjectIdentifier(value as AnyObject)
    guard let index = fields.value.sharedInstances![instance],
      !fields.value.instancesInProgress.contains(instance)
    else { return nil }
    return index
  }

  /// Marks `value`, a class instance about to be written for the first time, as a shared
  /// value; when the table is full, it is written without (each time it comes).
  func share<T>(_ value: T, _ instance: ObjectIdentifier) throws {
    guard fields.value.sharedInstances!.count < JSONBinaryFormat.maxTableEntries,
      fields.value.awaiting
    else { return }
    fields.value.sharedInstances![instance] = try fields.value.writer.binary!.shareNextValue()
    fields.value.sharedRetained.append(value as AnyObject)
  }

  /// A class instance about to be encoded: its identity, kept while it is; a reference cycle
  /// when it is being encoded already.
  @inline(never)
  func enterInstance<T: Encodable>(_ value: T, _ pathLength: Int) throws -> ObjectIdentifier {
    let instance = ObjectIdentifier(value as AnyObject)
    guard fields.value.instancesInProgress.insert(instance).inserted else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath(pathLength),
          debugDescription:
            "A reference cycle: this \(T.self) instance is being encoded already, further up"
            + " the coding path, and JSON cannot hold a cycle."))
    }
    return instance
  }

  /// The error for a value nested deeper than `maxDepth`.
  @inline(never)
  func tooDeep<T: Encodable>(_ value: T, _ pathLength: Int) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: codingPath(pathLength),
        debugDescription:
          "The value is nested more than \(options.maxDepth) levels deep (maxDepth)."))
  }

  /// `value`, a `JSONValue`, `JSONObject`, `JSONArray` or `JSONValue.Number`, as a
  /// `JSONValue`: written as it is (a parsed array's or object's number text included), not
  /// member by member.
  static func documentValue<T: Encodable>(_ value: T) -> JSONValue {
    if T.self == JSONObject.self { return .object(_same(value, as: JSONObject.self)) }
    if T.self == JSONArray.self { return .array(_same(value, as: JSONArray.self)) }
    if T.self == JSONValue.Number.self { return .number(_same(value, as: JSONValue.Number.self)) }
    return _same(value, as: JSONValue.self)
  }

  /// After a value's encoding: close what it opened; a nested value that wrote nothing is
  /// `{}` (as Foundation writes it), a top-level one an error.
  func finishSlot(depth: Int, pathLength: Int, type: Any.Type) throws {
    fields.value.pendingMapping = nil
    fields.value.pendingKeyOrder = nil
    if let deferredError = fields.value.deferredError { throw deferredError }
    try close(downTo: depth)
    guard fields.value.awaiting else { return }
    if depth == 0 {
      throw EncodingError.invalidValue(
        type,
        EncodingError.Context(
          codingPath: [], debugDescription: "Top-level \(type) did not encode any values."))
    }
    try writeEmptyObject()
  }

  /// Closes the containers from `depth` on (an unfilled slot in one gets `{}`).
  func close(downTo depth: Int) throws {
    while fields.value.open.count > depth {
      if fields.value.awaiting { try writeEmptyObject() }
      let closed = fields.value.open.removeLast()
      if closed.isObject {
        fields.value.keyCheck.close(level: fields.value.open.count)
        try fields.value.writer.endObject()
      } else {
        try fields.value.writer.endArray()
      }
    }
  }

  /// After a custom date or data strategy: a closure that encoded nothing gives `{}`, at the
  /// top level too, as Foundation writes it (an `encode(to:)` that writes nothing at the top
  /// level is an error).
  func emptyObjectIfUnwritten(_ depth: Int) throws {
    if fields.value.awaiting && fields.value.open.count == depth
      && fields.value.deferredError == nil
    {
      try writeEmptyObject()
    }
  }

  func writeEmptyObject() throws {
    fields.value.awaiting = false
    try fields.value.writer.startObject()
    try fields.value.writer.endObject()
  }

  /// Takes the slot at `depth` for a scalar: it must still be empty.
  func claimSlot(_ depth: Int, _ pathLength: Int) throws {
    if let deferredError = fields.value.deferredError { throw deferredError }
    guard fields.value.awaiting, fields.value.open.count == depth else {
      throw misuse(
        pathLength, "A single value container encoded a value where one was already encoded.")
    }
    fields.value.awaiting = false
  }

  // MARK: Containers

  /// Gets a container ready to write: closes those opened after it, fills an unused slot it
  /// left (a `superEncoder` that encoded nothing).
  @inline(__always)
  func prepare(_ level: Int, _ serial: Int, _ pathLength: Int) throws {
    if fields.value.deferredError != nil || fields.value.open.count != level &+ 1
      || fields.value.awaiting
    {
      try prepareSlowly(level, serial, pathLength)
    }
    guard fields.value.open[level].serial == serial else {
      throw misuse(pathLength, Self.movedOn)
    }
  }

  func prepareSlowly(_ level: Int, _ serial: Int, _ pathLength: Int) throws {
    if let deferredError = fields.value.deferredError { throw deferredError }
    if fields.value.open.count > level &+ 1 { try close(downTo: level &+ 1) }
    guard fields.value.open.count == level &+ 1 else { throw misuse(pathLength, Self.movedOn) }
    if fields.value.awaiting { try writeEmptyObject() }
  }

  static let movedOn =
    "A container was used after the encoding had moved on from it; JSONStreamEncoder writes"
    + " values in order."

  /// Opens an object (or array) for the value in the slot at `depth`; a second request from
  /// the same value (a subclass and its superclass both asking) gets the same container.
  /// Returns its level and serial (serial -1 when it could not open: its writes throw).
  /// `native`: a collection the binary output writes as such (an array elsewhere).
  func openContainer(
    depth: Int, isObject: Bool, pathLength: Int, native: _NativeCollection? = nil
  ) -> (level: Int, serial: Int) {
    if fields.value.awaiting && fields.value.open.count == depth
      && fields.value.deferredError == nil
    {
      fields.value.awaiting = false
      do {
        if isObject {
          try fields.value.writer.startObject()
        } else if let native, fields.value.writer.isBinary {
          switch native {
          case .set: try fields.value.writer.binary!.startSet()
          case .orderedSet: try fields.value.writer.binary!.startOrderedSet()
          case .map: try fields.value.writer.binary!.startMap()
          }
        } else {
          try fields.value.writer.startArray()
        }
      } catch {
        fields.value.deferredError = error
        return (depth, -1)
      }
      let mapping =
        isObject && fields.value.pendingDepth == depth ? fields.value.pendingMapping : nil
      let keyOrder = fields.value.pendingDepth == depth ? fields.value.pendingKeyOrder : nil
      fields.value.pendingMapping = nil
      fields.value.pendingKeyOrder = nil
      fields.value.nextSerial &+= 1
      if isObject { fields.value.keyCheck.open(level: depth, order: keyOrder) }
      fields.value.open.append(
        _OpenContainer(serial: fields.value.nextSerial, isObject: isObject, mapping: mapping))
      return (depth, fields.value.nextSerial)
    }
    if fields.value.open.count > depth && fields.value.open[depth].isObject == isObject
      && fields.value.deferredError == nil
    {
      do { try close(downTo: depth &+ 1) } catch { fields.value.deferredError = error }
      return (depth, fields.value.open[depth].serial)
    }
    if fields.value.deferredError == nil {
      fields.value.deferredError = misuse(
        pathLength,
        "Asked for a\(isObject ? " keyed" : "n unkeyed") container where a value of another"
          + " kind was already encoded.")
    }
    return (depth, -1)
  }

  /// Writes the key for `key` of the object at `level`; false when the model leaves it out
  /// (and `excluding`, which is false for a nested container or super encoder).
  func writeKey(_ key: some CodingKey, level: Int, pathLength: Int, excluding: Bool = true)
    throws -> Bool
  {
    let name = key.stringValue
    let written: String
    if let mapping = fields.value.open[level].mapping,
      let mapped = try mappedKey(name, mapping, excluding)
    {
      guard let mapped else { return false }
      written = mapped
    } else {
      switch options.keyEncodingStrategy {
      case .useDefaultKeys:
        written = name
      case .convertToSnakeCase:
        if let converted = fields.value.convertedKeys[name] {
          written = converted
        } else {
          written = _convertToSnakeCase(name)
          fields.value.convertedKeys[name] = written
        }
      case .custom(let body):
        written = body(codingPath(pathLength) + [key]).stringValue
      }
    }
    try emitKey(written, level: level, reopens: !excluding, pathLength)
    return true
  }

  /// A model's key for `name`: nil when its maps say nothing of it, `.some(nil)` when it is
  /// left out (and `excluding`).
  func mappedKey(_ name: String, _ mapping: _ModelMapping, _ excluding: Bool) throws -> String?? {
    if excluding && mapping.excluded.contains(name) { return .some(nil) }
    return mapping.keys[name].map { .some($0) }
  }

  /// Writes `name` as the next key of the object at `level` (the innermost open one), after
  /// checking that it has not come before in that object (see `_KeyCheck`). A key that has
  /// stops this encoding (see `encodeRootOrMerge`); on the second encoding, keys go to the
  /// merging tree, `reopens` saying whether a nested container asked for the key.
  @inline(__always)
  func emitKey(_ name: String, level: Int, reopens: Bool, _ pathLength: Int) throws {
    if fields.value.mergesRepeatedKeys {
      return fields.value.writer.tree!.merging!.key(name, reopens: reopens)
    }
    let position = fields.value.keyCheck.insert(name, level: level)
    if position >= 0 && fields.value.keyCheck.quoting != nil {
      return try fields.value.writeQuotedKey(level: level, position: position)
    }
    if position == _KeyCheck.repeated { try repeated(name, pathLength) }
    try fields.value.writer.key(name)
  }

  /// `name` has come before in its object (or, very rarely, another key with the same hash:
  /// the merging encoding compares the keys themselves, and so does binary output's second
  /// encoding).
  @inline(never)
  func repeated(_ name: String, _ pathLength: Int) throws {
    if fields.value.writer.isBinary && fields.value.keyCheck.keepsNames {
      // Its native dates, data and sets have no place in the merging tree.
      throw misuse(
        pathLength,
        "The key \"\(name)\" was encoded twice in one object; the binary output does not merge"
          + " repeated keys.")
    }
    fields.value.repeatedKey = true
    throw _RepeatedKey()
  }

  func misuse(_ pathLength: Int, _ message: String) -> EncodingError {
    EncodingError.invalidValue(
      "", EncodingError.Context(codingPath: codingPath(pathLength), debugDescription: message))
  }

  // MARK: Values with strategies

  /// A double, as `JSONEncoder` writes it: the shortest text that reads back the same,
  /// without a trailing `.0` (`60`, not `60.0`).
  func writeDouble(_ value: Double, _ key: (any CodingKey)?, _ pathLength: Int) throws {
    guard value.isFinite else {
      return try fields.value.writer.string(try nonConforming(value, key, pathLength))
    }
    try fields.value.writer.double(value, fromFloat: false) { value.description }
  }

  func writeFloat(_ value: Float, _ key: (any CodingKey)?, _ pathLength: Int) throws {
    guard value.isFinite else {
      return try fields.value.writer.string(try nonConforming(value, key, pathLength))
    }
    try fields.value.writer.double(Double(value), fromFloat: true) { value.description }
  }

  /// The string for a non-finite value, or the error the strategy asks for.
  func nonConforming(
    _ value: some BinaryFloatingPoint & CustomStringConvertible, _ key: (any CodingKey)?,
    _ pathLength: Int
  ) throws -> String {
    if case .convertToString(let positive, let negative, let nan) =
      options.nonConformingFloatEncodingStrategy
    {
      return value.isNaN ? nan : value < 0 ? negative : positive
    }
    var path = codingPath(pathLength)
    if let key { path.append(key) }
    throw EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: path,
        debugDescription: "Unable to encode \(type(of: value)).\(value) directly in JSON. Use"
          + " nonConformingFloatEncodingStrategy .convertToString to write it as a string."))
  }

  /// Runs `body` with `formatter` as the format of the dates it encodes (see
  /// `_EncoderFields.dateFormatter`).
  func withDateFormatter<R>(_ formatter: DateFormatter, _ body: () throws -> R) rethrows -> R {
    let enclosing = fields.value.dateFormatter
    fields.value.dateFormatter = formatter
    defer { fields.value.dateFormatter = enclosing }
    return try body()
  }

  /// No property's date format applies from here on (until the current value is encoded).
  func clearDateFormatter() {
    if fields.value.dateFormatter != nil { fields.value.dateFormatter = nil }
  }

  func encodeDate(_ date: Date, depth: Int, pathLength: Int) throws {
    if fields.value.writer.isBinary {
      // Native in the binary format, whatever the strategy.
      try claimSlot(depth, pathLength)
      return try fields.value.writer.binary!.date(
        secondsSince2001: date.timeIntervalSinceReferenceDate)
    }
    if let formatter = fields.value.dateFormatter {
      let text = formatter.string(from: date)
      try claimSlot(depth, pathLength)
      return try fields.value.writer.string(text)
    }
    switch options.dateEncodingStrategy {
    case .deferredToDate:
      try date.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
    case .secondsSince1970:
      try claimSlot(depth, pathLength)
      try writeDouble(date.timeIntervalSince1970, nil, pathLength)
    case .millisecondsSince1970:
      try claimSlot(depth, pathLength)
      try writeDouble(1000 * date.timeIntervalSince1970, nil, pathLength)
    case .iso8601:
      let text = _ISO8601.string(from: date)
      try claimSlot(depth, pathLength)
      try fields.value.writer.string(text)
    case .formatted(let formatter):
      let text = formatter.string(from: date)
      try claimSlot(depth, pathLength)
      try fields.value.writer.string(text)
    case .custom(let body):
      // Its object is the closure's, not the enclosing type's: no key order of that type.
      fields.value.pendingKeyOrder = nil
      try body(date, _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      try emptyObjectIfUnwritten(depth)
    }
  }

  func encodeData(_ data: Data, depth: Int, pathLength: Int) throws {
    if fields.value.writer.isBinary {
      try claimSlot(depth, pathLength)
      return try fields.value.writer.binary!.data(data)
    }
    switch options.dataEncodingStrategy {
    case .deferredToData:
      try data.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
    case .base64:
      let text = data.base64EncodedString()
      try claimSlot(depth, pathLength)
      try fields.value.writer.string(text)
    case .custom(let body):
      fields.value.pendingKeyOrder = nil
      try body(data, _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      try emptyObjectIfUnwritten(depth)
    }
  }

  /// A decimal as a number, all its digits kept.
  func encodeDecimal(_ decimal: Decimal, depth: Int, pathLength: Int) throws {
    let description = decimal.description
    var text = description
    let written: Void? = try text.withJSONNumber { number in
      try claimSlot(depth, pathLength)
      try fields.value.writer.number(number)
    }
    if written == nil {
      throw EncodingError.invalidValue(
        decimal,
        EncodingError.Context(
          codingPath: codingPath(pathLength),
          debugDescription: "Unable to encode Decimal \(description) as a JSON number."))
    }
  }
}

/// An `Array`, written by the encoder itself rather than by the standard library's
/// `encode(to:)`, which is not specialized for the element type: scalar elements go
/// straight to the writer, with no encoder or container per element.
protocol _EncodableArray {
  /// Writes `value`, which is a `Self`: no dynamic cast of it.
  static func _encodeElements<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Array: _EncodableArray where Element: Encodable {
  static func _encodeElements<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let array = _same(value, as: Self.self)
    let (level, serial) = state.openContainer(depth: depth, isObject: false, pathLength: pathLength)
    // Counted indices: `indices` and iterators cost generic metadata lookups here.
    var index = 0
    let count = array.count
    while index < count {
      try state.prepare(level, serial, pathLength)
      try state.encodeChild(
        array[index], under: _IndexKey(index), level: level, pathLength: pathLength)
      index &+= 1
    }
    if let deferredError = state.fields.value.deferredError { throw deferredError }
  }
}

/// A `[String: Value]` whose keys are written as they are (see `_TypeInfo`).
protocol _StringKeyedEncodable {
  /// Writes `value`, which is a `Self`: no dynamic cast of it.
  static func _encodeMembers<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Dictionary: _StringKeyedEncodable where Key == String, Value: Encodable {
  static func _encodeMembers<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let dictionary = _same(value, as: Self.self)
    let (level, serial) = state.openContainer(depth: depth, isObject: true, pathLength: pathLength)
    for (key, value) in dictionary {
      try state.prepare(level, serial, pathLength)
      try state.fields.value.writer.key(key)
      try state.encodeChild(value, under: _JSONKey(key), level: level, pathLength: pathLength)
    }
    if let deferredError = state.fields.value.deferredError { throw deferredError }
  }
}

/// A `Set`, written natively in the binary format (see `_EncodableArray`).
protocol _EncodableSet {
  static func _encodeSetElements<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Set: _EncodableSet where Element: Encodable {
  static func _encodeSetElements<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let set = _same(value, as: Self.self)
    try state.encodeElements(set, depth, pathLength, as: .set)
  }
}

/// A collection the binary format writes natively; opened as an array everywhere else.
enum _NativeCollection {
  case set, orderedSet, map
}

extension _EncodeState {
  /// Writes `elements` as the binary format's collection `native`, one slot each.
  func encodeElements<S: Sequence>(
    _ elements: S, _ depth: Int, _ pathLength: Int, as native: _NativeCollection
  ) throws where S.Element: Encodable {
    let (level, serial) = openContainer(
      depth: depth, isObject: false, pathLength: pathLength, native: native)
    for (index, element) in elements.enumerated() {
      try prepare(level, serial, pathLength)
      try encodeChild(element, under: _IndexKey(index), level: level, pathLength: pathLength)
    }
    if let deferredError = fields.value.deferredError { throw deferredError }
  }
}

extension JSONBinaryOrderedSet {
  /// Writes `value`, which is a `Self`, as an ordered set.
  static func _encodeOrderedElements<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    try state.encodeElements(_same(value, as: Self.self), depth, pathLength, as: .orderedSet)
  }
}

/// A dictionary whose keys are not strings, written natively in the binary format: a map of
/// keys and values alternately, the keys in their own encoding (an `Int` key stays an
/// integer), not as strings.
protocol _EncodableMap {
  static func _encodeEntries<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Dictionary: _EncodableMap where Key: Encodable, Value: Encodable {
  static func _encodeEntries<T>(
    _ value: T, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let dictionary = _same(value, as: Self.self)
    let (level, serial) = state.openContainer(
      depth: depth, isObject: false, pathLength: pathLength, native: .map)
    // The coding path of a key or value is its index, as in Codable's own array of keys and
    // values.
    var index = 0
    for (key, value) in dictionary {
      try state.prepare(level, serial, pathLength)
      try state.encodeChild(key, under: _IndexKey(index), level: level, pathLength: pathLength)
      try state.prepare(level, serial, pathLength)
      try state.encodeChild(
        value, under: _IndexKey(index &+ 1), level: level, pathLength: pathLength)
      index &+= 2
    }
    if let deferredError = state.fields.value.deferredError { throw deferredError }
  }
}

extension _EncoderOutput {
  /// A 128-bit integer: as `Int64` or `UInt64` when it fits, else as its decimal digits.
  mutating func number<T: BinaryInteger>(wide value: T) throws {
    if let small = Int64(exactly: value) { return try number(small) }
    if let small = UInt64(exactly: value) { return try number(small) }
    var text = String(value)
    // An integer's decimal digits are always number text.
    _ = try text.withJSONNumber { try number($0) }
  }
}
