import JSONStream
import JSONStreamTestSupport
import Testing

/// Stops once it has seen the value of `"id"`.
struct FindID: JSONEventHandler {
  var id: Int64?
  var wantNext = false
  var events = 0
  var isDone: Bool { id != nil }

  mutating func key(_ key: borrowing JSONString) {
    events += 1
    wantNext = key == "id"
  }
  mutating func number(_ value: borrowing JSONNumber) {
    events += 1
    if wantNext { id = value.int64 }
  }
  mutating func startObject() { events += 1 }
}

struct Refusal: Error, Equatable {
  let reason: String
}

/// Throws on the first string.
struct NoStrings: JSONEventHandler {
  var seen = 0
  mutating func number(_ value: borrowing JSONNumber) { seen += 1 }
  mutating func string(_ value: borrowing JSONString) throws {
    throw Refusal(reason: value.string)
  }
}

@Suite("Handlers steer the parse")
struct HandlerControlTests {
  @Test("isDone stops the parse early; later input is ignored")
  func earlyStop() throws {
    let text = #"{"name": "x", "id": 42, "rest": [1, 2, 3"#
    var parser = JSONParser(handler: FindID())
    let status = try parser.feed(Array(text.utf8))
    #expect(status == .stopped)
    #expect(parser.handler.id == 42)
    #expect(parser.handler.events == 4)
    #expect(parser.offset == 22)
    // Truncated after the stop: no error, the parser is done.
    #expect(try parser.feed(Array("garbage".utf8)) == .stopped)
    try parser.finish()
  }

  @Test("early stop works at every split, including inside the deciding token")
  func earlyStopChunked() throws {
    let bytes = Array(#"{"id": 12345, "x": [true]}"#.utf8)
    for cut in 0...bytes.count {
      var parser = JSONParser(handler: FindID())
      var status = try parser.feed(bytes[..<cut])
      if status != .stopped { status = try parser.feed(bytes[cut...]) }
      try parser.finish()
      #expect(parser.handler.id == 12345)
      #expect(parser.offset == 12)
    }
  }

  @Test("a parser copied between feeds goes on independently, its handler too")
  func copiedBetweenFeeds() throws {
    // A feed makes its handler's shared state its own once, then skips the check per event:
    // the copy must not see the other's events, whichever feeds first.
    let start = Array(#"[{"a": [1, 2]}, "#.utf8)
    let left = Array(#""left", 3]"#.utf8)
    let right = Array(#"{"b": true}]"#.utf8)
    for leftFirst in [true, false] {
      var parser = JSONParser(handler: JSONTreeBuilder())
      try parser.feed(start)
      var copy = parser
      for turn in 0..<2 {
        if (turn == 0) == leftFirst {
          try parser.feed(left)
          try parser.finish()
        } else {
          try copy.feed(right)
          try copy.finish()
        }
      }
      #expect(parser.handler.value == (try JSONValue(parsing: #"[{"a": [1, 2]}, "left", 3]"#)))
      #expect(copy.handler.value == (try JSONValue(parsing: #"[{"a": [1, 2]}, {"b": true}]"#)))

      var writing = JSONParser(handler: JSONWriter())
      try writing.feed(start)
      var writingCopy = writing
      for turn in 0..<2 {
        if (turn == 0) == leftFirst {
          try writing.feed(left)
          try writing.finish()
          try writing.handler.finish()
        } else {
          try writingCopy.feed(right)
          try writingCopy.finish()
          try writingCopy.handler.finish()
        }
      }
      #expect(String(decoding: writing.handler.bytes, as: UTF8.self) == #"[{"a":[1,2]},"left",3]"#)
      #expect(
        String(decoding: writingCopy.handler.bytes, as: UTF8.self) == #"[{"a":[1,2]},{"b":true}]"#)
    }
    // A replay into a writer that shares its state with a copy.
    var writer = JSONWriter()
    try writer.startArray()
    var other = writer
    try JSONValue(parsing: "[1, {\"c\": null}]").replay(into: &writer)
    try writer.endArray()
    try writer.finish()
    try other.endArray()
    try other.finish()
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[[1,{"c":null}]]"#)
    #expect(String(decoding: other.bytes, as: UTF8.self) == "[]")
  }

  @Test("a stop in a top-level number that ends at finish()")
  func stopAtFinish() throws {
    var parser = JSONParser(handler: FindIDLike())
    try parser.feed(Array("7".utf8))
    try parser.finish()
    #expect(parser.handler.value == 7)
  }

  @Test("a handler's error aborts the parse and is rethrown unchanged, then repeated")
  func throwingHandler() throws {
    var parser = JSONParser(handler: NoStrings())
    #expect(throws: Refusal(reason: "no")) {
      try parser.feed(Array(#"[1, 2, "no", 3]"#.utf8))
    }
    #expect(parser.handler.seen == 2)
    #expect(parser.offset == 7)  // the start of the string whose event threw
    #expect(throws: Refusal(reason: "no")) { try parser.finish() }
    #expect(throws: Refusal(reason: "no")) {
      try JSONParser.parse(Array(#"["no"]"#.utf8), handler: NoStrings())
    }
  }

  @Test("the one-call convenience returns the handler")
  func convenience() throws {
    struct Count: JSONEventHandler {
      var values = 0
      mutating func number(_ value: borrowing JSONNumber) { values += 1 }
      mutating func bool(_ value: Bool) { values += 1 }
    }
    #expect(try JSONParser.parse("[1, 2, true]".utf8, handler: Count()).values == 3)
    #expect(try JSONParser.parse([UInt8]("[1]".utf8)[...], handler: Count()).values == 1)
    // A non-contiguous sequence is copied first.
    #expect(try JSONParser.parse("[1,2]".utf8.lazy.map { $0 }, handler: Count()).values == 2)
  }

  @Test("a tree's replay stops where isDone becomes true, after the events a parse gives")
  func replayEarlyStop() throws {
    // Stops after every event: a start, an end, an empty container, a key, a scalar.
    let text = #"{"a":[1,{"b":null,"c":[]},{}],"d":"x","e":{"f":true,"g":[false,[[]]]}}"#
    let value = try JSONValue(parsing: text)
    let all = try parsedEvents(text)
    for limit in 1...all.count {
      var recorder = EventRecorder(limit: limit)
      try value.replay(into: &recorder)
      #expect(recorder.events == Array(all.prefix(limit)), "\(limit)")
    }
  }

  @Test("feeding raw buffers and empty chunks")
  func rawBuffers() throws {
    var parser = JSONParser(handler: EventRecorder())
    let bytes = Array("[true]".utf8)
    try bytes.withUnsafeBytes { raw in
      try parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<0]))
      try parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<3]))
      try parser.feed(UnsafeRawBufferPointer(rebasing: raw[3...]))
    }
    try parser.finish()
    #expect(parser.handler.events == [.startArray, .bool(true), .endArray])
  }
}

struct FindIDLike: JSONEventHandler {
  var value: Int64?
  var isDone: Bool { value != nil }
  mutating func number(_ n: borrowing JSONNumber) { value = n.int64 }
}
