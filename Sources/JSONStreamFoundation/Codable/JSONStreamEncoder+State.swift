import Foundation
import JSONStream

// How the encoder writes as it goes. One `_EncodeState` per encode call holds the writer and
// the containers open in it, innermost last. A value is encoded into a "slot": the place
// after a key, an array's next element, or the top. Containers know their level (index in
// `open`) and serial number; before one writes, every container opened after it closes,
// which is how a synthesized `encode(to:)` moves from one member to the next. A container
// whose entry is gone has been finished: using it again is an error, since its text is out.

/// A container open in the writer.
struct _OpenContainer {
  var serial: Int
  var isObject: Bool
  /// Elements written (an unkeyed container's `count`).
  var count = 0
  /// The mapping of the model value that opened it.
  var mapping: _ModelMapping?
}

final class _EncodeState<Sink: JSONOutputSink> {
  let writer: UnsafeMutablePointer<JSONWriter<Sink>>
  let options: JSONStreamEncoder
  var open: [_OpenContainer] = []
  var nextSerial = 0
  /// A value is due in the innermost open container (or at the top when none is open).
  var awaiting = false
  /// The coding path of what is being encoded; each container and encoder knows how many of
  /// these keys are its own.
  var path: [any CodingKey] = []
  /// An error met where none can be thrown (making a container); the next write throws it.
  var deferredError: (any Error)?
  var types = _TypeInfos()
  /// The mapping of a model value about to open its object at `pendingDepth`.
  var pendingMapping: _ModelMapping?
  var pendingDepth = -1
  /// Converted keys (snake_case), each converted once per call.
  var convertedKeys: [String: String] = [:]
  lazy var iso8601 = ISO8601DateFormatter()

  init(writer: UnsafeMutablePointer<JSONWriter<Sink>>, options: JSONStreamEncoder) {
    self.writer = writer
    self.options = options
  }

  func codingPath(_ length: Int) -> [any CodingKey] { Array(path.prefix(length)) }

  /// The path of a value under `key` (or index) of a container with a path of `length` keys.
  func enter(_ key: any CodingKey, at length: Int) {
    if path.count > length { path.removeSubrange(length...) }
    path.append(key)
  }

  // MARK: Slots

  func encodeTopLevel<T: Encodable>(_ value: T) throws {
    awaiting = true
    try encodeValue(value, depth: 0, pathLength: 0)
    if let deferredError { throw deferredError }
  }

  /// Encodes `value` into the slot at `depth` (where `open.count == depth`), then closes what
  /// it opened.
  func encodeValue<T: Encodable>(_ value: T, depth: Int, pathLength: Int) throws {
    if T.self == Date.self {
      try encodeDate(value as! Date, depth: depth, pathLength: pathLength)
    } else if T.self == Data.self {
      try encodeData(value as! Data, depth: depth, pathLength: pathLength)
    } else if T.self == URL.self {
      try writeScalar(depth, pathLength) { try $0.string((value as! URL).absoluteString) }
    } else if T.self == Decimal.self {
      try encodeDecimal(value as! Decimal, depth: depth, pathLength: pathLength)
    } else {
      let info = types.info(for: T.self)
      if let mapping = info.mapping {
        var model = value as! any JSONModel
        try model.willEncode()
        pendingMapping = mapping
        pendingDepth = depth
        try (model as! T).encode(
          to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      } else if info.isStringKeyedDictionary {
        try (value as! any _StringKeyedEncodable)._encodeMembers(
          self, depth: depth, pathLength: pathLength)
      } else {
        try value.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
      }
    }
    try finishSlot(depth: depth, pathLength: pathLength, type: T.self)
  }

  /// After a value's encoding: close what it opened; a nested value that wrote nothing is
  /// `{}` (as Foundation writes it), a top-level one an error.
  func finishSlot(depth: Int, pathLength: Int, type: Any.Type) throws {
    pendingMapping = nil
    if let deferredError { throw deferredError }
    try close(downTo: depth)
    guard awaiting else { return }
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
    while open.count > depth {
      if awaiting { try writeEmptyObject() }
      if open.removeLast().isObject {
        try writer.pointee.endObject()
      } else {
        try writer.pointee.endArray()
      }
    }
  }

  func writeEmptyObject() throws {
    awaiting = false
    try writer.pointee.startObject()
    try writer.pointee.endObject()
  }

  /// A scalar into the slot at `depth`, which must still be empty.
  func writeScalar(
    _ depth: Int, _ pathLength: Int, _ write: (inout JSONWriter<Sink>) throws -> Void
  ) throws {
    if let deferredError { throw deferredError }
    guard awaiting, open.count == depth else {
      throw misuse(
        pathLength, "A single value container encoded a value where one was already encoded.")
    }
    awaiting = false
    try write(&writer.pointee)
  }

  // MARK: Containers

  /// Gets a container ready to write: closes those opened after it, fills an unused slot it
  /// left (a `superEncoder` that encoded nothing).
  @inline(__always)
  func prepare(_ level: Int, _ serial: Int, _ pathLength: Int) throws {
    if let deferredError { throw deferredError }
    if open.count > level &+ 1 { try close(downTo: level &+ 1) }
    guard open.count == level &+ 1, open[level].serial == serial else {
      throw misuse(
        pathLength,
        "A container was used after the encoding had moved on from it; JSONStreamEncoder"
          + " writes values in order.")
    }
    if awaiting { try writeEmptyObject() }
  }

  /// Opens an object (or array) for the value in the slot at `depth`; a second request from
  /// the same value (a subclass and its superclass both asking) gets the same container.
  /// Returns its level and serial (serial -1 when it could not open: its writes throw).
  func openContainer(depth: Int, isObject: Bool, pathLength: Int) -> (level: Int, serial: Int) {
    if awaiting && open.count == depth && deferredError == nil {
      awaiting = false
      do {
        if isObject { try writer.pointee.startObject() } else { try writer.pointee.startArray() }
      } catch {
        deferredError = error
        return (depth, -1)
      }
      let mapping = isObject && pendingDepth == depth ? pendingMapping : nil
      pendingMapping = nil
      nextSerial &+= 1
      open.append(_OpenContainer(serial: nextSerial, isObject: isObject, mapping: mapping))
      return (depth, nextSerial)
    }
    if open.count > depth && open[depth].isObject == isObject && deferredError == nil {
      do { try close(downTo: depth &+ 1) } catch { deferredError = error }
      return (depth, open[depth].serial)
    }
    if deferredError == nil {
      deferredError = misuse(
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
    if let mapping = open[level].mapping {
      if excluding && mapping.excluded.contains(name) { return false }
      if let mapped = mapping.keys[name] {
        try writer.pointee.key(mapped)
        return true
      }
    }
    switch options.keyEncodingStrategy {
    case .useDefaultKeys:
      try writer.pointee.key(name)
    case .convertToSnakeCase:
      if let converted = convertedKeys[name] {
        try writer.pointee.key(converted)
      } else {
        let converted = _convertToSnakeCase(name)
        convertedKeys[name] = converted
        try writer.pointee.key(converted)
      }
    case .custom(let body):
      try writer.pointee.key(body(codingPath(pathLength) + [key]).stringValue)
    }
    return true
  }

  func misuse(_ pathLength: Int, _ message: String) -> EncodingError {
    EncodingError.invalidValue(
      "", EncodingError.Context(codingPath: codingPath(pathLength), debugDescription: message))
  }

  // MARK: Values with strategies

  func writeDouble(_ value: Double, _ depth: Int, _ pathLength: Int) throws {
    guard value.isFinite else {
      return try writeScalar(depth, pathLength) {
        try $0.string(try nonConforming(value, value.description, pathLength))
      }
    }
    try writeScalar(depth, pathLength) { try $0.writeFoundationStyle(value.description) }
  }

  func writeFloat(_ value: Float, _ depth: Int, _ pathLength: Int) throws {
    guard value.isFinite else {
      return try writeScalar(depth, pathLength) {
        try $0.string(try nonConforming(value, value.description, pathLength))
      }
    }
    try writeScalar(depth, pathLength) { try $0.writeFoundationStyle(value.description) }
  }

  /// The string for a non-finite value, or the error the strategy asks for.
  func nonConforming(_ value: some BinaryFloatingPoint, _ text: String, _ pathLength: Int) throws
    -> String
  {
    if case .convertToString(let positive, let negative, let nan) =
      options.nonConformingFloatEncodingStrategy
    {
      return value.isNaN ? nan : value < 0 ? negative : positive
    }
    throw EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: codingPath(pathLength),
        debugDescription: "Unable to encode \(type(of: value)).\(text) directly in JSON. Use"
          + " nonConformingFloatEncodingStrategy .convertToString to write it as a string."))
  }

  func encodeDate(_ date: Date, depth: Int, pathLength: Int) throws {
    switch options.dateEncodingStrategy {
    case .deferredToDate:
      try date.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
    case .secondsSince1970:
      try writeDouble(date.timeIntervalSince1970, depth, pathLength)
    case .millisecondsSince1970:
      try writeDouble(1000 * date.timeIntervalSince1970, depth, pathLength)
    case .iso8601:
      let text = iso8601.string(from: date)
      try writeScalar(depth, pathLength) { try $0.string(text) }
    case .formatted(let formatter):
      let text = formatter.string(from: date)
      try writeScalar(depth, pathLength) { try $0.string(text) }
    case .custom(let body):
      try body(date, _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
    }
  }

  func encodeData(_ data: Data, depth: Int, pathLength: Int) throws {
    switch options.dataEncodingStrategy {
    case .deferredToData:
      try data.encode(to: _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
    case .base64:
      let text = data.base64EncodedString()
      try writeScalar(depth, pathLength) { try $0.string(text) }
    case .custom(let body):
      try body(data, _ValueEncoder(state: self, depth: depth, pathLength: pathLength))
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
      try writeScalar(depth, pathLength) { try $0.number(number) }
    }
  }
}

extension JSONWriter {
  /// A finite float's shortest text as `JSONEncoder` writes it: without a trailing `.0`
  /// (`60`, not `60.0`), so that switching encoders changes no output.
  mutating func writeFoundationStyle(_ description: String) throws {
    var text = description
    try text.withUTF8 { bytes in
      var count = bytes.count
      if count > 2 && bytes[count - 2] == UInt8(ascii: ".") && bytes[count - 1] == UInt8(ascii: "0")
      {
        count -= 2
      }
      try number(JSONNumber(text: UnsafeBufferPointer(rebasing: bytes[..<count]))!)
    }
  }
}

/// A `[String: Value]` whose keys are written as they are (see `_TypeInfo`).
protocol _StringKeyedEncodable {
  func _encodeMembers<Sink>(_ state: _EncodeState<Sink>, depth: Int, pathLength: Int) throws
}

extension Dictionary: _StringKeyedEncodable where Key == String, Value: Encodable {
  func _encodeMembers<Sink>(_ state: _EncodeState<Sink>, depth: Int, pathLength: Int) throws {
    let (level, serial) = state.openContainer(depth: depth, isObject: true, pathLength: pathLength)
    for (key, value) in self {
      try state.prepare(level, serial, pathLength)
      try state.writer.pointee.key(key)
      state.awaiting = true
      state.enter(_JSONKey(key), at: pathLength)
      try state.encodeValue(value, depth: level &+ 1, pathLength: pathLength &+ 1)
    }
    if let deferredError = state.deferredError { throw deferredError }
  }
}
