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
  /// not inside other types, whose keyed containers clear it. Not retained: the type's
  /// mapping holds it for the call.
  var dateFormatter: Unmanaged<DateFormatter>? = nil
  /// The keys written in the open objects (see `_EncodeState.emitKey`).
  var keyCheck = _KeyCheck()
  /// The key order of a value about to open its object at `pendingDepth`.
  var pendingKeyOrder: UnsafeMutablePointer<_KeyOrder>? = nil
  /// A key came twice in one object: the value is to be encoded again, merging.
  var repeatedKey = false
  /// This is that second encoding: keys go to the tree's `_MergingTree`.
  var mergesRepeatedKeys = false
}

final class _EncodeState {
  let options: JSONStreamEncoder.Settings
  /// What the state was made with, for a second encoding (see `encodeRootOrMerge`).
  let writeOptions: JSONWriteOptions
  let indentBase: Int
  /// The fields' memory, the object's own: allocated in `init`, freed in `deinit`. This
  /// file's hot paths use it directly; the rest use `fields`.
  private let storage: UnsafeMutablePointer<_EncoderFields>
  /// The fields, read and changed in place through addressors, which are not checked for
  /// exclusive access at run time as the class's stored properties would be.
  var fields: _EncoderFields {
    unsafeAddress { UnsafePointer(storage) }
    unsafeMutableAddress { storage }
  }

  init(
    options: JSONStreamEncoder.Settings, writeOptions: JSONWriteOptions, indentBase: Int = 0,
    format: _EncoderOutput.Format = .json
  ) {
    self.options = options
    self.writeOptions = writeOptions
    self.indentBase = indentBase
    var writer = JSONWriter(options: writeOptions)
    if indentBase > 0 { writer.setIndentBase(indentBase) }
    storage = .allocate(capacity: 1)
    storage.initialize(
      to: _EncoderFields(
        writer: _EncoderOutput(
          json: writer, binary: format == .binary ? JSONBinaryWriter() : nil,
          tree: format == .value || format == .merging
            ? _TreeOutput(options: writeOptions, mergingRepeatedKeys: format == .merging) : nil),
        mergesRepeatedKeys: format == .merging))
    if format == .json {
      storage.pointee.keyCheck.quoting = _KeyQuoting(
        escapeUnicode: writeOptions.escapeUnicode, escapeSlash: writeOptions.escapeSlash)
    }
  }

  deinit {
    storage.pointee.keyCheck.deallocate()
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  func codingPath(_ length: Int) -> [any CodingKey] { Array(storage.pointee.path.prefix(length)) }

  /// The path of a value under `key` (or index) of a container with a path of `length` keys.
  @inline(__always)
  func enter(_ key: any CodingKey, at length: Int) {
    if storage.pointee.path.count > length { storage.pointee.path.removeSubrange(length...) }
    storage.pointee.path.append(key)
  }

  // MARK: Slots

  /// Encodes `value` as the whole output; returns its text.
  func encodeTopLevel<T: Encodable>(_ value: T) throws -> [UInt8] {
    if storage.pointee.writer.isBinary { return try encodeBinaryTopLevel(value) }
    if let merged = try encodeRootOrMerge(value) {
      let output = _EncodeState(
        options: options, writeOptions: writeOptions, indentBase: indentBase)
      try output.storage.pointee.writer.write(merged)
      try output.storage.pointee.writer.finish()
      return output.storage.pointee.writer.bytes
    }
    try storage.pointee.writer.finish()
    return storage.pointee.writer.bytes
  }

  /// Encodes `value` as the whole binary output; returns its bytes. A key repeated in an
  /// object is an error there; the first encoding checks keys by hash, and when it meets one
  /// that came before, a second encoding that compares the keys themselves says whether the
  /// key did, or only its hash.
  private func encodeBinaryTopLevel<T: Encodable>(_ value: T) throws -> [UInt8] {
    guard try encodeRootMeetingRepeat(value) else {
      try storage.pointee.writer.finish()
      return storage.pointee.writer.bytes
    }
    let exact = _EncodeState(options: options, writeOptions: writeOptions, format: .binary)
    exact.storage.pointee.keyCheck.comparesNames()
    try exact.encodeRoot(value)
    try exact.storage.pointee.writer.finish()
    return exact.storage.pointee.writer.bytes
  }

  /// Encodes `value` as the whole output, a tree; returns it.
  func encodeTopLevelToValue<T: Encodable>(_ value: T) throws -> JSONValue {
    if let merged = try encodeRootOrMerge(value) {
      // Through the tree output, which sorts keys and checks numbers as it does for any value.
      var tree = _TreeOutput(options: writeOptions)
      try tree.write(merged)
      return tree.finish()
    }
    return storage.pointee.writer.finishValue()
  }

  /// Encodes `value` as the whole output; nil when done, or, when a key came twice in one
  /// object, `value` encoded again as a tree with Foundation's rules for that (see
  /// `_MergingTree`), to be written out instead.
  private func encodeRootOrMerge<T: Encodable>(_ value: T) throws -> JSONValue? {
    guard try encodeRootMeetingRepeat(value) else { return nil }
    let merging = _EncodeState(options: options, writeOptions: writeOptions, format: .merging)
    try merging.encodeRoot(value)
    return merging.storage.pointee.writer.tree!.finish()
  }

  /// Encodes `value` as the whole output; true when a key came twice in one object, which
  /// stops the encoding (`_RepeatedKey`), and the output is then to be made again. True even
  /// if the value's own code caught the signal and went on.
  private func encodeRootMeetingRepeat<T: Encodable>(_ value: T) throws -> Bool {
    do {
      try encodeRoot(value)
    } catch {
      guard storage.pointee.repeatedKey else { throw error }
    }
    return storage.pointee.repeatedKey
  }

  func encodeRoot<T: Encodable>(_ value: T) throws {
    storage.pointee.awaiting = true
    try encodeValue(value, depth: 0, pathLength: 0)
    if let deferredError = storage.pointee.deferredError { throw deferredError }
  }

  /// Encodes `value` into the slot at `depth` (where `open.count == depth`, a value due).
  func encodeValue<T: Encodable>(_ value: T, depth: Int, pathLength: Int) throws {
    storage.pointee.awaiting = false
    if try scalar(value, nil, pathLength) { return }
    storage.pointee.awaiting = true
    try encodeComposite(value, depth: depth, pathLength: pathLength)
  }

  /// Writes `value` if it is one of the scalar types, straight to the writer (the caller has
  /// placed it: after a key, as an element, or in an empty slot); false otherwise.
  @inline(__always)
  func scalar<T: Encodable>(
    _ value: T, _ key: @autoclosure () -> (any CodingKey)?, _ pathLength: Int
  ) throws -> Bool {
    if T.self == String.self {
      try storage.pointee.writer.string(_same(value, as: String.self))
    } else if T.self == Int.self {
      try storage.pointee.writer.number(_same(value, as: Int.self))
    } else if T.self == Double.self {
      try writeDouble(_same(value, as: Double.self), key(), pathLength)
    } else if T.self == Bool.self {
      try storage.pointee.writer.bool(_same(value, as: Bool.self))
    } else if T.self == Float.self {
      try writeFloat(_same(value, as: Float.self), key(), pathLength)
    } else if T.self == Int64.self {
      try storage.pointee.writer.number(_same(value, as: Int64.self))
    } else if T.self == UInt64.self {
      try storage.pointee.writer.number(_same(value, as: UInt64.self))
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
    storage.pointee.awaiting = true
    enter(key, at: pathLength)
    try encodeComposite(value, depth: level &+ 1, pathLength: pathLength &+ 1)
  }

  /// Encodes a value that is not a scalar into the slot at `depth`, then closes what it
  /// opened.
  func encodeComposite<T: Encodable>(_ value: T, depth: Int, pathLength: Int) throws {
    // A keyed container of this value clears the property's date format: it is this value's
    // again afterwards.
    let dateFormatter = storage.pointee.dateFormatter
    defer { storage.pointee.dateFormatter = dateFormatter }
    if T.self == Date.self {
      try encodeDate(value as! Date, depth: depth, pathLength: pathLength)
    } else if T.self == Data.self {
      try encodeData(value as! Data, depth: depth, pathLength: pathLength)
    } else if T.self == URL.self {
      try claimSlot(depth, pathLength)
      try storage.pointee.writer.string((value as! URL).absoluteString)
    } else if T.self == Decimal.self {
      try encodeDecimal(value as! Decimal, depth: depth, pathLength: pathLength)
    } else if T.self == JSONValue.self || T.self == JSONObject.self || T.self == JSONArray.self
      || T.self == JSONValue.Number.self
    {
      try claimSlot(depth, pathLength)
      try storage.pointee.writer.write(Self.documentValue(value))
    } else {
      let (conformances, mapping, keyOrder) = storage.pointee.types.withInfo(for: T.self) {
        ($0.conformances, $0.mapping, $0.keyOrder.order)
      }
      storage.pointee.pendingKeyOrder = keyOrder
      storage.pointee.pendingDepth = depth
      if let mapping {
        var model = value as! any JSONModel
        try model.willEncode()
        storage.pointee.pendingMapping = mapping
        try (model as! T).encode(
          to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
        if let problem = mapping.problem { throw misuse(pathLength, problem) }
      } else if let set = conformances.encodableSet, storage.pointee.writer.isBinary {
        // A set is native in the binary format.
        try withUnsafePointer(to: value) {
          try set._encodeSetElements(of: UnsafeRawPointer($0), self, depth, pathLength)
        }
      } else if let array = conformances.encodableArray {
        // Through the cached metatype and a pointer: `value as! any _EncodableArray` would
        // look the conformance up for every array (11% of encoding canada.json).
        try withUnsafePointer(to: value) {
          try array._encodeElements(of: UnsafeRawPointer($0), self, depth, pathLength)
        }
      } else if let dictionary = conformances.stringKeyedEncodable {
        try withUnsafePointer(to: value) {
          try dictionary._encodeMembers(of: UnsafeRawPointer($0), self, depth, pathLength)
        }
      } else {
        try value.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      }
    }
    try finishSlot(depth: depth, pathLength: pathLength, type: T.self)
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
    storage.pointee.pendingMapping = nil
    storage.pointee.pendingKeyOrder = nil
    if let deferredError = storage.pointee.deferredError { throw deferredError }
    try close(downTo: depth)
    guard storage.pointee.awaiting else { return }
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
    while storage.pointee.open.count > depth {
      if storage.pointee.awaiting { try writeEmptyObject() }
      let closed = storage.pointee.open.removeLast()
      if closed.isObject {
        storage.pointee.keyCheck.close(level: storage.pointee.open.count)
        try storage.pointee.writer.endObject()
      } else {
        try storage.pointee.writer.endArray()
      }
    }
  }

  /// After a custom date or data strategy: a closure that encoded nothing gives `{}`, at the
  /// top level too, as Foundation writes it (an `encode(to:)` that writes nothing at the top
  /// level is an error).
  func emptyObjectIfUnwritten(_ depth: Int) throws {
    if storage.pointee.awaiting && storage.pointee.open.count == depth
      && storage.pointee.deferredError == nil
    {
      try writeEmptyObject()
    }
  }

  func writeEmptyObject() throws {
    storage.pointee.awaiting = false
    try storage.pointee.writer.startObject()
    try storage.pointee.writer.endObject()
  }

  /// Takes the slot at `depth` for a scalar: it must still be empty.
  func claimSlot(_ depth: Int, _ pathLength: Int) throws {
    if let deferredError = storage.pointee.deferredError { throw deferredError }
    guard storage.pointee.awaiting, storage.pointee.open.count == depth else {
      throw misuse(
        pathLength, "A single value container encoded a value where one was already encoded.")
    }
    storage.pointee.awaiting = false
  }

  // MARK: Containers

  /// Gets a container ready to write: closes those opened after it, fills an unused slot it
  /// left (a `superEncoder` that encoded nothing).
  @inline(__always)
  func prepare(_ level: Int, _ serial: Int, _ pathLength: Int) throws {
    if storage.pointee.deferredError != nil || storage.pointee.open.count != level &+ 1
      || storage.pointee.awaiting
    {
      try prepareSlowly(level, serial, pathLength)
    }
    guard storage.pointee.open[level].serial == serial else {
      throw misuse(pathLength, Self.movedOn)
    }
  }

  func prepareSlowly(_ level: Int, _ serial: Int, _ pathLength: Int) throws {
    if let deferredError = storage.pointee.deferredError { throw deferredError }
    if storage.pointee.open.count > level &+ 1 { try close(downTo: level &+ 1) }
    guard storage.pointee.open.count == level &+ 1 else { throw misuse(pathLength, Self.movedOn) }
    if storage.pointee.awaiting { try writeEmptyObject() }
  }

  static let movedOn =
    "A container was used after the encoding had moved on from it; JSONStreamEncoder writes"
    + " values in order."

  /// Opens an object (or array) for the value in the slot at `depth`; a second request from
  /// the same value (a subclass and its superclass both asking) gets the same container.
  /// Returns its level and serial (serial -1 when it could not open: its writes throw).
  func openContainer(depth: Int, isObject: Bool, pathLength: Int, asSet: Bool = false)
    -> (level: Int, serial: Int)
  {
    if storage.pointee.awaiting && storage.pointee.open.count == depth
      && storage.pointee.deferredError == nil
    {
      storage.pointee.awaiting = false
      do {
        if isObject {
          try storage.pointee.writer.startObject()
        } else if asSet {
          try storage.pointee.writer.binary!.startSet()
        } else {
          try storage.pointee.writer.startArray()
        }
      } catch {
        storage.pointee.deferredError = error
        return (depth, -1)
      }
      let mapping =
        isObject && storage.pointee.pendingDepth == depth ? storage.pointee.pendingMapping : nil
      let keyOrder = storage.pointee.pendingDepth == depth ? storage.pointee.pendingKeyOrder : nil
      storage.pointee.pendingMapping = nil
      storage.pointee.pendingKeyOrder = nil
      storage.pointee.nextSerial &+= 1
      if isObject { storage.pointee.keyCheck.open(level: depth, order: keyOrder) }
      storage.pointee.open.append(
        _OpenContainer(serial: storage.pointee.nextSerial, isObject: isObject, mapping: mapping))
      return (depth, storage.pointee.nextSerial)
    }
    if storage.pointee.open.count > depth && storage.pointee.open[depth].isObject == isObject
      && storage.pointee.deferredError == nil
    {
      do { try close(downTo: depth &+ 1) } catch { storage.pointee.deferredError = error }
      return (depth, storage.pointee.open[depth].serial)
    }
    if storage.pointee.deferredError == nil {
      storage.pointee.deferredError = misuse(
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
    if let mapping = storage.pointee.open[level].mapping,
      let mapped = try mappedKey(name, mapping, excluding)
    {
      guard let mapped else { return false }
      written = mapped
    } else {
      switch options.keyEncodingStrategy {
      case .useDefaultKeys:
        written = name
      case .convertToSnakeCase:
        if let converted = storage.pointee.convertedKeys[name] {
          written = converted
        } else {
          written = _convertToSnakeCase(name)
          storage.pointee.convertedKeys[name] = written
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
    if storage.pointee.mergesRepeatedKeys {
      return storage.pointee.writer.tree!.merging!.key(name, reopens: reopens)
    }
    let position = storage.pointee.keyCheck.insert(name, level: level)
    if position >= 0 && storage.pointee.keyCheck.quoting != nil {
      let key = storage.pointee.keyCheck.quotedKey(level: level, position: position)
      return try storage.pointee.writer.json.writeQuotedKey(key.quoted, key: key.bytes)
    }
    if position == _KeyCheck.repeated { try repeated(name, pathLength) }
    try storage.pointee.writer.key(name)
  }

  /// `name` has come before in its object (or, very rarely, another key with the same hash:
  /// the merging encoding compares the keys themselves, and so does binary output's second
  /// encoding).
  @inline(never)
  func repeated(_ name: String, _ pathLength: Int) throws {
    if storage.pointee.writer.isBinary && storage.pointee.keyCheck.keepsNames {
      // Its native dates, data and sets have no place in the merging tree.
      throw misuse(
        pathLength,
        "The key \"\(name)\" was encoded twice in one object; the binary output does not merge"
          + " repeated keys.")
    }
    storage.pointee.repeatedKey = true
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
      return try storage.pointee.writer.string(try nonConforming(value, key, pathLength))
    }
    try storage.pointee.writer.double(Double(value)) { value.description }
  }

  func writeFloat(_ value: Float, _ key: (any CodingKey)?, _ pathLength: Int) throws {
    guard value.isFinite else {
      return try storage.pointee.writer.string(try nonConforming(value, key, pathLength))
    }
    try storage.pointee.writer.double(Double(value)) { value.description }
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
    let enclosing = storage.pointee.dateFormatter
    storage.pointee.dateFormatter = .passUnretained(formatter)
    defer { storage.pointee.dateFormatter = enclosing }
    return try withExtendedLifetime(formatter) { try body() }
  }

  /// No property's date format applies from here on (until the current value is encoded).
  func clearDateFormatter() {
    if storage.pointee.dateFormatter != nil { storage.pointee.dateFormatter = nil }
  }

  func encodeDate(_ date: Date, depth: Int, pathLength: Int) throws {
    if storage.pointee.writer.isBinary {
      // Native in the binary format, whatever the strategy.
      try claimSlot(depth, pathLength)
      return try storage.pointee.writer.binary!.date(
        secondsSince2001: date.timeIntervalSinceReferenceDate)
    }
    if let formatter = storage.pointee.dateFormatter {
      let text = formatter._withUnsafeGuaranteedRef { $0.string(from: date) }
      try claimSlot(depth, pathLength)
      return try storage.pointee.writer.string(text)
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
      try storage.pointee.writer.string(text)
    case .formatted(let formatter):
      let text = formatter.string(from: date)
      try claimSlot(depth, pathLength)
      try storage.pointee.writer.string(text)
    case .custom(let body):
      // Its object is the closure's, not the enclosing type's: no key order of that type.
      storage.pointee.pendingKeyOrder = nil
      try body(date, _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      try emptyObjectIfUnwritten(depth)
    }
  }

  func encodeData(_ data: Data, depth: Int, pathLength: Int) throws {
    if storage.pointee.writer.isBinary {
      try claimSlot(depth, pathLength)
      return try data.withUnsafeBytes { try storage.pointee.writer.binary!.data($0) }
    }
    switch options.dataEncodingStrategy {
    case .deferredToData:
      try data.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
    case .base64:
      let text = data.base64EncodedString()
      try claimSlot(depth, pathLength)
      try storage.pointee.writer.string(text)
    case .custom(let body):
      storage.pointee.pendingKeyOrder = nil
      try body(data, _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      try emptyObjectIfUnwritten(depth)
    }
  }

  /// A decimal as a number, all its digits kept.
  func encodeDecimal(_ decimal: Decimal, depth: Int, pathLength: Int) throws {
    let description = decimal.description
    var text = description
    try text.withUTF8 { bytes in
      guard let number = JSONNumber(text: bytes) else {
        throw EncodingError.invalidValue(
          decimal,
          EncodingError.Context(
            codingPath: codingPath(pathLength),
            debugDescription: "Unable to encode Decimal \(description) as a JSON number."))
      }
      try claimSlot(depth, pathLength)
      try storage.pointee.writer.number(number)
    }
  }
}

/// An `Array`, written by the encoder itself rather than by the standard library's
/// `encode(to:)`, which is not specialized for the element type: scalar elements go
/// straight to the writer, with no encoder or container per element.
protocol _EncodableArray {
  /// Writes the array at `value` (a `Self`).
  static func _encodeElements(
    of value: UnsafeRawPointer, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Array: _EncodableArray where Element: Encodable {
  static func _encodeElements(
    of value: UnsafeRawPointer, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let array = value.assumingMemoryBound(to: Self.self)
    let (level, serial) = state.openContainer(depth: depth, isObject: false, pathLength: pathLength)
    // Counted indices: `indices` and iterators cost generic metadata lookups here.
    var index = 0
    let count = array.pointee.count
    while index < count {
      try state.prepare(level, serial, pathLength)
      try state.encodeChild(
        array.pointee[index], under: _IndexKey(index), level: level, pathLength: pathLength)
      index &+= 1
    }
    if let deferredError = state.fields.deferredError { throw deferredError }
  }
}

/// A `[String: Value]` whose keys are written as they are (see `_TypeInfo`).
protocol _StringKeyedEncodable {
  /// Writes the dictionary at `value` (a `Self`).
  static func _encodeMembers(
    of value: UnsafeRawPointer, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Dictionary: _StringKeyedEncodable where Key == String, Value: Encodable {
  static func _encodeMembers(
    of value: UnsafeRawPointer, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let dictionary = value.assumingMemoryBound(to: Self.self).pointee
    let (level, serial) = state.openContainer(depth: depth, isObject: true, pathLength: pathLength)
    for (key, value) in dictionary {
      try state.prepare(level, serial, pathLength)
      try state.fields.writer.key(key)
      try state.encodeChild(value, under: _JSONKey(key), level: level, pathLength: pathLength)
    }
    if let deferredError = state.fields.deferredError { throw deferredError }
  }
}

/// A `Set`, written natively in the binary format (see `_EncodableArray`).
protocol _EncodableSet {
  static func _encodeSetElements(
    of value: UnsafeRawPointer, _ state: _EncodeState, _ depth: Int, _ pathLength: Int) throws
}

extension Set: _EncodableSet where Element: Encodable {
  static func _encodeSetElements(
    of value: UnsafeRawPointer, _ state: _EncodeState, _ depth: Int, _ pathLength: Int
  ) throws {
    let set = value.assumingMemoryBound(to: Self.self).pointee
    let (level, serial) = state.openContainer(
      depth: depth, isObject: false, pathLength: pathLength, asSet: true)
    for (index, element) in set.enumerated() {
      try state.prepare(level, serial, pathLength)
      try state.encodeChild(element, under: _IndexKey(index), level: level, pathLength: pathLength)
    }
    if let deferredError = state.fields.deferredError { throw deferredError }
  }
}

extension _EncoderOutput {
  /// A 128-bit integer: as `Int64` or `UInt64` when it fits, else as its decimal digits.
  mutating func number<T: BinaryInteger>(wide value: T) throws {
    if let small = Int64(exactly: value) { return try number(small) }
    if let small = UInt64(exactly: value) { return try number(small) }
    var text = String(value)
    try text.withUTF8 { bytes in
      // An integer's decimal digits are always number text.
      try number(JSONNumber(text: bytes)!)
    }
  }
}

/// A type's `_KeyOrder` in memory of its own: the encoder's check reads it for every key,
/// where a class's stored `var` would be checked for exclusive access at run time.
final class _KeyOrderBox {
  let order: UnsafeMutablePointer<_KeyOrder>

  init() {
    order = .allocate(capacity: 1)
    order.initialize(to: _KeyOrder())
  }

  deinit {
    order.pointee.deallocate()
    order.deinitialize(count: 1)
    order.deallocate()
  }
}

/// The keys a type's objects have written, in the order they first came: distinct, at most
/// 64. Learned from the first of the type's values in an encode call (whose keys are checked
/// by their hashes); the objects of the others are then checked against it, a bit per key,
/// which for the same keys in the same order costs a comparison of two words per key.
struct _KeyOrder {
  enum Phase {
    case unknown, learning, known
  }
  static let capacity = 64
  /// `count` keys, in memory of its own (freed by `_KeyOrderBox`).
  let keys = UnsafeMutablePointer<String>.allocate(capacity: capacity)
  /// For JSON text, each key quoted and escaped, and its bytes (empty otherwise): the writer
  /// takes them as they are (see `JSONWriter.writeQuotedKey`).
  let quoted = UnsafeMutablePointer<[UInt8]>.allocate(capacity: capacity)
  let bytes = UnsafeMutablePointer<[UInt8]>.allocate(capacity: capacity)
  /// Whether each key is ASCII (see `isKey`).
  let ascii = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
  var count = 0
  var phase = Phase.unknown
  /// Open objects checked against it (more than one when a type contains itself).
  var users = 0

  func deallocate() {
    keys.deinitialize(count: count)
    keys.deallocate()
    quoted.deinitialize(count: count)
    quoted.deallocate()
    bytes.deinitialize(count: count)
    bytes.deallocate()
    ascii.deallocate()
  }

  /// Puts `key` at `position`, moving those after it along; quoted for JSON text when
  /// `quoting` says how.
  mutating func insert(_ key: String, at position: Int, quoting: _KeyQuoting?) {
    let moved = count - position
    (keys + position + 1).moveInitialize(from: keys + position, count: moved)
    (quoted + position + 1).moveInitialize(from: quoted + position, count: moved)
    (bytes + position + 1).moveInitialize(from: bytes + position, count: moved)
    (ascii + position + 1).moveInitialize(from: ascii + position, count: moved)
    (ascii + position).initialize(to: key.utf8.allSatisfy { $0 < 0x80 })
    (keys + position).initialize(to: key)
    (quoted + position).initialize(to: quoting?.quoted(key) ?? [])
    (bytes + position).initialize(to: quoting == nil ? [] : Array(key.utf8))
    count += 1
  }

  /// Where `key` is, searched from `start` on, then from the beginning. Lengths are compared
  /// first: cheap, where `==` of two unequal strings calls the general comparison.
  func position(of key: String, from start: Int) -> Int? {
    var index = start
    while index < count {
      if isKey(index, key) { return index }
      index += 1
    }
    index = 0
    while index < start && index < count {
      if isKey(index, key) { return index }
      index += 1
    }
    return nil
  }

  /// Whether the key at `index` is `key`, byte for byte: `==` compares canonical equivalence,
  /// where "é" and "e\u{301}" are one String and two keys. Lengths first (cheap, and most
  /// unequal keys differ there). Then, for an ASCII key, `==` (quick when both are the same
  /// string) says it: a string canonically equivalent to ASCII with as many bytes is that
  /// ASCII (the characters that decompose to ASCII, such as the Kelvin sign, are longer).
  /// Any other key, byte by byte.
  @inline(__always)
  func isKey(_ index: Int, _ key: String) -> Bool {
    guard keys[index].utf8.count == key.utf8.count else { return false }
    if ascii[index] { return keys[index] == key }
    return keys[index].utf8.elementsEqual(key.utf8)
  }

}

/// The check that no key comes twice in one object, for each object open in the encoder (see
/// `_EncodeState.emitKey`).
/// How the JSON writer quotes keys: its escaping options.
struct _KeyQuoting {
  var escapeUnicode: Bool
  var escapeSlash: Bool

  /// `key` in quotes, escaped.
  func quoted(_ key: String) -> [UInt8] {
    var key = key
    return key.withJSONString { string in
      var buffer = _Buffer<UInt8>(capacity: string.utf8.count + 2)
      defer { buffer.deallocate() }
      // A String's bytes are well-formed: this cannot fail.
      _ = buffer.appendQuoted(string, escapeUnicode: escapeUnicode, escapeSlash: escapeSlash)
      return buffer.array()
    }
  }
}

private struct _KeyLevel {
  /// The key order it is checked against; nil when checked by hashes.
  var order: UnsafeMutablePointer<_KeyOrder>?
  /// It is the first of its type: checked by hashes, its keys become the order.
  var learning = false
  /// Where in the order its next key is expected.
  var position = 0
  /// The keys of the order it has written, a bit each.
  var written: UInt64 = 0
  /// Where its keys' hashes begin.
  var hashStart = 0
  /// A filter of its keys' hashes, 256 bits: "not there" for most keys without a search.
  var filter: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
}

/// The check that no key comes twice in one object, for the objects open in the encoder: an
/// object of a type whose key order is known against it, any other by its keys' hashes (those
/// of the open objects, innermost last). In memory of its own, freed by `_EncodeState`: the
/// path every key takes has no copy-on-write or exclusivity check.
struct _KeyCheck {
  private var hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
  private var capacity = 64
  private var count = 0
  private var levels = UnsafeMutablePointer<_KeyLevel>.allocate(capacity: 16)
  private var levelCapacity = 16
  /// Set for JSON text: keys in a key order are kept quoted too.
  var quoting: _KeyQuoting?
  /// The keys beside their hashes, when a hash that comes again is to be confirmed by its key
  /// (see `comparesNames()`); nil otherwise.
  private var names: UnsafeMutablePointer<String>?

  /// What `insert` returns for a key that came before in its object.
  static let repeated = -1
  /// What `insert` returns for a new key not in a key order.
  static let unordered = -2

  func deallocate() {
    if let names {
      names.deinitialize(count: count)
      names.deallocate()
    }
    hashes.deallocate()
    levels.deallocate()
  }

  /// Whether a hash that comes again is confirmed by its key (see `comparesNames()`).
  var keepsNames: Bool { names != nil }

  /// From now on a key whose hash is already in its object is ``repeated`` only when it is
  /// the same key, byte for byte: two keys with one hash go through. The keys checked by hash
  /// are kept for that, which costs a copy of each: binary output, which refuses a repeat,
  /// turns this on for a second encoding when the first met one (see
  /// `_EncodeState.encodeBinaryTopLevel`). Call it before the first key.
  mutating func comparesNames() {
    precondition(count == 0 && names == nil)
    names = .allocate(capacity: capacity)
  }

  /// An object opens at `level`, with no keys yet; `order` is its type's key order.
  mutating func open(level: Int, order: UnsafeMutablePointer<_KeyOrder>?) {
    if level >= levelCapacity {
      let grown = UnsafeMutablePointer<_KeyLevel>.allocate(capacity: 2 * level)
      grown.moveInitialize(from: levels, count: levelCapacity)
      levels.deallocate()
      levels = grown
      levelCapacity = 2 * level
    }
    var state = _KeyLevel(hashStart: count)
    if let order {
      switch order.pointee.phase {
      case .known:
        state.order = order
        order.pointee.users += 1
      case .unknown:
        order.pointee.phase = .learning
        state.order = order
        state.learning = true
      case .learning:
        // An enclosing value of the same type is learning it.
        break
      }
    }
    (levels + level).initialize(to: state)
  }

  /// The object at `level` has closed.
  mutating func close(level: Int) {
    let state = levels + level
    names?.advanced(by: state.pointee.hashStart).deinitialize(
      count: count - state.pointee.hashStart)
    count = state.pointee.hashStart
    if let order = state.pointee.order {
      if state.pointee.learning { order.pointee.phase = .known } else { order.pointee.users -= 1 }
    }
  }

  /// Adds `name` to the keys of the object at `level`: its position in the object's key
  /// order, ``unordered`` when it has none, or ``repeated`` (and nothing added) when the key
  /// is already there (or, very rarely, another key with the same hash).
  @inline(__always)
  mutating func insert(_ name: String, level: Int) -> Int {
    let state = levels + level
    if let order = state.pointee.order, !state.pointee.learning {
      let position = state.pointee.position
      let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: position)
      if position < order.pointee.count && order.pointee.isKey(position, name)
        && state.pointee.written & bit == 0
      {
        state.pointee.written |= bit
        state.pointee.position = position &+ 1
        return position
      }
      return insertOutOfOrder(name, state, order)
    }
    guard insert(name, hash: _keyHash(name), state) else { return Self.repeated }
    if let order = state.pointee.order, order.pointee.count < _KeyOrder.capacity {
      // Learning: its keys, checked distinct, are the order.
      let position = order.pointee.count
      order.pointee.insert(name, at: position, quoting: quoting)
      return position
    }
    return Self.unordered
  }

  /// The key at `position` in the key order of the object at `level`, quoted, and its bytes.
  @inline(__always)
  func quotedKey(level: Int, position: Int) -> (quoted: [UInt8], bytes: [UInt8]) {
    let order = levels[level].order.unsafelyUnwrapped
    return (order.pointee.quoted[position], order.pointee.bytes[position])
  }

  /// Adds `name`, whose hash is `hash`, to the keys of the object at `state` checked by hash;
  /// false (nothing added) when the hash is there already, and, if `names` are kept, its key
  /// too.
  private mutating func insert(
    _ name: String, hash: UInt64, _ state: UnsafeMutablePointer<_KeyLevel>
  ) -> Bool {
    let bit: UInt64 = 1 &<< (hash & 63)
    let word: UInt64
    switch (hash &>> 6) & 3 {
    case 0: word = state.pointee.filter.0
    case 1: word = state.pointee.filter.1
    case 2: word = state.pointee.filter.2
    default: word = state.pointee.filter.3
    }
    if word & bit != 0 && contains(name, hash, from: state.pointee.hashStart) { return false }
    switch (hash &>> 6) & 3 {
    case 0: state.pointee.filter.0 |= bit
    case 1: state.pointee.filter.1 |= bit
    case 2: state.pointee.filter.2 |= bit
    default: state.pointee.filter.3 |= bit
    }
    if count == capacity { grow() }
    hashes[count] = hash
    names?.advanced(by: count).initialize(to: name)
    count &+= 1
    return true
  }

  private func contains(_ name: String, _ hash: UInt64, from start: Int) -> Bool {
    var index = start
    while index < count {
      if hashes[index] == hash {
        guard let names else { return true }
        if names[index].utf8.elementsEqual(name.utf8) { return true }
      }
      index &+= 1
    }
    return false
  }

  /// A key not where the order expects it: elsewhere in the order, new to it (added while
  /// there is room), or, the order full, the object goes on by hashes.
  @inline(never)
  private mutating func insertOutOfOrder(
    _ name: String, _ state: UnsafeMutablePointer<_KeyLevel>,
    _ order: UnsafeMutablePointer<_KeyOrder>
  ) -> Int {
    let expected = min(state.pointee.position, order.pointee.count)
    if let position = order.pointee.position(of: name, from: expected) {
      let bit: UInt64 = 1 &<< UInt64(position)
      if state.pointee.written & bit != 0 { return Self.repeated }
      state.pointee.written |= bit
      state.pointee.position = position + 1
      return position
    }
    if order.pointee.count < _KeyOrder.capacity {
      // New to the order: where this object expected its next key, so that the order follows
      // the type's, unless another open object (the type contains itself) counts on the
      // positions; then at the end.
      let position = order.pointee.users == 1 ? expected : order.pointee.count
      order.pointee.insert(name, at: position, quoting: quoting)
      let below: UInt64 = (1 &<< UInt64(position)) &- 1
      let written = state.pointee.written
      state.pointee.written = (written & below) | ((written & ~below) &<< 1) | (below &+ 1)
      state.pointee.position = position + 1
      return position
    }
    // The order is full: this object goes on by hashes, of the keys it has written first.
    order.pointee.users -= 1
    state.pointee.order = nil
    var written = state.pointee.written
    while written != 0 {
      let key = order.pointee.keys[written.trailingZeroBitCount]
      _ = insert(key, hash: _keyHash(key), state)
      written &= written &- 1
    }
    return insert(name, hash: _keyHash(name), state) ? Self.unordered : Self.repeated
  }

  private mutating func grow() {
    let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * capacity)
    grown.moveInitialize(from: hashes, count: count)
    hashes.deallocate()
    hashes = grown
    if let names {
      let grownNames = UnsafeMutablePointer<String>.allocate(capacity: 2 * capacity)
      grownNames.moveInitialize(from: names, count: count)
      names.deallocate()
      self.names = grownNames
    }
    capacity *= 2
  }
}

/// A hash of a key's UTF-8 bytes, for `_EncodeState.emitKey`'s check: every byte counts, read
/// eight at a time, the last word overlapping the one before; shorter keys as two overlapping
/// four-byte words, or their first, middle and last bytes.
@inline(__always)
func _keyHash(_ key: String) -> UInt64 {
  key.utf8.withContiguousStorageIfAvailable(_keyHash)
    ?? Array(key.utf8).withUnsafeBufferPointer(_keyHash)
}

@inline(__always)
func _keyHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
  let count = bytes.count
  let raw = UnsafeRawBufferPointer(bytes)
  var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
  if count >= 8 {
    var offset = 0
    while count &- offset > 8 {
      hash =
        (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        &* 0xBF58_476D_1CE4_E5B9
      offset &+= 8
    }
    hash ^= raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
  } else if count >= 4 {
    let first = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
    let last = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
    hash ^= first &<< 32 | last
  } else if count > 0 {
    hash ^= UInt64(raw[0]) &<< 16 | UInt64(raw[count &>> 1]) &<< 8 | UInt64(raw[count &- 1])
  }
  hash = (hash ^ (hash &>> 32)) &* 0xBF58_476D_1CE4_E5B9
  return hash ^ (hash &>> 29)
}
