import JSONStream
import JSONStreamTestSupport
import Testing

/// Feeds `text` to `handler` in chunks of `chunk` bytes and returns the handler.
func fed<Handler: JSONEventHandler>(
  _ text: String, _ handler: Handler, chunk: Int, options: JSONParseOptions = JSONParseOptions()
) throws -> Handler {
  var parser = JSONParser(handler: handler, options: options)
  let bytes = Array(text.utf8)
  for start in stride(from: 0, to: bytes.count, by: chunk) {
    try parser.feed(bytes[start..<min(bytes.count, start + chunk)])
  }
  try parser.finish()
  return parser.handler
}

@Suite("Paths, transforms and documents")
struct StreamingToolsTests {
  /// A consumer that refuses negative numbers.
  struct NoNegatives: JSONEventHandler {
    struct Negative: Error, CustomStringConvertible {
      var description: String { "a negative number" }
    }
    mutating func number(_ value: borrowing JSONNumber) throws {
      if value.isNegative { throw Negative() }
    }
  }

  @Test("the path tracker names the location of every event, and of a consumer's error")
  func pathTracker() throws {
    let text = #"{"a":[1,{"b/c~":true}],"d":{}}"#
    // The location at each event, from a tracker wrapping an event recorder.
    struct Snapshot: JSONEventHandler {
      var tracker: JSONPathTracker<EventRecorder>
      var seen: [String] = []
      mutating func record(_ event: (inout JSONPathTracker<EventRecorder>) throws -> Void) rethrows
      {
        try event(&tracker)
        seen.append(tracker.pointer)
      }
      mutating func startObject() throws { try record { try $0.startObject() } }
      mutating func endObject() throws { try record { try $0.endObject() } }
      mutating func startArray() throws { try record { try $0.startArray() } }
      mutating func endArray() throws { try record { try $0.endArray() } }
      mutating func key(_ key: borrowing JSONString) throws { try record { try $0.key(key) } }
      mutating func number(_ value: borrowing JSONNumber) throws {
        try record { try $0.number(value) }
      }
      mutating func bool(_ value: Bool) throws { try record { try $0.bool(value) } }
    }
    for chunk in [1, 3, 100] {
      let result = try fed(
        text, Snapshot(tracker: JSONPathTracker(downstream: EventRecorder())), chunk: chunk)
      // { a: [ 1 { b/c~ : true } ] d: { } }: the locations after each event.
      #expect(
        result.seen == [
          "", "/a", "/a", "/a/0", "/a/1", "/a/1/b~1c~0", "/a/1/b~1c~0", "/a/1", "/a", "/d", "/d",
          "/d", "",
        ], "chunk \(chunk)")
      #expect(result.tracker.downstream.events == parse(text).events)
    }
    let error = try #require(throws: JSONLocatedError.self) {
      _ = try fed(
        #"{"items":[{"qty":2},{"qty":-1}]}"#, JSONPathTracker(downstream: NoNegatives()), chunk: 4)
    }
    #expect(error.pointer == "/items/1/qty")
    #expect(error.path == [.key("items"), .index(1), .key("qty")])
    #expect(error.description == "at /items/1/qty: a negative number")
    // Keys longer, then shorter, than the ones before them at each level.
    let shrinking = try #require(throws: JSONLocatedError.self) {
      _ = try fed(
        #"{"a long key":{"xyzw":1},"k":{"ab":[{"longer key":2,"q":-1}]}}"#,
        JSONPathTracker(downstream: NoNegatives()), chunk: 5)
    }
    #expect(shrinking.pointer == "/k/ab/0/q")
  }

  @Test("a consumer's error at a container's start or end is located at the container")
  func pathTrackerContainerErrors() throws {
    struct Refuse: JSONEventHandler {
      struct Refused: Error {}
      var atStartArray = false
      mutating func startArray() throws { if atStartArray { throw Refused() } }
      mutating func endObject() throws { if !atStartArray { throw Refused() } }
    }
    let text = #"{"a":[7,{"b":{}}],"c":[]}"#
    for chunk in [1, 100] {
      let start = try #require(throws: JSONLocatedError.self) {
        _ = try fed(text, JSONPathTracker(downstream: Refuse(atStartArray: true)), chunk: chunk)
      }
      #expect(start.pointer == "/a")
      let end = try #require(throws: JSONLocatedError.self) {
        _ = try fed(text, JSONPathTracker(downstream: Refuse()), chunk: chunk)
      }
      #expect(end.pointer == "/a/1/b")
    }
  }

  @Test("a copy of a path tracker goes on from where it was, apart from the original")
  func pathTrackerCopies() throws {
    var parser = JSONParser(handler: JSONPathTracker(downstream: EventRecorder()))
    try parser.feed(Array(#"{"a":[1,{"bb":"#.utf8))
    let copy = parser.handler
    #expect(copy.pointer == "/a/1/bb")
    // The original goes on in a parser's run of events: its key at this level and the one
    // above change, its containers close and open.
    try parser.feed(Array(#"2}],"c":{"d":"#.utf8))
    #expect(parser.handler.pointer == "/c/d")
    #expect(copy.pointer == "/a/1/bb")
    // The copy goes on outside any run, and leaves the original as it was.
    var other = copy
    try other.bool(true)
    try other.endObject()
    #expect(other.pointer == "/a/1")
    try other.startArray()
    try other.null()
    #expect(other.path == [.key("a"), .index(2), .index(0)])
    #expect(copy.pointer == "/a/1/bb")
    #expect(parser.handler.pointer == "/c/d")
    try parser.feed(Array("3}}".utf8))
    try parser.finish()
    #expect(parser.handler.pointer == "")
    #expect(other.path == [.key("a"), .index(2), .index(0)])
  }

  @Test("an end event with no container open stops the program, never reads outside the tracker")
  func pathTrackerUnbalancedEnd() async {
    // Events made by hand, not by a parser: a misuse, which traps as an index out of range does.
    await #expect(processExitsWith: .failure) {
      var tracker = JSONPathTracker(downstream: EventRecorder())
      try? tracker.endArray()
    }
    await #expect(processExitsWith: .failure) {
      var tracker = JSONPathTracker(downstream: EventRecorder())
      try? tracker.startArray()
      try? tracker.endArray()
      try? tracker.endObject()
    }
  }

  @Test("transforms rename, drop, replace and map while copying to a writer")
  func transforms() throws {
    let text =
      #"{"user":{"userName":"z","password":"p"},"items":[{"price":10,"internal":1},{"price":2.5}],"password":"q"}"#
    let rules: [JSONTransform<JSONWriter<JSONByteSink>>.Rule] = [
      .replace(try JSONPath("$..password"), with: "***"),
      .rename(try JSONPath("$..userName"), to: "user_name"),
      .drop(try JSONPath("$..internal")),
      .map(try JSONPath("$.items[*].price")) { .number(.init($0.doubleValue! * 2)) },
    ]
    for chunk in [1, 7, 1000] {
      let transform = try fed(
        text, JSONTransform(rules: rules, downstream: JSONWriter()), chunk: chunk)
      var writer = transform.downstream
      try writer.finish()
      #expect(
        String(decoding: writer.bytes, as: UTF8.self)
          == #"{"user":{"user_name":"z","password":"***"},"items":[{"price":20.0},{"price":5.0}],"password":"***"}"#,
        "chunk \(chunk)")
    }
    // A map that returns nil drops the member, key included; a renamed container keeps its
    // contents.
    let dropped = try fed(
      #"{"a":{"x":[1]},"b":2}"#,
      JSONTransform(
        rules: [.map(try JSONPath("$.b")) { _ in nil }, .rename(try JSONPath("$.a"), to: "A")],
        downstream: JSONWriter()), chunk: 2)
    var writer = dropped.downstream
    try writer.finish()
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"A":{"x":[1]}}"#)
  }

  @Test("a transform passes what no rule reaches on unchanged, beside and between what they do")
  func transformPassesUnreachedValues() throws {
    // Child paths only: `skip`, `a.k`, `c[1]` and `z[0]` lead nowhere, and hold keys and
    // shapes that the rules' paths would match elsewhere.
    let text =
      #"{"skip":{"a":{"b":[1,{"a":2}]},"c":[{"d":3}]},"a":{"b":"x","k":[{"b":1}]},"#
      + #""c":[{"d":4},[5]],"d":{"e":[6]},"z":[[],{}]}"#
    let expected =
      #"{"skip":{"a":{"b":[1,{"a":2}]},"c":[{"d":3}]},"a":{"B":"x","k":[{"b":1}]},"#
      + #""c":[[5]],"d":{"e":"E"},"z":[[],7]}"#
    let rules: [JSONTransform<JSONWriter<JSONByteSink>>.Rule] = [
      .rename(try JSONPath("$.a.b"), to: "B"),
      .drop(try JSONPath("$.c[0]")),
      .replace(try JSONPath("$.d.e"), with: "E"),
      .map(try JSONPath("$.z[1]")) { _ in 7 },
    ]
    for chunk in [1, 7, 1000] {
      let transform = try fed(
        text, JSONTransform(rules: rules, downstream: JSONWriter()), chunk: chunk)
      var writer = transform.downstream
      try writer.finish()
      #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "chunk \(chunk)")
    }
    var replayed = JSONTransform(rules: rules, downstream: JSONWriter())
    try JSONValue(parsing: text).replay(into: &replayed)
    try replayed.downstream.finish()
    #expect(String(decoding: replayed.downstream.bytes, as: UTF8.self) == expected)
  }

  @Test("NDJSON: one document per line, at any chunking; blank lines are not documents")
  func lines() throws {
    let text = "{\"a\":1}\n[2]\r\n\n  \"three\"  \n4"
    for chunk in [1, 2, 5, 100] {
      var reader = JSONDocumentReader()
      var documents: [JSONDocumentReader.Document] = []
      let bytes = Array(text.utf8)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        for result in try reader.feed(bytes[start..<min(bytes.count, start + chunk)]) {
          documents.append(try result.get())
        }
      }
      for result in try reader.finish() { documents.append(try result.get()) }
      #expect(documents.map(\.value) == [["a": 1], [2], "three", 4], "chunk \(chunk)")
      #expect(documents.map(\.line) == [1, 2, 4, 5], "chunk \(chunk)")
      #expect(documents.map(\.index) == [0, 1, 2, 3])
    }
  }

  @Test(
    "NDJSON with skipping: a bad line is reported with its line and error, then reading goes on")
  func recovery() throws {
    let text = "{\"ok\":1}\n{\"bad\":}\n[1,2\n{\"ok\":2}\ntrue false\n{\"ok\":3}"
    for chunk in [1, 3, 64] {
      var reader = JSONDocumentReader(skipsInvalidDocuments: true)
      var results: [Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>] = []
      let bytes = Array(text.utf8)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        results += try reader.feed(bytes[start..<min(bytes.count, start + chunk)])
      }
      results += try reader.finish()
      let documents = results.compactMap { try? $0.get() }
      #expect(documents.map(\.value) == [["ok": 1], ["ok": 2], ["ok": 3]], "chunk \(chunk)")
      #expect(documents.map(\.line) == [1, 4, 6])
      let failures = results.compactMap { result -> JSONDocumentReader.Failure? in
        if case .failure(let failure) = result { return failure }
        return nil
      }
      #expect(failures.map(\.line) == [2, 3, 5], "chunk \(chunk)")
      #expect(failures.map(\.index) == [1, 2, 4])
      #expect(failures[0].description == "line 2, column 8: expected a value, found '}'")
      #expect(failures[1].description.hasPrefix("line 3, column 5:"))
      #expect((failures[2].error as? JSONParseError)?.kind == .trailingText)
    }
    // Without skipping, the first bad line is thrown, naming its line, once the document
    // before it is returned; every later call throws it again.
    var strict = JSONDocumentReader()
    let before = try strict.feed(Array(text.utf8))
    #expect(try before.map { try $0.get().value } == [["ok": 1]])
    let failure = try #require(throws: JSONDocumentReader.Failure.self) {
      _ = try strict.finish()
    }
    #expect(failure.line == 2)
    let again = try #require(throws: JSONDocumentReader.Failure.self) {
      _ = try strict.feed(Array("[5]\n".utf8))
    }
    #expect(again.line == 2 && again.index == 1)
  }

  @Test("JSON text sequences (RFC 7464) and concatenated values")
  func otherFramings() throws {
    let sequence = "\u{1E}{\"a\":1}\n\u{1E}[2]\n\u{1E}\n\u{1E}\"x\"\n"
    var reader = JSONDocumentReader(framing: .textSequence)
    var values = try reader.feed(Array(sequence.utf8)).map { try $0.get().value }
    values += try reader.finish().map { try $0.get().value }
    #expect(values == [["a": 1], [2], "x"])
    var bad = JSONDocumentReader(framing: .textSequence, skipsInvalidDocuments: true)
    let results = try bad.feed(Array("junk\u{1E}1\n\u{1E}{\n\u{1E}2\n".utf8)) + bad.finish()
    #expect(results.compactMap { try? $0.get().value } == [1, 2])
    #expect(results.count == 4)
    // A record that starts mid-line: its errors are placed in the stream's columns.
    var midLine = JSONDocumentReader(framing: .textSequence)
    #expect(
      try midLine.feed(Array("\u{1E}[1]\u{1E}é[x]\n".utf8)).map { try $0.get().value } == [[1]])
    let failure = try #require(throws: JSONDocumentReader.Failure.self) { _ = try midLine.finish() }
    #expect(failure.column == 6 && failure.description.hasPrefix("line 1, column 6:"))
    #expect(failure.location?.offset == 5)
    let concatenated = "{\"a\":1}[2]\"x\" 4 5"
    for chunk in [1, 100] {
      var reader = JSONDocumentReader(framing: .concatenated)
      var values: [JSONValue] = []
      let bytes = Array(concatenated.utf8)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        values += try reader.feed(bytes[start..<min(bytes.count, start + chunk)]).map {
          try $0.get().value
        }
      }
      values += try reader.finish().map { try $0.get().value }
      #expect(values == [["a": 1], [2], "x", 4, 5], "chunk \(chunk)")
    }
  }
}
