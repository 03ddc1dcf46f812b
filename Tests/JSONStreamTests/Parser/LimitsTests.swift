import JSONStream
import JSONStreamTestSupport
import Testing

@Suite("Limits, each with its own error")
struct LimitsTests {
  @Test(
    "1,000,000 nested arrays: the depth error, no crash; parses once the limit is raised",
    .hugeInput, .tags(.hugeInput))
  func millionDeep() {
    let depth = 1_000_000
    let bytes = [UInt8](repeating: 0x5B, count: depth) + [UInt8](repeating: 0x5D, count: depth)
    let error = parse(bytes).error
    #expect(error?.kind == .limitExceeded(.depth))
    #expect(error?.offset == 1000)
    #expect(error?.message == "nesting is deeper than the limit of 1000 levels")

    struct Depth: JSONEventHandler {
      var current = 0
      var deepest = 0
      mutating func startArray() {
        current += 1
        deepest = max(deepest, current)
      }
      mutating func endArray() { current -= 1 }
    }
    var options = JSONParseOptions()
    options.limits.maxDepth = depth
    let handler = try? JSONParser.parse(bytes, handler: Depth(), options: options)
    #expect(handler?.deepest == depth)
    #expect(handler?.current == 0)
  }

  @Test("string and key length, in decoded bytes, whole and chunked")
  func stringLength() {
    var options = JSONParseOptions()
    options.limits.maxStringLength = 8
    #expect(parse(#"["12345678"]"#, options: options).error == nil)
    #expect(
      parse(#"["\u00312345678\n"]"#, options: options).error?.kind == .limitExceeded(.stringLength))
    #expect(parse(#"["123456789"]"#, options: options).error?.kind == .limitExceeded(.stringLength))
    #expect(
      parse(#"{"123456789":1}"#, options: options).error?.kind == .limitExceeded(.stringLength))
    #expect(
      parseBytewise(Array(#"["123456789"]"#.utf8), options: options).error?.kind
        == .limitExceeded(.stringLength))
    // Escapes count as what they decode to: 8 × "\n" is 8 bytes.
    #expect(parse(#"["\n\n\n\n\n\n\n\n"]"#, options: options).error == nil)
  }

  @Test("number length, in characters, whole and chunked")
  func numberLength() {
    #expect(parse(String(repeating: "9", count: 1000)).error == nil)
    let long = String(repeating: "9", count: 1001)
    #expect(parse(long).error?.kind == .limitExceeded(.numberLength))
    #expect(parse("[\(long)]").error?.kind == .limitExceeded(.numberLength))
    #expect(parse("[\(long)]", chunkSizes: [3, 500]).error?.kind == .limitExceeded(.numberLength))
    #expect(parseBytewise(Array(long.utf8)).error?.kind == .limitExceeded(.numberLength))
    // 1,000,000 digits: rejected in linear time, or accepted when allowed.
    let huge = String(repeating: "1", count: 1_000_000)
    #expect(parse(huge).error?.kind == .limitExceeded(.numberLength))
    var options = JSONParseOptions()
    options.limits.maxNumberLength = 2_000_000
    #expect(parse(huge, options: options).events == [.number(huge)])
  }

  @Test("input length, over all chunks")
  func inputLength() {
    var options = JSONParseOptions()
    options.limits.maxInputLength = 10
    #expect(parse("[1,2,3,4]", options: options).error == nil)
    #expect(parse("[1,2,3,4] ", options: options).error == nil)
    let error = parse("[1,2,3,4,5]", options: options).error
    #expect(error?.kind == .limitExceeded(.inputLength))
    #expect(error?.offset == 10)
    #expect(parse("[1,2,3,4,5]", options: options, chunkSizes: [4, 4]).error == error)
  }
}

@Suite("Limit errors do not depend on chunking (fuzzer regressions)")
struct LimitSplitTests {
  static let cases: [(String, JSONParseLimits)] = {
    var small = JSONParseLimits()
    small.maxNumberLength = 8
    small.maxStringLength = 16
    var tiny = JSONParseLimits()
    tiny.maxDepth = 3
    tiny.maxStringLength = 4
    tiny.maxNumberLength = 3
    tiny.maxInputLength = 48
    return [
      ("[1234567890]", small),
      ("[\"abcdefghijklmnopqrstuvwxyz\"]", small),
      ("[\"abcdefghijklmnopqrstuvwxyz\u{1}\"]", small),  // a later error: the limit still wins
      ("[\"abcdefghijklmnopq\\x\"]", small),
      ("[\"abcdefghijklmnopqrs\\uD800 \"]", small),
      ("[\"abcdefghijklmnopqrs", small),  // unterminated
      ("[123456789.x]", small),
      ("[-123456789012345678901234567890000000000000000000]", tiny),
    ]
  }()

  @Test("same kind, offset, line and column at every split", arguments: 0..<cases.count)
  func sameAtEverySplit(index: Int) {
    let (text, limits) = Self.cases[index]
    var options = JSONParseOptions()
    options.limits = limits
    let outcome = parse(text, options: options)
    #expect(
      outcome.error?.kind == .limitExceeded(.stringLength)
        || outcome.error?.kind == .limitExceeded(.numberLength)
        || outcome.error?.kind == .limitExceeded(.inputLength))
    #expect(outcome.error?.offset == 1, "limit errors point at the token's start")
    #expect(splitMismatches(text, options: options) == [])
  }
}
