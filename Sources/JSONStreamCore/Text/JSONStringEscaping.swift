// Escaping string content for JSON output. Shared by everything that writes JSON text.

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

/// Appends `bytes` escaped for the inside of a JSON string literal (see
/// `_writeEscapedJSONStringContent`); false at ill-formed UTF-8, with nothing appended.
@inlinable
package func _appendEscapedJSONStringContent(
  _ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], escapeUnicode: Bool,
  escapeSlash: Bool
) -> Bool {
  if bytes.isEmpty { return true }
  var valid = true
  let escaped = [UInt8](unsafeUninitializedCapacity: bytes.count &* _maxEscapedBytesPerByte) {
    buffer, count in
    let start = buffer.baseAddress.unsafelyUnwrapped
    if let end = _writeEscapedJSONStringContent(
      bytes, to: start, escapeUnicode: escapeUnicode, escapeSlash: escapeSlash)
    {
      count = end - start
    } else {
      valid = false
      count = 0
    }
  }
  output.append(contentsOf: escaped)
  return valid
}

/// Output room per input byte that escaping may need: a control byte becomes `\u00XX`.
@inlinable
package var _maxEscapedBytesPerByte: Int { 6 }

/// Writes `bytes` escaped for the inside of a JSON string literal to `output`, which has room
/// for `_maxEscapedBytesPerByte` × `bytes.count`: `"` and `\` and control characters always,
/// `/` and non-ASCII on request. Runs that need no escape are copied in bulk. Checks UTF-8 as
/// it goes. Returns the end of the output, or nil at the first ill-formed byte.
@inlinable
package func _writeEscapedJSONStringContent(
  _ bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>,
  escapeUnicode: Bool, escapeSlash: Bool
) -> UnsafeMutablePointer<UInt8>? {
  guard let base = bytes.baseAddress else { return output }
  let end = base + bytes.count
  var out = output
  var runStart = base
  var p = base
  @inline(__always) func copyRun(upTo p: UnsafePointer<UInt8>) {
    let count = p - runStart
    out.update(from: runStart, count: count)
    out += count
  }
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
      guard length > 0 else { return nil }
      if escapeUnicode {
        copyRun(upTo: p)
        var sequence = _UTF8Sequence()
        _ = sequence.start(c)
        for i in 1..<length { _ = sequence.take(p[i]) }
        out = _writeUnicodeEscape(sequence.scalar, to: out)
        runStart = p + length
      }
      p += length
      continue
    }
    if c == ._slash {
      // Plain unless asked to escape it.
      if escapeSlash {
        copyRun(upTo: p)
        out[0] = ._backslash
        out[1] = ._slash
        out += 2
        runStart = p + 1
      }
      p += 1
      continue
    }
    copyRun(upTo: p)
    out = _writeEscape(c, to: out)
    p += 1
    runStart = p
  }
  copyRun(upTo: end)
  return out
}

/// `_writeEscapedJSONStringContent` for well-formed UTF-8 without `escapeUnicode`: no check of
/// multi-byte characters, which are copied with the runs around them. (Foundation's encoder
/// escapes `/` by default, so a drop-in encoder's strings take this path with `escapeSlash`.)
@inlinable
package func _writeEscapedWellFormedContent(
  _ bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>,
  escapeSlash: Bool = false
) -> UnsafeMutablePointer<UInt8> {
  guard let base = bytes.baseAddress else { return output }
  let end = base + bytes.count
  var out = output
  var runStart = base
  while true {
    let p = _skipUnescapedBytes(runStart, end, escapeSlash: escapeSlash)
    let count = p - runStart
    _copyBytes(from: runStart, to: out, count: count)
    out += count
    guard p < end else { return out }
    out = _writeEscape(p.pointee, to: out)
    runStart = p + 1
  }
}

/// The escape of `"`, `\`, `/` or a control character: `\"`, `\/`, `\n`, … or `\u00XX`;
/// returns the end.
@inlinable @inline(__always)
func _writeEscape(_ c: UInt8, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
  out[0] = ._backslash
  switch c {
  case ._quote, ._backslash, ._slash: out[1] = c
  case 0x08: out[1] = UInt8(ascii: "b")
  case 0x0C: out[1] = UInt8(ascii: "f")
  case ._newline: out[1] = UInt8(ascii: "n")
  case ._return: out[1] = UInt8(ascii: "r")
  case ._tab: out[1] = UInt8(ascii: "t")
  default:
    out[1] = UInt8(ascii: "u")
    _writeHex4(UInt32(c), to: out + 2)
    return out + 6
  }
  return out + 2
}

/// `\uXXXX`, or a surrogate pair of them above U+FFFF; returns the end.
@inlinable
func _writeUnicodeEscape(_ scalar: UInt32, to output: UnsafeMutablePointer<UInt8>)
  -> UnsafeMutablePointer<UInt8>
{
  if scalar >= 0x10000 {
    let value = scalar - 0x10000
    let next = _writeUnicodeEscape(0xD800 + (value >> 10), to: output)
    return _writeUnicodeEscape(0xDC00 + (value & 0x3FF), to: next)
  }
  output[0] = ._backslash
  output[1] = UInt8(ascii: "u")
  _writeHex4(scalar, to: output + 2)
  return output + 6
}

@inlinable
func _writeHex4(_ value: UInt32, to output: UnsafeMutablePointer<UInt8>) {
  let hex: StaticString = "0123456789abcdef"
  output[0] = hex.utf8Start[Int((value >> 12) & 0xF)]
  output[1] = hex.utf8Start[Int((value >> 8) & 0xF)]
  output[2] = hex.utf8Start[Int((value >> 4) & 0xF)]
  output[3] = hex.utf8Start[Int(value & 0xF)]
}

extension _Buffer where Element == UInt8 {
  /// Appends `string` in quotes, escaped: `"`, `\\` and control characters always, non-ASCII
  /// with `escapeUnicode`, `/` with `escapeSlash`. Returns false, having appended nothing,
  /// when the bytes are not well-formed UTF-8.
  @inlinable @inline(__always)
  package mutating func appendQuoted(
    _ string: borrowing JSONString, escapeUnicode: Bool, escapeSlash: Bool
  ) -> Bool {
    reserve(string.utf8.count &* _maxEscapedBytesPerByte &+ 2)
    let quote = base + count
    quote.pointee = ._quote
    let content = quote + 1
    let stop: UnsafeMutablePointer<UInt8>?
    if string._needsNoEscaping && !escapeUnicode && !escapeSlash {
      let length = string.utf8.count
      if let source = string.utf8.baseAddress {
        _copyBytes(from: source, to: content, count: length)
      }
      stop = content + length
    } else if string._isWellFormed && !escapeUnicode {
      stop = _writeEscapedWellFormedContent(string.utf8, to: content, escapeSlash: escapeSlash)
    } else {
      stop = _writeEscapedJSONStringContent(
        string.utf8, to: content, escapeUnicode: escapeUnicode, escapeSlash: escapeSlash)
    }
    guard let stop else { return false }
    stop.pointee = ._quote
    count = stop + 1 - base
    return true
  }
}
