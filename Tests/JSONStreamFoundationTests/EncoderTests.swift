import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("JSONStreamEncoder")
struct EncoderTests {
  struct Order: Codable, Equatable {
    struct Item: Codable, Equatable {
      var sku: String
      var quantity: Int
      var price: Double
    }
    var id: Int
    var customerName: String
    var items: [Item]
    var tags: Set<String>
    var ratios: [String: Float]
    var placedAt: Date
    var note: String?
    var shippedURL: URL?
    var attachment: Data
    var balance: Decimal
    var flags: [Bool?]
  }

  static let order = Order(
    id: 1042, customerName: "Zoë \"Z\" Ångström",
    items: [
      .init(sku: "A-1/2", quantity: 2, price: 9.99), .init(sku: "B", quantity: -1, price: 1e-7),
    ],
    tags: ["gift"], ratios: ["a": 0.1, "b": 3], placedAt: Date(timeIntervalSince1970: 1.8e9),
    note: nil, shippedURL: URL(string: "https://example.com/t?id=1"),
    attachment: Data([0, 1, 2, 250]), balance: Decimal(string: "12345.6789")!,
    flags: [true, nil, false])

  /// Encodes with both encoders, configured alike: the same JSON (as values: numbers compare
  /// by value, members in any order), or both fail.
  func expectParity<T: Encodable>(
    _ value: T, configure: (JSONStreamEncoder, JSONEncoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let ours = JSONStreamEncoder()
    let foundation = JSONEncoder()
    configure(ours, foundation)
    let expected = Result { try foundation.encode(value) }
    let actual = Result { try ours.encode(value) }
    switch (expected, actual) {
    case (.success(let a), .success(let b)):
      #expect(
        try JSONValue(parsing: a) == JSONValue(parsing: b),
        "\(String(decoding: a, as: UTF8.self)) vs \(String(decoding: b, as: UTF8.self))",
        sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(
        "\(type(of: a))" == "\(type(of: b))", "\(a) vs \(b)", sourceLocation: sourceLocation)
    default:
      Issue.record("Foundation: \(expected), ours: \(actual)", sourceLocation: sourceLocation)
    }
  }

  func text(_ value: some Encodable, _ configure: (JSONStreamEncoder) -> Void = { _ in })
    throws -> String
  {
    let encoder = JSONStreamEncoder()
    configure(encoder)
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test("a model encodes as Foundation encodes it, and decodes back")
  func parity() throws {
    try expectParity(Self.order)
    try expectParity([Self.order, Self.order])
    let data = try JSONStreamEncoder().encode(Self.order)
    #expect(try JSONStreamDecoder().decode(Order.self, from: data) == Self.order)
    #expect(try JSONDecoder().decode(Order.self, from: data) == Self.order)
  }

  @Test("top-level fragments, optionals, collections and integers at their limits")
  func values() throws {
    try expectParity(42)
    try expectParity("a/b")
    try expectParity(Optional<Int>.none)
    try expectParity([Int64.min, Int64.max])
    try expectParity([UInt64.max])
    try expectParity([Int8.min, 0, Int8.max])
    try expectParity(["z": [1, 2], "a": []])
    try expectParity([[Double]]([[0.5, -0.0], []]))
    #expect(try text([Int64.min]) == "[-9223372036854775808]")
    #expect(try text([UInt64.max, 0]) == "[18446744073709551615,0]")
    // A Float is written as the float it is, not as the double it widens to.
    #expect(try text([Float(0.1)]) == "[0.1]")
    #expect(
      try text(Decimal(string: "0.1000000000000000000000000001")!)
        == "0.1000000000000000000000000001")
  }

  @Test("output formatting: pretty, sorted keys, slashes, and the writer's own options")
  func formatting() throws {
    struct Pair: Codable {
      var b = "x/y"
      var a = "é"
    }
    #expect(try text(Pair()) == #"{"b":"x\/y","a":"é"}"#)
    #expect(
      try text(Pair()) { $0.outputFormatting = [.sortedKeys, .withoutEscapingSlashes] }
        == #"{"a":"é","b":"x/y"}"#)
    #expect(
      try text(Pair()) { $0.outputFormatting = .prettyPrinted }
        == "{\n  \"b\": \"x\\/y\",\n  \"a\": \"é\"\n}")
    #expect(
      try text(Pair()) { $0.writeOptions.escapeUnicode = true } == #"{"b":"x\/y","a":"\u00e9"}"#)
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect(encoder.outputFormatting == [.prettyPrinted, .sortedKeys])
    #expect(encoder.writeOptions.indent == 2 && encoder.writeOptions.escapeSlash)
    for formatting: JSONStreamEncoder.OutputFormatting in [
      [], .prettyPrinted, .sortedKeys, .withoutEscapingSlashes,
      [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
    ] {
      try expectParity(Self.order) {
        $0.outputFormatting = formatting
        $1.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
      }
    }
    // Sorted keys give Foundation's bytes exactly.
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    #expect(
      try text(Pair()) { $0.outputFormatting = .sortedKeys }
        == String(decoding: try foundation.encode(Pair()), as: UTF8.self))
  }

  @Test("key strategies: as is, to snake_case, custom")
  func keys() throws {
    // Property names as users write them, Swift style or not: the conversion must match.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct Keys: Codable {
      var myURLProperty = 1
      var simple = 2
      var _leading = 3
      var HTTPStatus = 4
      var a1B2 = 5
      var already_snake = 6
    }
    try expectParity(Keys())
    try expectParity(Keys()) {
      $0.keyEncodingStrategy = .convertToSnakeCase
      $1.keyEncodingStrategy = .convertToSnakeCase
    }
    #expect(
      try text(Keys()) { $0.keyEncodingStrategy = .convertToSnakeCase }.contains("my_url_property"))
    let upper: @Sendable ([any CodingKey]) -> any CodingKey = {
      AnyKey(stringValue: $0.last!.stringValue.uppercased() + "\($0.count)")!
    }
    try expectParity(["outer": Keys()]) {
      $0.keyEncodingStrategy = .custom(upper)
      $1.keyEncodingStrategy = .custom(upper)
    }
    #expect(
      try text(Keys()) { $0.keyEncodingStrategy = .custom(upper) }.hasPrefix(
        #"{"MYURLPROPERTY1":1"#))
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  @Test("date, data and non-finite float strategies")
  func strategies() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    let custom: @Sendable (Date, any Encoder) throws -> Void = { date, encoder in
      var container = encoder.unkeyedContainer()
      try container.encode(Int(date.timeIntervalSince1970))
    }
    let nothing: @Sendable (Date, any Encoder) throws -> Void = { _, _ in }
    let dateStrategies:
      [(JSONStreamEncoder.DateEncodingStrategy, JSONEncoder.DateEncodingStrategy)] = [
        (.deferredToDate, .deferredToDate), (.secondsSince1970, .secondsSince1970),
        (.millisecondsSince1970, .millisecondsSince1970), (.iso8601, .iso8601),
        (.formatted(formatter), .formatted(formatter)), (.custom(custom), .custom(custom)),
        (.custom(nothing), .custom(nothing)),
      ]
    for (ours, theirs) in dateStrategies {
      try expectParity(["at": date]) {
        $0.dateEncodingStrategy = ours
        $1.dateEncodingStrategy = theirs
      }
    }
    #expect(
      try text(["at": date]) { $0.dateEncodingStrategy = .iso8601 }
        == #"{"at":"2023-11-14T22:13:20Z"}"#)
    #expect(try text(["at": date]) { $0.dateEncodingStrategy = .custom(nothing) } == #"{"at":{}}"#)

    let bytes = Data([1, 2, 255])
    let hex: @Sendable (Data, any Encoder) throws -> Void = { data, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(data.map { String($0, radix: 16) }.joined())
    }
    let dataStrategies:
      [(JSONStreamEncoder.DataEncodingStrategy, JSONEncoder.DataEncodingStrategy)] = [
        (.base64, .base64), (.deferredToData, .deferredToData), (.custom(hex), .custom(hex)),
      ]
    for (ours, theirs) in dataStrategies {
      try expectParity(["d": bytes]) {
        $0.dataEncodingStrategy = ours
        $1.dataEncodingStrategy = theirs
      }
    }

    let special: [String: [Double]] = ["v": [1.5, .infinity, -.infinity, .nan]]
    try expectParity(special)  // both throw
    do {
      _ = try JSONStreamEncoder().encode(special)
      Issue.record("a non-finite value was encoded")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["v", "Index 1"])
    }
    let strings = JSONStreamEncoder.NonConformingFloatEncodingStrategy.convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    #expect(
      try text(special) { $0.nonConformingFloatEncodingStrategy = strings }
        == #"{"v":[1.5,"+inf","-inf","nan"]}"#)
    #expect(
      try text([Float.nan]) { $0.nonConformingFloatEncodingStrategy = strings } == #"["nan"]"#)
  }

  class Animal: Codable {
    var name = "Rex"
  }

  final class Dog: Animal, @unchecked Sendable {
    var breed = "collie"
    enum Keys: String, CodingKey { case breed, parent }
    override func encode(to encoder: any Encoder) throws {
      try super.encode(to: encoder)  // the same object: both containers fill it
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(breed, forKey: .breed)
      try super.encode(to: container.superEncoder(forKey: .parent))
    }
  }

  struct Manual: Encodable {
    enum Keys: String, CodingKey { case point, list, empty }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var point = container.nestedContainer(keyedBy: Keys.self, forKey: .point)
      try point.encode(1, forKey: .list)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      try list.encode("a")
      var inner = list.nestedUnkeyedContainer()
      try inner.encodeNil()
      try list.encode(2)
      #expect(list.count == 3)
      _ = container.superEncoder(forKey: .empty)  // encodes nothing: {}
    }
  }

  struct Silent: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case square(Double)
    case none
  }

  @Test("hand-written encode(to:): nested and super encoders, subclasses, enums, silence")
  func handWritten() throws {
    try expectParity(Dog())
    #expect(try text(Dog()) == #"{"name":"Rex","breed":"collie","parent":{"name":"Rex"}}"#)
    try expectParity(Manual())
    #expect(try text(Manual()) == #"{"point":{"list":1},"list":["a",[null],2],"empty":{}}"#)
    try expectParity(["s": Silent()])
    #expect(try text(["s": Silent()]) == #"{"s":{}}"#)
    try expectParity(Silent())  // both refuse a top level that encodes nothing
    try expectParity([Shape.circle(radius: 2), .square(3), .none])
  }

  struct Reuse: Encodable {
    enum Keys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var first = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      try container.encode(1, forKey: .b)
      try first.encode(2, forKey: .a)  // its text was closed by the member after it
    }
  }

  @Test("a container used after the encoding moved on fails with a clear error")
  func outOfOrder() throws {
    #expect {
      try JSONStreamEncoder().encode(Reuse())
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.debugDescription.contains("moved on")
        && context.codingPath.map(\.stringValue) == ["a"]
    }
  }

  struct Probe: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(encoder.userInfo[EncoderTests.flag] as? String ?? "none")
    }
  }
  static let flag = CodingUserInfoKey(rawValue: "flag")!

  @Test("userInfo reaches encode(to:)")
  func userInfo() throws {
    #expect(try text(Probe()) { $0.userInfo[Self.flag] = "on" } == #""on""#)
  }

  struct Account: Codable, Equatable, JSONModel {
    var firstName: String
    var password: String?
    var createdAt: Date
    var updatedAt: Date
    var friends: [Account] = []

    static var jsonKeys: [String: String] { ["firstName": "first"] }
    static var jsonExcludedKeys: Set<String> { ["password"] }
    static func jsonDateFormatter(forKey key: String) -> DateFormatter? {
      key == "createdAt" ? EncoderTests.dayFirst : nil
    }
    mutating func willEncode() throws {
      guard !firstName.isEmpty else {
        throw EncodingError.invalidValue(
          firstName, .init(codingPath: [], debugDescription: "no name"))
      }
      firstName = firstName.capitalized
    }
  }

  static let dayFirst: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "dd-MM-yyyy'T'HH:mm:ss.SSS Z"
    return formatter
  }()

  @Test("JSONModel: name map, excluded keys, per-property dates, willEncode on a copy")
  func model() throws {
    let account = Account(
      firstName: "ada", password: "secret", createdAt: Date(timeIntervalSince1970: 0),
      updatedAt: Date(timeIntervalSince1970: 60),
      friends: [
        Account(
          firstName: "bob", password: nil, createdAt: Date(timeIntervalSince1970: 86400),
          updatedAt: Date(timeIntervalSince1970: 0))
      ])
    #expect(
      try text(account) { $0.dateEncodingStrategy = .secondsSince1970 }
        == #"{"first":"Ada","createdAt":"01-01-1970T00:00:00.000 +0000","updatedAt":60,"#
        + #""friends":[{"first":"Bob","createdAt":"02-01-1970T00:00:00.000 +0000","#
        + #""updatedAt":0,"friends":[]}]}"#)
    // The name map wins over the key strategy; other keys convert.
    #expect(
      try text(account.friends[0]) {
        $0.keyEncodingStrategy = .convertToSnakeCase
        $0.dateEncodingStrategy = .secondsSince1970
      }
        == #"{"first":"Bob","created_at":"02-01-1970T00:00:00.000 +0000","updated_at":0,"friends":[]}"#
    )
    var nameless = account
    nameless.firstName = ""
    #expect(throws: EncodingError.self) { try JSONStreamEncoder().encode(nameless) }
  }

  @Test("values written into a writer of yours, one at a time, to a chunked sink")
  func intoWriter() throws {
    var chunks: [[UInt8]] = []
    nonisolated(unsafe) var received: [[UInt8]] = []
    var writer = JSONWriter(
      sink: JSONChunkSink { received.append(Array($0)) }, options: .compact, chunkSize: 64)
    let encoder = JSONStreamEncoder()
    try writer.startArray()
    for id in 0..<100 {
      var order = Self.order
      order.id = id
      try encoder.encode(order, to: &writer)
    }
    try writer.endArray()
    try writer.finish()
    chunks = received
    #expect(chunks.count > 10)
    #expect(chunks.allSatisfy { $0.count <= 64 })
    let orders = try JSONStreamDecoder().decode([Order].self, from: chunks.flatMap { $0 })
    #expect(orders.map(\.id) == Array(0..<100))
    #expect(orders.allSatisfy { $0.items == Self.order.items })
  }

  @Test("a value written into a pretty, sorted writer at depth is indented as if written there")
  func intoPrettyWriter() throws {
    struct Box: Encodable {
      var z = [1, 2]
      var a = ["k": ["x"]]
    }
    var options = JSONWriteOptions.pretty
    options.sortKeys = true
    var writer = JSONWriter(options: options)
    try writer.startObject()
    try writer.key("outer")
    try writer.startArray()
    try JSONStreamEncoder().encode(Box(), to: &writer)
    try writer.endArray()
    try writer.endObject()
    try writer.finish()
    let whole = JSONStreamEncoder()
    whole.writeOptions = options
    let expected = try whole.encodeToBytes(["outer": [Box()]])
    #expect(
      String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    #expect(
      String(decoding: expected, as: UTF8.self).contains("\n      \"a\": {\n        \"k\": ["))
  }
}
