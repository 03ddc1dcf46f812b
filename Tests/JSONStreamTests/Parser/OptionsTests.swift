import JSONStream
import JSONStreamTestSupport
import Testing

@Suite("Parse options (each off by default)")
struct OptionsTests {
  @Test("comments: // and /* */ wherever whitespace may be")
  func comments() {
    let text = "// head\n/* a */[/*b*/1/*c*/,//d\n2 /* multi\nline */]// tail"
    #expect(parse(text).error?.kind == .unexpectedByte)
    let outcome = parse(text, options: .with { $0.allowComments = true })
    #expect(outcome.error == nil)
    #expect(outcome.events == [.startArray, .number("1"), .number("2"), .endArray])
    #expect(splitMismatches(text, options: .with { $0.allowComments = true }) == [])
    // Unterminated and malformed comments.
    #expect(
      parse("[1] /* open", options: .with { $0.allowComments = true }).error?.kind
        == .unexpectedEndOfInput)
    #expect(
      parse("[1] /", options: .with { $0.allowComments = true }).error?.kind
        == .unexpectedEndOfInput)
    #expect(
      parse("[1 /x]", options: .with { $0.allowComments = true }).error?.kind == .unexpectedByte)
    // Line numbers count inside block comments.
    let error = parse("/*\n\n*/ x", options: .with { $0.allowComments = true }).error
    #expect(error?.line == 3)
    #expect(error?.column == 4)
  }

  @Test("trailing text: stop after the first value")
  func trailingText() {
    var parser = JSONParser(
      handler: EventRecorder(), options: .with { $0.allowTrailingText = true })
    let status = try? parser.feed(Array(#"{"a":1} trailing garbage ]]"#.utf8))
    #expect(status == .finished)
    #expect(parser.offset == 7)
    #expect(throws: Never.self) { try parser.finish() }
    #expect(parser.handler.events == [.startObject, .key("a"), .number("1"), .endObject])
    // A top-level number needs its delimiter.
    let number = parse("12x", options: .with { $0.allowTrailingText = true })
    #expect(number.error == nil)
    #expect(number.events == [.number("12")])
    #expect(parse("12", options: .with { $0.allowTrailingText = true }).events == [.number("12")])
    // Empty input is still an error.
    #expect(parse(" ", options: .with { $0.allowTrailingText = true }).error?.kind == .emptyInput)
  }

  @Test("multiple values: NDJSON, concatenated JSON, RFC 7464 sequences")
  func multipleValues() {
    let multi = JSONParseOptions.with { $0.allowMultipleValues = true }
    let ndjson = "{\"a\":1}\n{\"a\":2}\r\n[3]\n\"s\"\n4\ntrue\n"
    #expect(parse(ndjson).error?.kind == .trailingText)
    let outcome = parse(ndjson, options: multi)
    #expect(outcome.error == nil)
    #expect(
      outcome.events == [
        .startObject, .key("a"), .number("1"), .endObject, .startObject, .key("a"), .number("2"),
        .endObject, .startArray, .number("3"), .endArray, .string("s"), .number("4"), .bool(true),
      ])
    #expect(splitMismatches(ndjson, options: multi) == [])
    #expect(parse("{}{}[]\"a\"\"b\"1 2", options: multi).events.count == 10)
    let sequence = "\u{1E}{\"a\":1}\n\u{1E}[2]\n"
    #expect(parse(sequence).error != nil)
    #expect(parse(sequence, options: multi).events.count == 7)
    #expect(parse("", options: multi) == Outcome(events: [], error: nil))
    #expect(parse("[\u{1E}]", options: multi).error?.kind == .unexpectedByte)
    // Each value must still be complete.
    #expect(parse("{} [", options: multi).error?.kind == .unexpectedEndOfInput)
  }

  @Test("trailing commas: one before ] or }")
  func trailingCommas() {
    let options = JSONParseOptions.with { $0.allowTrailingCommas = true }
    #expect(
      parse("[1,2,]", options: options).events == [
        .startArray, .number("1"), .number("2"), .endArray,
      ])
    #expect(
      parse(#"{"a":1,}"#, options: options).events == [
        .startObject, .key("a"), .number("1"), .endObject,
      ])
    #expect(parse("[,]", options: options).error?.kind == .unexpectedByte)
    #expect(parse("[1,,]", options: options).error?.kind == .unexpectedByte)
    #expect(parse("{,}", options: options).error?.kind == .unexpectedByte)
  }

  @Test("NaN and Infinity literals arrive as numbers")
  func nonFinite() throws {
    struct Doubles: JSONEventHandler {
      var values: [Double] = []
      mutating func number(_ n: borrowing JSONNumber) {
        values.append(n.double)
        let isNonFinite = n.isNonFinite
        let int64 = n.int64
        #expect(isNonFinite)
        #expect(int64 == nil)
      }
    }
    let options = JSONParseOptions.with { $0.allowNonFiniteNumbers = true }
    let doubles = try JSONParser.parse(
      Array("[NaN, Infinity, -Infinity]".utf8), handler: Doubles(), options: options)
    #expect(doubles.values.count == 3)
    #expect(doubles.values[0].isNaN)
    #expect(doubles.values[1] == .infinity)
    #expect(doubles.values[2] == -.infinity)
    #expect(parse("[NaN]", options: options).events == [.startArray, .number("NaN"), .endArray])
    #expect(parse("-Inf", options: options).error?.kind == .unexpectedEndOfInput)
    #expect(parse("[nan]", options: options).error?.kind == .invalidLiteral)
    #expect(parse("[-NaN]", options: options).error?.kind == .invalidNumber)
  }

  @Test("loose Unicode: one U+FFFD per maximal ill-formed subpart")
  func looseUnicode() {
    let options = JSONParseOptions.with { $0.looseUnicode = true }
    // Unicode 3.9 examples: each maximal subpart becomes one U+FFFD.
    let cases: [([UInt8], String)] = [
      ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),  // C0 never starts a sequence
      ([0xE0, 0x80, 0xAF], "\u{FFFD}\u{FFFD}\u{FFFD}"),  // 80 cannot follow E0
      ([0xF4, 0x91, 0x92, 0x93], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
      ([0xE1, 0x80, 0x41], "\u{FFFD}A"),  // truncated, then A
      ([0xF0, 0x9F, 0x98], "\u{FFFD}"),  // truncated at the closing quote
      ([0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62], "a\u{FFFD}\u{FFFD}\u{FFFD}b"),
      ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"),  // encoded surrogate
      ([0x80, 0xBF], "\u{FFFD}\u{FFFD}"),
      ([0xC3, 0xA9], "é"),
    ]
    for (inner, expected) in cases {
      let bytes = [0x22] + inner + [0x22]
      #expect(parse(bytes).error?.kind == .invalidUTF8 || inner == [0xC3, 0xA9])
      let outcome = parse(bytes, options: options)
      #expect(outcome.events == [.string(expected)], "\(inner)")
      #expect(splitMismatches(bytes, options: options) == [])
    }
    // Lone surrogate escapes too.
    #expect(
      parse(#"["\uD800", "\uDC00x", "\uD800\uD83D\uDE00"]"#, options: options).events == [
        .startArray, .string("\u{FFFD}"), .string("\u{FFFD}x"), .string("\u{FFFD}😀"), .endArray,
      ])
    // Only strings are loosened: bad bytes outside strings are still errors.
    #expect(parse([0x5B, 0xFF, 0x5D], options: options).error != nil)
  }

  @Test("unpaired surrogates: rejected by default, U+FFFD on request")
  func unpairedSurrogates() {
    let options = JSONParseOptions.with { $0.replaceUnpairedSurrogates = true }
    #expect(parse(#""\uD800""#).error?.kind == .unpairedSurrogate)
    #expect(parse(#""a\uD800b""#, options: options).events == [.string("a\u{FFFD}b")])
    #expect(parse(#""\uDFFF\uD800\n""#, options: options).events == [.string("\u{FFFD}\u{FFFD}\n")])
    #expect(parse(#""\uD83D\uDE00""#, options: options).events == [.string("😀")])
    // Ill-formed UTF-8 is still an error with only this option.
    #expect(parse([0x22, 0xFF, 0x22], options: options).error?.kind == .invalidUTF8)
  }

  @Test("Unicode newlines as whitespace, counted as line breaks")
  func unicodeNewlines() {
    let options = JSONParseOptions.with { $0.allowUnicodeNewlines = true }
    let text = "[1,\u{2028}2,\u{2029}3,\u{85}4,\u{0B}5,\u{0C}6]"
    #expect(parse(text).error?.kind == .unexpectedByte)
    #expect(parse(text, options: options).events.count == 8)
    #expect(splitMismatches(text, options: options) == [])
    let error = parse("[1,\u{2028}\u{2029}x]", options: options).error
    #expect(error?.line == 3)
    #expect(error?.column == 1)
    #expect(parse([0x5B, 0xE2, 0x80, 0xA7, 0x5D], options: options).error != nil)
  }

  @Test("byte order mark: an error by default, skipped on request")
  func byteOrderMark() {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
    #expect(parse(bytes).error?.kind == .byteOrderMark)
    let options = JSONParseOptions.with { $0.allowByteOrderMark = true }
    #expect(parse(bytes, options: options).events == [.startObject, .endObject])
    #expect(splitMismatches(bytes, options: options) == [])
    // Only at the very start.
    #expect(parse(Array("{}".utf8) + [0xEF, 0xBB, 0xBF], options: options).error != nil)
  }

  @Test("JSONKit's strict policy: U+0000 and noncharacters rejected, or replaced when loose")
  func nullAndNoncharacters() {
    let strict = JSONParseOptions.with { $0.rejectNullAndNoncharacters = true }
    for text in [#""\u0000""#, #""\uFFFE""#, #""\uFDD0""#, #""\uDBFF\uDFFF""#] {
      #expect(parse(text, options: strict).error?.kind == .disallowedCharacter, "\(text)")
    }
    let raw: [UInt8] = [0x22, 0xEF, 0xBF, 0xBF, 0x22]
    #expect(parse(raw, options: strict).error?.kind == .disallowedCharacter)
    #expect(parse(#""\uFDCF \uFDF0 \uFFFD""#, options: strict).error == nil)
    var loose = strict
    loose.looseUnicode = true
    #expect(parse(#""a\u0000b""#, options: loose).events == [.string("a\u{FFFD}b")])
    #expect(parse(raw, options: loose).events == [.string("\u{FFFD}")])
    #expect(splitMismatches(raw, options: loose) == [])
  }
}
