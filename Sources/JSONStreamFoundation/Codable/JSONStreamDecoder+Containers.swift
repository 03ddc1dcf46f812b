import Foundation
import JSONStream

/// Where a container's coding path lives. A container the decoder made for its current value
/// shares the decoder's path (its first `count` keys, unchanged while the value decodes). A
/// nested container or super decoder outlives the call that made it and may be used after
/// its parent moves on, so it keeps its own, put in place while a child decodes.
enum _PathBase {
  case shared(Int)
  case own([any CodingKey])

  var depth: Int {
    switch self {
    case .shared(let count): return count
    case .own(let path): return path.count
    }
  }
}

extension _Decoder {
  func codingPath(_ base: _PathBase) -> [any CodingKey] {
    switch base {
    case .shared(let count): return Array(path.prefix(count))
    case .own(let own): return own
    }
  }

  /// Runs `body` with the decoder's path set to `base` (decoding a child of that container).
  @inline(__always)
  func with<R>(_ base: _PathBase, _ body: () throws -> R) rethrows -> R {
    guard case .own(let own) = base else { return try body() }
    return try withPath(own, body)
  }

  /// A decoder of its own for `value` (a super decoder); what it asks for is checked with
  /// the current value.
  func detached(_ value: JSONNodeCursor, path: [any CodingKey]) -> _Decoder {
    let decoder = _Decoder(
      options: options, root: document, cursor: value, path: path)
    decoder.state.value.types = state.value.types
    decoder.state.value.containerTypes = state.value.containerTypes
    if checksKeys { state.value.pendingKeyChecks.append(.decoder(decoder)) }
    return decoder
  }
}

/// What only some keyed containers need, kept apart so that the common container holds one
/// reference (copying it is most of what `KeyedDecodingContainer`'s box does per key).
final class _KeyedExtras {
  /// The container's decoder, held here for it (see `_KeyedContainerOwner`).
  let decoder: _Decoder
  /// Its own coding path (see `_PathBase`).
  let ownPath: [any CodingKey]?
  let mapping: _ModelMapping?
  let usage: _KeyUsage?
  /// Under a key strategy: the members' converted keys.
  let converted: _ConvertedMembers?

  init(
    decoder: _Decoder, ownPath: [any CodingKey]?, mapping: _ModelMapping?, usage: _KeyUsage?,
    converted: _ConvertedMembers?
  ) {
    self.decoder = decoder
    self.ownPath = ownPath
    self.mapping = mapping
    self.usage = usage
    self.converted = converted
  }
}

/// An object's members by coding key.
///
/// What it reads is inline, so that making one allocates only `KeyedDecodingContainer`'s box.
/// The position hint changes with every key, so it lives in the decoder (see
/// `_Decoder.hints`).
struct _KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// The decoder and the extras, behind one reference.
  let owner: _KeyedContainerOwner
  let object: JSONNodeCursor
  /// The length of its coding path; also its slot in the decoder's hints.
  let depth: Int

  init(owner: _KeyedContainerOwner, object: JSONNodeCursor, depth: Int) {
    self.owner = owner
    self.object = object
    self.depth = depth
  }

  var decoder: _Decoder { owner.decoder }

  @inline(__always)
  func withDecoder<R>(_ body: (_Decoder) throws -> R) rethrows -> R {
    try owner.withDecoder(body)
  }

  var extras: _KeyedExtras? { owner.extras }

  /// Reads the value of the member `key` names with `read`, on the container's coding path.
  @inline(__always)
  func scalar<R>(_ key: Key, _ read: (_Decoder, JSONNodeCursor) throws -> R) throws -> R {
    let value = try value(key)
    return try withDecoder { decoder in try decoder.with(base) { try read(decoder, value) } }
  }

  /// `scalar`, or nil when the member is absent or null.
  @inline(__always)
  func scalarIfPresent<R>(_ key: Key, _ read: (_Decoder, JSONNodeCursor) throws -> R) throws -> R? {
    guard let value = present(key) else { return nil }
    return try withDecoder { decoder in try decoder.with(base) { try read(decoder, value) } }
  }

  /// The extras of a container of `object` with coding path `base`, if it needs any.
  @inline(__always)
  static func extras(decoder: _Decoder, object: JSONNodeCursor, base: _PathBase)
    -> _KeyedExtras?
  {
    // The common case, checked first: the current value's container, nothing to record.
    if case .shared = base, !decoder.convertsKeys, decoder.state.value.mapping == nil,
      decoder.state.value.usage == nil
    {
      return nil
    }
    return makeExtras(decoder: decoder, object: object, base: base)
  }

  static func makeExtras(decoder: _Decoder, object: JSONNodeCursor, base: _PathBase)
    -> _KeyedExtras?
  {
    var ownPath: [any CodingKey]? = nil
    var mapping: _ModelMapping? = nil
    var usage: _KeyUsage? = nil
    switch base {
    case .shared:
      mapping = decoder.state.value.mapping
      usage = decoder.state.value.usage
    case .own(let path):
      ownPath = path
      if decoder.checksKeys { usage = decoder.nestedUsage(of: object, path: path) }
    }
    var converted: _ConvertedMembers? = nil
    if decoder.convertsKeys {
      converted = _ConvertedMembers(
        (0..<object.count).map { decoder.keyName(forMember: object.keyString($0)) })
    }
    if ownPath == nil && mapping == nil && usage == nil && converted == nil { return nil }
    return _KeyedExtras(
      decoder: decoder, ownPath: ownPath, mapping: mapping, usage: usage, converted: converted)
  }

  @inline(__always)
  var base: _PathBase {
    if let ownPath = extras?.ownPath { return .own(ownPath) }
    return .shared(depth)
  }
  var mapping: _ModelMapping? { extras?.mapping }
  var usage: _KeyUsage? { extras?.usage }

  var codingPath: [any CodingKey] { decoder.codingPath(base) }

  var allKeys: [Key] {
    let keys = (0..<object.count).compactMap {
      Key(stringValue: decoder.keyName(forMember: object.keyString($0)))
    }
    // The keys handed out count as asked for; members no `Key` stands for stay unknown.
    if let usage { for key in keys { usage.asked.insert(key.stringValue) } }
    return keys
  }

  /// The value of the member `key` names, or nil when absent: under the model's JSON name
  /// for it, else under the key (as the key strategy converts member keys).
  @inline(__always)
  func member(_ key: Key) -> JSONNodeCursor? {
    var name = key.stringValue
    if let extras {
      extras.usage?.asked.insert(name)
      if let mapping = extras.mapping, let jsonName = mapping.keys[name] {
        name = jsonName
      } else if let converted = extras.converted {
        return converted.position(of: name).map(object.value)
      }
    }
    return withDecoder { decoder in
      let hint = decoder.hint(at: depth)
      guard let (position, value) = object.member(named: &name, hint: hint) else {
        return nil
      }
      decoder.setHint(position &+ 1, at: depth)
      return value
    }
  }

  func value(_ key: Key) throws -> JSONNodeCursor {
    guard let value = member(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  func contains(_ key: Key) -> Bool {
    if member(key) != nil { return true }
    usage?.absent.append(key.stringValue)
    return false
  }

  func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

  // `decodeIfPresent`: one lookup, where the protocol's default looks the key up three times
  // (contains, decodeNil, decode), a quarter of decoding twitter.json's optional-heavy models.

  /// The member's value, or nil when absent (recorded as absent) or null.
  @inline(__always)
  func present(_ key: Key) -> JSONNodeCursor? {
    guard let value = member(key) else {
      usage?.absent.append(key.stringValue)
      return nil
    }
    return value.isNull ? nil : value
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try scalarIfPresent(key) { try $0.bool($1, key) }
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try scalarIfPresent(key) { try $0.string($1, key) }
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try scalarIfPresent(key) { try $0.floatingPoint(type, $1, key) }
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try scalarIfPresent(key) { try $0.floatingPoint(type, $1, key) }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try scalarIfPresent(key) { try $0.int($1, key) }
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try scalarIfPresent(key) { try $0.int64($1, key) }
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try integerIfPresent(type, key)
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try integerIfPresent(type, key)
  }

  func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
    try scalarIfPresent(key) { try $0.integer(type, $1, key) }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = present(key) else { return nil }
    return try decode(type, at: value, key)
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try scalar(key) { try $0.bool($1, key) }
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try scalar(key) { try $0.string($1, key) }
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try scalar(key) { try $0.floatingPoint(type, $1, key) }
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try scalar(key) { try $0.floatingPoint(type, $1, key) }
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try scalar(key) { try $0.int($1, key) }
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try scalar(key) { try $0.int64($1, key) }
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }

  func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
    try scalar(key) { try $0.integer(type, $1, key) }
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decode(type, at: try value(key), key)
  }

  func decode<T: Decodable>(_ type: T.Type, at value: JSONNodeCursor, _ key: Key) throws -> T {
    try withDecoder { decoder in
      try decoder.with(base) {
        // Only a container with extras can have a mapping: the common one pays one nil check.
        if owner.hasExtras, let mapping,
          let formatter = mapping.dateFormatter(forKey: key.stringValue)
        {
          // The model's own format for this property: its date, or the dates in its value.
          if T.self == Date.self {
            return _same(try decoder.date(value, key, formatter), as: T.self)
          }
          return try decoder.withDateFormatter(formatter) {
            try decoder.decode(type, from: value, key: key)
          }
        }
        return try decoder.decode(type, from: value, key: key)
      }
    }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    let value = try value(key)
    let path = codingPath + [key]
    guard value.kind == .object else {
      throw decoder.with(.own(path)) { decoder.typeMismatch([String: Any].self, value, nil) }
    }
    return decoder.keyedContainer(NestedKey.self, object: value, base: .own(path))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let value = try value(key)
    let path = codingPath + [key]
    guard value.kind == .array else {
      throw decoder.with(.own(path)) { decoder.typeMismatch([Any].self, value, nil) }
    }
    return _UnkeyedContainer(decoder: decoder, array: value, base: .own(path))
  }

  func superDecoder() throws -> any Decoder { superDecoder(under: _JSONKey("super")) }

  func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(under: key) }

  func superDecoder(under key: any CodingKey) -> any Decoder {
    var name = key.stringValue
    usage?.asked.insert(name)
    let value = object.position(ofKey: &name, hint: 0).map(object.value)
    return decoder.detached(value ?? .null, path: codingPath + [key])
  }
}

/// An array's elements in order.
struct _UnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: _Decoder
  let array: JSONNodeCursor
  let base: _PathBase
  let count: Int?
  var currentIndex = 0

  init(decoder: _Decoder, array: JSONNodeCursor, base: _PathBase) {
    self.decoder = decoder
    self.array = array
    self.base = base
    count = array.count
  }

  var codingPath: [any CodingKey] { decoder.codingPath(base) }
  var isAtEnd: Bool { currentIndex >= count! }

  /// The next element, or the error for reading past the end.
  @inline(__always)
  func next<T>(_ type: T.Type) throws -> JSONNodeCursor {
    guard currentIndex < count! else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [_IndexKey(currentIndex)],
          debugDescription: "Unkeyed container is at end."))
    }
    return array.element(currentIndex)
  }

  mutating func decodeNil() throws -> Bool {
    guard currentIndex < count!, array.element(currentIndex).isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let value = try next(type)
    let result = try decoder.with(base) { try decoder.bool(value, _IndexKey(currentIndex)) }
    currentIndex += 1
    return result
  }

  mutating func decode(_ type: String.Type) throws -> String {
    let value = try next(type)
    let result = try decoder.with(base) { try decoder.string(value, _IndexKey(currentIndex)) }
    currentIndex += 1
    return result
  }

  mutating func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let value = try next(type)
    let result = try decoder.with(base) { try decoder.int(value, _IndexKey(currentIndex)) }
    currentIndex += 1
    return result
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

  mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let value = try next(type)
    let result = try decoder.with(base) {
      try decoder.integer(type, value, _IndexKey(currentIndex))
    }
    currentIndex += 1
    return result
  }

  mutating func floatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
    let value = try next(type)
    let result = try decoder.with(base) {
      try decoder.floatingPoint(type, value, _IndexKey(currentIndex))
    }
    currentIndex += 1
    return result
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try next(type)
    let result = try decoder.with(base) {
      try decoder.decode(type, from: value, key: _IndexKey(currentIndex))
    }
    currentIndex += 1
    return result
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let value = try next([String: Any].self)
    let path = codingPath + [_IndexKey(currentIndex)]
    guard value.kind == .object else {
      throw decoder.with(.own(path)) { decoder.typeMismatch([String: Any].self, value, nil) }
    }
    currentIndex += 1
    return decoder.keyedContainer(NestedKey.self, object: value, base: .own(path))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let value = try next([Any].self)
    let path = codingPath + [_IndexKey(currentIndex)]
    guard value.kind == .array else {
      throw decoder.with(.own(path)) { decoder.typeMismatch([Any].self, value, nil) }
    }
    currentIndex += 1
    return _UnkeyedContainer(decoder: decoder, array: value, base: .own(path))
  }

  mutating func superDecoder() throws -> any Decoder {
    let value = try next(Any.self)
    let path = codingPath + [_IndexKey(currentIndex)]
    currentIndex += 1
    return decoder.detached(value, path: path)
  }
}

/// Under a key strategy, an object's member keys as converted, to find a member by coding key.
/// Members are usually asked for in their order, so a small object is searched from just after
/// the last one found; a larger one, or one where two members convert to the same key, has a
/// dictionary (the first of equal keys wins). Building a dictionary for every object was half
/// of decoding snake_case NDJSON.
final class _ConvertedMembers {
  private let names: [String]
  private let positions: [String: Int]?
  private var next = 0

  /// At most this many members are searched without a dictionary.
  private static var searched: Int { 16 }

  init(_ names: [String]) {
    self.names = names
    var unique = names.count <= Self.searched
    if unique {
      search: for (index, name) in names.enumerated() {
        for earlier in names[..<index] where earlier == name {
          unique = false
          break search
        }
      }
    }
    if unique {
      positions = nil
    } else {
      var positions: [String: Int] = [:]
      for (position, name) in names.enumerated() where positions[name] == nil {
        positions[name] = position
      }
      self.positions = positions
    }
  }

  /// The position of the member whose converted key is `name`.
  func position(of name: String) -> Int? {
    if let positions { return positions[name] }
    let start = next < names.count ? next : 0
    for position in start..<names.count where names[position] == name {
      next = position + 1
      return position
    }
    for position in 0..<start where names[position] == name {
      next = position + 1
      return position
    }
    return nil
  }
}

/// A keyed container of ours. Through an existential metatype of this protocol, kept per key
/// type (see `_KeyedContainerTypes`), a container is made with no runtime lookup of its type's
/// generic metadata or conformance: the existential carries them, and
/// `KeyedDecodingContainerProtocol`'s conformance is read from this one's.
protocol _KeyedDecoderContainer<Key>: KeyedDecodingContainerProtocol {
  init(owner: _KeyedContainerOwner, object: JSONNodeCursor, depth: Int)
}

extension _KeyedContainer: _KeyedDecoderContainer {}

/// A `C` of `object`, boxed.
func _keyedContainer<Key, C: _KeyedDecoderContainer<Key>>(
  _ type: C.Type, owner: consuming _KeyedContainerOwner, object: JSONNodeCursor, depth: Int
) -> KeyedDecodingContainer<Key> {
  KeyedDecodingContainer(C(owner: owner, object: object, depth: depth))
}

/// The container types of one key type, the decoder's and the encoder's: a class of our own,
/// so that one table holds every key type's and a table entry is downcast to it without a
/// check (see `_KeyedContainerTypes`).
class _AnyKeyedContainerType {}

final class _KeyedContainerType<Key: CodingKey>: _AnyKeyedContainerType {
  let decoderType: any _KeyedDecoderContainer<Key>.Type = _KeyedContainer<Key>.self
  let encoderType: any _KeyedEncoderContainer<Key>.Type = _KeyedEncoder<Key>.self
}
