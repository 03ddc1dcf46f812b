// The binary format's constants and its two encodings of numbers (see BinaryFormat.md in the
// documentation catalog for the specification).

import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

/// The binary format's version and limits.
public enum JSONBinaryFormat {
  /// The first four bytes of every document: `JSB` and 0x1A (which stops `type` on Windows
  /// and marks the file as binary to tools that look).
  public static let magic: [UInt8] = [0x4A, 0x53, 0x42, 0x1A]
  /// The version this library writes. A reader accepts any minor version of its major one
  /// (a newer minor only adds tags, refused one by one if met); another major version is
  /// refused at the header.
  public static let majorVersion: UInt8 = 1
  /// 1 added the fixed-width integer and decimal (tags `09`, `0A`), 2 the four-byte integer
  /// (`0B`), 3 maps and ordered sets (`33`, `34`), 4 shared values (`40`, `41`).
  public static let minorVersion: UInt8 = 4
  /// Entries a key or string table may hold. Writer and reader agree on it: the writer adds
  /// no entry to a full table, so a reader never needs more.
  public static let maxTableEntries = 65_536
  /// Bytes a table's entries may hold in all.
  public static let maxTableBytes = 4 << 20
  /// Strings longer than this are not entered in the string table (keys always are, within
  /// the table's limits).
  public static let maxSharedStringLength = 64

  /// The bytes the references of a document may stand for in all, counted up to a reference
  /// at `offset`: 16 MiB, and 64 more per byte of input before it, and no more than the
  /// input limit, `limit`. Beyond it a reader refuses the reference: a few bytes of
  /// references to references would otherwise stand for exponentially many.
  @inlinable
  static func maxExpansion(at offset: Int, limit: Int) -> Int {
    let (perByte, overflow) = offset.multipliedReportingOverflow(by: 64)
    let bound = overflow || perByte > Int.max - (16 << 20) ? Int.max : perByte &+ (16 << 20)
    return Swift.min(bound, limit)
  }

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
  /// A map (since 1.3): its keys, of any type, and values alternately, then `endArray`. Read as
  /// JSON, an array of them in that order: what Codable writes for a dictionary whose keys
  /// are neither strings nor integers.
  @usableFromInline static let startMap: UInt8 = 0x33
  /// An ordered set (since 1.3): its elements, then `endArray`.
  @usableFromInline static let startOrderedSet: UInt8 = 0x34
  /// Before a value (since 1.4): it becomes the next entry of the top-level value's value
  /// table (see `_SharedValues`).
  @usableFromInline static let share: UInt8 = 0x40
  /// A value (since 1.4): a copy of the value-table entry its LEB128 index names.
  @usableFromInline static let valueRef: UInt8 = 0x41
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
    unsafe p[0] = UInt8(truncatingIfNeeded: value)
    return 1
  }
  if value < 0x4000 {
    // Two bytes (table references past 127, most lengths): two stores beat the spreading.
    unsafe p[0] = UInt8(truncatingIfNeeded: value) | 0x80
    unsafe p[1] = UInt8(truncatingIfNeeded: value &>> 7)
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
    unsafe UnsafeMutableRawPointer(p).storeBytes(of: (x | more).littleEndian, as: UInt64.self)
    return bytes
  }
  unsafe UnsafeMutableRawPointer(p).storeBytes(
    of: (x | 0x8080_8080_8080_8080).littleEndian, as: UInt64.self)
  var rest = value &>> 56
  var index = 8
  while rest >= 0x80 {
    unsafe p[index] = UInt8(truncatingIfNeeded: rest) | 0x80
    rest &>>= 7
    index &+= 1
  }
  unsafe p[index] = UInt8(truncatingIfNeeded: rest)
  return index &+ 1
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
