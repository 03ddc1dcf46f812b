import JSONStream
import JSONStreamTestSupport
import Testing

/// Records events, asking the parser to skip every container that opens at `skipDepth`.
struct SkippingRecorder: JSONEventHandler {
  var recorder = EventRecorder()
  var depth = 0
  let skipDepth: Int
  var skipsContainerContents: Bool { depth == skipDepth }
  static var canSkipContainers: Bool { true }

  init(skipDepth: Int) { self.skipDepth = skipDepth }

  mutating func startObject() {
    depth += 1
    recorder.startObject()
  }
  mutating func startArray() {
    depth += 1
    recorder.startArray()
  }
  mutating func endObject() {
    depth -= 1
    recorder.endObject()
  }
  mutating func endArray() {
    depth -= 1
    recorder.endArray()
  }
  mutating func key(_ key: borrowing JSONString) { recorder.key(key) }
  mutating func string(_ value: borrowing JSONString) { recorder.string(value) }
  mutating func number(_ value: borrowing JSONNumber) { recorder.number(value) }
  mutating func bool(_ value: Bool) { recorder.bool(value) }
  mutating func null() { recorder.null() }
}

/// `events` without what lies inside containers opened at `depth` (their start and end stay).
func withoutContents(_ events: [Event], at skipDepth: Int) -> [Event] {
  var result: [Event] = []
  var depth = 0
  for event in events {
    let inside =
      depth > skipDepth || (depth == skipDepth && event != .endObject && event != .endArray)
    switch event {
    case .startObject, .startArray:
      if !inside { result.append(event) }
      depth += 1
    case .endObject, .endArray:
      depth -= 1
      if depth < skipDepth || (depth == skipDepth - 1) { result.append(event) }
    default:
      if !inside { result.append(event) }
    }
  }
  return result
}

/// The error of parsing `text` in chunks of `chunk` bytes, skipping the containers at depth 2.
func skippedError(_ text: String, options: JSONParseOptions = JSONParseOptions(), chunk: Int)
  -> JSONParseError?
{
  var parser = JSONParser(handler: SkippingRecorder(skipDepth: 2), options: options)
  let bytes = Array(text.utf8)
  do {
    try feed(&parser, bytes, chunkSizes: Array(repeating: chunk, count: bytes.count / chunk + 1))
    return nil
  } catch {
    return error as? JSONParseError
  }
}

@Suite("Skipping containers")
struct SkipTests {
  static let text = #"""
    {"keep":1,"skip":{"s":"x\n\u00e9\ud83d\ude00","n":[-1.5e3,true,null,{"deep":["é"]}]},
     "list":[[1,2],{"a":"b"},"c"],"last":"z"}
    """#

  @Test("a skipped container's contents are not delivered; its end is; at any chunking")
  func skipped() throws {
    let all = try parsedEvents(Self.text)
    for depth in 1...4 {
      let expected = withoutContents(all, at: depth)
      for chunk in [1, 2, 7, 1000] {
        var parser = JSONParser(handler: SkippingRecorder(skipDepth: depth))
        let bytes = Array(Self.text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
          try parser.feed(bytes[start..<min(bytes.count, start + chunk)])
        }
        try parser.finish()
        #expect(parser.handler.recorder.events == expected, "depth \(depth), chunk \(chunk)")
      }
    }
    // Depth 1 skips the root's contents: only its start and end.
    #expect(withoutContents(all, at: 1) == [.startObject, .endObject])
  }

  @Test("what is skipped is still checked: the same errors, at the same places")
  func errorsInside() throws {
    let bad = [
      #"{"a":{"b":[1,2,]}}"#, #"{"a":{"b":"\x"}}"#, "{\"a\":{\"b\":\"\u{1}\"}}", #"{"a":[01]}"#,
      #"{"a":[tru]}"#, #"{"a":{"b" 1}}"#, "{\"a\":[\"\\ud800\"]}", #"{"a":[1.]}"#,
      #"{"a":{"b":[}}"#,
      // The input ends inside a skipped container, after a number that could be complete.
      #"{"a":[1,2"#,
    ]
    for text in bad {
      let expected = parse(text).error
      #expect(expected != nil, "\(text)")
      for chunk in [1, 3, 100] {
        #expect(skippedError(text, chunk: chunk) == expected, "\(text), chunk \(chunk)")
      }
    }
  }

  @Test("what is skipped is held to the length limits: the same errors as delivered input")
  func limitsInside() throws {
    let limits = JSONParseOptions.with {
      $0.limits.maxStringLength = 4
      $0.limits.maxNumberLength = 5
    }
    let cases = [
      // Plain, escaped (decoded length counts), multi-byte, keys, numbers; at and past the bound.
      #"{"a":{"b":"abcd"}}"#, #"{"a":{"b":"abcde"}}"#, #"{"a":{"b":"\n\n\n\n"}}"#,
      #"{"a":{"b":"\n\n\n\n\n"}}"#, #"{"a":{"b":"\u00e9\u00e9"}}"#, #"{"a":{"b":"ééé"}}"#,
      #"{"a":{"abcd":1}}"#, #"{"a":{"abcde":1}}"#, #"{"a":[12345]}"#, #"{"a":[123456]}"#,
      #"{"a":[-1.5e3]}"#, #"{"a":[-1.5e30]}"#, #"{"a":["\ud83d\ude00x"]}"#,
      // Over the limit and then another error in the same token: the limit is reported first.
      #"{"a":["abcdef\x"]}"#, #"{"a":[1234567.]}"#,
    ]
    for text in cases {
      let expected = parse(text, options: limits)
      for chunk in [1, 2, 3, 7, 100] {
        #expect(
          skippedError(text, options: limits, chunk: chunk) == expected.error,
          "\(text), chunk \(chunk)")
      }
    }
    // The default limit on numbers applies inside a skipped container (`[111…1]`).
    let long = "[[" + String(repeating: "1", count: 2000) + "]]"
    var parser = JSONParser(handler: SkippingRecorder(skipDepth: 2))
    #expect(throws: JSONParseError.self) {
      try parser.feed(long.utf8)
      try parser.finish()
    }
  }
}
