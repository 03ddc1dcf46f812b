import Foundation
import JSONStream

/// An object's members by coding key.
struct _KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let decoder: _TreeDecoder
  /// With a key strategy: the members under their converted keys (first one wins).
  let converted: [String: JSONValue]?

  init(object: JSONObject, decoder: _TreeDecoder) {
    self.object = object
    self.decoder = decoder
    switch decoder.options.keyDecodingStrategy {
    case .useDefaultKeys:
      converted = nil
    case .convertFromSnakeCase:
      var members: [String: JSONValue] = [:]
      for (key, value) in object where members[_convertFromSnakeCase(key)] == nil {
        members[_convertFromSnakeCase(key)] = value
      }
      converted = members
    case .custom(let body):
      var members: [String: JSONValue] = [:]
      for (key, value) in object {
        let codingKey = body(decoder.codingPath + [_JSONKey(key)]).stringValue
        if members[codingKey] == nil { members[codingKey] = value }
      }
      converted = members
    }
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    if let converted { return converted.keys.compactMap { Key(stringValue: $0) } }
    return object.keys.compactMap { Key(stringValue: $0) }
  }

  func contains(_ key: Key) -> Bool { member(key) != nil }

  func member(_ key: Key) -> JSONValue? {
    if let converted { return converted[key.stringValue] }
    return object[key.stringValue]
  }

  func value(_ key: Key) throws -> JSONValue {
    guard let value = member(key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.child(try value(key), key).decodeValue(type)
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoder.child(try value(key), key).decode(type)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoder.child(try value(key), key).decode(type)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decoder.child(try value(key), key).decode(type)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decoder.child(try value(key), key).decode(type)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decoder.child(try value(key), key).decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try decoder.child(try value(key), key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.child(try value(key), key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    decoder.child(member(Key(stringValue: "super")!) ?? .null, _JSONKey("super"))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder.child(member(key) ?? .null, key)
  }
}

/// An array's elements in order.
struct _UnkeyedContainer: UnkeyedDecodingContainer {
  let array: JSONArray
  let decoder: _TreeDecoder
  var currentIndex = 0

  init(array: JSONArray, decoder: _TreeDecoder) {
    self.array = array
    self.decoder = decoder
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { array.count }
  var isAtEnd: Bool { currentIndex >= array.count }

  mutating func next<T>(_ type: T.Type) throws -> _TreeDecoder {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [_JSONKey(index: currentIndex)],
          debugDescription: "Unkeyed container is at end."))
    }
    defer { currentIndex += 1 }
    return decoder.child(array[currentIndex], _JSONKey(index: currentIndex))
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, array[currentIndex].isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next(type).decodeValue(type)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next([String: Any].self).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next([Any].self).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

/// A key or an index in a coding path.
struct _JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { self.init(index: intValue) }
}

/// Foundation's snake_case conversion: `first_name` → `firstName`; leading and trailing
/// underscores stay.
func _convertFromSnakeCase(_ key: String) -> String {
  guard key.contains("_") else { return key }
  guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
  var last = key.index(before: key.endIndex)
  while last > first && key[last] == "_" { last = key.index(before: last) }
  let core = key[first...last]
  let words = core.split(separator: "_", omittingEmptySubsequences: true)
  guard words.count > 1, let head = words.first else { return key }
  let joined = ([head.lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
  return String(key[..<first]) + joined + String(key[key.index(after: last)...])
}
