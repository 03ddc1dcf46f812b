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
  let count = bytes.count
  guard let base = bytes.baseAddress else { return true }
  var runStart = 0
  var i = 0
  while i < count {
    let c = base[i]
    if c >= 0x20 && c != ._quote && c != ._backslash && c < 0x80 && !(escapeSlash && c == ._slash) {
      i &+= 1
      continue
    }
    if c >= 0x80 {
      // A multi-byte character: validate, then copy it with the run or escape it.
      var sequence = _UTF8Sequence()
      guard sequence.start(c) else { return false }
      var j = i &+ 1
      while sequence.need > 0 {
        guard j < count, sequence.take(base[j]) else { return false }
        j &+= 1
      }
      if escapeUnicode {
        if runStart < i {
          output.append(
            contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
        }
        _appendUnicodeEscape(sequence.scalar, to: &output)
        runStart = j
      }
      i = j
      continue
    }
    if runStart < i {
      output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
    }
    output.append(._backslash)
    switch c {
    case ._quote, ._backslash, ._slash: output.append(c)
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    case ._newline: output.append(UInt8(ascii: "n"))
    case ._return: output.append(UInt8(ascii: "r"))
    case ._tab: output.append(UInt8(ascii: "t"))
    default:
      output.append(UInt8(ascii: "u"))
      _appendHex4(UInt32(c), to: &output)
    }
    i &+= 1
    runStart = i
  }
  if runStart < count {
    output.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
  }
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
