/// Text from the input, made safe and measured for a terminal: an error excerpt must not let
/// a hostile file send escape sequences to the user's terminal, and its caret must stand
/// under the character the error names, however wide the characters before it are.
enum TerminalText {
  /// `text` with every control character but the tab (C0, DEL, C1: escape sequences start
  /// with these) shown as `\u{1B}`-style text.
  static func escaped(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      if isHiddenControl(scalar) {
        result += escape(scalar)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The indentation that puts a caret under the character after `before`, as
  /// ``escaped(_:)`` shows it: tabs kept (a tab's width is the terminal's), two columns for
  /// a wide character, none for a combining mark or a format character.
  static func caretIndent(_ before: String) -> String {
    var indent = ""
    for scalar in before.unicodeScalars {
      if scalar == "\t" {
        indent += "\t"
      } else if isHiddenControl(scalar) {
        indent += String(repeating: " ", count: escape(scalar).count)
      } else {
        indent += String(repeating: " ", count: width(scalar))
      }
    }
    return indent
  }

  /// Columns a terminal gives `scalar`: 0, 1 or 2 (East Asian wide and full-width
  /// characters, and emoji shown as pictures).
  static func width(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    let value = scalar.value
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
  }

  private static func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value)
  }

  private static func escape(_ scalar: Unicode.Scalar) -> String {
    "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
  }

  /// The wide characters: Hangul Jamo, CJK and its punctuation, kana, Hangul syllables, CJK
  /// compatibility, full-width forms, the emoji blocks, and the supplementary ideographs.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x2E80...0x303E,
    0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
    0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
    0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
    0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]
}
