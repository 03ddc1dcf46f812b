import Foundation
import JSONStream
import JSONStreamFoundation
import JSONStreamTestSupport
import Testing

@Suite("Replay: Foundation trees as events")
struct ReplayTests {
  func replay(_ value: Any, sortedKeys: Bool = true) throws -> [Event] {
    var recorder = EventRecorder()
    try JSONFoundation.replay(value, into: &recorder, sortedKeys: sortedKeys)
    return recorder.events
  }

  func replayError(_ value: Any) throws -> JSONFoundationError {
    try #require(throws: JSONFoundationError.self) { _ = try replay(value) }
  }

  @Test("a Foundation tree built in code")
  func foundationTree() throws {
    let tree = NSDictionary(
      objects: [
        NSArray(
          objects: NSNumber(value: 1), NSNumber(value: -2.5), NSNumber(value: true), NSNull()),
        NSString(string: "héllo \"😀\""),
        NSNumber(value: false),
        NSDecimalNumber(string: "123456789012345678901234567890"),
        NSNumber(value: UInt64.max),
        NSNumber(value: Int64.min),
        NSMutableDictionary(),
        NSMutableArray(),
        NSMutableString(string: "m"),
      ],
      forKeys: ["a", "b", "c", "d", "e", "f", "g", "h", "i"].map { NSString(string: $0) })
    #expect(
      try replay(tree)
        == [
          .startObject,
          .key("a"), .startArray, .number("1"), .number("-2.5"), .bool(true), .null, .endArray,
          .key("b"), .string("héllo \"😀\""),
          .key("c"), .bool(false),
          .key("d"), .number("123456789012345678901234567890"),
          .key("e"), .number("18446744073709551615"),
          .key("f"), .number("-9223372036854775808"),
          .key("g"), .startObject, .endObject,
          .key("h"), .startArray, .endArray,
          .key("i"), .string("m"),
          .endObject,
        ])
  }

  @Test("Swift values, as JSONSerialization accepts them")
  func swiftValues() throws {
    let optionals: [Int?] = [7, nil]
    let tree: [String: Any] = [
      "bool": true, "int": 42, "int8": Int8(-3), "uint64": UInt64.max, "uint8": UInt8(255),
      "double": 2.5, "float": Float(0.1), "small": 1e-7, "large": 1e22, "whole": 5.0,
      "negativeZero": -0.0, "decimal": Decimal(string: "1.25")!, "string": "s",
      "cgFloat": CGFloat(0.5),
      "optionals": optionals, "nested": [["x": [Any]()]], "null": NSNull(),
    ]
    #expect(
      try replay(tree)
        == [
          .startObject,
          .key("bool"), .bool(true),
          .key("cgFloat"), .number("0.5"),
          .key("decimal"), .number("1.25"),
          .key("double"), .number("2.5"),
          .key("float"), .number("0.1"),
          .key("int"), .number("42"),
          .key("int8"), .number("-3"),
          .key("large"), .number("1e+22"),
          .key("negativeZero"), .number("-0.0"),
          .key("nested"), .startArray, .startObject, .key("x"), .startArray, .endArray,
          .endObject, .endArray,
          .key("null"), .null,
          .key("optionals"), .startArray, .number("7"), .null, .endArray,
          .key("small"), .number("1e-07"),
          .key("string"), .string("s"),
          .key("uint64"), .number("18446744073709551615"),
          .key("uint8"), .number("255"),
          .key("whole"), .number("5.0"),
          .endObject,
        ])
  }

  @Test("top-level scalars replay as one event")
  func scalars() throws {
    #expect(try replay("x") == [.string("x")])
    #expect(try replay(NSNumber(value: 3)) == [.number("3")])
    #expect(try replay(false) == [.bool(false)])
    #expect(try replay(NSNull()) == [.null])
    #expect(try replay(Optional<Int>.none as Any) == [.null])
  }

  @Test("numbers replay as text that parses back to the same value")
  func numberText() throws {
    let doubles: [Double] = [
      0.1, 1e-7, 1e22, 1e21, 123_456_789.125, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
      -0.0, 100, 1.5e300,
    ]
    for double in doubles {
      let events = try replay(double)
      guard case .number(let text) = events.first else {
        Issue.record("no number for \(double)")
        continue
      }
      #expect(Double(text) == double, "\(text)")
      // Valid JSON number text: the parser takes it as it is.
      #expect(try parsedEvents(text) == [.number(text)])
    }
  }

  @Test("key order: the dictionary's own, or sorted by UTF-8 bytes")
  func keyOrder() throws {
    let keys = ["z", "é", "Z", "\u{10000}", "a", "\u{FFFF}", "aa", ""]
    let dictionary = NSDictionary(
      objects: keys.indices.map { NSNumber(value: $0) }, forKeys: keys.map { NSString(string: $0) })
    func replayedKeys(sorted: Bool) throws -> [String] {
      try replay(dictionary, sortedKeys: sorted).compactMap {
        if case .key(let key) = $0 { return key }
        return nil
      }
    }
    // Code point order: U+FFFF before U+10000 (UTF-16 order would put the surrogates first).
    #expect(
      try replayedKeys(sorted: true) == ["", "Z", "a", "aa", "z", "é", "\u{FFFF}", "\u{10000}"])
    var enumerated: [String] = []
    for key in dictionary.keyEnumerator() { enumerated.append(key as! String) }
    #expect(try replayedKeys(sorted: false) == enumerated)
  }

  @Test("a replayed tree builds back into the same tree", arguments: BuilderTests.awkwardDocuments)
  func roundTrip(text: String) throws {
    let tree = try ourTree(text)
    var builder = JSONFoundationBuilder()
    try JSONFoundation.replay(tree, into: &builder)
    let rebuilt = try #require(builder.value)
    // The same JSON: number kinds may differ (a decimal that replays as an integer's text
    // reads back as an integer), values may not.
    var sorted = JSONWriteOptions()
    sorted.sortKeys = true
    #expect(
      try JSONFoundation.bytes(withJSONObject: rebuilt, options: sorted)
        == JSONFoundation.bytes(withJSONObject: tree, options: sorted))
    // And replaying the rebuilt tree gives the same events again.
    #expect(try replay(rebuilt) == (try replay(tree)))
  }

  @Test(
    "corpus trees, ours and JSONSerialization's, replay into equal trees",
    .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"),
    arguments: SharedData.corpusNames)
  func corpusRoundTrip(name: String) throws {
    let data = try SharedData.corpusData(name)
    let ours = try JSONFoundation.object(with: data)
    let theirs = try JSONSerialization.jsonObject(with: data)
    var fromOurs = JSONFoundationBuilder()
    try JSONFoundation.replay(ours, into: &fromOurs, sortedKeys: true)
    var fromTheirs = JSONFoundationBuilder()
    try JSONFoundation.replay(theirs, into: &fromTheirs, sortedKeys: true)
    expectSameTree(try #require(fromOurs.value), ours)
    expectSameTree(try #require(fromTheirs.value), ours)
    // Sorted keys make the event streams identical, whatever each dictionary's order.
    let same = try replay(ours) == (try replay(theirs))
    #expect(same)
  }

  // MARK: Errors

  @Test("a non-string key is an error, with its path")
  func nonStringKey() throws {
    let nsKeyed = NSDictionary(
      objects: [
        NSArray(objects: NSString(string: "x"), NSDictionary(object: 1, forKey: NSNumber(value: 5)))
      ],
      forKeys: [NSString(string: "list")])
    let error = try replayError(nsKeyed)
    #expect(error.kind == .nonStringKey)
    #expect(error.path == #"$["list"][1]"#)
    #expect(error.description.contains("at $[\"list\"][1]"))

    let swiftKeyed: [Int: Any] = [1: "one"]
    #expect(try replayError(["a": swiftKeyed]).kind == .nonStringKey)
    let mixedKeys: [AnyHashable: Any] = ["s": 1, 2: 2]
    #expect(try replayError(mixedKeys).kind == .nonStringKey)
    let stringKeys: [AnyHashable: Any] = ["s": 1]
    #expect(try replay(stringKeys) == [.startObject, .key("s"), .number("1"), .endObject])
  }

  struct Point { var x = 1 }
  final class Thing {}

  @Test("values with no JSON form are errors")
  func unsupported() throws {
    let values: [Any] = [
      Date(), NSDate(), Data([1]), NSData(), Point(), Thing(), URL(fileURLWithPath: "/"),
      NSObject(), Set([1]), Substring("x"), Character("c"),
    ]
    for value in values {
      let error = try replayError(["ok": 1, "bad": [value]])
      #expect(error.kind == .unsupportedType, "\(type(of: value))")
      #expect(error.path == #"$["bad"][0]"#, "\(type(of: value))")
    }
  }

  @Test("NaN and the infinities are errors")
  func nonFinite() throws {
    let values: [Any] = [
      Double.nan, Double.infinity, -Double.infinity, Float.nan, Float.infinity,
      NSNumber(value: Double.nan), NSNumber(value: -Double.infinity), NSNumber(value: Float.nan),
      NSDecimalNumber.notANumber, Decimal.nan,
    ]
    for value in values {
      let error = try replayError([value])
      #expect(error.kind == .nonFiniteNumber, "\(value)")
      #expect(error.path == "$[0]")
    }
  }

  @Test("a container that contains itself is an error, not an endless walk")
  func cycle() throws {
    let array = NSMutableArray()
    let dictionary = NSMutableDictionary()
    dictionary["self"] = array
    array.add(dictionary)
    let error = try replayError(array)
    #expect(error.kind == .cyclicReference)
    #expect(error.path == #"$[0]["self"]"#)
    array.removeAllObjects()  // breaks the cycle, so that both are released

    // The same object twice, side by side, is no cycle.
    let shared = NSArray(object: NSNumber(value: 1))
    #expect(
      try replay(NSArray(objects: shared, shared))
        == [
          .startArray, .startArray, .number("1"), .endArray, .startArray, .number("1"), .endArray,
          .endArray,
        ])
  }

  // MARK: Handler control

  @Test("replay stops once the handler is done")
  func stopsWhenDone() throws {
    var recorder = EventRecorder(limit: 3)
    try JSONFoundation.replay([[1, 2], [3]] as [Any], into: &recorder)
    #expect(recorder.events == [.startArray, .startArray, .number("1")])
  }

  struct Failure: Error, Equatable {}
  struct FailingHandler: JSONEventHandler {
    mutating func string(_ value: borrowing JSONString) throws { throw Failure() }
  }

  @Test("the handler's errors come through unchanged")
  func handlerError() throws {
    var handler = FailingHandler()
    #expect(throws: Failure()) { try JSONFoundation.replay(["a", "b"], into: &handler) }
  }

  @Test("a tree 100,000 levels deep replays without recursion")
  func deepNesting() throws {
    try onLargeStack {
      let depth = 100_000
      var foundation: AnyObject = NSArray()
      var swift: Any = [Any]()
      for _ in 1..<depth {
        foundation = NSArray(object: foundation)
        swift = [swift]
      }
      for tree in [foundation, swift] as [Any] {
        var counter = Counter()
        try JSONFoundation.replay(tree, into: &counter)
        #expect(counter.starts == depth)
        #expect(counter.ends == depth)
        #expect(counter.maxDepth == depth)
      }
    }
  }

  struct Counter: JSONEventHandler {
    var starts = 0
    var ends = 0
    var depth = 0
    var maxDepth = 0
    mutating func startArray() {
      starts += 1
      depth += 1
      maxDepth = max(maxDepth, depth)
    }
    mutating func endArray() {
      ends += 1
      depth -= 1
    }
  }
}
