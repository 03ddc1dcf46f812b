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
    decoder.usage?.tookAll = true
    return object.keys.compactMap { Key(stringValue: decoder.keyName(forMember: $0)) }
  }

  func contains(_ key: Key) -> Bool {
    guard let value = member(key) else {
      decoder.usage?.absent.append(key.stringValue)
      return false
    }
    _ = value
    return true
  }

  /// The member a key names: under the model's JSON name for it, else under the key (as the
  /// key strategy converts member keys).
  func member(_ key: Key) -> JSONValue? {
    let name = key.stringValue
    decoder.usage?.asked.insert(name)
    if let mapping = decoder.mapping, let jsonName = mapping.keys[name] {
      return object[jsonName]
    }
    if let converted { return converted[name] }
    return object[name]
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
    let child = decoder.child(try value(key), key)
    if T.self == Date.self, let mapping = decoder.mapping,
      let formatter = mapping.dateFormatter(forKey: key.stringValue)
    {
      // The model's own format for this property.
      return try child.date(from: formatter) as! T
    }
    return try child.decodeValue(type)
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
