import JSONStream
import JSONStreamTestSupport
import Testing

@Suite("Strict RFC 8259 grammar")
struct GrammarTests {
  @Test("a document gives the expected events")
  func events() {
    let outcome = parse(#"{"a": [1, -2.5e+3, true, false, null, "x"], "b": {}, "c": []}"#)
    #expect(outcome.error == nil)
    #expect(
      outcome.events == [
        .startObject, .key("a"), .startArray, .number("1"), .number("-2.5e+3"), .bool(true),
        .bool(false), .null, .string("x"), .endArray, .key("b"), .startObject, .endObject,
        .key("c"), .startArray, .endArray, .endObject,
      ])
  }

  @Test(
    "top-level scalars and surrounding whitespace are accepted",
    arguments: [
      ("0", Event.number("0")), (" -0 ", .number("-0")), ("\t\r\n1.5e-7\n", .number("1.5e-7")),
      ("\"s\"", .string("s")), ("true", .bool(true)), ("false", .bool(false)), ("null", .null),
      ("123456789012345678901234567890", .number("123456789012345678901234567890")),
      ("1e400", .number("1e400")), ("-1E-400", .number("-1E-400")), ("0.0", .number("0.0")),
    ])
  func scalars(text: String, event: Event) {
    let outcome = parse(text)
    #expect(outcome.error == nil)
    #expect(outcome.events == [event])
  }

  @Test(
    "escapes decode",
    arguments: [
      (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
      (#""\u0041\u00e9\u20AC""#, "Aé€"),
      (#""\uD83D\uDE00""#, "😀"),
      (#""\ud834\udd1e x""#, "𝄞 x"),
      (#""a\u0000b""#, "a\u{0}b"),
      (#""\uFFFF\uFDD0""#, String(decoding: [0xEF, 0xBF, 0xBF, 0xEF, 0xB7, 0x90], as: UTF8.self)),
      ("\"é😀\u{7F}\"", "é😀\u{7F}"),
    ])
  func escapes(text: String, decoded: String) {
    let outcome = parse(text)
    #expect(outcome.error == nil)
    #expect(outcome.events == [.string(decoded)])
  }

  @Test(
    "invalid input is rejected with the right kind",
    arguments: [
      ("", JSONParseError.Kind.emptyInput), ("   \n ", .emptyInput),
      ("01", .invalidNumber), ("-01", .invalidNumber), ("+1", .unexpectedByte),
      (".5", .unexpectedByte), ("1.", .unexpectedEndOfInput), ("[1.]", .invalidNumber),
      ("-", .unexpectedEndOfInput), ("[-]", .invalidNumber), ("1e", .unexpectedEndOfInput),
      ("1e+", .unexpectedEndOfInput), ("[1e]", .invalidNumber), ("[1.e5]", .invalidNumber),
      ("[0x10]", .unexpectedByte), (#""\x""#, .invalidEscape),
      (#""\u12G4""#, .invalidUnicodeEscape),
      (#""\U0041""#, .invalidEscape), ("\"a\tb\"", .controlCharacterInString),
      ("\"a\nb\"", .controlCharacterInString), ("\"\u{0}\"", .controlCharacterInString),
      ("[1] x", .trailingText), ("{} {}", .trailingText), ("1 2", .trailingText),
      ("[1,]", .trailingComma), (#"{"a":1,}"#, .trailingComma), ("[,]", .unexpectedByte),
      ("[1,,2]", .unexpectedByte), ("// c\n1", .unexpectedByte), ("/* c */ 1", .unexpectedByte),
      ("NaN", .unexpectedByte), ("Infinity", .unexpectedByte), ("-Infinity", .invalidNumber),
      ("['a']", .unexpectedByte), ("{'a':1}", .unexpectedByte), ("tru", .unexpectedEndOfInput),
      ("trUe", .invalidLiteral), ("nul", .unexpectedEndOfInput), ("[nulll]", .unexpectedByte),
      ("[", .unexpectedEndOfInput), ("[1", .unexpectedEndOfInput),
      (#"{"a""#, .unexpectedEndOfInput),
      (#"{"a":"#, .unexpectedEndOfInput), ("\"abc", .unexpectedEndOfInput),
      ("]", .unexpectedByte), ("[}", .unexpectedByte), (#"{"a":1]"#, .unexpectedByte),
      (#"{"a" 1}"#, .unexpectedByte), ("{1:2}", .unexpectedByte),
      (#"{"a":1 "b":2}"#, .unexpectedByte),
      ("\u{FEFF}{}", .byteOrderMark), (#""\uD800""#, .unpairedSurrogate),
      (#""\uDC00""#, .unpairedSurrogate), (#""\uD800\u0041""#, .unpairedSurrogate),
      (#""\uD800\n""#, .unpairedSurrogate), (#""\uD800x""#, .unpairedSurrogate),
      (#""\uD800\uD800""#, .unpairedSurrogate), ("[1]\u{0B}", .trailingText),
    ])
  func rejects(text: String, kind: JSONParseError.Kind) {
    let outcome = parse(text)
    #expect(outcome.error?.kind == kind, "\(text.debugDescription): \(outcome)")
    #expect(parseBytewise(Array(text.utf8)) == outcome)
  }

  @Test(
    "ill-formed UTF-8 is rejected everywhere",
    arguments: [
      [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
      [0x22, 0xC1, 0xBF, 0x22],  // overlong
      [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
      [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22],  // overlong 4-byte
      [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
      [0x22, 0xED, 0xBF, 0xBF, 0x22],  // encoded surrogate U+DFFF
      [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
      [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],  // lead byte past F4
      [0x22, 0xFF, 0x22],  // never valid
      [0x22, 0x80, 0x22],  // lone continuation
      [0x22, 0xE2, 0x82, 0x22],  // truncated € (E2 82 AC)
      [0x22, 0xF0, 0x9F, 0x98, 0x22],  // truncated 😀
      [0x22, 0xC3, 0x41, 0x22],  // lead then ASCII
      [0x22, 0xE9],  // truncated at the end of input
      [0x5B, 0xC3, 0xA9, 0x5D],  // non-ASCII outside a string
    ] as [[UInt8]])
  func illFormedUTF8(bytes: [UInt8]) {
    let outcome = parse(bytes)
    #expect(outcome.error != nil)
    #expect(
      outcome.error?.kind == .invalidUTF8 || outcome.error?.kind == .unexpectedEndOfInput
        || outcome.error?.kind == .unexpectedByte, "\(outcome)")
    #expect(parseBytewise(bytes) == outcome)
  }

  @Test("U+0000 and noncharacters are accepted by default, raw and escaped")
  func nullAndNoncharacters() {
    let raw: [UInt8] = [0x22, 0xEF, 0xBF, 0xBF, 0xEF, 0xB7, 0x90, 0xF4, 0x8F, 0xBF, 0xBE, 0x22]
    #expect(
      parse(raw).events == [.string(String(decoding: raw.dropFirst().dropLast(), as: UTF8.self))])
    #expect(parse(#"["\u0000"]"#).events == [.startArray, .string("\u{0}"), .endArray])
  }

  @Test("deep nesting up to the limit parses; past it is a limit error")
  func depthDefault() {
    let ok = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
    #expect(parse(ok).error == nil)
    let tooDeep = String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001)
    #expect(parse(tooDeep).error?.kind == .limitExceeded(.depth))
    #expect(parse(tooDeep).error?.offset == 1000)
  }

  @Test("a mix of containers closes in order")
  func mixedNesting() {
    let outcome = parse(#"[{"a":[{"b":{}}]},[[]]]"#)
    #expect(outcome.error == nil)
    #expect(outcome.events.count == 16)
  }
}
