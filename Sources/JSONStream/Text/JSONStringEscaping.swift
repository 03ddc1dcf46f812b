// Escaping string content for JSON output. Shared by everything that writes JSON text.

extension JSONString {
  /// Appends the string as a JSON string literal, with quotes: `"`, `\` and control characters
  /// escaped (`\n`, `\t`, … or `\u00XX`), everything else as UTF-8.
  @inlinable
  public func appendQuoted(to output: inout [UInt8]) {
    output.append(._quote)
    _ = _appendEscapedJSONStringContent(utf8, to: &output, escapeUnicode: false, escapeSlash: false)
    output.append(._quote)
  }
}

extension String {
  /// The string as JSON text: quoted (by default) and escaped, JSONKit's
  /// `JSONStringWithOptions:includeQuotes:`.
  ///
  /// ```swift
  /// "say \"hi\"\n".jsonStringLiteral()                       // "say \"hi\"\n" (with quotes)
  /// "é/".jsonStringLiteral(includeQuotes: false, escapeUnicode: true, escapeSlash: true)  // \u00e9\/
  /// ```
  public func jsonStringLiteral(
    includeQuotes: Bool = true, escapeUnicode: Bool = false, escapeSlash: Bool = false
  ) -> String {
    var text = self
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count + 2)
    if includeQuotes { output.append(._quote) }
    text.withUTF8 {
      _ = _appendEscapedJSONStringContent(
        $0, to: &output, escapeUnicode: escapeUnicode, escapeSlash: escapeSlash)
    }
    if includeQuotes { output.append(._quote) }
    return String(decoding: output, as: UTF8.self)
  }
}

/// Appends `bytes` escaped for the inside of a JSON string literal: `"` and `\` and control
/// characters always, `/` and non-ASCII on request. Runs that need no escape are copied in
/// bulk. Checks UTF-8 as it goes: returns false at the first ill-formed byte (the output then
/// holds a partial string, which the caller discards).
@inlinable
func _appendEscapedJSONStringContent(
  _ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], escapeUnicode: Bool,
  escapeSlash: Bool
) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  let end = base + bytes.count
  var runStart = base
  var p = base
  while p < end {
    if escapeSlash {
      while p < end && p.pointee >= 0x20 && p.pointee < 0x80 && p.pointee != ._quote
        && p.pointee != ._backslash && p.pointee != ._slash
      {
        p += 1
      }
    } else {
      p = _skipPlainStringBytes(p, end)
    }
    guard p < end else { break }
    let c = p.pointee
    if c >= 0x80 {
      // Multi-byte characters: checked, then copied with the run or escaped.
      let length = _wellFormedCharacterLength(p, end)
      guard length > 0 else { return false }
      if escapeUnicode {
        output.append(contentsOf: UnsafeBufferPointer(start: runStart, count: p - runStart))
        var sequence = _UTF8Sequence()
        _ = sequence.start(c)
        for i in 1..<length { _ = sequence.take(p[i]) }
        _appendUnicodeEscape(sequence.scalar, to: &output)
        runStart = p + length
      }
      p += length
      continue
    }
    if c == ._slash {
      // Plain unless asked to escape it.
      if escapeSlash {
        output.append(contentsOf: UnsafeBufferPointer(start: runStart, count: p - runStart))
        output.append(._backslash)
        output.append(._slash)
        runStart = p + 1
      }
      p += 1
      continue
    }
    output.append(contentsOf: UnsafeBufferPointer(start: runStart, count: p - runStart))
    output.append(._backslash)
    switch c {
    case ._quote, ._backslash: output.append(c)
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    case ._newline: output.append(UInt8(ascii: "n"))
    case ._return: output.append(UInt8(ascii: "r"))
    case ._tab: output.append(UInt8(ascii: "t"))
    default:
      output.append(UInt8(ascii: "u"))
      _appendHex4(UInt32(c), to: &output)
    }
    p += 1
    runStart = p
  }
  output.append(contentsOf: UnsafeBufferPointer(start: runStart, count: end - runStart))
  return true
}

/// `\uXXXX`, or a surrogate pair of them above U+FFFF.
@inlinable
func _appendUnicodeEscape(_ scalar: UInt32, to output: inout [UInt8]) {
  if scalar >= 0x10000 {
    let value = scalar - 0x10000
    output.append(._backslash)
    output.append(UInt8(ascii: "u"))
    _appendHex4(0xD800 + (value >> 10), to: &output)
    output.append(._backslash)
    output.append(UInt8(ascii: "u"))
    _appendHex4(0xDC00 + (value & 0x3FF), to: &output)
  } else {
    output.append(._backslash)
    output.append(UInt8(ascii: "u"))
    _appendHex4(scalar, to: &output)
  }
}

@inlinable
func _appendHex4(_ value: UInt32, to output: inout [UInt8]) {
  let hex: StaticString = "0123456789abcdef"
  output.append(hex.utf8Start[Int((value >> 12) & 0xF)])
  output.append(hex.utf8Start[Int((value >> 8) & 0xF)])
  output.append(hex.utf8Start[Int((value >> 4) & 0xF)])
  output.append(hex.utf8Start[Int(value & 0xF)])
}
