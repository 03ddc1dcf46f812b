// The binary format's constants and its two encodings of numbers (see BinaryFormat.md in the
// documentation catalog for the specification).

/// The binary format's version and limits.
public enum JSONBinaryFormat {
  /// The first four bytes of every document: `JSB` and 0x1A (which stops `type` on Windows
  /// and marks the file as binary to tools that look).
  public static let magic: [UInt8] = [0x4A, 0x53, 0x42, 0x1A]
  /// The version this library writes. A reader accepts any minor version of its major one
  /// (a newer minor only adds tags, refused one by one if met); another major version is
  /// refused at the header.
  public static let majorVersion: UInt8 = 1
  /// 1 added the fixed-width integer and decimal (tags `09`, `0A`).
  public static let minorVersion: UInt8 = 2
  /// Entries a key or string table may hold. Writer and reader agree on it: the writer adds
  /// no entry to a full table, so a reader never needs more.
  public static let maxTableEntries = 65_536
  /// Bytes a table's entries may hold in all.
  public static let maxTableBytes = 4 << 20
  /// Strings longer than this are not entered in the string table (keys always are, within
  /// the table's limits).
  public static let maxSharedStringLength = 64

  /// Whether a table of `entries` entries holding `bytes` bytes has room for one more of
  /// `length` bytes: the one rule of the limits above, for the writer's tables and both readers'.
  @inlinable @inline(__always)
  static func tableHasRoom(entries: Int, bytes: Int, adding length: Int) -> Bool {
    entries < maxTableEntries && bytes &+ length <= maxTableBytes
  }
}

/// The tags: one byte before each value.
@usableFromInline
enum _BinaryTag {
  @usableFromInline static let null: UInt8 = 0x00
  @usableFromInline static let `false`: UInt8 = 0x01
  @usableFromInline static let `true`: UInt8 = 0x02
  /// A signed integer: zigzag LEB128.
  @usableFromInline static let int: UInt8 = 0x03
  /// An integer above Int64.max: LEB128.
  @usableFromInline static let uint: UInt8 = 0x04
  /// A decimal without exponent: one byte of scale (digits after the point, 1…255), then the
  /// digits without the point as a zigzag LEB128 integer.
  @usableFromInline static let decimal: UInt8 = 0x05
  /// IEEE 754 binary32, little-endian (written only when it holds the value exactly).
  @usableFromInline static let float32: UInt8 = 0x06
  /// IEEE 754 binary64, little-endian.
  @usableFromInline static let float64: UInt8 = 0x07
  /// Number text, as in JSON: LEB128 length, then the ASCII text.
  @usableFromInline static let numberText: UInt8 = 0x08
  /// `int` and `decimal` with the integer as eight little-endian bytes (two's complement)
  /// instead of zigzag LEB128: for magnitudes whose LEB128 would take eight bytes or more
  /// (see `_usesFixedWidth`), where the fixed form is as small or smaller and is read with
  /// one load. Since version 1.1.
  @usableFromInline static let int64: UInt8 = 0x09
  @usableFromInline static let decimal64: UInt8 = 0x0A
  /// `int` as four little-endian bytes (two's complement) instead of zigzag LEB128: for
  /// integers that fit in 32 bits whose LEB128 would take four bytes or more (see
  /// `_usesInt32`), where the fixed form is as small or smaller and is written and read
  /// with one store or load. Since version 1.2.
  @usableFromInline static let int32: UInt8 = 0x0B
  /// A string: LEB128 byte length, then UTF-8. `sharedString` also enters it in the table.
  @usableFromInline static let string: UInt8 = 0x10
  @usableFromInline static let sharedString: UInt8 = 0x11
  /// An earlier table string: LEB128 index.
  @usableFromInline static let stringRef: UInt8 = 0x12
  /// An object key: as a string; `sharedKey` enters it in the key table, `keyRef` refers to it.
  @usableFromInline static let key: UInt8 = 0x13
  @usableFromInline static let sharedKey: UInt8 = 0x14
  @usableFromInline static let keyRef: UInt8 = 0x15
  @usableFromInline static let startArray: UInt8 = 0x20
  @usableFromInline static let endArray: UInt8 = 0x21
  @usableFromInline static let startObject: UInt8 = 0x22
  @usableFromInline static let endObject: UInt8 = 0x23
  /// Extended types (written by the Codable encoder; read as JSON they become a base64
  /// string, a number and an array): bytes (LEB128 length, bytes), a date (binary64 seconds
  /// since 2001-01-01, Foundation's reference date), a set (its elements, then `endArray`).
  @usableFromInline static let data: UInt8 = 0x30
  @usableFromInline static let date: UInt8 = 0x31
  @usableFromInline static let startSet: UInt8 = 0x32
}

/// LEB128: seven bits per byte, low first, the high bit set on all but the last byte.
@inlinable @inline(__always)
func _appendLEB128(_ value: UInt64, to out: inout [UInt8]) {
  var rest = value
  while rest >= 0x80 {
    out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
    rest >>= 7
  }
  out.append(UInt8(truncatingIfNeeded: rest))
}

/// Stores `value` as LEB128 at `p`, which must have room for ten bytes, and returns its size.
/// Up to 56 bits are spread into eight 7-bit groups at once (the reverse of
/// `_compactLEB128`) and stored as one word; the high bits, if any, follow a byte at a time.
@inlinable @inline(__always)
func _storeLEB128(_ value: UInt64, at p: UnsafeMutablePointer<UInt8>) -> Int {
  if value < 0x80 {
    p[0] = UInt8(truncatingIfNeeded: value)
    return 1
  }
  if value < 0x4000 {
    // Two bytes (table references past 127, most lengths): two stores beat the spreading.
    p[0] = UInt8(truncatingIfNeeded: value) | 0x80
    p[1] = UInt8(truncatingIfNeeded: value &>> 7)
    return 2
  }
  var x = value & 0x00FF_FFFF_FFFF_FFFF
  x = (x & 0x0000_0000_0FFF_FFFF) | (x & 0x00FF_FFFF_F000_0000) &<< 4
  x = (x & 0x0000_3FFF_0000_3FFF) | (x & 0x0FFF_C000_0FFF_C000) &<< 2
  x = (x & 0x007F_007F_007F_007F) | (x & 0x3F80_3F80_3F80_3F80) &<< 1
  // Bytes needed: one per started group of seven significant bits.
  let bytes = (64 &- value.leadingZeroBitCount &+ 6) / 7
  if bytes <= 8 {
    // The high bit on every byte but the last.
    let high: UInt64 = 0x8080_8080_8080_8080
    let more = high & ((1 &<< (UInt64(bytes &- 1) &* 8)) &- 1)
    UnsafeMutableRawPointer(p).storeBytes(of: (x | more).littleEndian, as: UInt64.self)
    return bytes
  }
  UnsafeMutableRawPointer(p).storeBytes(
    of: (x | 0x8080_8080_8080_8080).littleEndian, as: UInt64.self)
  var rest = value &>> 56
  var index = 8
  while rest >= 0x80 {
    p[index] = UInt8(truncatingIfNeeded: rest) | 0x80
    rest &>>= 7
    index &+= 1
  }
  p[index] = UInt8(truncatingIfNeeded: rest)
  return index &+ 1
}

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
  guard let last = _eightDigits(text, end: end, count: Swift.min(count, 8)) else { return nil }
  if count <= 8 { return last }
  guard let middle = _eightDigits(text, end: end &- 8, count: Swift.min(count &- 8, 8)) else {
    return nil
  }
  if count <= 16 { return middle &* 100_000_000 &+ last }
  guard let first = _eightDigits(text, end: end &- 16, count: count &- 16) else { return nil }
  return (first &* 100_000_000 &+ middle) &* 100_000_000 &+ last
}

/// `_parseDigits` for an integer's digits: nine or ten of them (citm_catalog.json's ids) take
/// a byte each for the first one or two, not a second word conversion. (In `_parseDigits`
/// itself the test cost canada.json's decimals 4%.)
@inlinable @inline(__always)
func _parseIntegerDigits(_ text: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt64? {
  let count = end &- start
  guard count == 9 || count == 10 else { return _parseDigits(text, start, end) }
  guard let last = _eightDigits(text, end: end, count: 8) else { return nil }
  let first = text[start] &- UInt8(ascii: "0")
  let second = count == 10 ? text[start &+ 1] &- UInt8(ascii: "0") : 0
  guard first < 10 && second < 10 else { return nil }
  let head = count == 10 ? UInt64(first) &* 10 &+ UInt64(second) : UInt64(first)
  return head &* 100_000_000 &+ last
}

/// The value of integer text in canonical form, the form `init(text:)` reads as `.int` and
/// writes back: digits after an optional "-", no leading zero ("0" alone), not "-0", at most
/// 18 characters (so it fits); nil for any other text. Up to seven characters digit by digit,
/// longer ones with word loads (`_parseIntegerDigits`).
@inlinable @inline(__always)
func _canonicalInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
  let count = text.count
  guard let base = text.baseAddress, count > 0 && count <= 18 else { return nil }
  let negative = base[0] == UInt8(ascii: "-")
  let sign = negative ? 1 : 0
  guard count >= 8 else {
    // Too short for the word loads: with no overflow to check.
    var magnitude: Int64 = 0
    var index = sign
    while index < count {
      let digit = base[index] &- UInt8(ascii: "0")
      if digit >= 10 { return nil }
      magnitude = magnitude &* 10 &+ Int64(digit)
      index &+= 1
    }
    guard count > sign && (base[sign] != UInt8(ascii: "0") || count == 1) else { return nil }
    return negative ? -magnitude : magnitude
  }
  guard base[sign] != UInt8(ascii: "0"), let magnitude = _parseIntegerDigits(base, sign, count)
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
    word = UnsafeRawPointer(text + (end &- 8)).loadUnaligned(as: UInt64.self).littleEndian
  } else {
    word =
      UnsafeRawPointer(text).loadUnaligned(as: UInt64.self).littleEndian
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

/// The 7-bit groups of up to eight LEB128 bytes (`bytes`, little-endian, the bytes after the
/// number's last zeroed), joined into one number: pairs, then quads, then the two halves.
@inlinable @inline(__always)
func _compactLEB128(_ bytes: UInt64) -> UInt64 {
  var x = bytes & 0x7F7F_7F7F_7F7F_7F7F
  x = (x & 0x007F_007F_007F_007F) | (x & 0x7F00_7F00_7F00_7F00) &>> 1
  x = (x & 0x0000_3FFF_0000_3FFF) | (x & 0x3FFF_0000_3FFF_0000) &>> 2
  x = (x & 0x0000_0000_0FFF_FFFF) | (x & 0x0FFF_FFFF_0000_0000) &>> 4
  return x
}

/// Whether an integer or a decimal's mantissa is written in eight fixed bytes (`int64`,
/// `decimal64`) rather than as zigzag LEB128: when the LEB128 would take eight bytes or more,
/// that is when its zigzag form has 50 bits or more. canada.json's 17-digit mantissas take 10
/// bytes with their tag and scale instead of 11, and read without a LEB128 decode.
@inlinable @inline(__always)
func _usesFixedWidth(_ zigzag: UInt64) -> Bool {
  zigzag >= 1 &<< 49
}

/// Whether an integer is written in four fixed bytes (`int32`) rather than as zigzag LEB128:
/// when it fits in 32 bits and its LEB128 would take four bytes or more, that is when its
/// zigzag form has 22 bits or more (magnitudes from 2^20, about a million). citm_catalog.json's
/// 9-digit ids take five bytes with their tag instead of six, and writing its tree as binary
/// took 9% fewer instructions (5.29M against 5.82M a document) than with the LEB128 spread.
/// (An integer fits in 32 bits when its zigzag form does: one unsigned comparison tests both.)
@inlinable @inline(__always)
func _usesInt32(zigzag: UInt64) -> Bool {
  zigzag &- (1 &<< 21) < (1 &<< 32) &- (1 &<< 21)
}

/// Zigzag: small magnitudes of either sign become small unsigned numbers.
@inlinable @inline(__always)
func _zigzag(_ value: Int64) -> UInt64 {
  UInt64(bitPattern: (value << 1) ^ (value >> 63))
}

@inlinable @inline(__always)
func _unzigzag(_ value: UInt64) -> Int64 {
  Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
}

/// A number in one of the binary format's binary forms. Made from JSON number text
/// (`init(text:)`) when one reproduces the text exactly: an integer in canonical form (no
/// leading zeros, no `-0`), or a decimal without exponent whose digits fit in 18 (nil: the text
/// is kept as text). A `double` is a binary64 (or binary32) read from the format, whose text is
/// the shortest that reads back as it.
///
/// Public only so that ``JSONEventHandler/_binaryNumber(_:)`` can pass it: not API.
public enum _BinaryNumber: Sendable {
  case int(Int64)
  case uint(UInt64)
  case decimal(mantissa: Int64, scale: UInt8)
  case double(Double)

  @usableFromInline
  init?(text: UnsafeBufferPointer<UInt8>) {
    var i = 0
    let n = text.count
    guard n > 0 else { return nil }
    let negative = text[0] == UInt8(ascii: "-")
    if negative { i = 1 }
    guard i < n else { return nil }
    // Integer part: "0" or a non-zero digit then digits.
    let integerStart = i
    if text[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < n && text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
    }
    let integerDigits = i - integerStart
    guard integerDigits > 0 else { return nil }
    var fractionDigits = 0
    if i < n {
      guard text[i] == UInt8(ascii: "."), i + 1 < n else { return nil }
      i += 1
      let fractionStart = i
      while i < n && text[i] &- UInt8(ascii: "0") < 10 { i += 1 }
      fractionDigits = i - fractionStart
      guard i == n, fractionDigits > 0, fractionDigits <= 255 else { return nil }
    }
    let allDigits = integerDigits + fractionDigits
    if fractionDigits == 0 {
      // An integer: Int64, or a positive one up to UInt64.max.
      var magnitude: UInt64 = 0
      for index in integerStart..<n {
        let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(UInt64(text[index] &- 48))
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
    for index in integerStart..<n where text[index] != UInt8(ascii: ".") {
      mantissa = mantissa * 10 + Int64(text[index] &- 48)
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
  init?(_ number: JSONNumber) {
    let text = number.utf8
    let count = text.count
    if number._flags == 0 {
      if let value = _canonicalInteger(text) {
        self = .int(value)
        return
      }
    } else if number._flags == JSONNumber._hasFractionOrExponent && count >= 8 && count <= 20,
      let base = text.baseAddress
    {
      let negative = base[0] == UInt8(ascii: "-")
      let sign = negative ? 1 : 0
      // The point: in the first eight bytes for integer parts of up to six digits (found in
      // the word by its zero byte after an XOR), else further on, a byte at a time.
      let dots =
        UnsafeRawPointer(base).loadUnaligned(as: UInt64.self).littleEndian
        ^ 0x2E2E_2E2E_2E2E_2E2E
      let zeroBytes = (dots &- 0x0101_0101_0101_0101) & ~dots & 0x8080_8080_8080_8080
      var point = zeroBytes != 0 ? zeroBytes.trailingZeroBitCount &>> 3 : 8
      while point < count && base[point] != UInt8(ascii: ".") { point &+= 1 }
      let integerDigits = point &- sign
      let fractionDigits = count &- point &- 1
      if integerDigits > 0 && fractionDigits > 0 && integerDigits &+ fractionDigits <= 18
        && (base[sign] != UInt8(ascii: "0") || integerDigits == 1),
        let integer = _parseDigits(base, sign, point),
        let fraction = _parseDigits(base, point &+ 1, count)
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
    self.init(text: text)
  }

  /// Calls `body` with the number as a `JSONNumber` of its text (made on the stack, or for a
  /// double as a `String`): what a producer of events delivers for it.
  @inlinable
  public func withJSONNumber<R>(_ body: (JSONNumber) throws -> R) rethrows -> R {
    switch self {
    case .double(let value):
      var description = _nonFiniteAwareText(value)
      return try description.withUTF8 { bytes in
        try body(JSONNumber(_utf8: bytes, flags: _classifyNumberText(bytes) ?? 0))
      }
    case .decimal:
      return try withText {
        try body(JSONNumber(_utf8: $0, flags: JSONNumber._hasFractionOrExponent))
      }
    case .int, .uint:
      return try withText { try body(JSONNumber(_utf8: $0, flags: 0)) }
    }
  }

  /// Calls `body` with the JSON text of an integer or decimal (the text it was made from), made
  /// on the stack.
  @inlinable
  func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    // 20 digits, a sign, and for a decimal up to 255 digits after the point and the point.
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 280) { buffer in
      var p = 280
      var rest: UInt64
      var pointAfter = -1
      var negative = false
      switch self {
      case .int(let value):
        rest = value.magnitude
        negative = value < 0
      case .uint(let value):
        rest = value
      case .decimal(let mantissa, let scale):
        rest = mantissa.magnitude
        negative = mantissa < 0
        pointAfter = Int(scale)
      case .double:
        preconditionFailure("a double's text is its description")
      }
      // Digits from the last; the point after `pointAfter` of them, with zeros up to one
      // digit before it.
      var written = 0
      repeat {
        if written == pointAfter {
          p &-= 1
          buffer[p] = UInt8(ascii: ".")
        }
        p &-= 1
        buffer[p] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
        rest /= 10
        written &+= 1
      } while rest != 0 || written <= pointAfter
      if negative {
        p &-= 1
        buffer[p] = UInt8(ascii: "-")
      }
      return try body(UnsafeBufferPointer(rebasing: buffer[p..<280]))
    }
  }
}
