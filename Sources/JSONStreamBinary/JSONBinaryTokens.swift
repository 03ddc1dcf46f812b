import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

/// Reading the parts of binary tokens: LEB128 numbers, length-prefixed and fixed-width
/// payloads, for the streaming reader (`JSONBinaryReader`) and the whole-input tree reader
/// (`JSONValue(binary:)`) alike. `offset` is that of the token, for errors.
@usableFromInline
enum _BinaryTokens {
  /// A LEB128 number at `p` and its size in bytes; nil when it runs past `available`.
  @inlinable @inline(__always)
  static func leb128(_ p: UnsafePointer<UInt8>, _ available: Int, at offset: @autoclosure () -> Int)
    throws -> (
      UInt64, length: Int
    )?
  {
    if available > 0 && p[0] < 0x80 { return (UInt64(p[0]), 1) }
    if available >= 10 {
      // Eight bytes at once: the first byte without the high bit ends the number.
      let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
      let stops = ~word & 0x8080_8080_8080_8080
      if stops != 0 {
        let length = stops.trailingZeroBitCount &>> 3 &+ 1
        let bits = length == 8 ? word : word & ((1 &<< (UInt64(length) &* 8)) &- 1)
        return (_compactLEB128(bits), length)
      }
      // Nine or ten bytes: the ninth holds bits 56–62, the tenth only bit 63.
      let ninth = p[8]
      if ninth < 0x80 { return (_compactLEB128(word) | UInt64(ninth) << 56, 9) }
      if p[9] <= 1 {
        return (_compactLEB128(word) | UInt64(ninth & 0x7F) << 56 | UInt64(p[9]) << 63, 10)
      }
    }
    return try leb128ByteByByte(p, available, at: offset())
  }

  /// `leb128` for a number that is mostly small: a table reference or a length. Two bytes
  /// (references past the 127th entry: most keys of citm_catalog.json) are read directly,
  /// which the word's spreading cost three times over; integers and decimals, whose sizes
  /// vary, go straight to `leb128` (the extra test was 2% of reading canada).
  @inlinable @inline(__always)
  static func shortLEB128(
    _ p: UnsafePointer<UInt8>, _ available: Int, at offset: @autoclosure () -> Int
  ) throws -> (
    UInt64, length: Int
  )? {
    if available >= 2 && p[0] >= 0x80 && p[1] < 0x80 {
      return (UInt64(p[0] & 0x7F) | UInt64(p[1]) &<< 7, 2)
    }
    return try leb128(p, available, at: offset())
  }

  /// `leb128`, a byte at a time: near the end of a chunk, and for the errors.
  @inlinable
  static func leb128ByteByByte(
    _ p: UnsafePointer<UInt8>, _ available: Int, at offset: @autoclosure () -> Int
  ) throws
    -> (UInt64, length: Int)?
  {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var index = 0
    while true {
      guard index < available else { return nil }
      let byte = p[index]
      if shift == 63 && byte > 1 || index == 10 {
        throw _binaryError(.longNumber, at: offset() + 1)
      }
      value |= UInt64(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 { return (value, index) }
      shift += 7
    }
  }

  /// The payload of a token of a tag, LEB128 length and bytes at `p`; nil when the token runs
  /// past `available`. A length over `limit` is an error (at the length, as in `tokenLength`)
  /// as soon as it is read.
  @inlinable @inline(__always)
  static func payload(
    _ p: UnsafePointer<UInt8>, _ available: Int, limit: Int, at offset: @autoclosure () -> Int
  ) throws -> UnsafeBufferPointer<UInt8>? {
    guard let (length, size) = try shortLEB128(p + 1, available &- 1, at: offset()) else {
      return nil
    }
    guard length <= UInt64(limit) else { throw lengthError(p[0], length, limit, at: offset()) }
    guard Int(length) <= available &- 1 &- size else { return nil }
    return UnsafeBufferPointer(start: p + 1 + size, count: Int(length))
  }

  @inlinable
  static func lengthError(
    _ tag: UInt8, _ length: UInt64, _ limit: Int, at offset: @autoclosure () -> Int
  )
    -> JSONParseError
  {
    _binaryError(
      .length(length, limit: limit, isNumber: tag == _BinaryTag.numberText), at: offset() + 1)
  }

  /// The length of the header at `p`, or nil when `available` bytes do not hold it yet.
  @inlinable
  static func header(_ p: UnsafePointer<UInt8>, _ available: Int) throws -> Int? {
    guard available >= 6 else { return nil }
    guard (0..<4).allSatisfy({ p[$0] == JSONBinaryFormat.magic[$0] }) else {
      throw failure(.invalidBinary, "not the binary format (no JSB header)", at: 0)
    }
    guard p[4] == JSONBinaryFormat.majorVersion else {
      throw failure(
        .invalidBinary,
        "binary format version \(p[4]).\(p[5]); this reader reads version \(JSONBinaryFormat.majorVersion).x",
        at: 4)
    }
    return 6
  }

  // The payloads of the fixed-width tags, at `p` (just after the tag), which must hold them.

  /// An integer in four bytes (tag `0B`).
  @inlinable @inline(__always)
  static func int32(_ p: UnsafePointer<UInt8>) -> _BinaryNumber {
    .int(Int64(Int32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: Int32.self))))
  }

  /// An integer in eight bytes (tag `09`).
  @inlinable @inline(__always)
  static func int64(_ p: UnsafePointer<UInt8>) -> _BinaryNumber {
    .int(Int64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: Int64.self)))
  }

  /// A decimal in a scale byte and eight bytes (tag `0A`), checked as `decimal` checks it.
  @inlinable @inline(__always)
  static func decimal64(_ p: UnsafePointer<UInt8>, at offset: @autoclosure () -> Int) throws
    -> _BinaryNumber
  {
    try decimal(
      mantissa: Int64(littleEndian: UnsafeRawPointer(p + 1).loadUnaligned(as: Int64.self)),
      scale: p[0], at: offset())
  }

  /// A binary32 (tag `06`), as the binary64 that holds it exactly.
  @inlinable @inline(__always)
  static func float32(_ p: UnsafePointer<UInt8>) -> Double {
    Double(Float(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self).littleEndian))
  }

  /// A binary64 (tags `07` and `31`).
  @inlinable @inline(__always)
  static func float64(_ p: UnsafePointer<UInt8>) -> Double {
    Double(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian)
  }

  // Values the format allows less of than their bytes can hold: both readers check them here.

  /// An unsigned integer (tag `04`): only those above `Int64.max`, which `int` cannot hold.
  @inlinable @inline(__always)
  static func uint(_ value: UInt64, at offset: @autoclosure () -> Int) throws -> _BinaryNumber {
    guard value > UInt64(Int64.max) else { throw _binaryError(.unsignedFitsSigned, at: offset()) }
    return .uint(value)
  }

  /// A decimal (tags `05`, `0A`): a scale of at least 1, and a mantissa whose negation fits.
  @inlinable @inline(__always)
  static func decimal(mantissa: Int64, scale: UInt8, at offset: @autoclosure () -> Int) throws
    -> _BinaryNumber
  {
    guard scale > 0, mantissa != Int64.min else { throw _binaryError(.badDecimal, at: offset()) }
    return .decimal(mantissa: mantissa, scale: scale)
  }

  /// A binary32 or binary64 (tags `06`, `07`, `31`): finite, unless the options allow others.
  /// (This and `numberTextFlags`, not inlined, take the offset as a value: as an autoclosure,
  /// the streaming reader's loop kept itself in memory for the closure, +2% on citm.)
  @inlinable
  static func double(_ value: Double, allowNonFinite: Bool, at offset: Int) throws
    -> _BinaryNumber
  {
    guard value.isFinite || allowNonFinite else {
      throw _binaryError(.nonFinite(value), at: offset)
    }
    return .double(value)
  }

  /// The `JSONNumber` flags of number text (tag `08`), which must be a JSON number (or, when
  /// the options allow them, `NaN` or an infinity).
  @inlinable
  static func numberTextFlags(
    _ bytes: UnsafeBufferPointer<UInt8>, allowNonFinite: Bool, at offset: Int
  ) throws -> UInt8 {
    guard let flags = _classifyNumberText(bytes),
      flags & JSONNumber._nonFinite == 0 || allowNonFinite
    else {
      throw _binaryError(.badNumberText, at: offset)
    }
    return flags
  }

  /// An error about the input as a whole (no input, its end, its length, its header).
  @inlinable
  static func failure(_ kind: JSONParseError.Kind, _ message: String, at offset: Int)
    -> JSONParseError
  {
    JSONParseError(kind: kind, offset: offset, line: 0, column: 0, message: message)
  }
}
