import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// Records events and which fast paths they came by: the binary reader's numbers, keys that
/// carry their table entry, a tree's integers, and the event runs.
struct HookRecorder: JSONEventHandler {
  var recorder = EventRecorder()
  var binaryNumbers = 0
  var tableKeys = 0
  var integers = 0
  var eventRuns = 0

  mutating func startObject() { recorder.startObject() }
  mutating func endObject() { recorder.endObject() }
  mutating func startArray() { recorder.startArray() }
  mutating func endArray() { recorder.endArray() }
  mutating func key(_ key: borrowing JSONString) {
    if key._keyTableEntry >= 0 { tableKeys += 1 }
    recorder.key(key)
  }
  mutating func string(_ value: borrowing JSONString) { recorder.string(value) }
  mutating func number(_ value: borrowing JSONNumber) {
    if value._hasIntegerValue { integers += 1 }
    recorder.number(value)
  }
  mutating func bool(_ value: Bool) { recorder.bool(value) }
  mutating func null() { recorder.null() }
  mutating func binaryNumber(_ value: JSONBinaryNumber) {
    binaryNumbers += 1
    value.withJSONNumber { recorder.number($0) }
  }
  mutating func beginEventRun() { eventRuns += 1 }
}

@Suite("Forwarding handlers pass the fast paths on")
struct ForwardingTests {
  static let text =
    #"{"id":12,"tags":["a","b"],"user":{"id":13,"name":"x","score":-1.5},"n":[7,8]}"#

  /// The events of `text` read back from the binary format, into `handler`.
  static func fromBinary<Handler: JSONEventHandler>(_ handler: Handler) throws -> Handler {
    var writer = JSONParser(handler: JSONBinaryWriter())
    try writer.feed(Self.text.utf8)
    try writer.finish()
    try writer.handler.finish()
    var reader = JSONBinaryReader(handler: handler)
    try reader.feed(writer.handler.bytes)
    try reader.finish()
    return reader.handler
  }

  /// The events of `text` replayed from a parsed tree (whose integers are kept as values).
  static func fromTree<Handler: JSONEventHandler>(_ handler: Handler) throws -> Handler {
    var handler = handler
    try JSONValue(parsing: Self.text).replay(into: &handler)
    return handler
  }

  /// The recorder the events reached through each forwarding handler, from one producer.
  static func throughEach(_ produce: (any JSONEventHandler) throws -> any JSONEventHandler)
    throws -> [(String, HookRecorder)]
  {
    let none = try JSONPath("$.none")
    return [
      ("direct", try produce(HookRecorder()) as! HookRecorder),
      (
        "JSONPathTracker",
        (try produce(JSONPathTracker(downstream: HookRecorder()))
          as! JSONPathTracker<HookRecorder>).downstream
      ),
      (
        "JSONSelectFilter",
        (try produce(JSONSelectFilter(paths: [try JSONPath("$")], downstream: HookRecorder()))
          as! JSONSelectFilter<HookRecorder>).downstream
      ),
      (
        "JSONExcludeFilter",
        (try produce(JSONExcludeFilter(paths: [none], downstream: HookRecorder()))
          as! JSONExcludeFilter<HookRecorder>).downstream
      ),
      (
        "JSONTransform",
        (try produce(JSONTransform(rules: [], downstream: HookRecorder()))
          as! JSONTransform<HookRecorder>).downstream
      ),
      (
        "JSONPatchFilter",
        (try produce(
          JSONPatchFilter(
            patch: [.test(path: "/user/id", value: 13), .test(path: "/n", value: [7, 8])],
            downstream: HookRecorder())!)
          as! JSONPatchFilter<HookRecorder>).downstream
      ),
      (
        "JSONMergePatchFilter",
        (try produce(JSONMergePatchFilter(patch: ["user": [:]], downstream: HookRecorder()))
          as! JSONMergePatchFilter<HookRecorder>).downstream
      ),
    ]
  }

  /// Where the events come from: the binary reader (its numbers and table keys) or a tree's
  /// replay (its integers).
  enum Producer: String, CaseIterable, Sendable {
    case binary, tree

    func run<H: JSONEventHandler>(_ handler: H) throws -> any JSONEventHandler {
      self == .binary
        ? try ForwardingTests.fromBinary(handler) : try ForwardingTests.fromTree(handler)
    }
  }

  @Test(
    "the fast paths reach the consumer through every forwarding handler",
    arguments: Producer.allCases)
  func hooks(_ producer: Producer) throws {
    let results = try Self.throughEach { try producer.run($0) }
    let direct = results[0].1
    #expect(direct.recorder.events == (try parsedEvents(Self.text)))
    #expect(direct.eventRuns > 0)
    switch producer {
    case .binary: #expect(direct.binaryNumbers > 0 && direct.tableKeys > 0)
    case .tree: #expect(direct.integers == 4)
    }
    for (name, recorder) in results {
      #expect(recorder.recorder.events == direct.recorder.events, "\(name)")
      #expect(recorder.binaryNumbers == direct.binaryNumbers, "\(name)")
      #expect(recorder.tableKeys == direct.tableKeys, "\(name)")
      #expect(recorder.integers == direct.integers, "\(name)")
      #expect(recorder.eventRuns == direct.eventRuns, "\(name)")
    }
  }

  @Test("the item streamer's tree builder gets the fast paths, and builds the same items")
  func itemStreamer() throws {
    let paths = [try JSONPath("$.*")]
    var parser = JSONParser(handler: JSONItemStreamer(paths: paths))
    try parser.feed(Self.text.utf8)
    try parser.finish()
    let expected = parser.handler.takeItems()
    #expect(expected.count == 4)
    var fromBinary = try Self.fromBinary(JSONItemStreamer(paths: paths))
    #expect(fromBinary.takeItems() == expected)
    var fromTree = try Self.fromTree(JSONItemStreamer(paths: paths))
    #expect(fromTree.takeItems() == expected)
  }

  @Test("a filter passes its consumer's skipping on, and skips what it drops")
  func skipping() throws {
    let all = try parsedEvents(SkipTests.text)
    for depth in 1...3 {
      var select = JSONParser(
        handler: JSONSelectFilter(
          paths: [try JSONPath("$")], downstream: SkippingRecorder(skipDepth: depth)))
      try select.feed(SkipTests.text.utf8)
      try select.finish()
      #expect(select.handler.downstream.recorder.events == withoutContents(all, at: depth))

      var transform = JSONParser(
        handler: JSONTransform(rules: [], downstream: SkippingRecorder(skipDepth: depth)))
      try transform.feed(SkipTests.text.utf8)
      try transform.finish()
      #expect(transform.handler.downstream.recorder.events == withoutContents(all, at: depth))

      var merge = JSONParser(
        handler: JSONMergePatchFilter(patch: [:], downstream: SkippingRecorder(skipDepth: depth)))
      try merge.feed(SkipTests.text.utf8)
      try merge.finish()
      #expect(merge.handler.downstream.recorder.events == withoutContents(all, at: depth))

      // Operations inside what downstream skips still have their outcome; nothing they add
      // reaches it.
      let operations: JSONPatch = [
        .test(path: "/skip/s", value: "no"), .add(path: "/skip/new", value: 1),
        .replace(path: "/keep", value: 2),
      ]
      var patch = JSONParser(
        handler: JSONPatchFilter(patch: operations, downstream: SkippingRecorder(skipDepth: depth))!
      )
      try patch.feed(SkipTests.text.utf8)
      try patch.finish()
      #expect(patch.handler.error?.operationIndex == 0)
      let passing = JSONPatch(Array(operations.operations.dropFirst()))
      let patched = try JSONValue(parsing: SkipTests.text).applying(passing).jsonString()
      let expected = withoutContents(try parsedEvents(patched), at: depth)
      #expect(patch.handler.downstream.recorder.events == expected)
    }
    // What is dropped is skipped, still checked: a bad byte in it is the same error.
    let bad = #"{"skip":{"a":[1,2,tru]},"keep":1}"#
    for handler in [true, false] {
      let drop = try JSONPath("$.skip")
      var parser = JSONParser(
        handler: JSONTransform(rules: [.drop(drop)], downstream: EventRecorder()))
      var exclude = JSONParser(
        handler: JSONExcludeFilter(paths: [drop], downstream: EventRecorder()))
      let error = try #require(throws: JSONParseError.self) {
        if handler { try parser.feed(bad.utf8) } else { try exclude.feed(bad.utf8) }
      }
      #expect(error == parse(bad).error)
    }
    // Dropped containers' contents are not decoded: a long string in them is not copied.
    let long = #"{"skip":["\#(String(repeating: "\\n", count: 1000))"],"keep":1}"#
    var exclude = JSONParser(
      handler: JSONExcludeFilter(paths: [try JSONPath("$.skip")], downstream: EventRecorder()))
    try exclude.feed(long.utf8)
    try exclude.finish()
    #expect(
      exclude.handler.downstream.events == [.startObject, .key("keep"), .number("1"), .endObject])
    #expect(exclude._scratchCopied.value == 0)
  }
}
