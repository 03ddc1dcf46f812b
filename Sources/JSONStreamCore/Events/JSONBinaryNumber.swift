// A number in binary form: what a binary reader read, or what number text becomes when one
// form reproduces it exactly. Events carry it; the tree and the binary writer keep it as is.

/// A number in one of the binary format's binary forms: what ``JSONBinaryReader`` reads, and
/// what a tree keeps of it. The event ``JSONEventHandler/binaryNumber(_:)`` carries it, so a
/// consumer that keeps numbers in binary (the tree builder, the binary writer) never makes
/// their text, and one that wants the text gets it from ``withJSONNumber(_:)``.
///
/// Its JSON text: an integer in canonical form (no leading zeros, no `-0`); a decimal with
/// exactly `scale` digits after the point; a double in the shortest form that reads back as it.
public enum JSONBinaryNumber: Sendable, Equatable {
  /// An integer.
  case int(Int64)
  /// An integer above `Int64.max`.
  case uint(UInt64)
  /// `mantissa × 10^-scale`, written with `scale` digits after the point (`scale` ≥ 1).
  case decimal(mantissa: Int64, scale: UInt8)
  /// A binary64 (or a binary32, held exactly).
  case double(Double)

  /// Made from JSON number text when one form reproduces the text exactly: an integer in
  /// canonical form, or a decimal without exponent whose digits fit in 18; nil otherwise (the
  /// text is then kept as text).
  @usableFromInline
  package init?(text: UnsafeBufferPointer<UInt8>) {
    var i = 0
    let n = text.count
    guard n > 0 else { return nil }
    let negative = unsafe text[0] == UInt8(ascii: "-")
    if negative { i = 1 }
    guard i < n else { return nil }
    // Integer part: "0" or a non-zero digit then digits.
    let integerStart = i
    if unsafe text[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while unsafe i < n && text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
    }
    let integerDigits = i - integerStart
    guard integerDigits > 0 else { return nil }
    var fractionDigits = 0
    if i < n {
      guard unsafe text[i] == UInt8(ascii: "."), i + 1 < n else { return nil }
      i += 1
      let fractionStart = i
      while unsafe i < n && text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
      fractionDigits = i - fractionStart
      guard i == n, fractionDigits > 0, fractionDigits <= 255 else { return nil }
    }
    let allDigits = integerDigits + fractionDigits
    if fractionDigits == 0 {
      // An integer: Int64, or a positive one up to UInt64.max.
      var magnitude: UInt64 = 0
      for index in integerStart..<n {
        let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = unsafe times10.addingReportingOverflow(UInt64(text[index] &- 48))
        guard !overflow1 && !overflow2 else { return nil }
        magnitude = sum
      }
      if negative {
        guard magnitude != 0, magnitude <= UInt64(Int64.max) + 1 else { return nil }
        self = .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
      } else if magnitude <= UInt64(Int64.max) {
        self = .int(Int64(magnitude))
      } else {
        self = .uint(magnitude)
      }
      return
    }
    guard allDigits <= 18 else { return nil }
    var mantissa: Int64 = 0
    for index in integerStart..<n where unsafe text[index] != UInt8(ascii: ".") {
      mantissa = unsafe mantissa * 10 + Int64(text[index] &- 48)
    }
    // "-0.0" has no signed zero mantissa: kept as text.
    if negative {
      guard mantissa != 0 else { return nil }
      mantissa = -mantissa
    }
    self = .decimal(mantissa: mantissa, scale: UInt8(fractionDigits))
  }

  /// `init(text:)` of a number's text, faster for the usual numbers: an integer in canonical
  /// form is read by `_canonicalInteger`, a decimal of 8 to 20 characters (18 digits, a point
  /// and a sign) with `_parseDigits`; whatever else its flags allow goes to `init(text:)`. Any text the fast
  /// paths do not fully check (a non-digit, a leading zero) also goes there, so the answer is
  /// `init(text:)`'s whatever the flags say.
  @inlinable @inline(__always)
  package init?(_ number: borrowing JSONNumber) {
    let text = unsafe number.utf8
    let count = text.count
    if number._flags == 0 {
      if let value = unsafe _canonicalInteger(text) {
        self = .int(value)
        return
      }
    } else if number._flags == JSONNumber._hasFractionOrExponent && count >= 8 && count <= 20,
      let base = text.baseAddress
    {
      let negative = unsafe base[0] == UInt8(ascii: "-")
      let sign = negative ? 1 : 0
      // The point: in the first eight bytes for integer parts of up to six digits (found in
      // the word by its zero byte after an XOR), else further on, a byte at a time.
      let dots =
        unsafe UnsafeRawPointer(base).loadUnaligned(as: UInt64.self).littleEndian
        ^ 0x2E2E_2E2E_2E2E_2E2E
      let zeroBytes = (dots &- 0x0101_0101_0101_0101) & ~dots & 0x8080_8080_8080_8080
      var point = zeroBytes != 0 ? zeroBytes.trailingZeroBitCount &>> 3 : 8
      while unsafe point < count && base[point] != UInt8(ascii: ".") { point &+= 1 }
      let integerDigits = point &- sign
      let fractionDigits = count &- point &- 1
      if unsafe integerDigits > 0 && fractionDigits > 0 && integerDigits &+ fractionDigits <= 18
        && (base[sign] != UInt8(ascii: "0") || integerDigits == 1),
        let integer = unsafe _parseDigits(base, sign, point),
        let fraction = unsafe _parseDigits(base, point &+ 1, count)
      {
        // At most 18 digits: it fits.
        let mantissa = Int64(integer &* _powerOfTen(fractionDigits) &+ fraction)
        if !negative {
          self = .decimal(mantissa: mantissa, scale: UInt8(fractionDigits))
          return
        }
        if mantissa != 0 {
          self = .decimal(mantissa: -mantissa, scale: UInt8(fractionDigits))
          return
        }
      }
    }
    unsafe self.init(text: text)
  }

  /// Calls `body` with the number as a ``JSONNumber`` of its JSON text (made on the stack, or
  /// for a double as a `String`): what ``JSONEventHandler/number(_:)`` gets for it.
  @inlinable
  public func withJSONNumber<R>(_ body: (borrowing JSONNumber) throws -> R) rethrows -> R {
    switch self {
    case .double(let value):
      var description = _nonFiniteAwareText(value)
      return try description.withNumberText(flagsIfNotNumber: 0, body)
    case .decimal:
      return unsafe try withText {
        unsafe try body(JSONNumber(_utf8: $0, flags: JSONNumber._hasFractionOrExponent))
      }
    case .int, .uint:
      return unsafe try withText { unsafe try body(JSONNumber(_utf8: $0, flags: 0)) }
    }
  }

  /// Calls `body` with the JSON text of an integer or decimal (the text it was made from), made
  /// on the stack.
  @inlinable
  func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let (digits, fractionDigits, negative): (UInt64, Int, Bool)
    switch self {
    case .int(let value): (digits, fractionDigits, negative) = (value.magnitude, 0, value < 0)
    case .uint(let value): (digits, fractionDigits, negative) = (value, 0, false)
    case .decimal(let mantissa, let scale):
      (digits, fractionDigits, negative) = (mantissa.magnitude, Int(scale), mantissa < 0)
    case .double: preconditionFailure("a double's text is its description")
    }
    return unsafe try withUnsafeTemporaryAllocation(
      of: UInt8.self, capacity: _decimalTextCapacity
    ) { buffer in
      let start = unsafe _writeDecimalText(
        digits, fractionDigits: fractionDigits, negative: negative, pointZero: false,
        endingAt: buffer)
      return unsafe try body(UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }
}
