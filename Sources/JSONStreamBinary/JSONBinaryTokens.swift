import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

/// What a binary reader does with the tokens `_BinaryTokens.decode` reads, each decoded and
/// checked as far as it can be on its own: its lengths against the limits, its strings' UTF-8,
/// its number text, the values the format allows. What needs the reader's context (the
/// grammar, references into its tables, the depth) the reader checks as it takes the token.
@usableFromInline
protocol _BinaryTokenSink {
  /// The offset of the token being read, for errors.
  var offset: Int { get }
  var maxStringLength: Int { get }
  var maxNumberLength: Int { get }
  var allowNonFiniteNumbers: Bool { get }
  mutating func tokenNull() throws
  mutating func tokenBool(_ value: Bool) throws
  mutating func tokenNumber(_ number: JSONBinaryNumber) throws
  /// Number text (tag `08`) and its `JSONNumber` flags.
  mutating func tokenNumberText(_ bytes: _ScanInput, flags: UInt8) throws
  /// Whether the sink takes strings' and keys' `needsNoEscaping` (found with their UTF-8
  /// check): a sink whose handler may write JSON does; one that builds a tree does not.
  static var findsEscapes: Bool { get }
  /// A string's UTF-8; a shared one also enters the string table. `needsNoEscaping` as in
  /// `_checkUTF8ForJSON`, when `findsEscapes`, else false.
  mutating func tokenString(_ bytes: _ScanInput, shared: Bool, needsNoEscaping: Bool) throws
  /// A reference to entry `index` of the string table, not yet checked against it.
  mutating func tokenStringReference(_ index: UInt64) throws
  /// A key's UTF-8; a shared one also enters the key table. `needsNoEscaping` as in
  /// `tokenString`.
  mutating func tokenKey(_ bytes: _ScanInput, shared: Bool, needsNoEscaping: Bool) throws
  /// A reference to entry `index` of the key table, not yet checked against it.
  mutating func tokenKeyReference(_ index: UInt64) throws
  mutating func tokenStart(isObject: Bool) throws
  /// The start of a map: read as an array whose elements must come in pairs (`_OpenMaps`).
  mutating func tokenStartMap() throws
  /// `40`: the next value is shared (see `_SharedValues`).
  mutating func tokenShare() throws
  /// `41`: a reference to shared value `index`, not yet checked.
  mutating func tokenValueReference(_ index: UInt64) throws
  mutating func tokenEndArray() throws
  mutating func tokenEndObject() throws
  /// Bytes, read as JSON as their base64 text.
  mutating func tokenData(_ bytes: _ScanInput) throws
}

/// A sink that takes the tokens of a whole input at once, told each token's offset.
protocol _BinaryDocumentSink: _BinaryTokenSink {
  /// The offset of the token being read, set before it is handed on.
  var offset: Int { get set }
  /// The value table, told where each token ends while it tracks them.
  var shares: _SharedValues { get set }
}

extension _BinaryTokens {
  /// Decodes the token `input` (which must not be empty) starts with and hands it to `sink`:
  /// the one place that knows the tags' layouts, so that both readers read the same tokens
  /// with the same errors, at the sink's `offset`, the token's. Returns the token's length and
  /// whether it was complete, and drops a complete token from `input`; a token that runs past
  /// the input's end is not handed on, and its length is then the length it needs when that
  /// is known already, else one more than the input's count. A token that cannot be valid
  /// throws, complete or not, as soon as its bytes show it. Its payloads reach the sink as
  /// views of the input.
  ///
  /// The streaming reader's loop holds what is left of its input in `input`, the two words it
  /// once held as pointers: with a position besides, the loop kept one more register and
  /// reloaded the base per token. (The tree reader reads by position from the base, with
  /// `decodeTokens`: fewer instructions a token there.)
  @inlinable @inline(__always)
  static func decode<Sink: _BinaryTokenSink>(
    _ input: inout _ScanInput, into sink: inout Sink
  ) throws -> (length: Int, isComplete: Bool) {
    // The streaming reader's loop tests the same, so the optimizer drops this check there.
    precondition(input.count > 0, "no token")
    let token = unsafe try decode(input.base, input.count, into: &sink)
    if token.isComplete {
      // A complete token lies in the input: `decode` reads nothing past its `available` bytes.
      input = unsafe _ScanInput(base: input.base + token.length, count: input.count &- token.length)
    }
    return token
  }

  /// `decode` for each token of `input` from `start` (in `0...input.count`) to its end, with
  /// the sink's `offset` set to each token's position first: how the tree reader, which holds
  /// the whole input, reads it. Returns false when the last token runs past the end.
  @inline(__always)
  static func decodeTokens<Sink: _BinaryDocumentSink>(
    _ input: _ScanInput, from start: Int, into sink: inout Sink
  ) throws -> Bool {
    input.checkRange(start, input.count)
    // By position from the base: through a view of what is left (as the streaming reader
    // reads), the tree reader took 2-3% more instructions on twitter and citm_catalog, its
    // base and count and the offset all kept per token; a position checked again in a
    // per-token call took 1%.
    var position = start
    let end = input.count
    while position < end {
      sink.offset = position
      let (length, isComplete) = unsafe try decode(
        input.base + position, end &- position, into: &sink)
      guard isComplete else { return false }
      position &+= length
      if sink.shares.tracksTokens { sink.shares.tokenEnded(at: position) }
    }
    return true
  }

  /// `decode` for the token at `p`, with `available` bytes from there (at least 1).
  @inlinable @inline(__always)
  static func decode<Sink: _BinaryTokenSink>(
    _ p: UnsafePointer<UInt8>, _ available: Int, into sink: inout Sink
  ) throws -> (length: Int, isComplete: Bool) {
    // The options and the offset are read only where a token needs them: read up front, they
    // were loaded for every token.
    let more = (available &+ 1, false)
    let tag = unsafe p[0]
    switch tag {
    case _BinaryTag.null, _BinaryTag.false, _BinaryTag.true:
      // One case with a branch inside: as two or three cases, LLVM tested for each before
      // the jump table (five or six instructions for every token); as one, a range (two).
      if tag == _BinaryTag.null {
        try sink.tokenNull()
      } else {
        try sink.tokenBool(tag == _BinaryTag.true)
      }
      return (1, true)
    case _BinaryTag.int:
      guard let (bits, size) = unsafe try leb128(p + 1, available &- 1, at: sink.offset) else {
        return more
      }
      try sink.tokenNumber(.int(_unzigzag(bits)))
      return (1 &+ size, true)
    case _BinaryTag.uint:
      guard let (value, size) = unsafe try leb128(p + 1, available &- 1, at: sink.offset) else {
        return more
      }
      try sink.tokenNumber(try uint(value, at: sink.offset))
      return (1 &+ size, true)
    case _BinaryTag.decimal:
      guard available >= 2,
        let (bits, size) = unsafe try leb128(p + 2, available &- 2, at: sink.offset)
      else { return more }
      unsafe try sink.tokenNumber(
        try decimal(mantissa: _unzigzag(bits), scale: p[1], at: sink.offset))
      return (2 &+ size, true)
    case _BinaryTag.int32:
      guard available >= 5 else { return (5, false) }
      unsafe try sink.tokenNumber(int32(p + 1))
      return (5, true)
    case _BinaryTag.int64:
      guard available >= 9 else { return (9, false) }
      unsafe try sink.tokenNumber(int64(p + 1))
      return (9, true)
    case _BinaryTag.decimal64:
      guard available >= 10 else { return (10, false) }
      unsafe try sink.tokenNumber(try decimal64(p + 1, at: sink.offset))
      return (10, true)
    case _BinaryTag.float32:
      guard available >= 5 else { return (5, false) }
      unsafe try sink.tokenNumber(
        try double(float32(p + 1), allowNonFinite: sink.allowNonFiniteNumbers, at: sink.offset))
      return (5, true)
    case _BinaryTag.float64, _BinaryTag.date:
      // A date reads as JSON as its seconds since 2001: a number, exactly the binary64.
      guard available >= 9 else { return (9, false) }
      unsafe try sink.tokenNumber(
        try double(float64(p + 1), allowNonFinite: sink.allowNonFiniteNumbers, at: sink.offset))
      return (9, true)
    case _BinaryTag.numberText:
      let (bytes, length) = unsafe try payload(
        p, available, limit: sink.maxNumberLength, at: sink.offset)
      guard let bytes else { return (length, false) }
      let flags = try numberTextFlags(
        bytes, allowNonFinite: sink.allowNonFiniteNumbers, at: sink.offset)
      try sink.tokenNumberText(bytes, flags: flags)
      return (length, true)
    case _BinaryTag.string, _BinaryTag.sharedString, _BinaryTag.key, _BinaryTag.sharedKey:
      let (bytes, length) = unsafe try payload(
        p, available, limit: sink.maxStringLength, at: sink.offset)
      guard let bytes else { return (length, false) }
      let check =
        Sink.findsEscapes && (tag == _BinaryTag.sharedString || tag == _BinaryTag.sharedKey)
        ? unsafe _checkUTF8ForJSON(bytes._buffer)
        : unsafe _isWellFormedUTF8(bytes._buffer) ? .wellFormed : .illFormed
      guard check != .illFormed else { throw _binaryError(.notUTF8, at: sink.offset) }
      let needsNoEscaping = check == .needsNoEscaping
      if tag <= _BinaryTag.sharedString {
        try sink.tokenString(
          bytes, shared: tag == _BinaryTag.sharedString, needsNoEscaping: needsNoEscaping)
      } else {
        try sink.tokenKey(
          bytes, shared: tag == _BinaryTag.sharedKey, needsNoEscaping: needsNoEscaping)
      }
      return (length, true)
    case _BinaryTag.stringRef, _BinaryTag.keyRef:
      guard let (index, size) = unsafe try shortLEB128(p + 1, available &- 1, at: sink.offset)
      else {
        return more
      }
      if tag == _BinaryTag.keyRef {
        try sink.tokenKeyReference(index)
      } else {
        try sink.tokenStringReference(index)
      }
      return (1 &+ size, true)
    case _BinaryTag.startArray, _BinaryTag.startSet, _BinaryTag.startObject,
      _BinaryTag.startOrderedSet:
      try sink.tokenStart(isObject: tag == _BinaryTag.startObject)
      return (1, true)
    case _BinaryTag.startMap:
      try sink.tokenStartMap()
      return (1, true)
    case _BinaryTag.share:
      try sink.tokenShare()
      return (1, true)
    case _BinaryTag.valueRef:
      // Laid out as the string and key references are, but a case of its own: one more test
      // in theirs made reading citm_catalog.json into a tree take 8% more instructions.
      guard let (index, size) = unsafe try shortLEB128(p + 1, available &- 1, at: sink.offset)
      else {
        return more
      }
      try sink.tokenValueReference(index)
      return (1 &+ size, true)
    case _BinaryTag.endArray:
      try sink.tokenEndArray()
      return (1, true)
    case _BinaryTag.endObject:
      try sink.tokenEndObject()
      return (1, true)
    case _BinaryTag.data:
      let (bytes, length) = unsafe try payload(
        p, available, limit: sink.maxStringLength, at: sink.offset)
      guard let bytes else { return (length, false) }
      try sink.tokenData(bytes)
      return (length, true)
    default:
      throw _binaryError(.unknownTag(tag), at: sink.offset)
    }
  }
}

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
    if unsafe available > 0 && p[0] < 0x80 { return unsafe (UInt64(p[0]), 1) }
    if available >= 10 {
      // Eight bytes at once: the first byte without the high bit ends the number.
      let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
      let stops = ~word & 0x8080_8080_8080_8080
      if stops != 0 {
        let length = stops.trailingZeroBitCount &>> 3 &+ 1
        let bits = length == 8 ? word : word & ((1 &<< (UInt64(length) &* 8)) &- 1)
        return (_compactLEB128(bits), length)
      }
      // Nine or ten bytes: the ninth holds bits 56–62, the tenth only bit 63.
      let ninth = unsafe p[8]
      if ninth < 0x80 { return (_compactLEB128(word) | UInt64(ninth) << 56, 9) }
      if unsafe p[9] <= 1 {
        return unsafe (_compactLEB128(word) | UInt64(ninth & 0x7F) << 56 | UInt64(p[9]) << 63, 10)
      }
    }
    return unsafe try leb128ByteByByte(p, available, at: offset())
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
    if unsafe available >= 2 && p[0] >= 0x80 && p[1] < 0x80 {
      return unsafe (UInt64(p[0] & 0x7F) | UInt64(p[1]) &<< 7, 2)
    }
    return unsafe try leb128(p, available, at: offset())
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
      let byte = unsafe p[index]
      if shift == 63 && byte > 1 || index == 10 {
        throw _binaryError(.longNumber, at: offset() + 1)
      }
      value |= UInt64(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 { return (value, index) }
      shift += 7
    }
  }

  /// The payload of a token of a tag, LEB128 length and bytes at `p`, and the token's
  /// length; a nil payload when the token runs past `available`, with the length it needs
  /// when that is known (else `available + 1`). A length over `limit` is an error, at the
  /// length, as soon as it is read.
  @inlinable @inline(__always)
  static func payload(
    _ p: UnsafePointer<UInt8>, _ available: Int, limit: Int, at offset: Int
  ) throws -> (_ScanInput?, length: Int) {
    guard let (length, size) = unsafe try shortLEB128(p + 1, available &- 1, at: offset) else {
      return (nil, available &+ 1)
    }
    guard length <= UInt64(limit) else { throw unsafe lengthError(p[0], length, limit, at: offset) }
    let total = 1 &+ size &+ Int(length)
    guard total <= available else { return (nil, total) }
    return unsafe (_ScanInput(base: p + 1 + size, count: Int(length)), total)
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

  /// The length of the header at `position` of `input`, or nil when the bytes from there do
  /// not hold it yet.
  @inlinable
  static func header(_ input: _ScanInput, at position: Int) throws -> Int? {
    guard input.contains(position, length: 6) else { return nil }
    let p = unsafe input.base + position
    guard (0..<4).allSatisfy({ unsafe p[$0] == JSONBinaryFormat.magic[$0] }) else {
      throw failure(.invalidBinary, "not the binary format (no JSB header)", at: 0)
    }
    guard unsafe p[4] == JSONBinaryFormat.majorVersion else {
      throw failure(
        .invalidBinary,
        unsafe "binary format version \(p[4]).\(p[5]); this reader reads version \(JSONBinaryFormat.majorVersion).x",
        at: 4)
    }
    return 6
  }

  // The payloads of the fixed-width tags, at `p` (just after the tag), which must hold them.

  /// An integer in four bytes (tag `0B`).
  @inlinable @inline(__always)
  static func int32(_ p: UnsafePointer<UInt8>) -> JSONBinaryNumber {
    unsafe .int(Int64(Int32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: Int32.self))))
  }

  /// An integer in eight bytes (tag `09`).
  @inlinable @inline(__always)
  static func int64(_ p: UnsafePointer<UInt8>) -> JSONBinaryNumber {
    unsafe .int(Int64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: Int64.self)))
  }

  /// A decimal in a scale byte and eight bytes (tag `0A`), checked as `decimal` checks it.
  @inlinable @inline(__always)
  static func decimal64(_ p: UnsafePointer<UInt8>, at offset: @autoclosure () -> Int) throws
    -> JSONBinaryNumber
  {
    unsafe try decimal(
      mantissa: Int64(littleEndian: UnsafeRawPointer(p + 1).loadUnaligned(as: Int64.self)),
      scale: p[0], at: offset())
  }

  /// A binary32 (tag `06`), as the binary64 that holds it exactly.
  @inlinable @inline(__always)
  static func float32(_ p: UnsafePointer<UInt8>) -> Double {
    unsafe Double(
      Float(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self).littleEndian))
  }

  /// A binary64 (tags `07` and `31`).
  @inlinable @inline(__always)
  static func float64(_ p: UnsafePointer<UInt8>) -> Double {
    unsafe Double(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian)
  }

  // Values the format allows less of than their bytes can hold: both readers check them here.

  /// An unsigned integer (tag `04`): only those above `Int64.max`, which `int` cannot hold.
  @inlinable @inline(__always)
  static func uint(_ value: UInt64, at offset: @autoclosure () -> Int) throws -> JSONBinaryNumber {
    guard value > UInt64(Int64.max) else { throw _binaryError(.unsignedFitsSigned, at: offset()) }
    return .uint(value)
  }

  /// A decimal (tags `05`, `0A`): a scale of at least 1, and a mantissa whose negation fits.
  @inlinable @inline(__always)
  static func decimal(mantissa: Int64, scale: UInt8, at offset: @autoclosure () -> Int) throws
    -> JSONBinaryNumber
  {
    guard scale > 0, mantissa != Int64.min else { throw _binaryError(.badDecimal, at: offset()) }
    return .decimal(mantissa: mantissa, scale: scale)
  }

  /// A binary32 or binary64 (tags `06`, `07`, `31`): finite, unless the options allow others.
  /// (This and `numberTextFlags`, not inlined, take the offset as a value: as an autoclosure,
  /// the streaming reader's loop kept itself in memory for the closure, +2% on citm.)
  @inlinable
  static func double(_ value: Double, allowNonFinite: Bool, at offset: Int) throws
    -> JSONBinaryNumber
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
    _ bytes: _ScanInput, allowNonFinite: Bool, at offset: Int
  ) throws -> UInt8 {
    guard let flags = unsafe _classifyNumberText(bytes._buffer),
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

extension _BinaryTable {
  /// `append(_:needsNoEscaping:)` for the bytes a reader reads.
  @inlinable @inline(__always)
  mutating func append(_ bytes: _ScanInput, needsNoEscaping: Bool) {
    unsafe append(bytes._buffer, needsNoEscaping: needsNoEscaping)
  }

  /// Entry `index`, which must exist, as a well-formed string; `keyTableEntry` as in
  /// `_ScanInput.wellFormedString(keyTableEntry:)`. Valid until the next entry is added.
  @inlinable @inline(__always)
  func string(_ index: Int, keyTableEntry: Int = -1) -> JSONString {
    // One unsigned compare: `index` is neither negative nor past the last entry.
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "no such entry")
    // `plain` has an element per entry, so `index` needs no second check: this runs for
    // every reference.
    return unsafe JSONString(
      _wellFormed: entry(index), keyTableEntry: keyTableEntry,
      needsNoEscaping: plain.base[index])
  }
}

// The streaming reader's entry points that take raw bytes: they only wrap them in the checked
// view its loop reads.

extension JSONBinaryReader {
  /// Reads the next chunk. After an error, every later call throws the same error.
  @inlinable @discardableResult
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> JSONParseStatus {
    unsafe try _feedKeepingFailure(_ScanInput(bytes))
  }

  /// Reads the next chunk.
  @inlinable @discardableResult
  public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> JSONParseStatus
  where Bytes.Element == UInt8 {
    try _ScanInput.with(contentsOf: bytes) { try _feedKeepingFailure($0) }
  }

  /// `_feed`, its error kept as the reader's failure, which every later call throws.
  @inlinable
  mutating func _feedKeepingFailure(_ input: _ScanInput?) throws -> JSONParseStatus {
    do {
      return try _feed(input)
    } catch {
      throw _fail(error)
    }
  }
}
