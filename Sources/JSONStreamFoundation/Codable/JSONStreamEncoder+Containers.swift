import Foundation
import JSONStream

/// The encoder of one slot (see `_EncodeState`), and its single value container. Three words:
/// passed as `any Encoder` without an allocation.
struct _ValueEncoder: Encoder, SingleValueEncodingContainer {
  let state: _EncodeState
  let depth: Int
  let pathLength: Int

  var codingPath: [any CodingKey] { state.codingPath(pathLength) }
  var userInfo: [CodingUserInfoKey: Any] { state.options.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // A type of its own: its dates are not the enclosing property's.
    state.clearDateFormatter()
    let (level, serial) = state.openContainer(depth: depth, isObject: true, pathLength: pathLength)
    // A model value's container (its first or, from a superclass, a later one): `Key` stands
    // for coding keys its maps may name.
    let mapping = serial >= 0 ? state.fields.value.open[level].mapping : nil
    mapping?.accept(Key.self)
    let hasMapping = mapping != nil
    return state.keyedContainer(
      Key.self, level: level, serial: serial, pathLength: pathLength, hasMapping: hasMapping)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let (level, serial) = state.openContainer(
      depth: depth, isObject: false, pathLength: pathLength)
    return _UnkeyedEncoder(state: state, level: level, serial: serial, pathLength: pathLength)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: Single value

  /// Takes the slot, then writes.
  @inline(__always)
  func slot(_ write: (inout _EncoderOutput) throws -> Void) throws {
    try state.claimSlot(depth, pathLength)
    try write(&state.fields.value.writer)
  }

  func encodeNil() throws { try slot { try $0.null() } }
  func encode(_ value: Bool) throws { try slot { try $0.bool(value) } }
  func encode(_ value: String) throws { try slot { try $0.string(value) } }
  func encode(_ value: Double) throws {
    try state.claimSlot(depth, pathLength)
    try state.writeDouble(value, nil, pathLength)
  }
  func encode(_ value: Float) throws {
    try state.claimSlot(depth, pathLength)
    try state.writeFloat(value, nil, pathLength)
  }
  func encode(_ value: Int) throws { try slot { try $0.number(value) } }
  func encode(_ value: Int8) throws { try encode(Int(value)) }
  func encode(_ value: Int16) throws { try encode(Int(value)) }
  func encode(_ value: Int32) throws { try encode(Int(value)) }
  func encode(_ value: Int64) throws { try slot { try $0.number(value) } }
  func encode(_ value: UInt) throws { try encode(UInt64(value)) }
  func encode(_ value: UInt8) throws { try encode(Int(value)) }
  func encode(_ value: UInt16) throws { try encode(Int(value)) }
  func encode(_ value: UInt32) throws { try encode(Int(value)) }
  func encode(_ value: UInt64) throws { try slot { try $0.number(value) } }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: Int128) throws { try slot { try $0.number(wide: value) } }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: UInt128) throws { try slot { try $0.number(wide: value) } }

  func encode<T: Encodable>(_ value: T) throws {
    if let deferredError = state.fields.value.deferredError { throw deferredError }
    guard state.fields.value.awaiting, state.fields.value.open.count == depth else {
      throw state.misuse(
        pathLength, "A single value container encoded a value where one was already encoded.")
    }
    try state.encodeValue(value, depth: depth, pathLength: pathLength)
  }
}

/// A keyed container the encoder makes, of a type found once per key type (see
/// `_KeyedContainerTypes`).
protocol _KeyedEncoderContainer<Key>: KeyedEncodingContainerProtocol {
  init(state: _EncodeState, level: Int, serial: Int, pathLength: Int, hasMapping: Bool)
}

/// A `C`, boxed.
func _keyedEncoderContainer<Key, C: _KeyedEncoderContainer<Key>>(
  _ type: C.Type, state: _EncodeState, level: Int, serial: Int, pathLength: Int,
  hasMapping: Bool
) -> KeyedEncodingContainer<Key> {
  KeyedEncodingContainer(
    C(state: state, level: level, serial: serial, pathLength: pathLength, hasMapping: hasMapping))
}

extension _EncodeState {
  /// A keyed container of `Key` for the object at `level`.
  func keyedContainer<Key: CodingKey>(
    _ key: Key.Type, level: Int, serial: Int, pathLength: Int, hasMapping: Bool
  ) -> KeyedEncodingContainer<Key> {
    _keyedEncoderContainer(
      fields.value.containerTypes.encoderType(keyedBy: Key.self), state: self, level: level,
      serial: serial, pathLength: pathLength, hasMapping: hasMapping)
  }
}

/// An object's members, written as they are encoded.
struct _KeyedEncoder<Key: CodingKey>: _KeyedEncoderContainer {
  let state: _EncodeState
  /// Its index in `state.open`, and the serial number it has there.
  let level: Int
  let serial: Int
  let pathLength: Int
  /// It is a model value's own container (`state.open[level].mapping` is set): the one test
  /// other containers pay per member.
  var hasMapping = false

  var codingPath: [any CodingKey] { state.codingPath(pathLength) }

  /// Gets the object ready and writes the key; false when the model leaves the key out.
  @inline(__always)
  func begin(_ key: Key) throws -> Bool {
    try state.prepare(level, serial, pathLength)
    return try state.writeKey(key, level: level, pathLength: pathLength)
  }

  /// A scalar member.
  @inline(__always)
  func member(_ key: Key, _ write: (inout _EncoderOutput) throws -> Void) throws {
    guard try begin(key) else { return }
    try write(&state.fields.value.writer)
  }

  func encodeNil(forKey key: Key) throws { try member(key) { try $0.null() } }
  func encode(_ value: Bool, forKey key: Key) throws { try member(key) { try $0.bool(value) } }
  func encode(_ value: String, forKey key: Key) throws { try member(key) { try $0.string(value) } }
  func encode(_ value: Int, forKey key: Key) throws { try member(key) { try $0.number(value) } }
  func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  func encode(_ value: Int64, forKey key: Key) throws { try member(key) { try $0.number(value) } }
  func encode(_ value: UInt, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
  func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
  func encode(_ value: UInt64, forKey key: Key) throws { try member(key) { try $0.number(value) } }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: Int128, forKey key: Key) throws {
    try member(key) { try $0.number(wide: value) }
  }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func encode(_ value: UInt128, forKey key: Key) throws {
    try member(key) { try $0.number(wide: value) }
  }

  func encode(_ value: Double, forKey key: Key) throws {
    guard try begin(key) else { return }
    try state.writeDouble(value, key, pathLength)
  }

  func encode(_ value: Float, forKey key: Key) throws {
    guard try begin(key) else { return }
    try state.writeFloat(value, key, pathLength)
  }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard try begin(key) else { return }
    if hasMapping, let mapping = state.fields.value.open[level].mapping,
      let formatter = mapping.dateFormatter(forKey: key.stringValue)
    {
      // The model's own format for this property: its date, or the dates in its value.
      if T.self == Date.self {
        try state.fields.value.writer.string(formatter.string(from: value as! Date))
        return
      }
      return try state.withDateFormatter(formatter) {
        try state.encodeChild(value, under: key, level: level, pathLength: pathLength)
      }
    }
    try state.encodeChild(value, under: key, level: level, pathLength: pathLength)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let (level, serial) = nested(key, isObject: true)
    return state.keyedContainer(
      NestedKey.self, level: level, serial: serial, pathLength: pathLength &+ 1,
      hasMapping: false)
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let (level, serial) = nested(key, isObject: false)
    return _UnkeyedEncoder(state: state, level: level, serial: serial, pathLength: pathLength &+ 1)
  }

  /// Writes the key and opens a container under it (errors are deferred: these cannot throw).
  func nested(_ key: Key, isObject: Bool) -> (level: Int, serial: Int) {
    do {
      try state.prepare(level, serial, pathLength)
      // A nested container is written even under an excluded key: its contents are encoded
      // one by one after this returns, and exclusion is for whole values.
      _ = try state.writeKey(key, level: level, pathLength: pathLength, excluding: false)
    } catch {
      if state.fields.value.deferredError == nil { state.fields.value.deferredError = error }
      return (level &+ 1, -1)
    }
    state.fields.value.awaiting = true
    state.enter(key, at: pathLength)
    return state.openContainer(depth: level &+ 1, isObject: isObject, pathLength: pathLength &+ 1)
  }

  func superEncoder() -> any Encoder { superEncoder(under: _JSONKey("super")) }

  func superEncoder(forKey key: Key) -> any Encoder { superEncoder(under: key) }

  /// An encoder for the value under `key`; if it encodes nothing, the value is `{}`.
  func superEncoder(under key: some CodingKey) -> any Encoder {
    do {
      try state.prepare(level, serial, pathLength)
      _ = try state.writeKey(key, level: level, pathLength: pathLength, excluding: false)
    } catch {
      if state.fields.value.deferredError == nil { state.fields.value.deferredError = error }
    }
    state.fields.value.awaiting = true
    state.enter(key, at: pathLength)
    return _ValueEncoder(state: state, depth: level &+ 1, pathLength: pathLength &+ 1)
  }
}

/// An array's elements, written as they are encoded.
struct _UnkeyedEncoder: UnkeyedEncodingContainer {
  let state: _EncodeState
  let level: Int
  let serial: Int
  let pathLength: Int

  var codingPath: [any CodingKey] { state.codingPath(pathLength) }

  var count: Int {
    let open = state.fields.value.open
    return level < open.count && open[level].serial == serial ? open[level].count : 0
  }

  /// Gets the array ready for its next element; returns the element's index.
  @inline(__always)
  func begin() throws -> Int {
    try state.prepare(level, serial, pathLength)
    let index = state.fields.value.open[level].count
    state.fields.value.open[level].count = index &+ 1
    return index
  }

  @inline(__always)
  func element(_ write: (inout _EncoderOutput) throws -> Void) throws {
    _ = try begin()
    try write(&state.fields.value.writer)
  }

  mutating func encodeNil() throws { try element { try $0.null() } }
  mutating func encode(_ value: Bool) throws { try element { try $0.bool(value) } }
  mutating func encode(_ value: String) throws { try element { try $0.string(value) } }
  mutating func encode(_ value: Int) throws { try element { try $0.number(value) } }
  mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int64) throws { try element { try $0.number(value) } }
  mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
  mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt64) throws { try element { try $0.number(value) } }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: Int128) throws { try element { try $0.number(wide: value) } }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func encode(_ value: UInt128) throws { try element { try $0.number(wide: value) } }

  mutating func encode(_ value: Double) throws {
    let index = try begin()
    try state.writeDouble(value, _IndexKey(index), pathLength)
  }

  mutating func encode(_ value: Float) throws {
    let index = try begin()
    try state.writeFloat(value, _IndexKey(index), pathLength)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = try begin()
    try state.encodeChild(value, under: _IndexKey(index), level: level, pathLength: pathLength)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let (level, serial) = nested(isObject: true)
    return state.keyedContainer(
      NestedKey.self, level: level, serial: serial, pathLength: pathLength &+ 1,
      hasMapping: false)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let (level, serial) = nested(isObject: false)
    return _UnkeyedEncoder(state: state, level: level, serial: serial, pathLength: pathLength &+ 1)
  }

  func nested(isObject: Bool) -> (level: Int, serial: Int) {
    let index: Int
    do {
      index = try begin()
    } catch {
      if state.fields.value.deferredError == nil { state.fields.value.deferredError = error }
      return (level &+ 1, -1)
    }
    state.fields.value.awaiting = true
    state.enter(_IndexKey(index), at: pathLength)
    return state.openContainer(depth: level &+ 1, isObject: isObject, pathLength: pathLength &+ 1)
  }

  mutating func superEncoder() -> any Encoder {
    let index: Int
    do {
      index = try begin()
    } catch {
      if state.fields.value.deferredError == nil { state.fields.value.deferredError = error }
      index = 0
    }
    state.fields.value.awaiting = true
    state.enter(_IndexKey(index), at: pathLength)
    return _ValueEncoder(state: state, depth: level &+ 1, pathLength: pathLength &+ 1)
  }
}
