// The readers' one way into their input's memory: the JSON scanner, the streaming binary
// reader and the document reader read a chunk by `Int` position through `_ScanInput`, which
// checks every position against the chunk's count, so their loops are safe Swift. The checks are unsigned compares of the kind
// the loops make against the end anyway, so the optimizer drops them where a loop has just
// made one.

/// The chunk being scanned: its bytes by position, from 0 to `count` (excluded). Valid for
/// one `feed` call; the views it makes are valid while the handler call that gets them runs.
@usableFromInline
@safe package struct _ScanInput {
  /// The chunk's first byte.
  @usableFromInline package let base: UnsafePointer<UInt8>
  /// The number of bytes: positions `0..<count` may be read.
  @usableFromInline package let count: Int

  /// The bytes of `bytes`, or nil when there are none.
  @inlinable
  package init?(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, unsafe !bytes.isEmpty else { return nil }
    unsafe self.base = unsafe base.assumingMemoryBound(to: UInt8.self)
    self.count = bytes.count
  }

  /// The `count` bytes from `base`, which the caller has from a buffer of at least that many.
  @inlinable
  package init(base: UnsafePointer<UInt8>, count: Int) {
    unsafe self.base = unsafe base
    self.count = count
  }

  /// Calls `body` with the bytes of `bytes`, which must not be empty, as an input valid
  /// during the call: how a reader reads a token it kept from an earlier chunk.
  @inlinable
  package static func with<R>(_ bytes: [UInt8], _ body: (_ScanInput) throws -> R) rethrows -> R {
    unsafe try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, !buffer.isEmpty else { preconditionFailure("no bytes") }
      return unsafe try body(_ScanInput(base: base, count: buffer.count))
    }
  }

  /// Calls `body` with the bytes of any sequence as an input valid during the call (nil when
  /// there are none): contiguous bytes as they are, others copied into an array first.
  @inlinable
  package static func with<Bytes: Sequence<UInt8>, R>(
    contentsOf bytes: Bytes, _ body: (_ScanInput?) throws -> R
  ) rethrows -> R {
    if let result = try bytes.withContiguousStorageIfAvailable({
      unsafe try body(_ScanInput(UnsafeRawBufferPointer($0)))
    }) {
      return result
    }
    return unsafe try Array(bytes).withUnsafeBytes { unsafe try body(_ScanInput($0)) }
  }

  /// The position of the first `byte` at or after `start` (in `0...count`), if any.
  @inlinable
  package func firstIndex(of byte: UInt8, from start: Int) -> Int? {
    checkRange(start, count)
    let position = unsafe _findByte(byte, base + start, base + count) - base
    return position < count ? position : nil
  }

  /// The bytes as a buffer, for the kernels that take one (UTF-8 and number text checks).
  @inlinable @inline(__always)
  package var _buffer: UnsafeBufferPointer<UInt8> {
    unsafe UnsafeBufferPointer(start: base, count: count)
  }

  /// The first `length` bytes (`length` in `0...count`).
  @inlinable
  package func prefix(_ length: Int) -> _ScanInput {
    precondition(UInt(bitPattern: length) <= UInt(bitPattern: count), "length out of range")
    return unsafe _ScanInput(base: base, count: length)
  }

  /// Whether `position` is that of a byte of the chunk (in `0..<count`). The scan loops test
  /// this rather than `position < count`: it is the compare the subscript checks, so the
  /// optimizer finds the check already made and drops it.
  @inlinable @inline(__always)
  package func contains(_ position: Int) -> Bool {
    UInt(bitPattern: position) < UInt(bitPattern: count)
  }

  /// The byte at `position` when it is in the chunk, else nil: the test and the read in one,
  /// for the loops that stop at the chunk's end. Where paths with a test each join, the
  /// optimizer no longer sees a later subscript's check as made; this has none to drop.
  @inlinable @inline(__always)
  package func byte(at position: Int) -> UInt8? {
    unsafe contains(position) ? base[position] : nil
  }

  /// The byte at `position`, which must be in `0..<count` (one unsigned compare for both ends).
  @inlinable
  package subscript(position: Int) -> UInt8 {
    @inline(__always) get {
      precondition(contains(position), "position out of range")
      return unsafe base[position]
    }
  }

  /// Whether `position..<position + length` lies in the chunk (`length` is 0 or more).
  @inlinable @inline(__always)
  package func contains(_ position: Int, length: Int) -> Bool {
    position >= 0 && count &- position >= length
  }

  /// The four bytes from `position` as a little-endian word (the first byte lowest); they
  /// must lie in the chunk.
  @inlinable @inline(__always)
  package func loadUInt32(at position: Int) -> UInt32 {
    precondition(contains(position, length: 4), "position out of range")
    return unsafe UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self).littleEndian
  }

  /// Checks that `start...end` are positions in the chunk, in order.
  @inlinable @inline(__always)
  package func checkRange(_ start: Int, _ end: Int) {
    precondition(
      UInt(bitPattern: start) <= UInt(bitPattern: end)
        && UInt(bitPattern: end) <= UInt(bitPattern: count), "range out of range")
  }

  // MARK: Runs of bytes, by words (the kernels in UTF8Kernels.swift, from a checked position)

  /// Past the spaces (0x20) from `position` (in `0...count`).
  @inlinable @inline(__always)
  package func skipSpaceRun(from position: Int) -> Int {
    checkRange(position, count)
    return unsafe _skipSpaceRun(base + position, base + count) - base
  }

  /// Past the bytes from `position` (in `0...count`) that a string scan need not look at:
  /// ASCII from 0x20 except `"` and `\`.
  @inlinable @inline(__always)
  package func skipPlainStringBytes(from position: Int) -> Int {
    checkRange(position, count)
    return unsafe _skipPlainStringBytes(base + position, base + count) - base
  }

  /// Past the ASCII digits from `position` (in `0...count`).
  @inlinable @inline(__always)
  package func skipDigits(from position: Int) -> Int {
    checkRange(position, count)
    return unsafe _skipDigits(base + position, base + count) - base
  }

  /// Past the well-formed multi-byte characters from `position` (in `0...count`) that lie
  /// wholly in the chunk, and how many continuation bytes they hold.
  @inlinable @inline(__always)
  package func skipWellFormedCharacters(from position: Int) -> (end: Int, continuationBytes: Int) {
    checkRange(position, count)
    let run = unsafe _skipWellFormedCharacters(base + position, base + count)
    return unsafe (run.end - base, run.continuationBytes)
  }

  // MARK: Views of a range, for the handler

  /// Bytes `start..<end` as a string the scan found well-formed and needing no escaping.
  @inlinable @inline(__always)
  package func plainString(_ start: Int, _ end: Int) -> JSONString {
    checkRange(start, end)
    return unsafe JSONString(
      _wellFormedNeedingNoEscaping: UnsafeBufferPointer(start: base + start, count: end &- start))
  }

  /// Bytes `start..<end` as number text with JSONNumber's `flags`.
  @inlinable @inline(__always)
  package func number(_ start: Int, _ end: Int, flags: UInt8) -> JSONNumber {
    checkRange(start, end)
    return unsafe JSONNumber(
      _utf8: UnsafeBufferPointer(start: base + start, count: end &- start), flags: flags)
  }

  /// Bytes `start..<end` as an input of their own (positions from 0): a token's payload.
  @inlinable @inline(__always)
  package func slice(_ start: Int, _ end: Int) -> _ScanInput {
    checkRange(start, end)
    return unsafe _ScanInput(base: base + start, count: end &- start)
  }

  /// All the bytes as a string its producer found well-formed; `keyTableEntry` is its entry
  /// number in the producer's key table, or -1, and `needsNoEscaping` says what
  /// `_checkUTF8ForJSON` found (see `JSONString`).
  @inlinable @inline(__always)
  package func wellFormedString(keyTableEntry: Int = -1, needsNoEscaping: Bool = false)
    -> JSONString
  {
    unsafe JSONString(
      _wellFormed: _buffer, keyTableEntry: keyTableEntry, needsNoEscaping: needsNoEscaping)
  }

  /// Appends bytes `start..<end` to `bytes`.
  @inlinable
  package func copy(_ start: Int, _ end: Int, to bytes: inout [UInt8]) {
    checkRange(start, end)
    unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end &- start))
  }
}
