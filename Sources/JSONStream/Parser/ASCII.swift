// Named bytes, so the scanner reads as grammar rather than as hex.
extension UInt8 {
  @inlinable static var _tab: UInt8 { 0x09 }
  @inlinable static var _newline: UInt8 { 0x0A }
  @inlinable static var _verticalTab: UInt8 { 0x0B }
  @inlinable static var _formFeed: UInt8 { 0x0C }
  @inlinable static var _return: UInt8 { 0x0D }
  @inlinable static var _recordSeparator: UInt8 { 0x1E }
  @inlinable static var _space: UInt8 { 0x20 }
  @inlinable static var _quote: UInt8 { 0x22 }
  @inlinable static var _apostrophe: UInt8 { 0x27 }
  @inlinable static var _asterisk: UInt8 { 0x2A }
  @inlinable static var _plus: UInt8 { 0x2B }
  @inlinable static var _comma: UInt8 { 0x2C }
  @inlinable static var _minus: UInt8 { 0x2D }
  @inlinable static var _period: UInt8 { 0x2E }
  @inlinable static var _slash: UInt8 { 0x2F }
  @inlinable static var _zero: UInt8 { 0x30 }
  @inlinable static var _nine: UInt8 { 0x39 }
  @inlinable static var _colon: UInt8 { 0x3A }
  @inlinable static var _backslash: UInt8 { 0x5C }
  @inlinable static var _openBracket: UInt8 { 0x5B }
  @inlinable static var _closeBracket: UInt8 { 0x5D }
  @inlinable static var _openBrace: UInt8 { 0x7B }
  @inlinable static var _closeBrace: UInt8 { 0x7D }
  @inlinable static var _upperE: UInt8 { 0x45 }
  @inlinable static var _lowerE: UInt8 { 0x65 }

  /// `0`…`9`.
  @inlinable var _isDigit: Bool { self &- UInt8._zero < 10 }
}
