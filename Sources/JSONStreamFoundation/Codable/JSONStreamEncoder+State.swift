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
}

final class _EncodeState {
  let options: JSONStreamEncoder.Settings
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
    var writer = JSONWriter(options: writeOptions)
    if indentBase > 0 { writer.setIndentBase(indentBase) }
    storage = .allocate(capacity: 1)
    storage.initialize(
      to: _EncoderFields(
        writer: _EncoderOutput(
          json: writer, binary: format == .binary ? JSONBinaryWriter() : nil,
          tree: format == .value ? _TreeOutput(options: writeOptions) : nil)))
  }

  deinit {
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
    try encodeRoot(value)
    try storage.pointee.writer.finish()
    return storage.pointee.writer.bytes
  }

  /// Encodes `value` as the whole output, a tree; returns it.
  func encodeTopLevelToValue<T: Encodable>(_ value: T) throws -> JSONValue {
    try encodeRoot(value)
    return storage.pointee.writer.finishValue()
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
      let (conformances, mapping) = storage.pointee.types.info(for: T.self)
        ._withUnsafeGuaranteedRef { ($0.conformances, $0.mapping) }
      if let mapping {
        var model = value as! any JSONModel
        try model.willEncode()
        storage.pointee.pendingMapping = mapping
        storage.pointee.pendingDepth = depth
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
      if storage.pointee.open.removeLast().isObject {
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
      storage.pointee.pendingMapping = nil
      storage.pointee.nextSerial &+= 1
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
  /// (and `excluding`).
  func writeKey(_ key: some CodingKey, level: Int, pathLength: Int, excluding: Bool = true)
    throws -> Bool
  {
    let name = key.stringValue
    if let mapping = storage.pointee.open[level].mapping {
      if excluding && mapping.excluded.contains(name) { return false }
      if let mapped = mapping.keys[name] {
        try storage.pointee.writer.key(mapped)
        return true
      }
    }
    switch options.keyEncodingStrategy {
    case .useDefaultKeys:
      try storage.pointee.writer.key(name)
    case .convertToSnakeCase:
      if let converted = storage.pointee.convertedKeys[name] {
        try storage.pointee.writer.key(converted)
      } else {
        let converted = _convertToSnakeCase(name)
        storage.pointee.convertedKeys[name] = converted
        try storage.pointee.writer.key(converted)
      }
    case .custom(let body):
      try storage.pointee.writer.key(body(codingPath(pathLength) + [key]).stringValue)
    }
    return true
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
