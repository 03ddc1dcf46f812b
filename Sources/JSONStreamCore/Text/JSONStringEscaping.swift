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
      _ = unsafe _appendEscapedJSONStringContent(
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
  let escaped = unsafe [UInt8](unsafeUninitializedCapacity: bytes.count &* _maxEscapedBytesPerByte)
  {
    buffer, count in
    let start = unsafe buffer.baseAddress.unsafelyUnwrapped
    if let end = unsafe _writeEscapedJSONStringContent(
      bytes, to: start, escapeUnicode: escapeUnicode, escapeSlash: escapeSlash)
    {
      count = unsafe end - start
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
  guard let base = bytes.baseAddress else { return unsafe output }
  let end = unsafe base + bytes.count
  var out = unsafe output
  var runStart = unsafe base
  var p = unsafe base
  @inline(__always) func copyRun(upTo p: UnsafePointer<UInt8>) {
    let count = unsafe p - runStart
    unsafe out.update(from: runStart, count: count)
    unsafe out += count
  }
  while unsafe p < end {
    if escapeSlash {
      while unsafe p < end && p.pointee >= 0x20 && p.pointee < 0x80 && p.pointee != ._quote
        && p.pointee != ._backslash && p.pointee != ._slash
      {
        unsafe p += 1
      }
    } else {
      unsafe p = unsafe _skipPlainStringBytes(p, end)
    }
    guard unsafe p < end else { break }
    let c = unsafe p.pointee
    if c >= 0x80 {
      // Multi-byte characters: checked, then copied with the run or escaped.
      let length = unsafe _wellFormedCharacterLength(p, end)
      guard length > 0 else { return nil }
      if escapeUnicode {
        unsafe copyRun(upTo: p)
        var sequence = _UTF8Sequence()
        _ = sequence.start(c)
        for i in 1..<length { _ = unsafe sequence.take(p[i]) }
        unsafe out = unsafe _writeUnicodeEscape(sequence.scalar, to: out)
        unsafe runStart = unsafe p + length
      }
      unsafe p += length
      continue
    }
    if c == ._slash {
      // Plain unless asked to escape it.
      if escapeSlash {
        unsafe copyRun(upTo: p)
        unsafe out[0] = ._backslash
        unsafe out[1] = ._slash
        unsafe out += 2
        unsafe runStart = unsafe p + 1
      }
      unsafe p += 1
      continue
    }
    unsafe copyRun(upTo: p)
    unsafe out = unsafe _writeEscape(c, to: out)
    unsafe p += 1
    unsafe runStart = unsafe p
  }
  unsafe copyRun(upTo: end)
  return unsafe out
}

/// `_writeEscapedJSONStringContent` for well-formed UTF-8 without `escapeUnicode`: no check of
/// multi-byte characters, which are copied with the runs around them. (Foundation's encoder
/// escapes `/` by default, so a drop-in encoder's strings take this path with `escapeSlash`.)
@inlinable
package func _writeEscapedWellFormedContent(
  _ bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>,
  escapeSlash: Bool = false
) -> UnsafeMutablePointer<UInt8> {
  guard let base = bytes.baseAddress else { return unsafe output }
  let end = unsafe base + bytes.count
  var out = unsafe output
  var runStart = unsafe base
  while true {
    let p = unsafe _skipUnescapedBytes(runStart, end, escapeSlash: escapeSlash)
    let count = unsafe p - runStart
    unsafe _copyBytes(from: runStart, to: out, count: count)
    unsafe out += count
    guard unsafe p < end else { return unsafe out }
    unsafe out = unsafe _writeEscape(p.pointee, to: out)
    unsafe runStart = unsafe p + 1
  }
}

/// The escape of `"`, `\`, `/` or a control character: `\"`, `\/`, `\n`, … or `\u00XX`;
/// returns the end.
@inlinable @inline(__always)
func _writeEscape(_ c: UInt8, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
  unsafe out[0] = ._backslash
  switch c {
  case ._quote, ._backslash, ._slash: unsafe out[1] = c
  case 0x08: unsafe out[1] = UInt8(ascii: "b")
  case 0x0C: unsafe out[1] = UInt8(ascii: "f")
  case ._newline: unsafe out[1] = UInt8(ascii: "n")
  case ._return: unsafe out[1] = UInt8(ascii: "r")
  case ._tab: unsafe out[1] = UInt8(ascii: "t")
  default:
    unsafe out[1] = UInt8(ascii: "u")
    unsafe _writeHex4(UInt32(c), to: out + 2)
    return unsafe out + 6
  }
  return unsafe out + 2
}

/// `\uXXXX`, or a surrogate pair of them above U+FFFF; returns the end.
@inlinable
func _writeUnicodeEscape(_ scalar: UInt32, to output: UnsafeMutablePointer<UInt8>)
  -> UnsafeMutablePointer<UInt8>
{
  if scalar >= 0x10000 {
    let value = scalar - 0x10000
    let next = unsafe _writeUnicodeEscape(0xD800 + (value >> 10), to: output)
    return unsafe _writeUnicodeEscape(0xDC00 + (value & 0x3FF), to: next)
  }
  unsafe output[0] = ._backslash
  unsafe output[1] = UInt8(ascii: "u")
  unsafe _writeHex4(scalar, to: output + 2)
  return unsafe output + 6
}

@inlinable
func _writeHex4(_ value: UInt32, to output: UnsafeMutablePointer<UInt8>) {
  let hex: StaticString = "0123456789abcdef"
  unsafe output[0] = unsafe hex.utf8Start[Int((value >> 12) & 0xF)]
  unsafe output[1] = unsafe hex.utf8Start[Int((value >> 8) & 0xF)]
  unsafe output[2] = unsafe hex.utf8Start[Int((value >> 4) & 0xF)]
  unsafe output[3] = unsafe hex.utf8Start[Int(value & 0xF)]
}

extension _Buffer where Element == UInt8 {
  /// Appends `string` in quotes, escaped: `"`, `\\` and control characters always, non-ASCII
  /// with `escapeUnicode`, `/` with `escapeSlash`. Returns false, having appended nothing,
  /// when the bytes are not well-formed UTF-8.
  @inlinable @inline(__always)
  package mutating func appendQuoted(
    _ string: borrowing JSONString, escapeUnicode: Bool, escapeSlash: Bool
  ) -> Bool {
    unsafe reserve(string.utf8.count &* _maxEscapedBytesPerByte &+ 2)
    let quote = unsafe base + count
    unsafe quote.pointee = ._quote
    let content = unsafe quote + 1
    let stop: UnsafeMutablePointer<UInt8>?
    if string._needsNoEscaping && !escapeUnicode && !escapeSlash {
      let length = unsafe string.utf8.count
      if let source = unsafe string.utf8.baseAddress {
        unsafe _copyBytes(from: source, to: content, count: length)
      }
      unsafe stop = unsafe content + length
    } else if string._isWellFormed && !escapeUnicode {
      unsafe stop = unsafe _writeEscapedWellFormedContent(
        string.utf8, to: content, escapeSlash: escapeSlash)
    } else {
      unsafe stop = unsafe _writeEscapedJSONStringContent(
        string.utf8, to: content, escapeUnicode: escapeUnicode, escapeSlash: escapeSlash)
    }
    guard let stop = unsafe stop else { return false }
    unsafe stop.pointee = ._quote
    count = unsafe stop + 1 - base
    return true
  }
}
