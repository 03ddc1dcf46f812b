// The text of a Double: the shortest that reads back as it.

/// The shortest text that reads back as `value`, as a JSON number (Swift's `description`,
/// which is shortest round-trip; `5.0` stays `5.0`, `1e-07` is valid JSON as is).
@usableFromInline
package func _shortestText(_ value: Double) -> String {
  value.description
}

/// Swift's shortest round-trip text, with the JSON5 spellings of the non-finite values.
@usableFromInline
package func _nonFiniteAwareText(_ value: Double) -> String {
  if value.isNaN { return "NaN" }
  if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
  return _shortestText(value)
}

/// The shortest decimal that reads back as `value`, as `digits` with the last `fractionDigits`
/// of them after the point, when that decimal is one `description` writes without an exponent
/// and has at most 16 digits: the common values (prices, coordinates, times) without the
/// string `description` makes. Nil for any other value; its text is then `description`'s.
///
/// The decimal nearest to `value` with a given count of fraction digits is found exactly (the
/// significand times a power of five, shifted) and reads back as `value` or not (it and the
/// power of ten are exact doubles, so one division rounds it as a parser does). If one with a
/// count reads back, one with more does too (the same digits and a zero, or nearer), so the
/// fewest that do are found by halving: first the most that fit in 16 digits (a value that
/// needs 17 is out at once), then between none and that. Values with two nearest decimals
/// that both read back, values whose significand is a power of two (their rounding interval
/// is lopsided, so the nearest may not read back where a farther one does) and values below
/// 2⁻¹⁰ (whose shifts would need a third word; `description` writes an exponent below 10⁻⁴
/// anyway) are left to `description`.
package func _shortDecimal(_ value: Double) -> (digits: UInt64, fractionDigits: Int)? {
  // value = significand × 2^(exponent - 52), read from the bits (`exponent` and `rounded(_:)`
  // are calls). Zero, subnormals, NaN and the infinities fail the guard.
  let exponent = Int(value.exponentBitPattern) &- 1023
  guard exponent >= -10 && exponent < 53 else { return nil }
  let significand = value.significandBitPattern | (1 << 52)
  if exponent >= 0 && significand & ((1 << (52 &- exponent)) &- 1) == 0 {
    // An integer below 2⁵³: any other decimal of as few digits is a different integer, more
    // than half a unit in the last place away.
    return (significand >> (52 &- exponent), 0)
  }
  guard value.significandBitPattern != 0 else { return nil }
  let magnitude = value.magnitude
  // value < 2^(exponent + 1), so value × 10^k < 2⁵³ for k ≤ (52 - exponent) × log₁₀ 2 (78913
  // / 2¹⁸ is just below it).
  var most = Swift.min(16, ((52 &- exponent) &* 78913) &>> 18)
  guard
    case .readsBack(var found, var ambiguous) = _nearestDecimal(
      magnitude, significand, exponent, most)
  else { return nil }
  var fewest = 0
  while fewest < most {
    let middle = (fewest &+ most) &>> 1
    if case .readsBack(let digits, let tie) = _nearestDecimal(
      magnitude, significand, exponent, middle)
    {
      (most, found, ambiguous) = (middle, digits, tie)
    } else {
      fewest = middle &+ 1
    }
  }
  return ambiguous ? nil : (found, most)
}

/// Whether the decimal nearest to a value with a given count of fraction digits reads back.
private enum _NearestDecimal {
  /// It does: `digits`; `ambiguous` when another as near does too.
  case readsBack(digits: UInt64, ambiguous: Bool)
  /// It does not, or it has more than 16 digits.
  case no
}

/// The decimal nearest to `magnitude` (a non-integer from 2⁻¹⁰ to 2⁵³ whose significand is
/// not a power of two: `significand` × 2^(`exponent` - 52)) with `fractionDigits` (0…16)
/// after the point.
@inline(__always)
private func _nearestDecimal(
  _ magnitude: Double, _ significand: UInt64, _ exponent: Int, _ fractionDigits: Int
) -> _NearestDecimal {
  // value × 10^k = significand × 5^k × 2^-shift, exact in two words. 1 ≤ shift ≤ 62: the
  // caller's k is below 52 - exponent, and the exponent is at least -10.
  let scaled = significand.multipliedFullWidth(by: _powersOfFive[fractionDigits])
  let shift = 52 &- exponent &- fractionDigits
  precondition(shift >= 1 && shift <= 62)
  guard scaled.high >> shift == 0 else { return .no }
  let whole = scaled.high << (64 &- shift) | scaled.low >> shift
  let rest = scaled.low & ((1 << shift) &- 1)
  let half: UInt64 = 1 << (shift &- 1)
  let digits = rest > half ? whole &+ 1 : whole
  guard digits < 1 << 53, Double(digits) / _powersOfTen[fractionDigits] == magnitude else {
    return .no
  }
  // At a tie the other one is as near: it reads back too.
  return .readsBack(digits: digits, ambiguous: rest == half)
}

/// 5⁰ … 5¹⁶, exact.
private let _powersOfFive: [UInt64] = [
  1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1_953_125, 9_765_625, 48_828_125,
  244_140_625, 1_220_703_125, 6_103_515_625, 30_517_578_125, 152_587_890_625,
]
