import Foundation
import JSONStream
import JSONStreamFoundation
import JSONStreamTestSupport
import Testing

/// The object-mapping options in full: a property's date format on whatever holds its dates,
/// key maps checked against the coding keys, and streams that pass over bad lines and items.
@Suite("Object mapping: date formats everywhere, checked key maps, skipping")
struct MappingOptionsTests {
  static let day = MappingTests.formatter("yyyy-MM-dd")

  /// Every shape a property's dates come in, each under the model's own format.
  struct Schedule: Codable, Equatable, JSONModel {
    var start: Date
    var end: Date?
    var holidays: [Date]
    var byRegion: [String: Date]
    var weeks: [[Date]]
    var maybeList: [Date]?
    /// A nested type keeps its own dates under the coder's strategy.
    var meeting: Meeting
    var unformatted: Date

    struct Meeting: Codable, Equatable {
      var at: Date
    }

    static func jsonDateFormatter(forKey key: String) -> DateFormatter? {
      ["start", "end", "holidays", "byRegion", "weeks", "maybeList", "meeting"].contains(key)
        ? MappingOptionsTests.day : nil
    }
  }

  static let date1 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
  static let date2 = Date(timeIntervalSince1970: 1_767_312_000)  // 2026-01-02

  @Test("a property's date format applies to its optional, arrays and dictionaries of dates")
  func dateFormatsOnContainers() throws {
    let schedule = Schedule(
      start: Self.date1, end: Self.date2, holidays: [Self.date1, Self.date2],
      byRegion: ["DE": Self.date2], weeks: [[Self.date1], [], [Self.date2]],
      maybeList: [Self.date2], meeting: .init(at: Self.date1), unformatted: Self.date2)
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .secondsSince1970
    let text = String(decoding: try encoder.encode(schedule), as: UTF8.self)
    #expect(
      text
        == #"{"byRegion":{"DE":"2026-01-02"},"end":"2026-01-02","holidays":["2026-01-01","2026-01-02"],"maybeList":["2026-01-02"],"meeting":{"at":1767225600},"start":"2026-01-01","unformatted":1767312000,"weeks":[["2026-01-01"],[],["2026-01-02"]]}"#
    )
    let decoder = JSONStreamDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    #expect(try decoder.decode(Schedule.self, from: Data(text.utf8)) == schedule)
    // Absent optionals stay absent.
    var sparse = schedule
    sparse.end = nil
    sparse.maybeList = nil
    #expect(try decoder.decode(Schedule.self, from: encoder.encode(sparse)) == sparse)
    // A date in the wrong form fails at its path.
    let wrong = text.replacingOccurrences(of: #"["2026-01-01"],[]"#, with: #"["01/01/2026"],[]"#)
    #expect {
      try decoder.decode(Schedule.self, from: Data(wrong.utf8))
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        == ["weeks", "0", "0"]
    }
  }

  struct Misspelt: Codable, JSONModel {
    var firstName: String
    var secret: String?
    static var jsonKeys: [String: String] { ["fristName": "first"] }
    static var jsonExcludedKeys: Set<String> { ["secret", "passwrd"] }
  }

  @Test("a key map naming no coding key is an error naming it, both ways")
  func keyMapsChecked() throws {
    let decodeError = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Misspelt.self, from: Data(#"{"firstName":"a"}"#.utf8))
    }
    guard case .dataCorrupted(let context) = decodeError else { throw decodeError }
    #expect(context.debugDescription.contains(#""fristName", "passwrd""#))
    let encodeError = try #require(throws: EncodingError.self) {
      try JSONStreamEncoder().encode([Misspelt(firstName: "a", secret: nil)])
    }
    guard case .invalidValue(_, let encodeContext) = encodeError else { throw encodeError }
    #expect(encodeContext.debugDescription.contains(#""fristName", "passwrd""#))
    #expect(encodeContext.codingPath.map(\.intValue) == [0])
    // Correct maps are fine, however many values use them.
    #expect(
      try JSONStreamDecoder().decode([MappingTests.Person].self, from: Data("[]".utf8)).isEmpty)
  }

  /// A model class whose subclass maps a property of its own, and whose superclass has a
  /// date property with a format: both containers of one value.
  class Base: Codable, JSONModel {
    var createdAt: Date
    init(createdAt: Date) { self.createdAt = createdAt }
    class var keyMap: [String: String] { ["createdAt": "created"] }
    static var jsonKeys: [String: String] { keyMap }
    static func jsonDateFormatter(forKey key: String) -> DateFormatter? {
      key == "createdAt" ? MappingOptionsTests.day : nil
    }
  }

  final class Derived: Base {
    var nickName: String
    enum Keys: String, CodingKey { case nickName }
    init(nickName: String, createdAt: Date) {
      self.nickName = nickName
      super.init(createdAt: createdAt)
    }
    override class var keyMap: [String: String] { ["nickName": "nick", "createdAt": "created"] }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      nickName = try container.decode(String.self, forKey: .nickName)
      try super.init(from: decoder)
    }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(nickName, forKey: .nickName)
      try super.encode(to: encoder)
    }
  }

  @Test("a subclass's maps name its own and its superclass's keys; one value, two containers")
  func classHierarchyMaps() throws {
    let value = Derived(nickName: "n", createdAt: Self.date1)
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(text == #"{"created":"2026-01-01","nick":"n"}"#)
    let back = try JSONStreamDecoder().decode(Derived.self, from: Data(text.utf8))
    #expect(back.nickName == "n" && back.createdAt == Self.date1)
  }

  @Test("a misspelt map fails every value, not only the first of a stream")
  func keyMapsCheckedEveryValue() throws {
    var failures = 0
    let values = try JSONStreamDecoder().decodeValidLines(
      Misspelt.self, from: Data(#"{"firstName":"a"}\#n{"firstName":"b"}"#.utf8)
    ) { _ in failures += 1 }
    #expect(values.isEmpty && failures == 2)
  }

  struct Event: Codable, Equatable, Sendable {
    var id: Int
    var name: String
  }

  static let lines = """
    {"id":1,"name":"a"}
    {"id":2,"name":
    {"id":"three","name":"c"}

    {"id":4,"name":"d"}
    [1,2]
    {"id":6,"name":"f"}
    """

  @Test("decodeLines passes over bad lines and reports each with its line and error")
  func skippingLines() throws {
    var failures: [JSONDocumentReader.Failure] = []
    let events = try JSONStreamDecoder().decodeValidLines(Event.self, from: Data(Self.lines.utf8)) {
      failures.append($0)
    }
    #expect(events.map(\.id) == [1, 4, 6])
    #expect(failures.map(\.line) == [2, 3, 6])
    #expect(failures.map(\.index) == [1, 2, 4])
    #expect(failures.map(\.column) == [1, 1, 1])
    // The error is the one decodeLines throws for that line, with its position in the input.
    #expect("\(failures[0].error)".contains("line 2, column 16"))
    #expect(failures[1].error is DecodingError && "\(failures[1].error)".contains("line 3"))
    // The same lines past the input limit go through the document reader: same outcome.
    let limited = JSONStreamDecoder()
    limited.parseOptions.limits.maxInputLength = Self.lines.utf8.count - 3
    var limitedFailures: [Int] = []
    #expect(throws: DecodingError.self) {
      _ = try limited.decodeValidLines(Event.self, from: Data(Self.lines.utf8)) {
        limitedFailures.append($0.line)
      }
    }
    #expect(limitedFailures == [2, 3, 6])
    // Invalid options are the call's fault, not a line's.
    let invalid = JSONStreamDecoder()
    invalid.parseOptions.limits.maxDepth = -1
    #expect(throws: DecodingError.self) {
      _ = try invalid.decodeValidLines(Event.self, from: Data(Self.lines.utf8)) { _ in }
    }
  }

  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
  }

  @Test("async decodeLines passes over bad lines the same way")
  func skippingLinesAsync() async throws {
    let collected = Collected()
    let chunks = Array(Self.lines.utf8).chunked(5)
    var ids: [Int] = []
    for try await event in AsyncChunks(chunks: chunks).decodeValidLines(
      Event.self, skipping: { collected.add("\($0.line)") })
    {
      ids.append(event.id)
    }
    #expect(ids == [1, 4, 6])
    #expect(collected.lines == ["2", "3", "6"])
  }

  @Test("items that do not decode are passed over and reported; bad JSON still ends them")
  func skippingItems() async throws {
    let text = #"{"events":[{"id":1,"name":"a"},{"id":"x","name":"b"},{"id":3,"name":"c"}]}"#
    var skipped: [DecodingError] = []
    let events = try JSONStreamDecoder().decodeValidItems(
      Event.self, at: "$.events[*]", from: Data(text.utf8)
    ) { skipped.append($0) }
    #expect(events.map(\.id) == [1, 3])
    #expect(skipped.count == 1)
    if case .typeMismatch(_, let context) = skipped.first {
      #expect(
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["1", "id"])
    } else {
      Issue.record("expected a type mismatch, got \(skipped)")
    }
    // Chunk by chunk, the same.
    var items = try JSONStreamDecoder.ItemDecoder(Event.self, at: "$.events[*]") { _ in }
    var ids: [Int] = []
    for chunk in Array(text.utf8).chunked(7) { ids += try items.feed(chunk).map(\.id) }
    ids += try items.finish().map(\.id)
    #expect(ids == [1, 3] && items.count == 2)
    // A syntax error ends the items after those before it.
    let broken = #"{"events":[{"id":1,"name":"a"},{"id":2,"name" "b"}]}"#
    #expect(throws: DecodingError.self) {
      _ = try JSONStreamDecoder().decodeValidItems(
        Event.self, at: "$.events[*]", from: Data(broken.utf8)
      ) { _ in }
    }
    // Async.
    let collected = Collected()
    var asyncIDs: [Int] = []
    for try await event in try AsyncChunks(chunks: Array(text.utf8).chunked(9)).decodeValidItems(
      Event.self, at: "$.events[*]", skipping: { collected.add("\($0)") })
    {
      asyncIDs.append(event.id)
    }
    #expect(asyncIDs == [1, 3] && collected.lines.count == 1)
  }
}

extension Array {
  /// The array in pieces of `size` elements (the last may be shorter).
  func chunked(_ size: Int) -> [[Element]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min(count, $0 + size)]) }
  }
}

@Suite("Snake-case keys: members found in any order, the first of equal keys winning")
struct SnakeCaseLookupTests {
  struct Wide: Decodable, Equatable {
    var fieldA, fieldB, fieldC, fieldD, fieldE, fieldF, fieldG, fieldH, fieldI, fieldJ: Int
    var fieldK, fieldL, fieldM, fieldN, fieldO, fieldP, fieldQ, fieldR, fieldS, fieldT: Int
    var userName: String?
  }

  static func decoder() -> JSONStreamDecoder {
    let decoder = JSONStreamDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }

  @Test("small and wide objects, members in order, reversed and repeated, as Foundation reads")
  func lookups() throws {
    let letters = "ABCDEFGHIJKLMNOPQRST".map(String.init)
    func object(_ names: [String], extra: String = "") -> Data {
      Data(
        ("{"
          + names.enumerated().map { "\"field_\($1.lowercased())\":\($0)" }.joined(separator: ",")
          + extra + "}").utf8)
    }
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    for names in [letters, letters.reversed(), Array(letters[10...] + letters[..<10])] {
      for extra in [
        "", #","user_name":"first","userName":"second""#,
        #","userName":"plain","user_name":"snake""#,
      ] {
        let data = object(names, extra: extra)
        #expect(
          try Self.decoder().decode(Wide.self, from: data)
            == foundation.decode(Wide.self, from: data), "\(String(decoding: data, as: UTF8.self))")
      }
    }
    // A small object with two members that convert to one key: the first wins.
    struct Small: Decodable, Equatable {
      var userName: String
      var id: Int
    }
    for text in [
      #"{"id":1,"user_name":"a","user__name":"b","userName":"c"}"#,
      #"{"userName":"c","id":1,"user_name":"a"}"#,
    ] {
      let data = Data(text.utf8)
      #expect(
        try Self.decoder().decode(Small.self, from: data)
          == foundation.decode(Small.self, from: data), "\(text)")
    }
  }
}
