import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("JSONValue is Codable: with Foundation's coders and ours")
struct JSONValueCodableTests {
  /// A model with an untyped part, as users write it.
  struct Payload: Codable, Equatable {
    var id: Int
    var meta: JSONValue
    var tags: JSONArray
    var extra: JSONObject
    var amount: JSONValue.Number
    var optional: JSONValue?
  }

  static let text = #"""
    {"id":7,"meta":{"user_name":"zoë","n":[1,-0,1E2,1.5e3,12345678901234567890123,0.1],"ok":true,"none":null},
    "tags":["a",{"b":[]}],"extra":{"z":1,"a":{"inner_key":[null]}},"amount":1.50,"optional":null}
    """#

  static let meta: JSONValue = [
    "user_name": "zoë",
    "n": [1, 0, 100, 1500, .number(JSONValue.Number(text: "12345678901234567890123")!), 0.1],
    "ok": true, "none": nil,
  ]

  @Test("our decoder takes the members from the document: numbers keep their text")
  func oursKeepsText() throws {
    let payload = try JSONStreamDecoder().decode(Payload.self, from: Data(Self.text.utf8))
    #expect(payload.id == 7)
    #expect(payload.meta == Self.meta)
    // The text as written, member order included: the value is a view of the document.
    #expect(
      payload.meta.description
        == #"{"user_name":"zoë","n":[1,-0,1E2,1.5e3,12345678901234567890123,0.1],"ok":true,"none":null}"#
    )
    #expect(payload.tags == ["a", ["b": []]])
    #expect(payload.extra.keys == ["z", "a"])
    // A number on its own keeps its value (and its text only when no Double holds it).
    #expect(payload.amount == JSONValue.Number(1.5))
    #expect(payload.optional == nil)
  }

  @Test("our encoder writes a parsed JSONValue back byte for byte, in JSON and in binary")
  func oursRoundTrips() throws {
    let decoder = JSONStreamDecoder()
    let payload = try decoder.decode(Payload.self, from: Data(Self.text.utf8))
    let encoder = JSONStreamEncoder()
    let json = String(decoding: try encoder.encode(payload), as: UTF8.self)
    let compact = Self.text.replacingOccurrences(of: "\n", with: "")
      .replacingOccurrences(of: #","optional":null"#, with: "")
      .replacingOccurrences(of: #""amount":1.50"#, with: #""amount":1.5"#)
    #expect(json == compact)
    #expect(try decoder.decode(Payload.self, from: Data(json.utf8)) == payload)

    let binary = try encoder.encodeBinary(payload)
    let fromBinary = try decoder.decode(Payload.self, fromBinary: binary)
    #expect(fromBinary == payload)
    #expect(fromBinary.meta.description == payload.meta.description)

    // The encoder's options apply to the value as to any other member.
    let sorted = JSONStreamEncoder()
    sorted.outputFormatting = [.sortedKeys]
    let sortedText = String(decoding: try sorted.encode(payload.extra), as: UTF8.self)
    #expect(sortedText == #"{"a":{"inner_key":[null]},"z":1}"#)
  }

  @Test("Foundation's JSON coders: the same values, keys untouched by key strategies")
  func foundationJSON() throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    // `user_name` is a key of the untyped part: it stays as written.
    let text = Self.text.replacingOccurrences(of: "12345678901234567890123", with: "123456")
    let payload = try decoder.decode(Payload.self, from: Data(text.utf8))
    #expect(payload.meta["user_name"] == "zoë")
    #expect(payload.meta["n"] == [1, 0, 100, 1500, 123_456, 0.1])
    #expect(payload.extra["a"]?["inner_key"] == [nil])
    // Foundation keeps no member order: the members come sorted by key.
    #expect(payload.extra.keys == ["a", "z"])
    #expect(payload.amount == JSONValue.Number(1.5))

    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = .sortedKeys
    let back = try decoder.decode(Payload.self, from: encoder.encode(payload))
    #expect(back == payload)
    let json = String(decoding: try encoder.encode(payload.meta), as: UTF8.self)
    #expect(json == #"{"n":[1,0,100,1500,123456,0.1],"none":null,"ok":true,"user_name":"zoë"}"#)

    // Ours and Foundation's give equal values for the same input.
    #expect(
      try JSONStreamDecoder().decode(JSONValue.self, from: Data(text.utf8))
        == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
  }

  @Test("Foundation's property-list coders round-trip a JSONValue")
  func propertyList() throws {
    // Property lists have no null: a value without one.
    let value: JSONValue = [
      "name": "zoë", "count": 3, "big": .number(JSONValue.Number(UInt64.max)), "ratio": 0.25,
      "flags": [true, false], "nested": ["empty": [:], "list": []],
    ]
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      let data = try encoder.encode(["value": value])
      let back = try PropertyListDecoder().decode([String: JSONValue].self, from: data)
      #expect(back["value"] == value)
      // Booleans stay Booleans and integers integers: no kind is mistaken for another.
      #expect(back["value"]?["flags"]?[0] == true)
      #expect(back["value"]?["count"] == 3)
    }
  }

  @Test("every kind at the top level, through each coder")
  func topLevel() throws {
    let values: [JSONValue] = [
      nil, true, false, "text", 0, -1, 1.5, .number(JSONValue.Number(UInt64.max)), [], [:],
      [1, "two", [3]], ["a": ["b": nil]],
    ]
    for value in values {
      let ours = try JSONStreamDecoder().decode(
        JSONValue.self, from: try JSONStreamEncoder().encode(value))
      #expect(ours == value)
      let binary = try JSONStreamDecoder().decode(
        JSONValue.self, fromBinary: try JSONStreamEncoder().encodeBinary(value))
      #expect(binary == value)
      let foundation = try JSONDecoder().decode(
        JSONValue.self, from: try JSONEncoder().encode(value))
      #expect(foundation == value)
    }
    let number = try JSONDecoder().decode(JSONValue.Number.self, from: Data("2.5".utf8))
    #expect(number == JSONValue.Number(2.5))
  }

  @Test("a value of the wrong kind is a DecodingError at its path")
  func wrongKind() throws {
    struct Model: Decodable {
      var list: JSONArray
    }
    for decode in [
      { try JSONStreamDecoder().decode(Model.self, from: Data(#"{"list":{"a":1}}"#.utf8)) },
      { try JSONDecoder().decode(Model.self, from: Data(#"{"list":{"a":1}}"#.utf8)) },
    ] {
      do {
        _ = try decode()
        Issue.record("decoded an object as an array")
      } catch DecodingError.typeMismatch(_, let context) {
        #expect(context.codingPath.map(\.stringValue) == ["list"])
      }
    }
    // A number no Double holds, through Foundation: Foundation's own error, not a generic one.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(JSONValue.self, from: Data("[1e400]".utf8))
    }
  }
}

@Suite("JSONValue to and from Foundation trees, in one call")
struct JSONValueFoundationTests {
  @Test("a Foundation tree becomes the value its JSON text parses to, and back")
  func roundTrip() throws {
    let text =
      #"{"id":7,"tags":["a",{"b":null}],"ok":true,"no":false,"ratio":0.25,"big":18446744073709551615}"#
    let parsed = try JSONValue(parsing: text)
    let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8))
    #expect(try JSONValue(foundationObject: foundation) == parsed)

    let object = try #require(try parsed.foundationObject() as? [String: Any])
    #expect(object["id"] as? Int == 7)
    #expect(object["ok"] as? Bool == true)
    #expect((object["tags"] as? [Any])?.count == 2)
    // Booleans stay Booleans: the tree writes back as the same JSON.
    let written = try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
    #expect(try JSONValue(parsing: written) == parsed)
    #expect(try JSONValue(foundationObject: object, sortedKeys: true) == parsed)
  }

  @Test("options, scalars and what has no form on the other side")
  func edges() throws {
    let mutable = try JSONValue.object(["a": [1]]).foundationObject(options: [.mutableContainers])
    #expect(mutable is NSMutableDictionary)
    #expect(try JSONValue.string("text").foundationObject() as? String == "text")
    #expect(try JSONValue.null.foundationObject() is NSNull)
    #expect(try JSONValue(foundationObject: NSNumber(value: 2.5)) == 2.5)
    // 1e400 is a JSON number no Foundation number holds.
    let huge = try JSONValue(parsing: "[1e400]")
    #expect(throws: JSONFoundationError.self) { try huge.foundationObject() }
    // A date has no JSON form: the error names where it is.
    let error = try #require(throws: JSONFoundationError.self) {
      try JSONValue(foundationObject: ["when": [Date()]])
    }
    #expect(error.path == #"$["when"][0]"#)
  }
}
