// The binary writer's kernel: its state between events, and the tokens it writes. A token is
// written into room reserved for it beforehand, without the uniqueness and capacity checks a
// Swift array makes per byte appended; keys and strings go through byte-string tables (see
// `_BinaryTable`). The events (`JSONBinaryWriter`) reach it only through its methods.

import JSONStreamCore
import JSONStreamWriter

extension JSONBinaryWriter {
  /// Bytes (an extended type: read as JSON, a base64 string).
  @inlinable public mutating func data(_ bytes: UnsafeRawBufferPointer) throws {
    if try _box.withUnique({ unsafe try $0.data(bytes) }) { try flush() }
  }
}

/// What a binary writer keeps between events, in plain memory behind a `_StateBox`: the
/// output not yet handed to the sink, the open containers and the tables. Writing a token is
/// reserving room for it and storing its bytes, without the uniqueness check and capacity
/// check a Swift array makes per byte appended.
@usableFromInline
struct _BinaryWriterState: _ManualState {
  /// The writer's `allowMultipleValues` and `chunkSize`.
  @usableFromInline let allowMultipleValues: Bool
  @usableFromInline let chunkSize: Int
  @usableFromInline var out: _Buffer<UInt8>
  /// Open containers, innermost last: for an object, the slot of `nextKey` that predicts its
  /// next key; for an array or a set, -1 - its context (see `nextKey`).
  @usableFromInline var stack = _Buffer<Int32>(capacity: 16)
  /// In an object, a key has been written and its value is due.
  @usableFromInline var awaitingValue = false
  /// The open maps (see `_OpenMaps`).
  @usableFromInline var maps = _OpenMaps()
  /// The value table: which shared values have ended.
  @usableFromInline var shares = _WrittenShares()
  @usableFromInline var valueCount = 0
  @usableFromInline var wroteHeader = false
  @usableFromInline var keys = _BinaryTable()
  @usableFromInline var strings = _BinaryTable()
  /// The key-table index of the key expected next in an object, or -1. Objects of one shape
  /// repeat their keys in order, so the key predicted is compared first, and found without a
  /// lookup most of the time. Slot `2k + 3` predicts the key after key `k`, slot 1 the key
  /// after one written without the table, and slot `2c` an object's first key by its context
  /// `c`: 1 + the key it is the value of, or for an array's element that of the array (0 at
  /// the top level or after a key without the table). Without the context, every kind of
  /// object predicted the first key of whichever came last: replaying the corpus through both
  /// rules, 22% of twitter.json's keys missed without it and 15% with it (citm_catalog.json:
  /// 10% and 2%).
  @usableFromInline var nextKey: _Buffer<Int32> = {
    var next = _Buffer<Int32>(capacity: 64)
    next.append(-1)
    next.append(-1)
    return next
  }()

  /// The `nextKey` slot that predicts the key after key-table entry `index`.
  @inlinable @inline(__always) static func slot(after index: Int) -> Int32 {
    Int32(truncatingIfNeeded: 2 &* index &+ 3)
  }

  /// Whether a `stack` entry is an array's (or a set's).
  @inlinable @inline(__always) static func isArray(_ frame: Int32) -> Bool { frame < 0 }

  /// The context (see `nextKey`) of a container starting here.
  @inlinable @inline(__always) var context: Int32 {
    let depth = stack.count
    guard depth > 0 else { return 0 }
    return Self.context(in: stack[depth &- 1])
  }

  /// The context of a container starting in the container of `stack` entry `frame`.
  @inlinable @inline(__always) static func context(in frame: Int32) -> Int32 {
    // In an object, a value follows a key: the frame is slot 2k + 3, or 1.
    frame < 0 ? -1 &- frame : (frame &- 1) &>> 1
  }

  /// The `stack` entry of an object or array opened in `context`.
  @inlinable @inline(__always) static func frame(isObject: Bool, context: Int32) -> Int32 {
    isObject ? 2 &* context : -1 &- context
  }

  @inlinable @inline(__always) mutating func openObject() {
    stack.append(Self.frame(isObject: true, context: context))
  }

  @inlinable @inline(__always) mutating func openArray() {
    stack.append(Self.frame(isObject: false, context: context))
  }

  @usableFromInline
  init(outputCapacity: Int, allowMultipleValues: Bool, chunkSize: Int) {
    out = _Buffer(capacity: outputCapacity)
    self.allowMultipleValues = allowMultipleValues
    self.chunkSize = chunkSize
  }

  @usableFromInline
  func copy() -> _BinaryWriterState {
    var copy = self
    copy.out = out.copy()
    copy.stack = stack.copy()
    copy.keys = keys.copy()
    copy.strings = strings.copy()
    copy.nextKey = nextKey.copy()
    return copy
  }

  @usableFromInline
  func deallocate() {
    out.deallocate()
    stack.deallocate()
    keys.deallocate()
    strings.deallocate()
    nextKey.deallocate()
  }

  // MARK: Events

  // Each event checks the grammar as `JSONWriter` does, writes its tokens and, for a value,
  // returns whether the output is due to the sink.

  /// Checks that the document is complete, for `JSONBinaryWriter.finish()`.
  @inlinable mutating func finish() throws {
    // A stream of several values may hold none: it is the header alone.
    if stack.count == 0 && valueCount == 0 && allowMultipleValues && !wroteHeader {
      writeHeader()
    }
    let open = stack.count
    if shares.markPending {
      throw JSONWriterError(kind: .incompleteDocument, message: "a shared value was not written")
    }
    guard open == 0 && (valueCount > 0 || allowMultipleValues) else {
      throw JSONWriterError(
        kind: .incompleteDocument,
        message: open == 0 ? "no value was written" : "\(open) container(s) still open")
    }
  }

  /// Checks that a value may go here: at the top (the first, unless several are allowed),
  /// in an array, or after a key.
  @inlinable @inline(__always) mutating func beginValue() throws {
    if !wroteHeader { writeHeader() }
    shares.valueBegins()
    let depth = stack.count
    if depth == 0 {
      guard valueCount == 0 || allowMultipleValues else {
        throw JSONWriterError(
          kind: .multipleTopLevelValues,
          message: "a second top-level value (allowMultipleValues is off)")
      }
    } else if !Self.isArray(stack[depth &- 1]) {
      guard awaitingValue else {
        throw JSONWriterError(
          kind: .valueWhereKeyExpected, message: "a value where an object key is expected")
      }
      awaitingValue = false
    } else {
      maps.element(in: depth)
    }
  }

  /// Counts a value written; whether the output is due to the sink.
  @inlinable @inline(__always) mutating func endValue() -> Bool {
    shares.valueEnded(at: stack.count)
    if stack.count == 0 {
      valueCount &+= 1
      if shares.count > 0 { shares.reset() }
    }
    return out.count >= chunkSize
  }

  @inlinable @inline(__always) mutating func startContainer(isObject: Bool) throws {
    try beginValue()
    openContainer(isObject: isObject)
  }

  @inlinable @inline(__always) mutating func endObject() throws -> Bool {
    let depth = stack.count
    guard depth > 0, !Self.isArray(stack[depth &- 1]), !awaitingValue else {
      throw JSONWriterError(kind: .unbalancedEnd, message: "'}' where no object can end")
    }
    closeContainer(isObject: true)
    return endValue()
  }

  @inlinable @inline(__always) mutating func endArray() throws -> Bool {
    let depth = stack.count
    guard depth > 0, Self.isArray(stack[depth &- 1]), !shares.markPending else {
      throw JSONWriterError(kind: .unbalancedEnd, message: "']' where no array can end")
    }
    guard maps.mayEnd(at: depth) else {
      throw JSONWriterError(
        kind: .unbalancedEnd, message: "a map's end after a key, before the key's value")
    }
    closeContainer(isObject: false)
    return endValue()
  }

  @inlinable @inline(__always) mutating func key(_ key: borrowing JSONString) throws {
    let depth = stack.count
    guard depth > 0, !Self.isArray(stack[depth &- 1]), !awaitingValue else {
      throw JSONWriterError(kind: .misplacedKey, message: "a key where none can go")
    }
    guard unsafe key._isWellFormed || _isWellFormedUTF8(key.utf8) else {
      throw JSONWriterError(kind: .invalidUTF8, message: "the key is not well-formed UTF-8")
    }
    awaitingValue = true
    unsafe writeKey(key.utf8)
  }

  @inlinable @inline(__always) mutating func string(_ value: borrowing JSONString) throws -> Bool {
    guard unsafe value._isWellFormed || _isWellFormedUTF8(value.utf8) else {
      throw JSONWriterError(kind: .invalidUTF8, message: "the string is not well-formed UTF-8")
    }
    try beginValue()
    unsafe writeString(value.utf8)
    return endValue()
  }

  @inlinable @inline(__always) mutating func number(_ value: borrowing JSONNumber) throws -> Bool {
    try beginValue()
    writeNumber(value)
    return endValue()
  }

  /// A value that `write` writes, between `beginValue()` and `endValue()`.
  @inlinable @inline(__always)
  mutating func value(_ write: (inout _BinaryWriterState) -> Void) throws -> Bool {
    try beginValue()
    write(&self)
    return endValue()
  }

  @inlinable mutating func keptNumber(_ value: JSONBinaryNumber) throws -> Bool {
    try self.value { $0.writeKeptNumber(value) }
  }

  @inlinable @inline(__always) mutating func integer(_ value: Int64) throws -> Bool {
    try self.value { $0.writeInteger(value) }
  }

  @inlinable mutating func double(_ value: Double) throws -> Bool {
    try self.value { $0.writeDouble(value) }
  }

  @inlinable mutating func date(secondsSince2001 seconds: Double) throws -> Bool {
    try value { $0.writeFixed(_BinaryTag.date, seconds.bitPattern, bytes: 8) }
  }

  @inlinable mutating func data(_ bytes: UnsafeRawBufferPointer) throws -> Bool {
    try value { unsafe $0.writeBytes(_BinaryTag.data, bytes.assumingMemoryBound(to: UInt8.self)) }
  }

  /// Marks the next value as shared; returns its entry in the value table.
  @inlinable mutating func share() throws -> Int {
    if !wroteHeader { writeHeader() }
    let depth = stack.count
    let index = shares.count
    if depth == 0 {
      guard valueCount == 0 || allowMultipleValues else {
        throw JSONWriterError(
          kind: .multipleTopLevelValues,
          message: "a second top-level value (allowMultipleValues is off)")
      }
    } else if !Self.isArray(stack[depth &- 1]) && !awaitingValue {
      throw JSONWriterError(
        kind: .valueWhereKeyExpected, message: "a shared value where an object key is expected")
    }
    guard !shares.markPending, index < JSONBinaryFormat.maxTableEntries else {
      throw JSONWriterError(
        kind: .invalidReference,
        message: shares.markPending
          ? "a second shared-value mark before the value" : "the value table is full")
    }
    shares.share(depth: depth)
    writeTag(_BinaryTag.share)
    return index
  }

  /// A reference to shared value `index`, which must have been written to its end.
  @inlinable mutating func reference(toShared index: Int) throws -> Bool {
    guard !shares.markPending, shares.hasEnded(index) else {
      throw JSONWriterError(
        kind: .invalidReference,
        message: shares.markPending
          ? "a reference right after a shared-value mark"
          : "a reference to shared value \(index), of \(shares.count), not written to"
            + " its end")
    }
    return try value { $0.writeTagged(_BinaryTag.valueRef, UInt64(index)) }
  }

  /// The start of a set, an ordered set or a map (`tag`).
  @inlinable mutating func startCollection(_ tag: UInt8) throws {
    try beginValue()
    writeTag(tag)
    openArray()
    if tag == _BinaryTag.startMap { maps.open(at: stack.count) }
  }

  /// A value of one byte.
  @inlinable @inline(__always) mutating func byte(_ tag: UInt8) throws -> Bool {
    try value { $0.writeTag(tag) }
  }

  // MARK: Tokens

  @inlinable mutating func writeHeader() {
    out.reserve(6)
    for byte in JSONBinaryFormat.magic { out.appendReservedUnchecked(byte) }
    out.appendReservedUnchecked(JSONBinaryFormat.majorVersion)
    out.appendReservedUnchecked(JSONBinaryFormat.minorVersion)
    wroteHeader = true
  }

  // The token writers make room for their bytes, unless `checked` is false: the caller has
  // made room for `maxToken` bytes (see `JSONBinaryWriter._writeTree`). A token of variable
  // length (bytes of a string or number text) always makes its own room.

  /// The most bytes a token writer writes when `checked` is false: a tag and a scale or a
  /// LEB128 of ten bytes at most.
  @inlinable static var maxToken: Int { 12 }

  /// A token of one byte: a value, or a container's start or end.
  @inlinable @inline(__always) mutating func writeTag(_ tag: UInt8, checked: Bool = true) {
    if checked { out.reserve(1) }
    out.appendReservedUnchecked(tag)
  }

  /// The start of an object or an array.
  @inlinable @inline(__always) mutating func openContainer(isObject: Bool) {
    if isObject {
      writeTag(_BinaryTag.startObject)
      openObject()
    } else {
      writeTag(_BinaryTag.startArray)
      openArray()
    }
  }

  /// The end of the innermost open container.
  @inlinable @inline(__always) mutating func closeContainer(isObject: Bool) {
    stack.truncate(to: stack.count &- 1)
    writeTag(isObject ? _BinaryTag.endObject : _BinaryTag.endArray)
  }

  /// A tag and a LEB128 number.
  @inlinable @inline(__always)
  mutating func writeTagged(_ tag: UInt8, _ value: UInt64, checked: Bool = true) {
    if checked { out.reserve(11) }
    out.appendReservedUnchecked(tag)
    unsafe out.advanceReservedUnchecked(by: _storeLEB128(value, at: out.end))
  }

  /// A tag, then `bytes` little-endian bytes of `bits`.
  @inlinable mutating func writeFixed(
    _ tag: UInt8, _ bits: UInt64, bytes: Int, checked: Bool = true
  ) {
    if checked { out.reserve(9) }
    out.appendReservedUnchecked(tag)
    unsafe UnsafeMutableRawPointer(out.end).storeBytes(of: bits.littleEndian, as: UInt64.self)
    out.advanceReservedUnchecked(by: bytes)
  }

  /// A tag, a LEB128 length and the bytes.
  @inlinable mutating func writeBytes(_ tag: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) {
    writeTagged(tag, UInt64(bytes.count))
    unsafe out.appendBytes(bytes)
  }

  /// An integer, a decimal or a double, in its tag.
  @inlinable @inline(__always) mutating func writeNumber(_ number: JSONBinaryNumber) {
    switch number {
    case .int(let int): writeInteger(int)
    case .uint(let uint): writeTagged(_BinaryTag.uint, uint)
    case .decimal(let mantissa, let scale): writeDecimal(mantissa: mantissa, scale: scale)
    case .double(let double): writeFixed(_BinaryTag.float64, double.bitPattern, bytes: 8)
    }
  }

  /// A decimal: its scale, then its mantissa as zigzag LEB128, or in eight fixed bytes when
  /// those are as small.
  @inlinable @inline(__always) mutating func writeDecimal(mantissa: Int64, scale: UInt8) {
    out.reserve(12)
    let zigzag = _zigzag(mantissa)
    // Each branch writes its own tag and scale: choosing the tag first and writing them once
    // cost 8% of writing canada.json as binary (48.41M instructions against 44.74M).
    if _usesFixedWidth(zigzag) {
      out.appendReservedUnchecked(_BinaryTag.decimal64)
      out.appendReservedUnchecked(scale)
      unsafe UnsafeMutableRawPointer(out.end).storeBytes(
        of: UInt64(bitPattern: mantissa).littleEndian, as: UInt64.self)
      out.advanceReservedUnchecked(by: 8)
    } else {
      out.appendReservedUnchecked(_BinaryTag.decimal)
      out.appendReservedUnchecked(scale)
      unsafe out.advanceReservedUnchecked(by: _storeLEB128(zigzag, at: out.end))
    }
  }

  /// An integer: zigzag LEB128, or four or eight fixed bytes when those are as small.
  @inlinable @inline(__always) mutating func writeInteger(_ int: Int64, checked: Bool = true) {
    let zigzag = _zigzag(int)
    if _usesInt32(zigzag: zigzag) {
      if checked { out.reserve(5) }
      out.appendReservedUnchecked(_BinaryTag.int32)
      unsafe UnsafeMutableRawPointer(out.end).storeBytes(
        of: Int32(truncatingIfNeeded: int).littleEndian, as: Int32.self)
      out.advanceReservedUnchecked(by: 4)
    } else if _usesFixedWidth(zigzag) {
      writeFixed(_BinaryTag.int64, UInt64(bitPattern: int), bytes: 8, checked: checked)
    } else {
      writeTagged(_BinaryTag.int, zigzag, checked: checked)
    }
  }

  /// A key: a reference when the table has it, else its bytes, entered in the table while
  /// there is room. The key `nextKey` predicts is tried first, inline; the rest is a call.
  @inlinable @inline(__always) mutating func writeKey(_ bytes: UnsafeBufferPointer<UInt8>) {
    unsafe writeKey(bytes, in: &stack[stack.count &- 1])
  }

  /// A key in the object whose `stack` entry is `frame` (held elsewhere by the one-pass
  /// writer, see `JSONBinaryWriter._writeTree`).
  @inlinable @inline(__always) mutating func writeKey(
    _ bytes: UnsafeBufferPointer<UInt8>, in frame: inout Int32, checked: Bool = true
  ) {
    let predicted = Int(nextKey[Int(frame)])
    guard unsafe predicted >= 0 && _bytesEqual(keys.entry(predicted), bytes) else {
      return unsafe writeUnpredictedKey(bytes, in: &frame)
    }
    writeTagged(_BinaryTag.keyRef, UInt64(predicted), checked: checked)
    frame = Self.slot(after: predicted)
  }

  @usableFromInline mutating func writeUnpredictedKey(
    _ bytes: UnsafeBufferPointer<UInt8>, in frame: inout Int32
  ) {
    let slot = Int(frame)
    let hash = unsafe _BinaryTable.hash(bytes)
    let index: Int
    if let found = unsafe keys.find(bytes, hash: hash) {
      index = found
      writeTagged(_BinaryTag.keyRef, UInt64(index))
    } else if unsafe keys.add(bytes, hash: hash) {
      index = keys.count &- 1
      nextKey.append(-1)
      nextKey.append(-1)
      unsafe writeBytes(_BinaryTag.sharedKey, bytes)
    } else {
      unsafe writeBytes(_BinaryTag.key, bytes)
      frame = 1
      return
    }
    nextKey[slot] = Int32(truncatingIfNeeded: index)
    frame = Self.slot(after: index)
  }

  /// A number's text: as an integer or a decimal when that gives the text back exactly, else
  /// as text.
  @inlinable @inline(__always) mutating func writeNumber(_ number: borrowing JSONNumber) {
    if let binary = JSONBinaryNumber(number) {
      // The forms text gives, each straight to its writer: through `writeNumber(_:)`, the
      // switch was made a call, 7% more instructions writing canada.json as binary.
      switch binary {
      case .int(let int): writeInteger(int)
      case .decimal(let mantissa, let scale): writeDecimal(mantissa: mantissa, scale: scale)
      default: writeNumber(binary)
      }
    } else {
      unsafe writeBytes(_BinaryTag.numberText, number.utf8)
    }
  }

  /// A number a binary reader kept in binary form: in that form, but a double as
  /// `writeDouble` writes one, and NaN and the infinities as text, as their events would be.
  @inlinable mutating func writeKeptNumber(_ number: JSONBinaryNumber) {
    guard case .double(let double) = number else { return writeNumber(number) }
    if double.isFinite {
      writeDouble(double)
    } else {
      number.withJSONNumber { writeNumber($0) }
    }
  }

  /// A binary floating-point value: binary32 when that holds it exactly, else binary64.
  @inlinable mutating func writeDouble(_ value: Double) {
    if let float = Float(exactly: value) {
      writeFixed(_BinaryTag.float32, UInt64(float.bitPattern), bytes: 4)
    } else {
      writeFixed(_BinaryTag.float64, value.bitPattern, bytes: 8)
    }
  }

  /// `writeKey(_:in:checked:)` of a borrowed key.
  @inlinable @inline(__always) mutating func writeKey(
    _ key: borrowing JSONString, in frame: inout Int32, checked: Bool = true
  ) {
    unsafe writeKey(key.utf8, in: &frame, checked: checked)
  }

  /// `writeString(_:)` of a borrowed string.
  @inlinable @inline(__always) mutating func writeString(_ value: borrowing JSONString) {
    unsafe writeString(value.utf8)
  }

  /// A string value: a short one through the string table, a long one as its bytes.
  @inlinable @inline(__always) mutating func writeString(_ bytes: UnsafeBufferPointer<UInt8>) {
    if bytes.count <= JSONBinaryFormat.maxSharedStringLength {
      unsafe writeSharedString(bytes)
    } else {
      unsafe writeBytes(_BinaryTag.string, bytes)
    }
  }

  /// A short string: a reference when the table has it, else its bytes, entered in the table
  /// while there is room.
  @inlinable mutating func writeSharedString(_ bytes: UnsafeBufferPointer<UInt8>) {
    let hash = unsafe _BinaryTable.hash(bytes)
    if let index = unsafe strings.find(bytes, hash: hash) {
      writeTagged(_BinaryTag.stringRef, UInt64(index))
    } else if unsafe strings.add(bytes, hash: hash) {
      unsafe writeBytes(_BinaryTag.sharedString, bytes)
    } else {
      unsafe writeBytes(_BinaryTag.string, bytes)
    }
  }
}
