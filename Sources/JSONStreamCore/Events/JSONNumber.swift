/// A borrowed view of a JSON number: its exact text as written, plus exact conversions.
///
/// The parser only checks the grammar; it never rejects a valid number for its size
/// (`1e400` and `123456789012345678901234567890` are valid JSON). Range problems surface here,
/// when you ask for a conversion that cannot hold the value:
///
/// ```swift
/// mutating func number(_ n: borrowing JSONNumber) {
///   if let i = n.int64 { ints.append(i) }        // exact, or nil when it does not fit
///   else { doubles.append(n.double) }            // correctly rounded
///   texts.append(n.text)                         // always exactly as written
/// }
/// ```
///
/// Conversions are done on demand: a consumer that never asks for a `Double` never pays for one.
/// Like ``JSONString``, the view is valid only during the handler call, so it is noncopyable
/// and handlers borrow it: keep its ``text`` or a conversion, not the view.
@frozen
@safe public struct JSONNumber: ~Copyable {
  /// The number's text as written in the input (ASCII). Valid only during the handler call: a
  /// pointer kept from here reads whatever the producer put there next.
  public let utf8: UnsafeBufferPointer<UInt8>

  /// The value, when the producer knows it and `_hasIntegerValue` is set (a tree replays an
  /// integer it kept): consumers that would convert the text (the binary writer, `int64`)
  /// take it instead. Part of the event, so every handler that passes a number on passes it.
  @usableFromInline
  package let _integerValue: Int64

  @usableFromInline
  package let _flags: UInt8

  /// Whether `_integerValue` holds the value; the text is then that value in canonical form
  /// (no leading zero, no fraction or exponent, not `-0`).
  @usableFromInline
  package let _hasIntegerValue: Bool

  @usableFromInline package static var _hasFractionOrExponent: UInt8 { 1 }
  @usableFromInline package static var _nonFinite: UInt8 { 2 }

  @inlinable
  package init(_utf8 utf8: UnsafeBufferPointer<UInt8>, flags: UInt8) {
    unsafe self.utf8 = unsafe utf8
    self._integerValue = 0
    self._flags = flags
    self._hasIntegerValue = false
  }

  /// Wraps the canonical text of integer `value`.
  @inlinable
  package init(_canonicalText utf8: UnsafeBufferPointer<UInt8>, integerValue value: Int64) {
    unsafe self.utf8 = unsafe utf8
    self._integerValue = value
    self._flags = 0
    self._hasIntegerValue = true
  }

  /// Wraps number text from another producer (a binary reader, a replayed value), after checking
  /// it against the JSON number grammar — or that it is `NaN`, `Infinity` or `-Infinity`.
  /// Returns nil for anything else, so a `JSONNumber` is always well-formed.
  public init?(text utf8: UnsafeBufferPointer<UInt8>) {
    switch unsafe _classifyNumberText(utf8) {
    case nil: return nil
    case .some(let flags): unsafe self.init(_utf8: utf8, flags: flags)
    }
  }

  /// The text exactly as written, e.g. `"-12.50e+3"`.
  public var text: String { unsafe String(decoding: utf8, as: UTF8.self) }

  /// Appends the text as written (``text``, without making a `String`).
  @inlinable
  public func appendText(to output: inout [UInt8]) {
    unsafe output.append(contentsOf: utf8)
  }

  /// `true` when written without a fraction or exponent (`42`, `-7`; not `42.0` or `4e1`): a
  /// question about the text. Whether the value is an integer is
  /// `JSONValue.Number.isInteger`'s question.
  @inlinable
  public var isIntegerLiteral: Bool { _flags == 0 }

  /// The old name of ``isIntegerLiteral``, which answers about the text, where
  /// `JSONValue.Number.isInteger` answers about the value.
  @available(*, deprecated, renamed: "isIntegerLiteral")
  @inlinable
  public var isInteger: Bool { isIntegerLiteral }

  /// `true` for the `NaN`, `Infinity` and `-Infinity` literals (only accepted with
  /// ``JSONParseOptions/allowNonFiniteNumbers``).
  @inlinable
  public var isNonFinite: Bool { _flags & JSONNumber._nonFinite != 0 }

  /// `true` when the text starts with `-`.
  @inlinable
  public var isNegative: Bool { unsafe utf8.first == UInt8(ascii: "-") }

  /// The value as `Int64` when it is an integer that fits (`1.0` and `1e3` count as integers);
  /// `nil` otherwise.
  @inlinable
  public var int64: Int64? {
    if _hasIntegerValue { return _integerValue }
    if _flags == 0, unsafe utf8.count <= 18 {
      // Up to 18 characters (17 digits after a sign) always fits: the common case, inline.
      var value: Int64 = 0
      for index in unsafe 0..<utf8.count {
        let byte = unsafe utf8[index]
        if byte != UInt8(ascii: "-") { value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0")) }
      }
      return isNegative ? -value : value
    }
    guard let magnitude = _integerMagnitude() else { return nil }
    return _int64(magnitude: magnitude)
  }

  /// The number's value as `Int64` from its integral `magnitude`, when it fits.
  @inlinable
  package func _int64(magnitude: UInt64) -> Int64? {
    if isNegative {
      return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
    }
    return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
  }

  /// The value as a `Double` when the text is plain decimal (no exponent) with at most 15
  /// digits, the usual measured value: then the digits and 10^(digits after the point) are
  /// both exact doubles and one division rounds correctly (Clinger's fast path). Nil
  /// otherwise.
  package var _plainDecimalDouble: Double? {
    guard _flags & JSONNumber._nonFinite == 0, unsafe utf8.count <= 17 else { return nil }
    var value: UInt64 = 0
    var digits = 0
    var integerDigits = -1
    for index in unsafe 0..<utf8.count {
      let byte = unsafe utf8[index]
      if byte &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
        digits &+= 1
      } else if byte == UInt8(ascii: ".") {
        integerDigits = digits
      } else if byte != UInt8(ascii: "-") {
        return nil  // an exponent
      }
    }
    guard digits <= 15 else { return nil }
    let fractionDigits = integerDigits < 0 ? 0 : digits &- integerDigits
    let magnitude = Double(value) / _powersOfTen[fractionDigits]
    return isNegative ? -magnitude : magnitude
  }

  /// The value as `UInt64` when it is a non-negative integer that fits; `nil` otherwise.
  /// (`-0` is 0.)
  public var uint64: UInt64? {
    guard let magnitude = _integerMagnitude() else { return nil }
    if isNegative && magnitude != 0 { return nil }
    return magnitude
  }

  /// The value as `Int` when it is an integer that fits; `nil` otherwise.
  @inlinable
  public var int: Int? { int64.flatMap { Int(exactly: $0) } }

  /// The value correctly rounded to the nearest `Double` (IEEE 754 round-to-nearest-even).
  /// Magnitudes beyond `Double.greatestFiniteMagnitude` give ±infinity and ones below the
  /// smallest subnormal give ±0, as IEEE 754 rounding prescribes; check ``isExactDouble`` or
  /// `isFinite` when that matters.
  public var double: Double {
    if _flags & JSONNumber._nonFinite != 0 {
      if unsafe utf8.count == 3 { return .nan }
      return isNegative ? -.infinity : .infinity
    }
    if let digits = _DecimalDigits(self) {
      if !digits.truncated {
        if let exact = digits._exactDouble(negative: isNegative) { return exact }
        return _eiselLemire(digits.significand, digits.exponent, negative: isNegative)
      }
      // More digits than UInt64 holds: the value lies in [w, w+1) × 10^q; when both ends
      // round to the same double, that is the answer.
      if digits.significand < .max {
        let low = _eiselLemire(digits.significand, digits.exponent, negative: isNegative)
        let high = _eiselLemire(digits.significand + 1, digits.exponent, negative: isNegative)
        if low == high { return low }
      }
    }
    // The rare rest: the C library's strtod, which rounds correctly.
    return unsafe Double(String(decoding: utf8, as: UTF8.self)) ?? .nan
  }

  /// The value as a `Double` only when it converts exactly (no rounding, no overflow);
  /// e.g. `0.5` and `1e22` do, `0.1` and `1e400` do not.
  public var exactDouble: Double? {
    let d = double
    guard d.isFinite else { return nil }
    return _DecimalDigits(self)?.equalsExactly(d) == true ? d : nil
  }

  /// `true` when ``double`` is exactly the written value.
  public var isExactDouble: Bool { exactDouble != nil }

  /// The value as `significand × 10^exponent` with every significant digit kept, when those
  /// digits fit in `UInt64`: the base of exact conversions, such as to `Decimal`. Trailing
  /// zeros that were written stay (`1.50` is 150 × 10⁻²); zero is 0 × 10⁰. Nil for longer
  /// numbers and for the non-finite literals. Exponents saturate beyond ±10⁹.
  public var decimalComponents: (isNegative: Bool, significand: UInt64, exponent: Int)? {
    guard !isNonFinite, let digits = _DecimalDigits(self), !digits.truncated else { return nil }
    return (isNegative, digits.significand, digits.exponent)
  }

  /// Whether the text is exactly what `Double.description` writes for its value, read from
  /// the text alone: a fraction without exponent or trailing zero, at most 15 significant
  /// digits (which any double tells apart, so they are its shortest form) and a magnitude from
  /// 10⁻⁴ up (below, the description takes an exponent). `false` says nothing.
  package var _isDoubleDescription: Bool {
    guard _flags == JSONNumber._hasFractionOrExponent, let last = unsafe utf8.last,
      last != UInt8(ascii: "0"), unsafe utf8.count <= 18
    else { return false }
    var significant = 0
    var leadingZeros = 0  // zeros before the first nonzero digit (after `0.`)
    var seenPoint = false
    for index in unsafe 0..<utf8.count {
      switch unsafe utf8[index] {
      case UInt8(ascii: "."): seenPoint = true
      case UInt8(ascii: "0") where significant == 0: if seenPoint { leadingZeros += 1 }
      case UInt8(ascii: "0")...UInt8(ascii: "9"): significant += 1
      case UInt8(ascii: "-"): continue
      default: return false  // an exponent
      }
    }
    return seenPoint && significant <= 15 && leadingZeros <= 3
  }
}

// MARK: - Conversions

extension JSONNumber {
  /// Calls `body` with `bytes`, number text its producer checked, as a view with `flags`,
  /// valid during the call (as `JSONString.withWellFormed(_:_:)` does for strings).
  @inlinable
  package static func withText<R>(
    _ bytes: [UInt8], flags: UInt8, _ body: (borrowing JSONNumber) throws -> R
  ) rethrows -> R {
    unsafe try bytes.withUnsafeBufferPointer {
      unsafe try body(JSONNumber(_utf8: $0, flags: flags))
    }
  }

  /// The magnitude of an integral value that fits in `UInt64`, or nil.
  @usableFromInline
  package func _integerMagnitude() -> UInt64? {
    guard !isNonFinite, let digits = _DecimalDigits(self) else { return nil }
    return digits.integerMagnitude()
  }
}

@usableFromInline
internal let _powersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// A number's value as `significand × 10^exponent`, with the significant digits that fit in
/// `UInt64` kept
/// (`truncated` says whether nonzero digits were dropped). Built from validated number text.
@usableFromInline
package struct _DecimalDigits {
  package var significand: UInt64 = 0
  var exponent: Int = 0
  package var truncated = false
  package var digitCount = 0

  /// The value by Clinger's fast path (exact operands, one correctly rounded operation), when
  /// it applies: digits that were not truncated, a significand of at most 2^53 and an exponent
  /// within ±22.
  package func _exactDouble(negative: Bool) -> Double? {
    guard !truncated, significand <= (1 << 53), exponent >= -22, exponent <= 22 else {
      return nil
    }
    let sign: Double = negative ? -1 : 1
    let mantissa = Double(significand)
    if exponent >= 0 { return sign * mantissa * _powersOfTen[exponent] }
    return sign * mantissa / _powersOfTen[-exponent]
  }

  package init?(_ number: borrowing JSONNumber) {
    if let fast = unsafe _DecimalDigits(short: number.utf8) {
      self = fast
      return
    }
    let text = unsafe number.utf8
    var i = 0
    if unsafe i < text.count && text[i] == UInt8(ascii: "-") { i += 1 }
    var seenNonZero = false
    var full = false  // once a digit is dropped, all later ones are too
    var exponentAdjust = 0
    var inFraction = false
    while i < text.count {
      let c = unsafe text[i]
      if c == UInt8(ascii: ".") {
        inFraction = true
      } else if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        let d = UInt64(c &- UInt8(ascii: "0"))
        if d != 0 || seenNonZero {
          seenNonZero = true
          // Keep every digit that fits: 20-digit integers up to UInt64.max stay exact.
          if !full && (digitCount < 19 || significand <= (UInt64.max - d) / 10) {
            significand = significand &* 10 &+ d
            digitCount += 1
            if inFraction { exponentAdjust -= 1 }
          } else {
            full = true
            if d != 0 { truncated = true }
            if !inFraction { exponentAdjust += 1 }
          }
        } else if inFraction {
          exponentAdjust -= 1
        }
      } else {
        break
      }
      i += 1
    }
    var explicitExponent = 0
    if i < text.count {
      // 'e' or 'E'
      i += 1
      var negative = false
      if unsafe i < text.count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
        negative = unsafe text[i] == UInt8(ascii: "-")
        i += 1
      }
      while i < text.count {
        let d = unsafe Int(text[i] &- UInt8(ascii: "0"))
        guard d >= 0 && d <= 9 else { return nil }
        // Saturate: anything past a billion is far outside every representable range.
        if explicitExponent < 1_000_000_000 { explicitExponent = explicitExponent * 10 + d }
        i += 1
      }
      if negative { explicitExponent = -explicitExponent }
    }
    exponent = significand == 0 ? 0 : exponentAdjust + explicitExponent
  }

  /// Straight-line decoding for text with at most 19 digits in all (so `UInt64` cannot
  /// overflow): the usual case, without the general loop's bookkeeping. Nil otherwise.
  package init?(short text: UnsafeBufferPointer<UInt8>) {
    guard var p = text.baseAddress, text.count <= 40 else { return nil }
    let start = unsafe p
    let end = unsafe p + text.count
    if unsafe p < end && p.pointee == ._minus { unsafe p += 1 }
    // Leading zeros (before and just after the point) are digits but not significant ones.
    var leadingZeros = 0
    var q = unsafe p
    while unsafe q < end && (q.pointee == ._zero || q.pointee == ._period) {
      if unsafe q.pointee == ._zero { leadingZeros += 1 }
      unsafe q += 1
    }
    var value: UInt64 = 0
    var digits = 0
    unsafe _DecimalDigits.accumulate(&p, end: end, start: start, &value, &digits)
    var fractionDigits = 0
    if unsafe p < end && p.pointee == ._period {
      unsafe p += 1
      let before = digits
      unsafe _DecimalDigits.accumulate(&p, end: end, start: start, &value, &digits)
      fractionDigits = digits - before
    }
    guard digits <= 19 else { return nil }
    var explicitExponent = 0
    if unsafe p < end {
      // 'e' or 'E', an optional sign, then digits (the text is valid).
      unsafe p += 1
      var negative = false
      if unsafe p < end && (p.pointee == ._minus || p.pointee == ._plus) {
        negative = unsafe p.pointee == ._minus
        unsafe p += 1
      }
      while unsafe p < end {
        if explicitExponent < 1_000_000_000 {
          explicitExponent = unsafe explicitExponent * 10 + Int(p.pointee &- ._zero)
        }
        unsafe p += 1
      }
      if negative { explicitExponent = -explicitExponent }
    }
    significand = value
    digitCount = value == 0 ? 0 : digits - leadingZeros
    exponent = value == 0 ? 0 : explicitExponent - fractionDigits
    truncated = false
  }

  /// Accumulates the digits from `p` into `value` and `digits`, eight at a time while eight
  /// remain, and leaves `p` after them. The number's text runs from `start` to `end`.
  @inline(__always)
  static func accumulate(
    _ p: inout UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, start: UnsafePointer<UInt8>,
    _ value: inout UInt64, _ digits: inout Int
  ) {
    while unsafe end - p >= 8 {
      let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
      guard _isEightDigits(word), digits + 8 <= 19 else { break }
      value = value &* 100_000_000 &+ _eightDigitsValue(word)
      digits += 8
      unsafe p += 8
    }
    // Fewer than eight digits that end the text (a fraction's last ones, most often): the
    // eight bytes that end the text, the ones before the digits read as zeros.
    let tail = unsafe end - p
    if unsafe tail > 0 && tail < 8 && end - start >= 8 && digits + tail <= 19 {
      let word = unsafe UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self).littleEndian
      let before: UInt64 = (1 &<< UInt64(truncatingIfNeeded: (8 &- tail) &* 8)) &- 1
      let padded = (word & ~before) | (0x3030_3030_3030_3030 & before)
      if _isEightDigits(padded) {
        // 10^tail, which the compiler makes a table lookup.
        let scale: UInt64 =
          switch tail {
          case 1: 10
          case 2: 100
          case 3: 1000
          case 4: 10000
          case 5: 100_000
          case 6: 1_000_000
          default: 10_000_000
          }
        value = value &* scale &+ _eightDigitsValue(padded)
        digits += tail
        unsafe p = end
        return
      }
    }
    while unsafe p < end && p.pointee._isDigit {
      value = unsafe value &* 10 &+ UInt64(p.pointee &- ._zero)
      digits += 1
      unsafe p += 1
    }
  }

  /// Whether both denote the same decimal value (trailing zeros aside).
  func sameValue(as other: _DecimalDigits) -> Bool {
    if truncated || other.truncated { return false }
    var a = self
    var b = other
    a.stripTrailingZeros()
    b.stripTrailingZeros()
    return a.significand == b.significand && (a.significand == 0 || a.exponent == b.exponent)
  }

  mutating func stripTrailingZeros() {
    while significand != 0 && significand % 10 == 0 {
      significand /= 10
      exponent += 1
    }
  }

  /// The integral value when it fits in `UInt64`, else nil.
  package func integerMagnitude() -> UInt64? {
    if significand == 0 { return truncated ? nil : 0 }
    if truncated { return nil }
    var value = significand
    if exponent >= 0 {
      if exponent > 19 { return nil }
      for _ in 0..<exponent {
        let (m, overflow) = value.multipliedReportingOverflow(by: 10)
        if overflow { return nil }
        value = m
      }
      return value
    }
    if exponent < -19 { return nil }
    for _ in 0..<(-exponent) {
      if value % 10 != 0 { return nil }
      value /= 10
    }
    return value
  }

  /// Whether `d` equals this decimal exactly: `significand × 10^exponent` is
  /// `odd × 2^k` with `odd` below 2^53 exactly when a Double holds it.
  func equalsExactly(_ d: Double) -> Bool {
    if truncated { return false }
    if significand == 0 { return d == 0 }
    var odd = significand
    var twos = 0
    while odd & 1 == 0 {
      odd >>= 1
      twos += 1
    }
    // 5^28 exceeds 2^64: larger powers can neither be multiplied in nor divided out.
    guard exponent >= -27 && exponent <= 27 else { return false }
    if exponent >= 0 {
      for _ in 0..<exponent {
        let (product, overflow) = odd.multipliedReportingOverflow(by: 5)
        if overflow { return false }
        odd = product
      }
    } else {
      for _ in 0..<(-exponent) {
        if odd % 5 != 0 { return false }
        odd /= 5
      }
    }
    twos += exponent
    guard odd < (1 << 53) else { return false }
    return Double(sign: .plus, exponent: twos, significand: Double(odd)) == d.magnitude
  }
}

/// `_classifyNumberText(_:)` of bytes in an array.
package func _classifyNumberText(_ text: [UInt8]) -> UInt8? {
  unsafe text.withUnsafeBufferPointer { unsafe _classifyNumberText($0) }
}

/// JSONNumber's flags for valid number text, or nil when it is not a JSON number (nor one of
/// the non-finite literals).
@usableFromInline
package func _classifyNumberText(_ text: UnsafeBufferPointer<UInt8>) -> UInt8? {
  var i = 0
  let n = text.count
  func digits() -> Int {
    let start = i
    while unsafe i < n && text[i]._isDigit { i += 1 }
    return i - start
  }
  if unsafe i < n && text[i] == ._minus { i += 1 }
  let rest = unsafe UnsafeBufferPointer(rebasing: text[i...])
  if unsafe _bytesEqual(rest, _staticBytes("Infinity"))
    || (i == 0 && _bytesEqual(rest, _staticBytes("NaN")))
  {
    return JSONNumber._nonFinite
  }
  guard i < n else { return nil }
  if unsafe text[i] == ._zero {
    i += 1
  } else if digits() == 0 {
    return nil
  }
  var flags: UInt8 = 0
  if unsafe i < n && text[i] == ._period {
    i += 1
    guard digits() > 0 else { return nil }
    flags = JSONNumber._hasFractionOrExponent
  }
  if unsafe i < n && (text[i] == ._lowerE || text[i] == ._upperE) {
    i += 1
    if unsafe i < n && (text[i] == ._plus || text[i] == ._minus) { i += 1 }
    guard digits() > 0 else { return nil }
    flags = JSONNumber._hasFractionOrExponent
  }
  return i == n ? flags : nil
}

@usableFromInline
func _staticBytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
  unsafe UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
}
