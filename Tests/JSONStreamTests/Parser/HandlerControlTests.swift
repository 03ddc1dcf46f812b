import JSONStream
import JSONStreamTestSupport
import Testing

/// Stops once it has seen the value of `"id"`.
struct FindID: JSONEventHandler {
  var id: Int64?
  var wantNext = false
  var events = 0
  var isDone: Bool { id != nil }

  mutating func key(_ key: JSONString) {
    events += 1
    wantNext = key == "id"
  }
  mutating func number(_ value: JSONNumber) {
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
  mutating func number(_ value: JSONNumber) { seen += 1 }
  mutating func string(_ value: JSONString) throws {
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
      mutating func number(_ value: JSONNumber) { values += 1 }
      mutating func bool(_ value: Bool) { values += 1 }
    }
    #expect(try JSONParser.parse("[1, 2, true]".utf8, handler: Count()).values == 3)
    #expect(try JSONParser.parse([UInt8]("[1]".utf8)[...], handler: Count()).values == 1)
    // A non-contiguous sequence is copied first.
    #expect(try JSONParser.parse("[1,2]".utf8.lazy.map { $0 }, handler: Count()).values == 2)
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
  mutating func number(_ n: JSONNumber) { value = n.int64 }
}
