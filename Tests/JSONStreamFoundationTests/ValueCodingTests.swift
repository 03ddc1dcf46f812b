import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

/// `JSONValue(encoding:)` / `encodeToValue` and `value.decode(_:)`: a value from any
/// `Encodable` and into any `Decodable`, with no JSON text made. The value must be the one the
/// text route gives, `JSONValue(parsing: encoder.encode(x))`: equal, and written as the same
/// bytes.
@Suite("JSONValue from Encodable and into Decodable")
struct ValueCodingTests {
  typealias Order = EncoderTests.Order

  /// A key strategy's key.
  struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// What the text route makes of `value`, and what the direct route makes: the same value,
  /// written as the same bytes (in member order, compact and pretty; as binary too), or the
  /// same error.
  func expectSameAsText<T: Encodable>(
    _ value: T, _ encoder: JSONStreamEncoder = JSONStreamEncoder(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let text = Result { try encoder.encode(value) }
    let direct = Result { try encoder.encodeToValue(value) }
    switch (text, direct) {
    case (.success(let text), .success(let direct)):
      let parsed = try JSONValue(parsing: text)
      #expect(direct == parsed, "\(direct) vs \(parsed)", sourceLocation: sourceLocation)
      #expect(try direct.jsonString() == parsed.jsonString(), sourceLocation: sourceLocation)
      #expect(
        try direct.jsonBytes(options: .pretty) == parsed.jsonBytes(options: .pretty),
        sourceLocation: sourceLocation)
      #expect(try direct.binaryBytes() == parsed.binaryBytes(), sourceLocation: sourceLocation)
      // The public spelling is the same call.
      #expect(
        try JSONValue(encoding: value, encoder: encoder) == direct, sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(describe(a) == describe(b), sourceLocation: sourceLocation)
    default:
      Issue.record("text: \(text), value: \(direct)", sourceLocation: sourceLocation)
    }
  }

  /// An error's type, coding path and message: what the two routes must agree on.
  func describe(_ error: any Error) -> String {
    switch error {
    case EncodingError.invalidValue(let value, let context):
      return "invalidValue \(value) at \(context.codingPath.map(\.stringValue)): "
        + context.debugDescription
    default:
      return "\(type(of: error)): \(error)"
    }
  }

  /// Encoders configured in the ways that change the value: keys, dates, data, non-finite
  /// floats, sorted keys; and formatting that must not change it.
  static var encoders: [JSONStreamEncoder] {
    let snake = JSONStreamEncoder()
    snake.keyEncodingStrategy = .convertToSnakeCase
    snake.dateEncodingStrategy = .iso8601
    snake.outputFormatting = [.sortedKeys]

    let numeric = JSONStreamEncoder()
    numeric.dateEncodingStrategy = .secondsSince1970
    numeric.dataEncodingStrategy = .deferredToData
    numeric.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    numeric.keyEncodingStrategy = .custom { path in
      NameKey(stringValue: path.last!.stringValue.uppercased())
    }

    let custom = JSONStreamEncoder()
    custom.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.unkeyedContainer()
      try container.encode(date.timeIntervalSince1970)
      try container.encode("s")
    }
    custom.dataEncodingStrategy = .custom { data, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(data.count)
    }
    custom.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]

    let formatted = JSONStreamEncoder()
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    formatted.dateEncodingStrategy = .formatted(formatter)
    formatted.writeOptions.escapeUnicode = true

    let millis = JSONStreamEncoder()
    millis.dateEncodingStrategy = .millisecondsSince1970
    millis.dataEncodingStrategy = .custom { _, _ in }  // encodes nothing: `{}`

    return [JSONStreamEncoder(), snake, numeric, custom, formatted, millis]
  }

  struct Mixed: Encodable {
    var float: Float = 0.1
    var floats: [Float] = [0.1, 1e-7, 3.4028235e38, -0.0, 16_777_216]
    var doubles: [Double] = [
      0.1, 60, 1e21, 1e-7, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ]
    var nonFinite: [Double] = []
    var integers: [Int64] = [0, -1, Int64.max, Int64.min, 1 << 53 + 1]
    var unsigned: [UInt64] = [0, UInt64(Int64.max) + 1, UInt64.max]
    var small: [Int8] = [-128, 127]
    var decimal = Decimal(string: "-12345678901234567890.123456789")!
    var text = "quote \" backslash \\ slash / tab \t nul \u{0} é 😀 \u{2028}"
    var empty: [String] = []
    var emptyObject: [String: Int] = [:]
    var nested: [[String: [Int?]]] = [["b": [1, nil], "a": []], [:]]
    var camelCaseKey = "URLValue"
    var date = Date(timeIntervalSince1970: 1_800_000_000.25)
    var data = Data([0, 1, 2, 250, 255])
    var url = URL(string: "https://example.com/a/b?c=d")!
    var optional: String? = nil
  }

  @Test("equal to the text route, and written the same, under each set of strategies")
  func parityWithText() throws {
    for encoder in Self.encoders {
      try expectSameAsText(EncoderTests.order, encoder)
      try expectSameAsText(Mixed(), encoder)
      try expectSameAsText(Mixed(nonFinite: [.infinity, -.infinity, .nan]), encoder)
      try expectSameAsText([Mixed(), Mixed()], encoder)
      try expectSameAsText(["z": 1, "a": 2, "m": 3, "é": 4, "Z": 5], encoder)
    }
  }

  @Test("top-level scalars")
  func scalars() throws {
    for encoder in Self.encoders {
      try expectSameAsText(42, encoder)
      try expectSameAsText(UInt64.max, encoder)
      try expectSameAsText(-0.0, encoder)
      try expectSameAsText(Float(0.1), encoder)
      try expectSameAsText(2.5, encoder)
      try expectSameAsText("text / é", encoder)
      try expectSameAsText(true, encoder)
      try expectSameAsText(String?.none, encoder)
      try expectSameAsText(Date(timeIntervalSince1970: 0), encoder)
      try expectSameAsText(Data([1, 2, 3]), encoder)
      try expectSameAsText(Decimal(string: "1.50")!, encoder)
      try expectSameAsText(Double.nan, encoder)
    }
  }

  @Test("a Float is the number its text shows, not the double it widens to")
  func floatText() throws {
    let value = try JSONStreamEncoder().encodeToValue(Float(0.1))
    #expect(value.numberValue?.text == "0.1")
    #expect(try value.jsonString() == "0.1")
    let array = try JSONValue(encoding: [Float(0.1), 3.4e38, 60])
    #expect(try array.jsonString() == "[0.1,3.4e+38,60]")
    #expect(array[0]?.numberValue == JSONValue.Number(text: "0.1"))
  }

  /// A `JSONValue` inside an `Encodable`, kept as it is: number text, member order, depth.
  @Test("JSONValue members keep their number text and order; sorted keys sort them")
  func documentMembers() throws {
    struct Payload: Encodable {
      var meta: JSONValue
      var list: JSONArray
      var object: JSONObject
      var number: JSONValue.Number
    }
    let meta = try JSONValue(parsing: #"{"z": 1.50, "a": [1e2, -0, {"y": null, "b": true}]}"#)
    var wide = JSONObject()
    for index in (0..<100).reversed() { wide["k\(index)"] = .number(.init(index)) }
    let payload = Payload(
      meta: meta, list: meta["a"]!.arrayValue!, object: wide,
      number: JSONValue.Number(text: "1.000")!)
    for encoder in Self.encoders { try expectSameAsText(payload, encoder) }
    let value = try JSONValue(encoding: payload)
    #expect(try value["meta"]!.jsonString() == #"{"z":1.50,"a":[1e2,-0,{"y":null,"b":true}]}"#)
    let sorting = JSONStreamEncoder()
    sorting.outputFormatting = .sortedKeys
    let sorted = try JSONValue(encoding: payload, encoder: sorting)
    #expect(try sorted["meta"]!.jsonString() == #"{"a":[1e2,-0,{"b":true,"y":null}],"z":1.50}"#)
    #expect(sorted["object"]!.objectValue!.keys == wide.keys.sorted())
    #expect(sorted.objectValue!.keys == ["list", "meta", "number", "object"])
    // A deep value sorts without recursion.
    var deep: JSONValue = ["b": 1, "a": 2]
    for _ in 0..<1000 { deep = ["y": deep, "x": nil] }
    let sortedDeep = try JSONValue(encoding: deep, encoder: sorting)
    #expect(sortedDeep == deep)
    #expect(sortedDeep.objectValue!.keys == ["x", "y"])
  }

  /// Odd `encode(to:)` implementations: a repeated key (the last value wins, at the end),
  /// a value that encodes nothing (`{}`), super encoders, nested containers.
  @Test("repeated keys, empty encodings, super encoders, nested containers")
  func unusualEncodings() throws {
    struct Repeats: Encodable {
      enum Keys: String, CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode([3], forKey: .a)
      }
    }
    struct Nothing: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }
    struct Nested: Encodable {
      enum Keys: String, CodingKey { case inner, list, base }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        try inner.encode(Nothing(), forKey: .base)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(1.5)
        var deeper = list.nestedUnkeyedContainer()
        try deeper.encodeNil()
        _ = list.superEncoder()
        let base = container.superEncoder()
        var single = base.singleValueContainer()
        try single.encode("base")
      }
    }
    for encoder in Self.encoders {
      try expectSameAsText(Repeats(), encoder)
      try expectSameAsText([Nothing()], encoder)
      try expectSameAsText(Nested(), encoder)
      try expectSameAsText(Nothing(), encoder)  // an error: a top-level value encoded nothing
    }
    #expect(try JSONValue(encoding: Repeats()) == ["a": [3], "b": 2])
    // The last value, moved to where it was written, as Foundation's encoder does.
    #expect(try JSONValue(encoding: Repeats()).objectValue!.keys == ["b", "a"])
  }

  @Test("encoding errors are the text route's errors")
  func encodingErrors() throws {
    // A non-finite float without a strategy, with its coding path.
    let text = #expect(throws: EncodingError.self) {
      try JSONStreamEncoder().encode(Mixed(nonFinite: [1, .nan]))
    }
    let value = #expect(throws: EncodingError.self) {
      try JSONStreamEncoder().encodeToValue(Mixed(nonFinite: [1, .nan]))
    }
    #expect(describe(try #require(text)) == describe(try #require(value)))
    guard case .invalidValue(_, let context) = try #require(value) else {
      Issue.record("not invalidValue")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["nonFinite", "Index 1"])
    try expectSameAsText(Float.infinity)
    // A JSONValue holding a non-finite number: the writer's error, unless its options allow it.
    let infinite: JSONValue = [.number(.init(Double.infinity))]
    #expect(
      throws: JSONWriterError(kind: .nonFiniteNumber, message: "Infinity is not a JSON number")
    ) {
      try JSONValue(encoding: ["x": infinite])
    }
    try expectSameAsText(["x": infinite])
    let allowing = JSONStreamEncoder()
    allowing.writeOptions.allowNonFiniteNumbers = true
    #expect(try JSONValue(encoding: infinite, encoder: allowing) == infinite)
    // Invalid options, as the writer reports them.
    let invalid = JSONStreamEncoder()
    invalid.writeOptions.indent = -1
    try expectSameAsText([1], invalid)
    // A container used after the encoding moved on.
    struct Misuse: Encodable {
      enum Keys: String, CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var first = container.nestedUnkeyedContainer(forKey: .a)
        try container.encode(1, forKey: .b)
        try first.encode(2)
      }
    }
    try expectSameAsText(Misuse())
    // An error the value's own encoding throws.
    struct Failing: Encodable {
      struct Failure: Error, CustomStringConvertible {
        var description: String { "failure" }
      }
      func encode(to encoder: any Encoder) throws { throw Failure() }
    }
    try expectSameAsText(["ok": [Failing()]])
  }

  @Test("decode round-trips what was encoded, with the decoder's strategies")
  func roundTrip() throws {
    let order = EncoderTests.order
    let value = try JSONValue(encoding: order)
    #expect(try value.decode(Order.self) == order)
    #expect(try value.decode(decoder: JSONStreamDecoder()) as Order == order)

    let encoder = JSONStreamEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .millisecondsSince1970
    encoder.dataEncodingStrategy = .deferredToData
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    let decoder = JSONStreamDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .millisecondsSince1970
    decoder.dataDecodingStrategy = .deferredToData
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    let snake = try JSONValue(encoding: order, encoder: encoder)
    #expect(snake["customer_name"]?.stringValue == order.customerName)
    // As from the text (`shippedURL` comes back as `shippedUrl`, as Foundation converts it).
    let fromText = try decoder.decode(Order.self, from: encoder.encode(order))
    #expect(try snake.decode(Order.self, decoder: decoder) == fromText)
    #expect(fromText.shippedURL == nil)
    var withoutURL = order
    withoutURL.shippedURL = nil
    #expect(fromText == withoutURL)

    struct Floats: Codable, Equatable {
      var values: [Double]
      var single: Float
    }
    let floats = Floats(values: [.infinity, -.infinity, 0.1], single: 0.1)
    let floatValue = try JSONValue(encoding: floats, encoder: encoder)
    #expect(floatValue["values"] == ["+inf", "-inf", 0.1])
    #expect(try floatValue.decode(Floats.self, decoder: decoder) == floats)

    // Values that were never text: literals and built values.
    let built: JSONValue = ["id": 7, "customerName": "x", "items": [], "tags": ["a"]]
    struct Partial: Decodable, Equatable {
      var id: Int
      var customerName: String
      var items: [Order.Item]
      var tags: Set<String>
    }
    #expect(
      try built.decode(Partial.self)
        == Partial(id: 7, customerName: "x", items: [], tags: ["a"]))
    #expect(try JSONValue.string("é").decode(String.self) == "é")
    #expect(try JSONValue.number(.init(UInt64.max)).decode(UInt64.self) == UInt64.max)
    #expect(try JSONValue.null.decode(Int?.self) == nil)
  }

  @Test("a value changed in place decodes, and so do its parsed and changed parts")
  func decodeChanged() throws {
    struct Item: Codable, Equatable {
      var sku: String
      var qty: Int
    }
    struct Cart: Codable, Equatable {
      var items: [Item]
      var note: String?
      var meta: JSONValue
    }
    var value = try JSONValue(
      parsing: #"{"items": [{"sku": "A1", "qty": 2}], "meta": {"n": 1.50}, "x": true}"#)
    value["items"]?[0]?["qty"] = 5
    if case .array(var items) = value["items"] {
      items.append(["sku": "B2", "qty": 1])
      value["items"] = .array(items)
    }
    value["note"] = "gift"
    let cart = try value.decode(Cart.self)
    #expect(cart.items == [Item(sku: "A1", qty: 5), Item(sku: "B2", qty: 1)])
    #expect(cart.note == "gift")
    #expect(try cart.meta.jsonString() == #"{"n":1.50}"#)
    #expect(try JSONValue(encoding: cart) == value.merging(patch: ["x": nil]))
  }

  @Test("decoding errors name the coding path")
  func decodingErrors() throws {
    struct Item: Decodable {
      var sku: String
      var quantity: Int
    }
    struct Cart: Decodable {
      var items: [Item]
    }
    let value: JSONValue = [
      "items": [["sku": "A", "quantity": 1], ["sku": "B", "quantity": "2"]]
    ]
    let error = #expect(throws: DecodingError.self) { try value.decode(Cart.self) }
    guard case .typeMismatch(let type, let context) = try #require(error) else {
      Issue.record("expected typeMismatch, got \(String(describing: error))")
      return
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
    #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "quantity"])

    let missing: JSONValue = ["items": [["sku": "A"]]]
    let keyError = #expect(throws: DecodingError.self) { try missing.decode(Cart.self) }
    guard case .keyNotFound(let key, let keyContext) = try #require(keyError) else {
      Issue.record("expected keyNotFound, got \(String(describing: keyError))")
      return
    }
    #expect(key.stringValue == "quantity")
    #expect(keyContext.codingPath.map(\.stringValue) == ["items", "Index 0"])

    // The same error as decoding the value's text.
    let text = try value.jsonBytes()
    let textError = #expect(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Cart.self, from: text)
    }
    guard case .typeMismatch(_, let textContext) = try #require(textError) else { return }
    #expect(textContext.codingPath.map(\.stringValue) == context.codingPath.map(\.stringValue))
    #expect(textContext.debugDescription.hasPrefix(context.debugDescription))
  }
}
