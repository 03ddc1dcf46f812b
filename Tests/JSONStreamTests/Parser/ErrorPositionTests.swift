import JSONStream
import JSONStreamTestSupport
import Testing

/// Where errors point, at every chunking: the error's offset, line and column, and the
/// parser's own position after it, which must agree.
@Suite("ErrorPosition")
struct ErrorPositionTests {
  /// The chunkings tried: whole, fixed sizes, and every cut into two.
  static func chunkings(_ count: Int) -> [[Int]] {
    var result: [[Int]] = [[]]
    for size in 1...7 { result.append(Array(repeating: size, count: count / size + 1)) }
    for cut in 1..<max(1, count) { result.append([cut]) }
    return result
  }

  /// The error of parsing `bytes` fed in `chunkSizes`, with the parser's position after it.
  static func failure(
    _ bytes: [UInt8], options: JSONParseOptions, chunkSizes: [Int]
  ) -> (error: JSONParseError, offset: Int, line: Int, column: Int)? {
    var parser = JSONParser(handler: EventRecorder(), options: options)
    do {
      try feed(&parser, bytes, chunkSizes: chunkSizes)
      return nil
    } catch let error as JSONParseError {
      return (error, parser.offset, parser.line, parser.column)
    } catch {
      return nil
    }
  }

  /// Expects `kind` at the first byte of `marker` in `text`, at every chunking; the column
  /// counts the characters before it on its line.
  static func expectError(
    _ kind: JSONParseError.Kind, in text: String, at marker: String,
    options: JSONParseOptions, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let range = text.range(of: marker) else {
      Issue.record("no \(marker) in \(text)", sourceLocation: sourceLocation)
      return
    }
    let before = text[..<range.lowerBound]
    let offset = before.utf8.count
    let lineText = before.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
    let line = before.filter { $0 == "\n" }.count + 1
    let column = lineText.unicodeScalars.count + 1
    let bytes = Array(text.utf8)
    for sizes in chunkings(bytes.count) {
      let comment: Comment = "\(text) in chunks \(sizes)"
      guard let found = failure(bytes, options: options, chunkSizes: sizes) else {
        Issue.record("no error: \(comment)", sourceLocation: sourceLocation)
        continue
      }
      #expect(found.error.kind == kind, comment, sourceLocation: sourceLocation)
      #expect(found.error.offset == offset, comment, sourceLocation: sourceLocation)
      #expect(found.error.line == line, comment, sourceLocation: sourceLocation)
      #expect(found.error.column == column, comment, sourceLocation: sourceLocation)
      #expect(found.offset == offset, comment, sourceLocation: sourceLocation)
      #expect(found.line == line, comment, sourceLocation: sourceLocation)
      #expect(found.column == column, comment, sourceLocation: sourceLocation)
    }
  }

  static let rejecting = JSONParseOptions.with { $0.rejectNullAndNoncharacters = true }

  @Test("a raw noncharacter is reported at its first byte, after characters of every length")
  func rawNoncharacter() {
    // Built from scalars: Swift literals cannot hold noncharacters.
    let noncharacters = [0xFDD0, 0xFDEF, 0xFFFE, 0x1FFFF, 0xFFFFF, 0x10FFFF].map {
      String(Unicode.Scalar($0)!)
    }
    let befores = ["", "ab", "é", "€", "😀", "é€😀x", "😀😀😀", "\u{10FFFD}é"]
    for noncharacter in noncharacters {
      for before in befores {
        for template in ["[\"%\"]", "\"%\"", "{\"%\": 1}", "[1,\n \"x\", \"é\",\n \"%\"]"] {
          let text = template.replacingOccurrences(of: "%", with: before + noncharacter)
          Self.expectError(
            .disallowedCharacter, in: text, at: noncharacter, options: Self.rejecting)
        }
      }
    }
  }

  @Test("the reported case: column 5, not 3")
  func reported() {
    let bytes: [UInt8] = Array(#"["ab"#.utf8) + [0xEF, 0xB7, 0x90] + Array(#""]"#.utf8)
    for sizes in Self.chunkings(bytes.count) {
      let found = Self.failure(bytes, options: Self.rejecting, chunkSizes: sizes)
      #expect(found?.error.offset == 4)
      #expect(found?.error.column == 5)
      #expect(found?.column == 5)
    }
  }

  @Test("an escaped noncharacter is reported at the escape's backslash")
  func escapedNoncharacter() {
    let cases: [(String, String)] = [
      (#"["\uFDD0"]"#, #"\uFDD0"#), (#"["ab\uFFFE"]"#, #"\uFFFE"#),
      (#"["é€😀\u0000"]"#, #"\u0000"#), (#"["😀\uDBFF\uDFFF"]"#, #"\uDBFF"#),
      (#"{"é\uD83F\uDFFE": 1}"#, #"\uD83F"#), (#"[1,\n"x",\n"€\uFDEF"]"#, #"\uFDEF"#),
    ]
    for (text, marker) in cases {
      let text = text.replacingOccurrences(of: #"\n"#, with: "\n")
      Self.expectError(.disallowedCharacter, in: text, at: marker, options: Self.rejecting)
    }
  }

  @Test("unpaired surrogates are reported at the backslash of the unpaired escape")
  func unpairedSurrogates() {
    // (text, the escape the error points at: its first occurrence)
    let cases: [(String, String)] = [
      (#""\uD800""#, #"\uD800"#),
      (#""\uD800x""#, #"\uD800"#),
      (#""\uD800é""#, #"\uD800"#),
      (#""€\uDBFF😀""#, #"\uDBFF"#),
      (#""\uD800\u0041""#, #"\uD800"#),
      (#""\uD800\n""#, #"\uD800"#),
      (#""\uD800\\""#, #"\uD800"#),
      (#""\uDC00""#, #"\uDC00"#),
      (#""ab\uDFFFcd""#, #"\uDFFF"#),
      (#""a\uD800\uD800""#, #"\uD800"#),
      (#""\u0041\uDC00\uD800""#, #"\uDC00"#),
      (#"["x", "é\uD83D"]"#, #"\uD83D"#),
      (#"{"\uD800": 1}"#, #"\uD800"#),
      (#"{"a": 1, "k\uD800\u0041": 2}"#, #"\uD800"#),
      (#"{"😀\uDC00": 1}"#, #"\uDC00"#),
      (#"[1,\n  "\uD800x"]"#, #"\uD800"#),
    ]
    for (text, marker) in cases {
      let text = text.replacingOccurrences(of: #"\n"#, with: "\n")
      Self.expectError(.unpairedSurrogate, in: text, at: marker, options: JSONParseOptions())
      // Rejecting noncharacters as well changes nothing here.
      Self.expectError(.unpairedSurrogate, in: text, at: marker, options: Self.rejecting)
    }
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
