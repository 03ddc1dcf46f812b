// Checking a multi-byte UTF-8 sequence byte by byte, across chunk boundaries.

/// A multi-byte UTF-8 sequence being validated (Unicode Table 3-7).
@usableFromInline
package struct _UTF8Sequence {
  /// Continuation bytes still needed; 0 when not inside a sequence.
  @usableFromInline package var need: UInt8 = 0
  /// Bounds of the next continuation byte (tighter after E0, ED, F0, F4).
  @usableFromInline var low: UInt8 = 0x80
  @usableFromInline var high: UInt8 = 0xBF
  /// Bytes of the sequence consumed so far, lead included.
  @usableFromInline package var length: UInt8 = 0
  @usableFromInline package var scalar: UInt32 = 0

  @inlinable package init() {}

  /// Starts a sequence at `lead`; false when `lead` cannot start one.
  @inlinable
  package mutating func start(_ lead: UInt8) -> Bool {
    low = 0x80
    high = 0xBF
    length = 1
    switch lead {
    case 0xC2...0xDF:
      need = 1
      scalar = UInt32(lead & 0x1F)
    case 0xE0...0xEF:
      need = 2
      scalar = UInt32(lead & 0x0F)
      if lead == 0xE0 { low = 0xA0 }  // overlong below U+0800
      if lead == 0xED { high = 0x9F }  // UTF-16 surrogates
    case 0xF0...0xF4:
      need = 3
      scalar = UInt32(lead & 0x07)
      if lead == 0xF0 { low = 0x90 }  // overlong below U+10000
      if lead == 0xF4 { high = 0x8F }  // above U+10FFFF
    default:
      return false
    }
    return true
  }

  /// Takes one continuation byte; false when `byte` is not a valid one here.
  @inlinable
  package mutating func take(_ byte: UInt8) -> Bool {
    guard byte >= low && byte <= high else { return false }
    scalar = scalar << 6 | UInt32(byte & 0x3F)
    low = 0x80
    high = 0xBF
    need &-= 1
    length &+= 1
    return true
  }
}
