// Reading runs of ASCII digits a word at a time, for the binary format's number forms and the
// tree's integer nodes.

/// Up to 18 ASCII digits of number text, read without a loop over them: the text's bytes
/// `start..<end` (at least one) of `text`, which must be at least eight bytes long. Each
/// group of eight digits, from the last, is one word loaded from the text itself (bytes
/// before the group replaced by "0"s in the register) and converted with three multiplies
/// (Lemire's SWAR conversion). Nil if a byte is not a digit.
///
/// (Copying the digits into a buffer of "0"s and loading words of it was simpler, but each
/// load then waited for the bytes' stores: a third of the time of writing canada.)
@inlinable @inline(__always)
func _parseDigits(_ text: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt64? {
  let count = end &- start
  guard let last = unsafe _eightDigits(text, end: end, count: Swift.min(count, 8)) else {
    return nil
  }
  if count <= 8 { return last }
  guard let middle = unsafe _eightDigits(text, end: end &- 8, count: Swift.min(count &- 8, 8))
  else {
    return nil
  }
  if count <= 16 { return middle &* 100_000_000 &+ last }
  guard let first = unsafe _eightDigits(text, end: end &- 16, count: count &- 16) else {
    return nil
  }
  return (first &* 100_000_000 &+ middle) &* 100_000_000 &+ last
}

/// `_parseDigits` for an integer's digits: nine or ten of them (citm_catalog.json's ids) take
/// a byte each for the first one or two, not a second word conversion. (In `_parseDigits`
/// itself the test cost canada.json's decimals 4%.)
@inlinable @inline(__always)
func _parseIntegerDigits(_ text: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt64? {
  let count = end &- start
  guard count == 9 || count == 10 else { return unsafe _parseDigits(text, start, end) }
  guard let last = unsafe _eightDigits(text, end: end, count: 8) else { return nil }
  let first = unsafe text[start] &- UInt8(ascii: "0")
  let second = unsafe count == 10 ? text[start &+ 1] &- UInt8(ascii: "0") : 0
  guard first < 10 && second < 10 else { return nil }
  let head = count == 10 ? UInt64(first) &* 10 &+ UInt64(second) : UInt64(first)
  return head &* 100_000_000 &+ last
}

/// The value of integer text in canonical form, the form `init(text:)` reads as `.int` and
/// writes back: digits after an optional "-", no leading zero ("0" alone), not "-0", at most
/// 18 characters (so it fits); nil for any other text. Up to seven characters digit by digit,
/// longer ones with word loads (`_parseIntegerDigits`).
@inlinable @inline(__always)
package func _canonicalInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
  let count = text.count
  guard let base = text.baseAddress, count > 0 && count <= 18 else { return nil }
  let negative = unsafe base[0] == UInt8(ascii: "-")
  let sign = negative ? 1 : 0
  guard count >= 8 else {
    // Too short for the word loads: with no overflow to check.
    var magnitude: Int64 = 0
    var index = sign
    while index < count {
      let digit = unsafe base[index] &- UInt8(ascii: "0")
      if digit >= 10 { return nil }
      magnitude = magnitude &* 10 &+ Int64(digit)
      index &+= 1
    }
    guard unsafe count > sign && (base[sign] != UInt8(ascii: "0") || count == 1) else { return nil }
    return negative ? -magnitude : magnitude
  }
  guard unsafe base[sign] != UInt8(ascii: "0"),
    let magnitude = unsafe _parseIntegerDigits(base, sign, count)
  else { return nil }
  return negative ? -Int64(magnitude) : Int64(magnitude)
}

/// The value of the `count` (1…8) digits that end at byte `end` of `text` (eight bytes or
/// more), or nil if one is not a digit.
@inlinable @inline(__always)
func _eightDigits(_ text: UnsafePointer<UInt8>, end: Int, count: Int) -> UInt64? {
  let zeros: UInt64 = 0x3030_3030_3030_3030
  // The eight bytes that end at `end`, or the first eight shifted up to end there.
  let word: UInt64
  if end >= 8 {
    word = unsafe UnsafeRawPointer(text + (end &- 8)).loadUnaligned(as: UInt64.self).littleEndian
  } else {
    word =
      unsafe UnsafeRawPointer(text).loadUnaligned(as: UInt64.self).littleEndian
      &<< UInt64((8 &- end) &* 8)
  }
  // The digits are the last `count` bytes (the high ones); "0"s below them. The test and the
  // conversion are those of `_isEightDigits` and `_eightDigitsValue`, sharing the subtraction
  // of "0"s: calling the two measured 0.75–0.87× against 0.83–0.91× for writing canada.
  let below: UInt64 = (1 &<< UInt64((8 &- count) &* 8)) &- 1
  let chunk = word & ~below | zeros & below
  // Every byte in "0"..."9": none below 0x30, and none above 0x39 (adding 0x46 carries into
  // the high bit from 0x3A up).
  let above = chunk &+ 0x4646_4646_4646_4646
  var digits = chunk &- zeros
  guard (above | digits) & 0x8080_8080_8080_8080 == 0 else { return nil }
  digits = digits &* 10 &+ digits &>> 8
  return
    ((digits & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
    &+ (digits &>> 16 & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001) &>> 32
}

/// 10 to the power `exponent` (0…18). A switch of constants (the compiler makes it a table
/// of its own): a global array costs a lazy-initialization check per use.
@inlinable @inline(__always)
func _powerOfTen(_ exponent: Int) -> UInt64 {
  switch exponent {
  case 0: return 1
  case 1: return 10
  case 2: return 100
  case 3: return 1_000
  case 4: return 10_000
  case 5: return 100_000
  case 6: return 1_000_000
  case 7: return 10_000_000
  case 8: return 100_000_000
  case 9: return 1_000_000_000
  case 10: return 10_000_000_000
  case 11: return 100_000_000_000
  case 12: return 1_000_000_000_000
  case 13: return 10_000_000_000_000
  case 14: return 100_000_000_000_000
  case 15: return 1_000_000_000_000_000
  case 16: return 10_000_000_000_000_000
  case 17: return 100_000_000_000_000_000
  default: return 1_000_000_000_000_000_000
  }
}
