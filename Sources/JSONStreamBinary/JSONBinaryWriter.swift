import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

/// Writes the binary format (see ``JSONBinaryFormat``) from events, to a sink, in bounded
/// chunks: JSON → binary is a parser driving this writer, in constant memory.
///
/// ```swift
/// var parser = JSONParser(handler: JSONBinaryWriter())   // in memory
/// try parser.feed(jsonBytes)
/// try parser.finish()
/// try parser.handler.finish()
/// let binary = parser.handler.bytes
/// ```
///
/// Keys, and strings of up to ``JSONBinaryFormat/maxSharedStringLength`` bytes, are written
/// once and referred to by number afterwards. Numbers are written as integers or decimals when
/// that reproduces their text exactly, else as their text. The writer checks the event
/// grammar as ``JSONWriter`` does.
public struct JSONBinaryWriter<Sink: JSONOutputSink>: JSONEventHandler {
  /// Where output goes. For `JSONByteSink`, read ``bytes`` after ``finish()``.
  public var sink: Sink
  /// Accept several top-level values (one after another, as in NDJSON), as
  /// ``JSONWriteOptions/allowMultipleValues`` does for the JSON writer.
  public let allowMultipleValues: Bool
  /// Output is handed to the sink in chunks of about this many bytes.
  public let chunkSize: Int

  /// The output, open containers and tables, in plain memory (see `_BinaryWriterState`);
  /// shared between copies of the writer until one of them writes.
  @usableFromInline var _box: _CopyOnWriteState<_BinaryWriterState>

  /// A writer to `sink`, handing it chunks of about `chunkSize` bytes; `allowMultipleValues`
  /// accepts several top-level values.
  @inlinable public init(sink: Sink, allowMultipleValues: Bool = false, chunkSize: Int = 64 * 1024)
  {
    self.sink = sink
    self.allowMultipleValues = allowMultipleValues
    self.chunkSize = Swift.max(1, chunkSize)
    _box = _CopyOnWriteState(_BinaryWriterState(outputCapacity: self.chunkSize + 64))
  }

  /// Checks that the document is complete and hands the rest of the output to the sink.
  @inlinable public mutating func finish() throws {
    let state = _state()
    // A stream of several values may hold none: it is the header alone.
    if state.pointee.stack.count == 0 && state.pointee.valueCount == 0 && allowMultipleValues
      && !state.pointee.wroteHeader
    {
      state.pointee.writeHeader()
    }
    let open = state.pointee.stack.count
    guard open == 0 && (state.pointee.valueCount > 0 || allowMultipleValues) else {
      throw JSONWriterError(
        kind: .incompleteDocument,
        message: open == 0 ? "no value was written" : "\(open) container(s) still open")
    }
    try flush()
  }

  /// Hands the buffered output to the sink.
  @inlinable public mutating func flush() throws {
    let state = _state()
    guard state.pointee.out.count > 0 else { return }
    try sink.write(
      UnsafeRawBufferPointer(start: state.pointee.out.base, count: state.pointee.out.count))
    state.pointee.out.truncate(to: 0)
  }

  // MARK: Events

  // The events are inlined into their producer: as calls, each paid a prologue, spills and
  // loads of the state that the next event loaded again. Inlined, replaying citm_catalog.json's
  // tree into the writer took 7.05M instructions instead of 8.59M (0.90 s against 1.15 s for
  // 2000 documents), and parsing its text into the writer 20.8M instead of 22.6M.

  /// Opens an object. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func startObject() throws {
    let state = _state()
    try beginValue(state)
    state.pointee.openContainer(isObject: true)
  }

  /// Opens an array. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func startArray() throws {
    let state = _state()
    try beginValue(state)
    state.pointee.openContainer(isObject: false)
  }

  /// Closes the innermost open object. Throws `JSONWriterError` when that is not an object, or a
  /// key awaits its value.
  @inlinable @inline(__always) public mutating func endObject() throws {
    let state = _state()
    let depth = state.pointee.stack.count
    guard depth > 0, !_BinaryWriterState.isArray(state.pointee.stack[depth &- 1]),
      !state.pointee.awaitingValue
    else {
      throw JSONWriterError(kind: .unbalancedEnd, message: "'}' where no object can end")
    }
    state.pointee.closeContainer(isObject: true)
    try endValue(state)
  }

  /// Closes the innermost open array. Throws `JSONWriterError` when that is not an array.
  @inlinable @inline(__always) public mutating func endArray() throws {
    let state = _state()
    let depth = state.pointee.stack.count
    guard depth > 0, _BinaryWriterState.isArray(state.pointee.stack[depth &- 1]) else {
      throw JSONWriterError(kind: .unbalancedEnd, message: "']' where no array can end")
    }
    state.pointee.closeContainer(isObject: false)
    try endValue(state)
  }

  /// Writes an object key, or a reference to it when it was written before. Throws
  /// `JSONWriterError` outside an object, where a value is due, or for ill-formed UTF-8.
  @inlinable @inline(__always) public mutating func key(_ key: borrowing JSONString) throws {
    let state = _state()
    let depth = state.pointee.stack.count
    guard depth > 0, !_BinaryWriterState.isArray(state.pointee.stack[depth &- 1]),
      !state.pointee.awaitingValue
    else {
      throw JSONWriterError(kind: .misplacedKey, message: "a key where none can go")
    }
    guard key._isWellFormed || _isWellFormedUTF8(key.utf8) else {
      throw JSONWriterError(kind: .invalidUTF8, message: "the key is not well-formed UTF-8")
    }
    state.pointee.awaitingValue = true
    state.pointee.writeKey(key.utf8)
  }

  /// Writes a string value, or a reference to it when it is short and was written before.
  /// Throws `JSONWriterError` where no value may go, or for ill-formed UTF-8.
  @inlinable @inline(__always) public mutating func string(_ value: borrowing JSONString) throws {
    guard value._isWellFormed || _isWellFormedUTF8(value.utf8) else {
      throw JSONWriterError(kind: .invalidUTF8, message: "the string is not well-formed UTF-8")
    }
    let state = _state()
    try beginValue(state)
    state.pointee.writeString(value.utf8)
    try endValue(state)
  }

  /// Writes a number as an integer or decimal when that reproduces its text exactly, else as its
  /// text. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func number(_ value: borrowing JSONNumber) throws {
    // A tree's integer comes with its value: written from it, the text not converted again.
    if value._hasIntegerValue { return try number(value._integerValue) }
    let state = _state()
    try beginValue(state)
    state.pointee.writeNumber(value)
    try endValue(state)
  }

  /// A number a binary reader kept in binary form (a tree read from binary, replayed): written
  /// in that form, without making its text.
  @inlinable public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    let state = _state()
    try beginValue(state)
    state.pointee.writeKeptNumber(value)
    try endValue(state)
  }

  /// Writes `true` or `false`. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func bool(_ value: Bool) throws {
    try writeByte(value ? _BinaryTag.true : _BinaryTag.false)
  }

  /// Writes `null`. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func null() throws {
    try writeByte(_BinaryTag.null)
  }

  // MARK: Conveniences for writing by hand

  /// An object key.
  @inlinable public mutating func key(_ key: String) throws {
    var key = key
    try key.withJSONString { try self.key($0) }
  }

  /// A string value.
  @inlinable public mutating func string(_ value: String) throws {
    var value = value
    try value.withJSONString { try string($0) }
  }

  /// An integer value.
  @inlinable @inline(__always) public mutating func number(_ value: Int64) throws {
    let state = _state()
    try beginValue(state)
    state.pointee.writeInteger(value)
    try endValue(state)
  }

  /// An integer value.
  @inlinable public mutating func number(_ value: UInt64) throws {
    guard value > UInt64(Int64.max) else { return try number(Int64(value)) }
    let state = _state()
    try beginValue(state)
    state.pointee.writeNumber(.uint(value))
    try endValue(state)
  }

  /// A binary floating-point value: binary32 when that holds it exactly, else binary64. NaN
  /// and the infinities are refused, as JSON has none.
  @inlinable public mutating func number(_ value: Double) throws {
    guard value.isFinite else {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "\(value) is not a JSON number")
    }
    let state = _state()
    try beginValue(state)
    state.pointee.writeDouble(value)
    try endValue(state)
  }

  /// A date, as seconds since 2001-01-01T00:00:00Z (Foundation's reference date: the number
  /// a `Date` holds, so nothing is rounded). An extended type: read as JSON, that number.
  @inlinable public mutating func date(secondsSince2001 seconds: Double) throws {
    guard seconds.isFinite else {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "a date of \(seconds) seconds")
    }
    let state = _state()
    try beginValue(state)
    state.pointee.writeFixed(_BinaryTag.date, seconds.bitPattern, bytes: 8)
    try endValue(state)
  }

  /// Bytes (an extended type: read as JSON, a base64 string).
  @inlinable public mutating func data(_ bytes: UnsafeRawBufferPointer) throws {
    let state = _state()
    try beginValue(state)
    state.pointee.writeBytes(_BinaryTag.data, bytes.assumingMemoryBound(to: UInt8.self))
    try endValue(state)
  }

  /// The start of a set (an extended type: read as JSON, an array); ``endArray()`` ends it.
  @inlinable public mutating func startSet() throws {
    let state = _state()
    try beginValue(state)
    state.pointee.writeTag(_BinaryTag.startSet)
    state.pointee.openArray()
  }

  // MARK: Structure

  /// The state, copied first if another copy of the writer shares it.
  @inlinable @inline(__always)
  mutating func _state() -> UnsafeMutablePointer<_BinaryWriterState> {
    _box.unique()
  }

  /// Checks that a value may go here (see `beginValue(_:)`), for the one-pass tree writer.
  @inlinable @inline(__always) mutating func _beginValue() throws { try beginValue(_state()) }

  /// Counts a value written (see `endValue(_:)`), for the one-pass tree writer.
  @inlinable @inline(__always) mutating func _endValue() throws { try endValue(_state()) }

  /// Makes the writer's state its own once, for the events of the run.
  @inlinable public mutating func beginEventRun() { _box.beginEventRun() }
  /// Ends the run that ``beginEventRun()`` began.
  @inlinable public mutating func endEventRun() { _box.endEventRun() }

  /// A value of one byte.
  @inlinable @inline(__always) mutating func writeByte(_ tag: UInt8) throws {
    let state = _state()
    try beginValue(state)
    state.pointee.writeTag(tag)
    try endValue(state)
  }

  @inlinable @inline(__always) mutating func beginValue(
    _ state: UnsafeMutablePointer<_BinaryWriterState>
  ) throws {
    if !state.pointee.wroteHeader { state.pointee.writeHeader() }
    let depth = state.pointee.stack.count
    if depth == 0 {
      guard state.pointee.valueCount == 0 || allowMultipleValues else {
        throw JSONWriterError(
          kind: .multipleTopLevelValues,
          message: "a second top-level value (allowMultipleValues is off)")
      }
    } else if !_BinaryWriterState.isArray(state.pointee.stack[depth &- 1]) {
      guard state.pointee.awaitingValue else {
        throw JSONWriterError(
          kind: .valueWhereKeyExpected, message: "a value where an object key is expected")
      }
      state.pointee.awaitingValue = false
    }
  }

  @inlinable @inline(__always) mutating func endValue(
    _ state: UnsafeMutablePointer<_BinaryWriterState>
  ) throws {
    if state.pointee.stack.count == 0 { state.pointee.valueCount &+= 1 }
    if state.pointee.out.count >= chunkSize { try flush() }
  }
}

/// What a binary writer keeps between events, in plain memory behind a `_StateBox`: the
/// output not yet handed to the sink, the open containers and the tables. Writing a token is
/// reserving room for it and storing its bytes, without the uniqueness check and capacity
/// check a Swift array makes per byte appended.
@usableFromInline
struct _BinaryWriterState: _ManualState {
  @usableFromInline var out: _Buffer<UInt8>
  /// Open containers, innermost last: for an object, the slot of `nextKey` that predicts its
  /// next key; for an array or a set, -1 - its context (see `nextKey`).
  @usableFromInline var stack = _Buffer<Int32>(capacity: 16)
  /// In an object, a key has been written and its value is due.
  @usableFromInline var awaitingValue = false
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
  init(outputCapacity: Int) {
    out = _Buffer(capacity: outputCapacity)
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
    out.advanceReservedUnchecked(by: _storeLEB128(value, at: out.end))
  }

  /// A tag, then `bytes` little-endian bytes of `bits`.
  @inlinable mutating func writeFixed(
    _ tag: UInt8, _ bits: UInt64, bytes: Int, checked: Bool = true
  ) {
    if checked { out.reserve(9) }
    out.appendReservedUnchecked(tag)
    UnsafeMutableRawPointer(out.end).storeBytes(of: bits.littleEndian, as: UInt64.self)
    out.advanceReservedUnchecked(by: bytes)
  }

  /// A tag, a LEB128 length and the bytes.
  @inlinable mutating func writeBytes(_ tag: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) {
    writeTagged(tag, UInt64(bytes.count))
    out.appendBytes(bytes)
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
      UnsafeMutableRawPointer(out.end).storeBytes(
        of: UInt64(bitPattern: mantissa).littleEndian, as: UInt64.self)
      out.advanceReservedUnchecked(by: 8)
    } else {
      out.appendReservedUnchecked(_BinaryTag.decimal)
      out.appendReservedUnchecked(scale)
      out.advanceReservedUnchecked(by: _storeLEB128(zigzag, at: out.end))
    }
  }

  /// An integer: zigzag LEB128, or four or eight fixed bytes when those are as small.
  @inlinable @inline(__always) mutating func writeInteger(_ int: Int64, checked: Bool = true) {
    let zigzag = _zigzag(int)
    if _usesInt32(zigzag: zigzag) {
      if checked { out.reserve(5) }
      out.appendReservedUnchecked(_BinaryTag.int32)
      UnsafeMutableRawPointer(out.end).storeBytes(
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
    writeKey(bytes, in: &stack[stack.count &- 1])
  }

  /// A key in the object whose `stack` entry is `frame` (held elsewhere by the one-pass
  /// writer, see `JSONBinaryWriter._writeTree`).
  @inlinable @inline(__always) mutating func writeKey(
    _ bytes: UnsafeBufferPointer<UInt8>, in frame: inout Int32, checked: Bool = true
  ) {
    let predicted = Int(nextKey[Int(frame)])
    guard predicted >= 0 && _bytesEqual(keys.entry(predicted), bytes) else {
      return writeUnpredictedKey(bytes, in: &frame)
    }
    writeTagged(_BinaryTag.keyRef, UInt64(predicted), checked: checked)
    frame = Self.slot(after: predicted)
  }

  @usableFromInline mutating func writeUnpredictedKey(
    _ bytes: UnsafeBufferPointer<UInt8>, in frame: inout Int32
  ) {
    let slot = Int(frame)
    let hash = _BinaryTable.hash(bytes)
    let index: Int
    if let found = keys.find(bytes, hash: hash) {
      index = found
      writeTagged(_BinaryTag.keyRef, UInt64(index))
    } else if keys.add(bytes, hash: hash) {
      index = keys.count &- 1
      nextKey.append(-1)
      nextKey.append(-1)
      writeBytes(_BinaryTag.sharedKey, bytes)
    } else {
      writeBytes(_BinaryTag.key, bytes)
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
      writeBytes(_BinaryTag.numberText, number.utf8)
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
    writeKey(key.utf8, in: &frame, checked: checked)
  }

  /// `writeString(_:)` of a borrowed string.
  @inlinable @inline(__always) mutating func writeString(_ value: borrowing JSONString) {
    writeString(value.utf8)
  }

  /// A string value: a short one through the string table, a long one as its bytes.
  @inlinable @inline(__always) mutating func writeString(_ bytes: UnsafeBufferPointer<UInt8>) {
    if bytes.count <= JSONBinaryFormat.maxSharedStringLength {
      writeSharedString(bytes)
    } else {
      writeBytes(_BinaryTag.string, bytes)
    }
  }

  /// A short string: a reference when the table has it, else its bytes, entered in the table
  /// while there is room.
  @inlinable mutating func writeSharedString(_ bytes: UnsafeBufferPointer<UInt8>) {
    let hash = _BinaryTable.hash(bytes)
    if let index = strings.find(bytes, hash: hash) {
      writeTagged(_BinaryTag.stringRef, UInt64(index))
    } else if strings.add(bytes, hash: hash) {
      writeBytes(_BinaryTag.sharedString, bytes)
    } else {
      writeBytes(_BinaryTag.string, bytes)
    }
  }
}

extension JSONBinaryWriter where Sink == JSONByteSink {
  /// A writer to memory; read ``bytes`` after ``finish()``.
  @inlinable public init(allowMultipleValues: Bool = false) {
    self.init(sink: JSONByteSink(), allowMultipleValues: allowMultipleValues)
  }

  /// The output so far (all of it after ``finish()``).
  public var bytes: [UInt8] { sink.bytes }

  /// The old spelling of ``init(allowMultipleValues:)``.
  @available(*, deprecated, renamed: "init(allowMultipleValues:)")
  @inlinable public init(allowsMultipleValues: Bool) {
    self.init(allowMultipleValues: allowsMultipleValues)
  }
}

extension JSONBinaryWriter {
  /// The old spelling of ``init(sink:allowMultipleValues:chunkSize:)``.
  @available(*, deprecated, renamed: "init(sink:allowMultipleValues:chunkSize:)")
  @inlinable public init(sink: Sink, allowsMultipleValues: Bool, chunkSize: Int = 64 * 1024) {
    self.init(sink: sink, allowMultipleValues: allowsMultipleValues, chunkSize: chunkSize)
  }

  /// The old spelling of ``allowMultipleValues``.
  @available(*, deprecated, renamed: "allowMultipleValues")
  public var allowsMultipleValues: Bool { allowMultipleValues }
}

/// The byte strings of a key or string table, in order of entry, in plain memory (see
/// `_ManualState`): entry `i` is `storage[starts[i] ..< starts[i + 1]]`. Bounded by
/// ``JSONBinaryFormat``'s limits.
///
/// The writer also finds entries by their bytes, through `slots`: one entry per slot, at the
/// slot of its `hash`, the latest entry winning. A lookup is one probe and one compare,
/// whatever the input: two strings that share a slot cost only a second table entry when one
/// comes back, never a search. (Open addressing was ~40% of the time of writing
/// twitter.json, with a byte loop in the hash, probing and growing.)
@usableFromInline
struct _BinaryTable {
  @usableFromInline var storage = _Buffer<UInt8>(capacity: 256)
  @usableFromInline var starts: _Buffer<Int> = {
    var starts = _Buffer<Int>(capacity: 64)
    starts.append(0)
    return starts
  }()
  /// Entry index + 1, or 0 for an empty slot; `count == capacity`, a power of two at least
  /// four times the entries (or 0 while unused: the reader never looks entries up by bytes).
  @usableFromInline var slots = _Buffer<Int32>(capacity: 1)

  @inlinable init() {}

  /// The hash of an entry's bytes for the slots: `_keyHash` with a fixed seed, not the
  /// per-process one, so that the entries a writer forgets, and so its output, are the same
  /// in every run.
  @inlinable @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    _keyHash(bytes, seed: 0x243F_6A88_85A3_08D3)
  }

  /// The slot of `hash` (slots must exist).
  @inlinable @inline(__always) func slot(_ hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash) & (slots.count &- 1)
  }

  @inlinable var count: Int { starts.count &- 1 }

  /// Whether an entry of `length` bytes still fits.
  @inlinable func hasRoom(for length: Int) -> Bool {
    JSONBinaryFormat.tableHasRoom(entries: count, bytes: storage.count, adding: length)
  }

  /// Entry `index` (which must exist); valid until the next entry is added.
  @inlinable @inline(__always) func entry(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(
      start: storage.base + starts[index], count: starts[index &+ 1] &- starts[index])
  }

  /// Adds an entry without indexing it (the reader looks entries up by number only).
  @inlinable mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    storage.appendBytes(bytes)
    starts.append(storage.count)
  }

  /// The entry equal to `bytes` that the slot of `hash` (their `Self.hash`) holds, if any.
  @inlinable @inline(__always)
  func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
    guard slots.count > 0 else { return nil }
    let entry = Int(slots[slot(hash)]) &- 1
    return entry >= 0 && _bytesEqual(self.entry(entry), bytes) ? entry : nil
  }

  /// Adds `bytes` (of `Self.hash` `hash`) as the next entry, in its slot, if there is room;
  /// returns whether it did.
  @inlinable mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    guard hasRoom(for: bytes.count) else { return false }
    append(bytes)
    if count &* 4 > slots.count {
      rehash()
    } else {
      slots[slot(hash)] = Int32(truncatingIfNeeded: count)
    }
    return true
  }

  /// Twice the slots (at least 1024, and four per entry), refilled in order of entry.
  @usableFromInline mutating func rehash() {
    var capacity = Swift.max(1024, slots.count &* 2)
    while capacity < count &* 4 { capacity &*= 2 }
    slots.deallocate()
    slots = _Buffer<Int32>(repeating: 0, count: capacity)
    for index in 0..<count { slots[slot(Self.hash(entry(index)))] = Int32(index &+ 1) }
  }

  @usableFromInline func copy() -> _BinaryTable {
    var copy = _BinaryTable()
    for index in 0..<count { copy.append(entry(index)) }
    // An indexed table (the writer's) stays indexed.
    if slots.count > 0 { copy.rehash() }
    return copy
  }

  @usableFromInline func deallocate() {
    storage.deallocate()
    starts.deallocate()
    slots.deallocate()
  }
}

/// A reader's two tables, in plain memory behind a `_CopyOnWriteState`.
@usableFromInline
struct _BinaryTables: _ManualState {
  @usableFromInline var keys = _BinaryTable()
  @usableFromInline var strings = _BinaryTable()

  @inlinable init() {}

  @usableFromInline func copy() -> _BinaryTables {
    var copy = _BinaryTables()
    copy.keys.deallocate()
    copy.strings.deallocate()
    copy.keys = keys.copy()
    copy.strings = strings.copy()
    return copy
  }

  @usableFromInline func deallocate() {
    keys.deallocate()
    strings.deallocate()
  }
}
