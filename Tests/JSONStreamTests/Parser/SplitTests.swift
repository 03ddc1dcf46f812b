import JSONStream
import JSONStreamTestSupport
import Testing

/// Documents that put every kind of token across a chunk boundary somewhere.
let awkwardDocuments: [String] = [
  #"{"key":"value","n":-12.5e+10,"t":true,"f":false,"z":null,"a":[1,[2,{}]],"e":""}"#,
  #"["\"\\\/\b\f\n\r\t","\u0041\u00E9\u20ac","\uD83D\uDE00","x\ud834\udd1ey"]"#,
  "[\"é\", \"€\", \"😀\", \"a😀b€cé\", \"\u{7F}\"]",
  "[0,-0,0.5,-0.5e-5,1E+2,123456789012345678901234567890,1e400,-1.7976931348623157e309]",
  " \r\n\t[ 1 ,\r\n 2 ]\n",
  "123456",
  "-0.125e-3",
  "\"top-level string with escapes \\\" and \\u0030\"",
  "{\"a\":{\"b\":{\"c\":[[[\"deep\"]]]}}}",
]

/// Invalid documents whose error (kind and position) must not depend on the split either.
let awkwardInvalidDocuments: [[UInt8]] = [
  Array(#"{"a":1,}"#.utf8), Array("[1,2".utf8), Array("\"\\uD83D\\u0041\"".utf8),
  Array("\"\\uZZZZ\"".utf8), Array("01".utf8), Array("[1.e3]".utf8), Array("truth".utf8),
  [0x22, 0xE2, 0x82, 0x41, 0x22], [0x22, 0xF0, 0x9F, 0x98], [0x22, 0xED, 0xA0, 0x80, 0x22],
  Array("[\"a\"\n,\n\"b\"\n x]".utf8), Array("{\"é😀\": tru}".utf8),
]

@Suite("Every split point gives the same events")
struct SplitTests {
  @Test("valid documents, every single split and 1-byte chunks", arguments: awkwardDocuments)
  func valid(document: String) {
    #expect(parse(document).error == nil)
    #expect(splitMismatches(document) == [])
  }

  @Test("invalid documents fail identically at every split", arguments: awkwardInvalidDocuments)
  func invalid(document: [UInt8]) {
    #expect(parse(document).error != nil)
    #expect(splitMismatches(document) == [])
  }

  @Test("every pair of split points in a short document")
  func everyPairOfSplits() {
    let bytes = Array(#"{"é":["\uD83D\uDE00",-1.5e3,true]}"#.utf8)
    let whole = parse(bytes)
    #expect(whole.error == nil)
    var mismatches = 0
    for first in 0...bytes.count {
      for second in 0...(bytes.count - first) {
        if parse(bytes, chunkSizes: [first, second]) != whole { mismatches += 1 }
      }
    }
    #expect(mismatches == 0)
  }

  @Test("every split with the extensions on")
  func extensions() {
    var options = JSONParseOptions()
    options.allowComments = true
    options.allowTrailingCommas = true
    options.allowNonFiniteNumbers = true
    options.allowMultipleValues = true
    options.allowUnicodeNewlines = true
    options.looseUnicode = true
    let text =
      "/* c */ [1, // line\n NaN, -Infinity, Infinity,]\u{2028}{\"a\":\"\\uD800x\",}\u{85} 7\u{1E}\"b\""
    var bytes = Array(text.utf8)
    bytes.insert(contentsOf: [0xC3, 0x28], at: bytes.count - 2)  // ill-formed inside "b"
    let whole = parse(bytes, options: options)
    #expect(whole.error == nil, "\(whole)")
    #expect(splitMismatches(bytes, options: options) == [])
  }

  @Test("1-byte chunks stay linear: a long string costs its length, not its square")
  func linearInOneByteChunks() {
    // 200 000 bytes fed one at a time; quadratic rescanning would take minutes here.
    let body = String(repeating: "abcdefghé\\n", count: 20_000)
    let bytes = Array("[\"\(body)\", \(String(repeating: "7", count: 900))]".utf8)
    let whole = parse(bytes)
    #expect(whole.error == nil)
    #expect(parseBytewise(bytes) == whole)
  }
}
