import JSONStream
import JSONStreamTestSupport
import Testing

@Suite("Errors say what, and where")
struct ErrorTests {
  @Test("the issue's example: line 3, column 17")
  func example() {
    let text = "{\n  \"items\": [1, 2],\n  \"name\": \"abc\" ]\n}"
    let error = parse(text).error
    #expect(
      error?.description
        == "line 3, column 17: expected ',' or '}' after an object member, found ']'")
    #expect(error?.offset == 37)
    #expect(error?.kind == .unexpectedByte)
  }

  @Test(
    "line and column across \\n, \\r\\n, \\r and multi-byte characters",
    arguments: [
      ("[1,\n2,\nx]", 3, 1, 7),
      ("[1,\r\n2,\r\nx]", 3, 1, 9),
      ("[1,\r2,\rx]", 3, 1, 7),
      ("[1,\n\r2,x]", 3, 3, 7),
      ("[\"é😀€\", x]", 1, 9, 14),
      ("[\"é\",\n \"😀\"  x]", 2, 7, 16),
      ("{\"a\":1 \"b\"}", 1, 8, 7),
      // Indented input, where line breaks come between the tokens of a member or element.
      ("{\n  \"a\": 1,\n  \"b\": [\n    2,\r\n\t 3\n  ],\n  x\n}", 7, 3, 40),
      ("[\r  {\"k\": true},\r  {\"k\": nul}\r]", 3, 12, 28),
      ("{\"a\": 1,\n\t\t]", 2, 3, 11),
      ("[\n\n\r\n  1 \n ,\n\n 2 3]", 7, 4, 17),
    ])
  func positions(text: String, line: Int, column: Int, offset: Int) {
    let error = parse(text).error
    #expect(error?.line == line, "\(text.debugDescription): \(String(describing: error))")
    #expect(error?.column == column, "\(text.debugDescription): \(String(describing: error))")
    #expect(error?.offset == offset)
    // And the same at every chunking.
    #expect(splitMismatches(text) == [])
  }

  @Test(
    "messages",
    arguments: [
      ("", "line 1, column 1: expected a JSON value, found end of input"),
      (
        "[1",
        "line 1, column 3: unexpected end of input (1 open container), expected ',' or ']' after an array element"
      ),
      ("{\"a\" 1}", "line 1, column 6: expected ':' after an object key, found '1'"),
      ("[1,]", "line 1, column 4: trailing comma before ']'"),
      ("[01]", "line 1, column 3: invalid number: leading zeros are not allowed"),
      (
        "[1.]",
        "line 1, column 4: invalid number: expected a digit after the decimal point, found ']'"
      ),
      ("[tru]", "line 1, column 5: invalid literal: expected 'true', found ']'"),
      (
        "\"a\\qb\"",
        "line 1, column 4: invalid escape: '\\' must be followed by one of \" \\ / b f n r t u, found 'q'"
      ),
      ("\"\\u12x4\"", "line 1, column 6: invalid \\u escape: expected 4 hex digits, found 'x'"),
      ("\"a\nb\"", "line 1, column 3: control character 0x0A in a string must be escaped (as \\n)"),
      ("{} x", "line 1, column 4: expected end of input after the top-level value, found 'x'"),
      (
        "['a']",
        "line 1, column 2: expected a value or ']', found \"'\" (strings must be in double quotes)"
      ),
      (
        "[1] // c",
        "line 1, column 5: expected end of input after the top-level value, found '/' (comments are not allowed)"
      ),
      (
        "[NaN]",
        "line 1, column 2: expected a value or ']', found 'N' (NaN and Infinity are not JSON numbers)"
      ),
      (
        "\"\\uDE00\"",
        "line 1, column 2: unpaired surrogate \\uDE00: a low surrogate must follow a high surrogate escape"
      ),
    ])
  func messages(text: String, description: String) {
    #expect(parse(text).error?.description == description)
  }

  @Test(
    "between the values of a sequence, an error reads as it does before the first value",
    arguments: ["/", "\u{01}", "\u{1F}", "\u{FEFF}", "é", "}", "]", ",", "N", "x"])
  func betweenValues(bad: String) {
    // A parser of NDJSON that starts at any line gives the errors one that read the lines
    // before would: what `jsonstream` relies on to parse blocks of lines on several threads.
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    func error(_ text: String) -> JSONParseError? {
      var parser = JSONParser(handler: EventRecorder(), options: options)
      do {
        try parser.feed(Array(text.utf8))
        try parser.finish()
      } catch let error as JSONParseError {
        return error
      } catch {}
      return nil
    }
    let first = error("\n" + bad)
    let later = error("{}\n" + bad)
    #expect(first != nil)
    #expect(first?.kind == later?.kind)
    #expect(first?.message == later?.message)
    #expect(first?.column == later?.column)
  }

  @Test("ill-formed UTF-8 points at the offending byte")
  func utf8Position() {
    let error = parse([0x5B, 0x22, 0x61, 0xE2, 0x82, 0x41, 0x22, 0x5D]).error
    #expect(error?.kind == .invalidUTF8)
    #expect(error?.offset == 5)
    #expect(error?.message == "invalid UTF-8: byte 0x41 cannot continue the multi-byte sequence")
  }

  @Test("after an error the parser stays failed and repeats the error")
  func staysFailed() throws {
    var parser = JSONParser(handler: EventRecorder())
    var first: JSONParseError?
    do { try parser.feed(Array("[1,]".utf8)) } catch let e as JSONParseError { first = e }
    #expect(first?.kind == .trailingComma)
    #expect(parser.offset == 3)
    #expect(throws: first!) { try parser.feed(Array("2]".utf8)) }
    #expect(throws: first!) { try parser.finish() }
    #expect(parser.handler.events == [.startArray, .number("1")])
  }

  @Test("feeding after finish() is an error; finish() twice is fine")
  func afterFinish() throws {
    var parser = JSONParser(handler: EventRecorder())
    try parser.feed(Array("1".utf8))
    try parser.finish()
    try parser.finish()
    #expect(parser.handler.events == [.number("1")])
    #expect(throws: JSONParseError.self) { try parser.feed(Array(" ".utf8)) }
  }
}
