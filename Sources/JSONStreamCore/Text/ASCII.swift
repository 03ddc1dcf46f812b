// Named bytes, so the scanner reads as grammar rather than as hex.

extension UInt8 {
  @inlinable package static var _tab: UInt8 { 0x09 }
  @inlinable package static var _newline: UInt8 { 0x0A }
  @inlinable package static var _verticalTab: UInt8 { 0x0B }
  @inlinable package static var _formFeed: UInt8 { 0x0C }
  @inlinable package static var _return: UInt8 { 0x0D }
  @inlinable package static var _recordSeparator: UInt8 { 0x1E }
  @inlinable package static var _space: UInt8 { 0x20 }
  @inlinable package static var _quote: UInt8 { 0x22 }
  @inlinable package static var _apostrophe: UInt8 { 0x27 }
  @inlinable package static var _asterisk: UInt8 { 0x2A }
  @inlinable package static var _plus: UInt8 { 0x2B }
  @inlinable package static var _comma: UInt8 { 0x2C }
  @inlinable package static var _minus: UInt8 { 0x2D }
  @inlinable package static var _period: UInt8 { 0x2E }
  @inlinable package static var _slash: UInt8 { 0x2F }
  @inlinable package static var _zero: UInt8 { 0x30 }
  @inlinable package static var _nine: UInt8 { 0x39 }
  @inlinable package static var _colon: UInt8 { 0x3A }
  @inlinable package static var _backslash: UInt8 { 0x5C }
  @inlinable package static var _openBracket: UInt8 { 0x5B }
  @inlinable package static var _closeBracket: UInt8 { 0x5D }
  @inlinable package static var _openBrace: UInt8 { 0x7B }
  @inlinable package static var _closeBrace: UInt8 { 0x7D }
  @inlinable package static var _upperE: UInt8 { 0x45 }
  @inlinable package static var _lowerE: UInt8 { 0x65 }

  /// `0`…`9`.
  @inlinable package var _isDigit: Bool { self &- UInt8._zero < 10 }
}
