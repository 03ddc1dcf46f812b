// Escaping string content for JSON output. Shared by everything that writes JSON text.

extension JSONString {
  /// Appends the string as a JSON string literal, with quotes: `"`, `\` and control characters
  /// escaped (`\n`, `\t`, … or `\u00XX`), everything else as UTF-8.
  ///
  /// ```swift
  /// var out: [UInt8] = []
  /// key.appendQuoted(to: &out)   // "say \"hi\"\n" → "say \"hi\"\n" with escapes
  /// ```
  @inlinable
  public func appendQuoted(to output: inout [UInt8]) {
    output.append(._quote)
    _appendEscapedJSONStringContent(utf8, to: &output)
    output.append(._quote)
  }
}

/// Appends `bytes` (well-formed UTF-8) escaped for the inside of a JSON string literal.
/// Runs of bytes that need no escape are copied in bulk.
@inlinable
func _appendEscapedJSONStringContent(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8])
{
  var runStart = 0
  var i = 0
  while i < bytes.count {
    let c = bytes[i]
    if c >= 0x20 && c != ._quote && c != ._backslash {
      i &+= 1
      continue
    }
    if runStart < i {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
    }
    output.append(._backslash)
    switch c {
    case ._quote, ._backslash: output.append(c)
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    case ._newline: output.append(UInt8(ascii: "n"))
    case ._return: output.append(UInt8(ascii: "r"))
    case ._tab: output.append(UInt8(ascii: "t"))
    default:
      let hex: StaticString = "0123456789abcdef"
      output.append(UInt8(ascii: "u"))
      output.append(._zero)
      output.append(._zero)
      output.append(hex.utf8Start[Int(c >> 4)])
      output.append(hex.utf8Start[Int(c & 0xF)])
    }
    i &+= 1
    runStart = i
  }
  if runStart < bytes.count {
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
  }
}
