import JSONStream
import JSONStreamTestSupport
import Testing

@testable import JSONStreamParser

/// A parser that resumes inside a top-level array after a comma reads the rest of the array
/// as the one-pass parser does from that comma: the same events (the array's start, given at
/// the resume, aside), the same error at the same place, relative to where it resumed.
@Suite("Resuming inside a top-level array")
struct ResumeTests {
  /// One-pass events and error of `text`, and the offsets where the parse is right after a
  /// comma of the top-level array, with the events and line count up to each.
  struct OnePass {
    var events: [Event] = []
    var error: JSONParseError?
    var resumePoints: [(offset: Int, events: Int, line: Int)] = []
  }

  static func onePass(_ text: [UInt8], options: JSONParseOptions) -> OnePass {
    var result = OnePass()
    var parser = JSONParser(handler: EventRecorder(), options: options)
    do {
      for index in text.indices {
        try parser.feed(text[index...index])
        if parser._isInsideTopLevelArrayAfterComma {
          result.resumePoints.append((index + 1, parser.handler.events.count, parser.line))
        }
      }
      try parser.finish()
    } catch let error as JSONParseError {
      result.error = error
    } catch {
      Issue.record("\(error)")
    }
    result.events = parser.handler.events
    return result
  }

  static let texts: [(String, JSONParseOptions)] = {
    var trailing = JSONParseOptions()
    trailing.allowTrailingCommas = true
    return [
      (#"[1, "a", {"b": [2, {"c": null}]}, [true, false], -0.5e3, "x\ny"]"#, .init()),
      ("[\n{\"a\":1},\n{\"a\":2},\n{\"a\":3}\n]", .init()),
      ("[1,\n2,\n]", .init()),
      ("[1,\n2,\n]", trailing),
      ("[1, 2, {\"a\": }, 3]", .init()),
      ("[1, 2, 3] 4", .init()),
      ("[1, 2, ", .init()),
      ("[1, [2, 3], 4,,5]", .init()),
      ("[\"é\", \"\u{1F600}\", 12345678901234567890, 1e400]", .init()),
    ]
  }()

  @Test("from every comma of the top-level array: the same events and error")
  func fromEveryComma() throws {
    for (text, options) in Self.texts {
      let bytes = Array(text.utf8)
      let whole = Self.onePass(bytes, options: options)
      #expect(!whole.resumePoints.isEmpty, "\(text)")
      for point in whole.resumePoints {
        var parser = JSONParser(handler: EventRecorder(), options: options)
        try parser._resumeInsideTopLevelArrayAfterComma()
        #expect(parser._isInsideTopLevelArrayAfterComma)
        var error: JSONParseError?
        do {
          try parser.feed(bytes[point.offset...])
          try parser.finish()
        } catch let thrown as JSONParseError {
          error = thrown
        }
        let what = "\(text.debugDescription) from \(point.offset)"
        #expect(parser.handler.events.first == .startArray, "\(what)")
        #expect(
          Array(parser.handler.events.dropFirst()) == Array(whole.events[point.events...]),
          "\(what)")
        #expect(error?.kind == whole.error?.kind, "\(what): \(String(describing: error))")
        #expect(error?.message == whole.error?.message, "\(what)")
        if let error, let expected = whole.error {
          #expect(error.offset + point.offset == expected.offset, "\(what)")
          #expect(error.line + point.line - 1 == expected.line, "\(what)")
        }
      }
    }
  }

  @Test("the state is known only right after a comma of the top-level array")
  func onlyAfterAComma() throws {
    let bytes = Array(#"[1, {"a": [2, 3]}, "s,", 4]"#.utf8)
    let whole = Self.onePass(bytes, options: .init())
    // After the three commas of the array, and the space after each: not after the comma in
    // the nested array, the one in the string, or anywhere else.
    #expect(whole.resumePoints.map(\.offset) == [3, 4, 18, 19, 24, 25])
    var parser = JSONParser(handler: EventRecorder())
    try parser.feed(Array("[".utf8))
    #expect(!parser._isInsideTopLevelArrayAfterComma, "right after [ is not after a comma")
  }
}
