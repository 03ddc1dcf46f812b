import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("Codable in the binary format")
struct BinaryCodableTests {
  struct Record: Codable, Equatable {
    var id: Int
    var name: String
    var score: Double
    var ratio: Float
    var createdAt: Date
    var avatar: Data
    var tags: Set<String>
    var history: [Int64]
    var balance: Decimal
    var homePage: URL?
    var note: String?
    var children: [Record]
  }

  static let record = Record(
    id: 7, name: "Zoë", score: 0.1, ratio: 0.25,
    createdAt: Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7),
    avatar: Data([0, 1, 2, 255]), tags: ["a", "b", "c"], history: [Int64.min, 0, Int64.max],
    balance: Decimal(string: "12345.6789")!, homePage: URL(string: "https://example.com/z"),
    note: nil,
    children: [
      Record(
        id: 8, name: "child", score: -2.5, ratio: 1, createdAt: Date(timeIntervalSince1970: 0),
        avatar: Data(), tags: [], history: [], balance: 0, homePage: nil, note: "n",
        children: [])
    ])

  @Test("a model round-trips exactly, dates to the last bit, and is smaller than its JSON")
  func roundTrip() throws {
    let binary = try JSONStreamEncoder().encodeBinary(Self.record)
    let back = try JSONStreamDecoder().decode(Record.self, fromBinary: binary)
    #expect(back == Self.record)
    #expect(
      back.createdAt.timeIntervalSinceReferenceDate
        == Self.record.createdAt.timeIntervalSinceReferenceDate)
    #expect(binary.count < (try JSONStreamEncoder().encode(Self.record)).count)
    // Native tags: a date, data, a set.
    #expect(binary.contains(0x31) && binary.contains(0x30) && binary.contains(0x32))
    // The strategies for JSON do not apply; the key strategy does, both ways.
    let encoder = JSONStreamEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let decoder = JSONStreamDecoder()
    decoder.dateDecodingStrategy = .iso8601
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(
      try decoder.decode(Record.self, fromBinary: encoder.encodeBinary(Self.record)) == Self.record)
    // Top-level scalars and collections.
    #expect(
      try JSONStreamDecoder().decode(
        [Set<Int>].self, fromBinary: JSONStreamEncoder().encodeBinary([Set([1, 2])])) == [
          Set([1, 2])
        ])
    #expect(
      try JSONStreamDecoder().decode(String.self, fromBinary: JSONStreamEncoder().encodeBinary("x"))
        == "x")
  }

  @Test(
    "binary converts to JSON: a date as its seconds since 2001, data as base64, a set as an array")
  func asJSON() throws {
    struct Small: Codable {
      var at = Date(timeIntervalSinceReferenceDate: 1.5)
      var bytes = Data([1, 2, 3])
      var set: Set<Int> = [4]
    }
    let binary = try JSONStreamEncoder().encodeBinaryToBytes(Small())
    var reader = JSONBinaryReader(handler: JSONWriter())
    try reader.feed(binary)
    try reader.finish()
    try reader.handler.finish()
    #expect(
      String(decoding: reader.handler.bytes, as: UTF8.self)
        == #"{"at":1.5,"bytes":"AQID","set":[4]}"#)
  }

  @Test("bad binary is dataCorrupted naming the byte; a wrong type is the usual DecodingError")
  func errors() throws {
    var binary = try JSONStreamEncoder().encodeBinaryToBytes(Self.record)
    binary.removeLast(5)
    let truncated = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Record.self, fromBinary: binary)
    }
    guard case .dataCorrupted(let context) = truncated else { return }
    #expect(context.underlyingError is JSONParseError)
    #expect(context.debugDescription.contains("byte "))
    let wrong = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Int.self, fromBinary: JSONStreamEncoder().encodeBinary("x"))
    }
    guard case .typeMismatch = wrong else {
      Issue.record("\(wrong)")
      return
    }
  }

  @Test("binary doubles decode as each floating-point type as their JSON text does")
  func floatingPoint() throws {
    let doubles = [
      0.1, -0.0, 3.5, 1e-7, 123_456.789, Double.greatestFiniteMagnitude,
      Double.leastNonzeroMagnitude,
    ]
    let binary = try JSONStreamEncoder().encodeBinary(doubles)
    let decoder = JSONStreamDecoder()
    let back = try decoder.decode([Double].self, fromBinary: binary)
    #expect(back.map(\.bitPattern) == doubles.map(\.bitPattern))
    // Within Float's range: the same Float as from the text. Beyond it, or too small to be
    // anything but zero: the same error, naming the number.
    let inRange = Array(doubles[0..<5])
    #expect(
      try decoder.decode([Float].self, fromBinary: JSONStreamEncoder().encodeBinary(inRange))
        == decoder.decode([Float].self, from: JSONStreamEncoder().encode(inRange)))
    for outside in [1e300, -1e300, Double.leastNonzeroMagnitude, -1e-300] {
      let error = try #require(throws: DecodingError.self) {
        try decoder.decode([Float].self, fromBinary: JSONStreamEncoder().encodeBinary([outside]))
      }
      guard case .dataCorrupted(let context) = error else {
        Issue.record("\(outside): \(error)")
        continue
      }
      #expect(context.debugDescription.contains("does not fit in Float"), "\(context)")
      #expect(context.debugDescription.contains("<\(outside)>"), "\(context)")
    }
  }

  /// JSON text in the binary format, as `jsonstream convert --to binary` makes it: its dates
  /// are whatever the text held, strings or numbers.
  static func binary(fromJSON text: String) throws -> [UInt8] {
    var writer = try JSONParser.parse(Array(text.utf8), handler: JSONBinaryWriter())
    try writer.finish()
    return writer.bytes
  }

  struct Event: Codable, Equatable {
    var name: String
    var at: Date
  }

  @Test("binary made from JSON text: string dates are read with the date strategy")
  func stringDatesFromJSON() throws {
    let at = Date(timeIntervalSince1970: 1_767_225_600.25)  // 2026-01-01T00:00:00.250Z
    let binary = try Self.binary(fromJSON: #"{"name":"launch","at":"2026-01-01T00:00:00.250Z"}"#)
    let iso = JSONStreamDecoder()
    iso.dateDecodingStrategy = .iso8601
    #expect(try iso.decode(Event.self, fromBinary: binary) == Event(name: "launch", at: at))

    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    let formatted = JSONStreamDecoder()
    formatted.dateDecodingStrategy = .formatted(formatter)
    #expect(
      try formatted.decode(
        Event.self, fromBinary: Self.binary(fromJSON: #"{"name":"d","at":"2026-01-01"}"#))
        == Event(name: "d", at: Date(timeIntervalSince1970: 1_767_225_600)))

    let custom = JSONStreamDecoder()
    custom.dateDecodingStrategy = .custom { decoder in
      let text = try decoder.singleValueContainer().decode(String.self)
      return Date(timeIntervalSince1970: Double(text.dropFirst(2))!)
    }
    #expect(
      try custom.decode(Event.self, fromBinary: Self.binary(fromJSON: #"{"name":"c","at":"t=60"}"#))
        == Event(name: "c", at: Date(timeIntervalSince1970: 60)))

    // The default strategy reads a date from a number, as for JSON text: a string is a type
    // mismatch at the member, not a crash or a wrong date.
    let mismatch = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Event.self, fromBinary: binary)
    }
    guard case .typeMismatch(_, let context) = mismatch else {
      Issue.record("\(mismatch)")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["at"])
  }

  @Test("native dates stay native under any date strategy, and under a model's date format")
  func nativeDatesUnderStrategies() throws {
    let event = Event(name: "n", at: Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7))
    let binary = try JSONStreamEncoder().encodeBinary(event)
    for strategy: JSONStreamDecoder.DateDecodingStrategy in [
      .iso8601, .secondsSince1970, .millisecondsSince1970, .deferredToDate,
    ] {
      let decoder = JSONStreamDecoder()
      decoder.dateDecodingStrategy = strategy
      #expect(try decoder.decode(Event.self, fromBinary: binary) == event)
    }
    let schedule = MappingOptionsTests.Schedule(
      start: MappingOptionsTests.date1, end: nil, holidays: [MappingOptionsTests.date2],
      byRegion: [:], weeks: [], maybeList: nil, meeting: .init(at: MappingOptionsTests.date1),
      unformatted: MappingOptionsTests.date2)
    let scheduleBinary = try JSONStreamEncoder().encodeBinary(schedule)
    #expect(
      try JSONStreamDecoder().decode(MappingOptionsTests.Schedule.self, fromBinary: scheduleBinary)
        == schedule)
  }

  /// The JSON text the binary `bytes` read as.
  static func json(_ bytes: [UInt8]) throws -> String {
    var reader = JSONBinaryReader(handler: JSONWriter())
    try reader.feed(bytes)
    try reader.finish()
    try reader.handler.finish()
    return String(decoding: reader.handler.bytes, as: UTF8.self)
  }

  struct Point: Codable, Hashable {
    var x: Int
    var y: Int
  }

  enum Color: String, Codable, CodingKeyRepresentable {
    case red, green
  }

  struct Maps: Codable, Equatable {
    var byId: [Int: String]
    var byRatio: [Double: [String]]
    var byPoint: [Point: Int]
    var byColor: [Color: Int]
    var nested: [Int: [Int: Bool]]
    var byName: [String: Int]
  }

  @Test("dictionaries whose keys are not strings are maps, their keys kept as they are")
  func maps() throws {
    let maps = Maps(
      byId: [1: "a", -7: "b"], byRatio: [0.5: ["x"], 2: []], byPoint: [Point(x: 1, y: 2): 3],
      byColor: [.red: 1], nested: [5: [6: true]], byName: ["k": 1])
    let binary = try JSONStreamEncoder().encodeBinaryToBytes(maps)
    #expect(binary.contains(0x33))
    #expect(try JSONStreamDecoder().decode(Maps.self, fromBinary: binary) == maps)
    // Read as JSON, a map is its keys and values alternately: an `Int` key is a number.
    let one = try JSONStreamEncoder().encodeBinaryToBytes([7: "seven"])
    #expect(try Self.json(one) == #"[7,"seven"]"#)
    // Which is how Codable itself reads a `[Double: _]`, so its JSON decodes too.
    let ratios = try JSONStreamEncoder().encodeBinaryToBytes([0.5: "half"])
    #expect(
      try JSONStreamDecoder().decode([Double: String].self, from: Data(try Self.json(ratios).utf8))
        == [0.5: "half"])
    // Only binary output changes: JSON keeps Foundation's object for integer keys.
    #expect(
      String(decoding: try JSONStreamEncoder().encode([7: "seven"]), as: UTF8.self)
        == #"{"7":"seven"}"#)
    // Binary made without maps (before 1.3, or from JSON text) still decodes.
    #expect(
      try JSONStreamDecoder().decode(
        [Int: String].self, fromBinary: Self.binary(fromJSON: #"{"7":"x"}"#))
        == [7: "x"])
    #expect(
      try JSONStreamDecoder().decode(
        [Double: String].self, fromBinary: Self.binary(fromJSON: #"[1.5,"x"]"#))
        == [1.5: "x"])
    // An odd array, and a key of the wrong type, are errors naming where.
    #expect(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(
        [Int: String].self, fromBinary: Self.binary(fromJSON: #"[1,"x",2]"#))
    }
    let wrongKey = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode([Int: String].self, fromBinary: ratios)
    }
    // A 0.5 where an Int goes: as from JSON text, "does not fit", at the key's index.
    guard case .dataCorrupted(let context) = wrongKey else {
      Issue.record("\(wrongKey)")
      return
    }
    #expect(context.codingPath.map(\.intValue) == [0])
  }

  /// An ordered set of our own (swift-collections' `OrderedSet` conforms the same way).
  struct Ordered: Codable, Equatable, Sequence, JSONBinaryOrderedSet {
    var elements: [String]
    init(_ elements: [String]) { self.elements = elements }
    init(from decoder: any Decoder) throws {
      elements = try decoder.singleValueContainer().decode([String].self)
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(elements)
    }
    func makeIterator() -> IndexingIterator<[String]> { elements.makeIterator() }
  }

  @Test("an ordered set is native in binary, its order kept; JSON output is unchanged")
  func orderedSets() throws {
    let value = ["tags": Ordered(["z", "a", "m"])]
    let binary = try JSONStreamEncoder().encodeBinaryToBytes(value)
    #expect(binary.contains(0x34))
    #expect(try JSONStreamDecoder().decode([String: Ordered].self, fromBinary: binary) == value)
    #expect(try Self.json(binary) == #"{"tags":["z","a","m"]}"#)
    #expect(
      String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
        == #"{"tags":["z","a","m"]}"#)
  }

  final class Author: Codable {
    var name: String
    var nickname: String?
    init(_ name: String, nickname: String? = nil) {
      self.name = name
      self.nickname = nickname
    }
  }

  /// A class whose instances all encode as `{}`: told apart by identity alone.
  final class Token: Codable {}

  struct Post: Codable {
    var title: String
    var author: Author
    var token: Token
  }

  @Test("keepsObjectIdentity: a shared instance decodes as one instance, written once")
  func objectIdentity() throws {
    let ann = Author("Ann", nickname: String(repeating: "a long nickname ", count: 8))
    let bob = Author("Bob")
    let token = Token()
    let posts = [
      Post(title: "a", author: ann, token: token), Post(title: "b", author: bob, token: Token()),
      Post(title: "c", author: ann, token: token),
    ]
    let encoder = JSONStreamEncoder()
    encoder.keepsObjectIdentity = true
    let graph = try encoder.encodeBinaryToBytes(posts)
    let plain = try JSONStreamEncoder().encodeBinaryToBytes(posts)
    // Each instance written once: the second "Ann" and token are a reference each.
    #expect(graph.count < plain.count)
    let back = try JSONStreamDecoder().decode([Post].self, fromBinary: graph)
    #expect(back.map(\.author.name) == ["Ann", "Bob", "Ann"])
    #expect(back[0].author === back[2].author && back[0].author !== back[1].author)
    #expect(back[0].token === back[2].token && back[0].token !== back[1].token)
    // Without it, each place is an instance of its own.
    let apart = try JSONStreamDecoder().decode([Post].self, fromBinary: plain)
    #expect(apart[0].author !== apart[2].author)
    // Read as JSON, a reference is a copy: the JSON of the same value.
    #expect(
      try Self.json(graph)
        == String(decoding: try JSONStreamEncoder().encode(posts), as: UTF8.self))

    // A cycle is still refused, naming the type, whatever the option.
    final class Node: Codable {
      var next: Node?
    }
    let node = Node()
    node.next = node
    defer { node.next = nil }
    #expect(throws: EncodingError.self) { try encoder.encodeBinary(node) }

    // One instance read as two types: the second place is a type mismatch, not a wrong cast.
    struct Mixed: Codable {
      var author: Author
      var token: Token
    }
    struct Twice: Codable {
      var first: Author
      var second: Author
    }
    let twice = try encoder.encodeBinaryToBytes(Twice(first: ann, second: ann))
    let both = try JSONStreamDecoder().decode(Twice.self, fromBinary: twice)
    #expect(both.first === both.second)
    #expect(throws: DecodingError.self) {
      struct Other: Codable {
        var first: Author
        var second: Token
      }
      _ = try JSONStreamDecoder().decode(Other.self, fromBinary: twice)
    }
  }

  final class Pair: Codable {
    let left: Pair?
    let right: Pair?
    init(_ inner: Pair?) {
      left = inner
      right = inner
    }
  }

  @Test("a graph that shares widely decodes; one whose copies would be too many is an error")
  func objectGraphBounds() throws {
    let encoder = JSONStreamEncoder()
    encoder.keepsObjectIdentity = true
    // 10 levels of pairs of one instance: 1,024 copies of the innermost, as JSON.
    var pair = Pair(nil)
    for _ in 0..<10 { pair = Pair(pair) }
    let small = try encoder.encodeBinaryToBytes(pair)
    let back = try JSONStreamDecoder().decode(Pair.self, fromBinary: small)
    #expect(back.left === back.right && back.left!.left === back.right!.right)
    // 40 levels: 2^40 copies as JSON. Encoded in a few hundred bytes; read, it is refused
    // at a reference, as it would be read as JSON.
    for _ in 0..<30 { pair = Pair(pair) }
    let huge = try encoder.encodeBinaryToBytes(pair)
    #expect(huge.count < 1000)
    let error = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Pair.self, fromBinary: huge)
    }
    #expect(Self.parseError(error)?.kind == .limitExceeded(.inputLength), "\(error)")
  }

  /// The parse error under a `dataCorrupted` error, if any.
  static func parseError(_ error: DecodingError) -> JSONParseError? {
    guard case .dataCorrupted(let context) = error else { return nil }
    return context.underlyingError as? JSONParseError
  }

  final class Node: Codable {
    let children: [Node]
    init(_ children: [Node]) { self.children = children }
  }

  @Test("references count toward maxDepth as copies would: a chain of shallow values")
  func objectGraphDepth() throws {
    // Each node is written at the top of the array, holding a reference to the one before:
    // shallow in the bytes, but node k stands for 2k + 1 levels.
    var nodes = [Node([])]
    for _ in 0..<30 { nodes.append(Node([nodes.last!])) }
    let encoder = JSONStreamEncoder()
    encoder.keepsObjectIdentity = true
    let bytes = try encoder.encodeBinaryToBytes(nodes)
    let back = try JSONStreamDecoder().decode([Node].self, fromBinary: bytes)
    #expect(back[30].children[0] === back[29])
    let decoder = JSONStreamDecoder()
    decoder.parseOptions.limits.maxDepth = 40
    let error = try #require(throws: DecodingError.self) {
      try decoder.decode([Node].self, fromBinary: bytes)
    }
    #expect(Self.parseError(error)?.kind == .limitExceeded(.depth), "\(error)")
  }
}
