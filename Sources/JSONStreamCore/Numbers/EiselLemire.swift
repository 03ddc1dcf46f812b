// Decimal → binary64, correctly rounded, without big integers: Eisel–Lemire as in fast_float.
// For w × 10^q with w < 2^64 exact, the 128-bit truncated power of five is always precise
// enough (Mushtak & Lemire, "Fast number parsing without fallback", 2023), so the result is
// the correctly rounded double (ties to even), subnormals and overflow included.

/// The correctly rounded double nearest to `w × 10^q` (w exact), with the given sign.
@usableFromInline
func _eiselLemire(_ w: UInt64, _ q: Int, negative: Bool) -> Double {
  let sign: UInt64 = negative ? 1 << 63 : 0
  if w == 0 || q < _powersOfFiveSmallestExponent {
    return Double(bitPattern: sign)
  }
  if q > _powersOfFiveLargestExponent {
    return Double(bitPattern: sign | 0x7FF0_0000_0000_0000)
  }
  let leadingZeros = w.leadingZeroBitCount
  let normalized = w << leadingZeros
  let index = 2 * (q - _powersOfFiveSmallestExponent)
  var (high, low) = normalized.multipliedFullWidth(by: _powersOfFive128[index])
  // 55 bits of precision are needed (52 + 3); when the bits below them are all ones, a carry
  // from the next 64 bits of the power could change them.
  if high & 0x1FF == 0x1FF {
    let (secondHigh, _) = normalized.multipliedFullWidth(by: _powersOfFive128[index + 1])
    let (sum, carry) = low.addingReportingOverflow(secondHigh)
    low = sum
    if carry { high &+= 1 }
  }
  let upperBit = Int(high >> 63)
  var mantissa = high >> (upperBit + 9)
  // power(q) = floor(q × log2(10)) + 63, then the IEEE bias (1023).
  var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upperBit - leadingZeros + 1023
  if power2 <= 0 {
    // Subnormal: shift to the fixed exponent, round half to even by adding the low bit.
    if -power2 + 1 >= 64 { return Double(bitPattern: sign) }
    mantissa >>= UInt64(-power2 + 1)
    mantissa += mantissa & 1
    mantissa >>= 1
    power2 = mantissa < (1 << 52) ? 0 : 1
    return Double(bitPattern: sign | mantissa | (UInt64(power2) << 52))
  }
  // An exact halfway case (only possible for small q) rounds to even, not up.
  if low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1
    && (mantissa << (upperBit + 9)) == high
  {
    mantissa &= ~1
  }
  mantissa += mantissa & 1
  mantissa >>= 1
  if mantissa >= (2 << 52) {
    mantissa = 1 << 52
    power2 += 1
  }
  mantissa &= ~(1 << 52)
  if power2 >= 0x7FF {
    return Double(bitPattern: sign | 0x7FF0_0000_0000_0000)
  }
  return Double(bitPattern: sign | mantissa | (UInt64(power2) << 52))
}
