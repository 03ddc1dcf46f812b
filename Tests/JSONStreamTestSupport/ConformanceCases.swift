import JSONStream

// The conformance matrix's cases: valid documents, every error kind, every limit at and past
// its bound, every option; and (when the shared data is there) every JSONTestSuite file.

extension ConformanceCase {
  /// The cases written here.
  public static let written: [ConformanceCase] = valid + errors + limits + options + streams

  static let valid: [ConformanceCase] = [
    .init("zero", "0"), .init("negative zero", "-0"), .init("exponent", "1.5E+3"),
    .init("string", #""s""#), .init("true", "true"), .init("false", "false"),
    .init("null", "null"), .init("huge exponent", "1e400"),
    .init("long integer", "123456789012345678901234567890"),
    .init("empty containers", #"[[],{},[{}]]"#),
    .init("nested", #"{"a":[1,{"b":null}],"c":"\u00e9\ud83d\ude00\n","d":-0.5e-3}"#),
    .init("raw Unicode", "[\"é😀\u{7F}\", \"中文\"]"),
    .init("whitespace", " \t\n\r[ 1 ,\n\t2 ] \r\n"),
    .init("elements", #"[{"a":1},{"a":2},{"a":[3,{"b":4}]}]"#),
    .init("lines", "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"é\"\n}\n"),
    .init("escapes", #"["\"\\\/\b\f\n\r\t\u0000\u001f"]"#),
    .init("repeated key allowed", #"{"a":1,"a":2}"#),
  ]

  static let errors: [ConformanceCase] = [
    // unexpectedByte
    .init("missing comma", "[1 2]"), .init("missing colon", #"{"a" 1}"#),
    .init("comma first", "{,}"), .init("bad element after items", #"[{"a":1},{"a":2}, x]"#),
    .init("comment", "[1, // no\n2]"), .init("single quotes", "['a']"),
    .init("bad key on line 3", "[1,\n2,\n{bad}]"),
    // unexpectedEndOfInput
    .init("unclosed array", "[1,2"), .init("after colon", #"{"a":"#),
    .init("unclosed string", #""abc"#),
    .init("items then end", #"[{"a":1},{"a":2}"#), .init("inside escape", #"["\u12"#),
    .init("inside a number", "[1.5e"),
    // emptyInput
    .init("empty", ""), .init("blank", " \n\t "),
    // trailingText
    .init("two values", "[1] [2]"), .init("garbage after", "1 x"),
    // trailingComma
    .init("trailing comma in array", "[1,]"), .init("trailing comma in object", #"{"a":1,}"#),
    // invalidNumber
    .init("leading zero", "01"), .init("no fraction digits", "[1.]"), .init("lone minus", "-"),
    .init("no exponent digits", "[1e]"), .init("leading point", "[.5]"), .init("plus", "[+1]"),
    // invalidLiteral
    .init("tru", "tru"), .init("nul in array", "[nul]"), .init("fals e", "[fals e]"),
    // invalidEscape, invalidUnicodeEscape
    .init("bad escape", #"["\x"]"#), .init("bad hex", #"["\u12G4"]"#),
    // unpairedSurrogate
    .init("lone high", #"["\ud800"]"#), .init("lone low", #"["\udc00"]"#),
    .init("high then letter", #"["\ud800\u0041"]"#), .init("lone high in key", #"{"\ud800":1}"#),
    // invalidUTF8
    .init("bad lead byte", [0x5B, 0x22, 0xFF, 0x22, 0x5D]),
    .init("bad continuation", [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]),
    .init("overlong", [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]),
    .init("encoded surrogate", [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]),
    .init("truncated at end", [0x5B, 0x22, 0xE2, 0x82]),
    // controlCharacterInString
    .init("raw control", "[\"a\u{1}b\"]"), .init("raw newline", "[\"a\nb\"]"),
    // byteOrderMark
    .init("byte order mark", [0xEF, 0xBB, 0xBF, 0x5B, 0x31, 0x5D]),
    // duplicateKey
    .init("duplicate key", #"{"a":1,"a":2}"#, rejectsDuplicateKeys: true),
    .init("nested duplicate", #"[{"x":{"k":1,"k":[2]}},3]"#, rejectsDuplicateKeys: true),
    .init("duplicate after items", "[{\"a\":1},\n{\"é\":2,\"é\":3}]", rejectsDuplicateKeys: true),
    .init("no duplicate", #"{"a":{"a":1},"b":[{"a":2}]}"#, rejectsDuplicateKeys: true),
  ]

  static let limits: [ConformanceCase] = [
    .init("depth at limit", "[[[1]]]").with { $0.limits.maxDepth = 3 },
    .init("depth past limit", "[[[[1]]]]").with { $0.limits.maxDepth = 3 },
    .init("depth past limit in an object", #"{"a":{"b":{"c":{}}}}"#).with {
      $0.limits.maxDepth = 3
    },
    .init("string at limit", #"["abcd"]"#).with { $0.limits.maxStringLength = 4 },
    .init("string past limit", #"["abcde"]"#).with { $0.limits.maxStringLength = 4 },
    .init("key past limit", #"{"abcde":1}"#).with { $0.limits.maxStringLength = 4 },
    .init("escaped string past limit", #"[["\n\n\n\n\n"]]"#).with { $0.limits.maxStringLength = 4 },
    .init("nested string past limit", #"[1,{"a":["abcde"]}]"#).with {
      $0.limits.maxStringLength = 4
    },
    .init("number at limit", "[12345]").with { $0.limits.maxNumberLength = 5 },
    .init("number past limit", "[123456]").with { $0.limits.maxNumberLength = 5 },
    .init("nested number past limit", "[[1],[123456]]").with { $0.limits.maxNumberLength = 5 },
    .init("default number limit", "[[" + String(repeating: "1", count: 2000) + "]]"),
    .init("input at limit", "[1,2,3,4]").with { $0.limits.maxInputLength = 9 },
    .init("input past limit", "[1,2,3,4,5]").with { $0.limits.maxInputLength = 9 },
    .init("depth zero", "1").with { $0.limits.maxDepth = 0 },
    .init("depth zero, a container", "[1]").with { $0.limits.maxDepth = 0 },
    .init("empty strings only", #"["",{"":""}]"#).with { $0.limits.maxStringLength = 0 },
    // Invalid limits: an error before any input is read, whatever the input.
    .init("negative depth", "[1]").with { $0.limits.maxDepth = -1 },
    .init("negative string length", #"["a"]"#).with { $0.limits.maxStringLength = -5 },
    .init("negative number length", "1").with { $0.limits.maxNumberLength = -1 },
    .init("negative input length", "").with { $0.limits.maxInputLength = -1 },
  ]

  static let options: [ConformanceCase] = [
    .init("comments", "[1, /* c */ 2] // x\n").with { $0.allowComments = true },
    .init("unclosed comment", "[1] /* x").with { $0.allowComments = true },
    .init("trailing commas", #"[1,2,{"a":3,},]"#).with { $0.allowTrailingCommas = true },
    .init("non-finite", "[NaN, Infinity, -Infinity]").with { $0.allowNonFiniteNumbers = true },
    .init("trailing text", "[1] garbage").with { $0.allowTrailingText = true },
    .init("loose Unicode", [0x5B, 0x22, 0xFF, 0x61, 0x22, 0x5D]).with { $0.looseUnicode = true },
    .init("replaced surrogate", #"["\ud800x"]"#).with { $0.replaceUnpairedSurrogates = true },
    .init("Unicode newlines", "[1,\u{2028}2,\u{85}3]").with { $0.allowUnicodeNewlines = true },
    .init("byte order mark allowed", [0xEF, 0xBB, 0xBF, 0x5B, 0x31, 0x5D]).with {
      $0.allowByteOrderMark = true
    },
    .init("noncharacter allowed", noncharacter),
    .init("noncharacter rejected", noncharacter).with { $0.rejectNullAndNoncharacters = true },
    .init("escaped null rejected", #"["a\u0000"]"#).with { $0.rejectNullAndNoncharacters = true },
  ]

  /// `["ab\u{FDD0}"]` (a literal cannot hold a noncharacter).
  static let noncharacter: [UInt8] = [0x5B, 0x22, 0x61, 0x62, 0xEF, 0xB7, 0x90, 0x22, 0x5D]

  /// Several top-level values: NDJSON and concatenated values.
  static let streams: [ConformanceCase] = [
    .init("values", "{\"a\":1} {\"a\":2}\n[3]\n").with { $0.allowMultipleValues = true },
    .init("no values", "\n\n").with { $0.allowMultipleValues = true },
    .init("lines then a bad one", "[1]\n[2]\n{bad\n[4]\n").with { $0.allowMultipleValues = true },
    .init("blank lines and CRLF", "{\"a\":1}\r\n\r\n{\"a\":2}\r\n").with {
      $0.allowMultipleValues = true
    },
    .init("last line unfinished", "[1]\n[2").with { $0.allowMultipleValues = true },
    .init("input limit after values", "[1]\n[2]\n[3]\n").with {
      $0.allowMultipleValues = true
      $0.limits.maxInputLength = 9
    },
    .init("duplicate on line 2", "{\"a\":1}\n{\"a\":1,\"a\":2}\n", rejectsDuplicateKeys: true).with
    {
      $0.allowMultipleValues = true
    },
    .init("500 lines, line 301 bad", fiveHundredLines).with { $0.allowMultipleValues = true },
  ]

  /// 500 NDJSON lines of about 200 bytes, the 301st not JSON: more than 64 KiB before it.
  static let fiveHundredLines: String =
    (1...500).map { line in
      line == 301
        ? "{\"id\":301,oops}"
        : "{\"id\":\(line),\"name\":\"item \(line)\",\"pad\":\""
          + String(repeating: "x", count: 150) + "\"}"
    }.joined(separator: "\n") + "\n"
}
