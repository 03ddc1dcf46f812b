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
  public var sink: Sink
  /// Accept several top-level values (one after another, as in NDJSON).
  public let allowsMultipleValues: Bool
  /// Output is handed to the sink in chunks of about this many bytes.
  public let chunkSize: Int

  @usableFromInline var out: [UInt8] = []
  @usableFromInline var wroteHeader = false
  /// Open containers, innermost last: true for an object.
  @usableFromInline var stack: [Bool] = []
  /// In an object, a key has been written and its value is due.
  @usableFromInline var awaitingValue = false
  @usableFromInline var valueCount = 0
  @usableFromInline var tables = _StateBox(_BinaryTables())

  @inlinable public init(sink: Sink, allowsMultipleValues: Bool = false, chunkSize: Int = 64 * 1024)
  {
    self.sink = sink
    self.allowsMultipleValues = allowsMultipleValues
    self.chunkSize = Swift.max(1, chunkSize)
    out.reserveCapacity(self.chunkSize + 64)
  }

  /// Checks that the document is complete and hands the rest of the output to the sink.
  @inlinable public mutating func finish() throws {
    // A stream of several values may hold none: it is the header alone.
    if stack.isEmpty && valueCount == 0 && allowsMultipleValues && !wroteHeader {
      writeHeader()
    }
    guard stack.isEmpty && (valueCount > 0 || allowsMultipleValues) else {
      throw JSONWriterError(
        kind: .incompleteDocument,
        message: stack.isEmpty ? "no value was written" : "\(stack.count) container(s) still open")
    }
    try flush()
  }

  /// Hands the buffered output to the sink.
  @inlinable public mutating func flush() throws {
    guard !out.isEmpty else { return }
    try out.withUnsafeBytes { try sink.write($0) }
    out.removeAll(keepingCapacity: true)
  }

  // MARK: Events

  @inlinable public mutating func startObject() throws {
    try beginValue()
    out.append(_BinaryTag.startObject)
    stack.append(true)
  }

  @inlinable public mutating func startArray() throws {
    try beginValue()
    out.append(_BinaryTag.startArray)
    stack.append(false)
  }

  @inlinable public mutating func endObject() throws {
    guard stack.last == true, !awaitingValue else {
      throw JSONWriterError(kind: .unbalancedEnd, message: "'}' where no object can end")
    }
    stack.removeLast()
    out.append(_BinaryTag.endObject)
    try endValue()
  }

  @inlinable public mutating func endArray() throws {
    guard stack.last == false else {
      throw JSONWriterError(kind: .unbalancedEnd, message: "']' where no array can end")
    }
    stack.removeLast()
    out.append(_BinaryTag.endArray)
    try endValue()
  }

  @inlinable public mutating func key(_ key: JSONString) throws {
    guard stack.last == true, !awaitingValue else {
      throw JSONWriterError(kind: .misplacedKey, message: "a key where none can go")
    }
    guard key._isWellFormed || _isWellFormedUTF8(key.utf8) else {
      throw JSONWriterError(kind: .invalidUTF8, message: "the key is not well-formed UTF-8")
    }
    awaitingValue = true
    Self.writeShared(
      key.utf8, in: &_tables().pointee.keys, to: &out, plain: _BinaryTag.key,
      shared: _BinaryTag.sharedKey, reference: _BinaryTag.keyRef)
  }

  @inlinable public mutating func string(_ value: JSONString) throws {
    guard value._isWellFormed || _isWellFormedUTF8(value.utf8) else {
      throw JSONWriterError(kind: .invalidUTF8, message: "the string is not well-formed UTF-8")
    }
    try beginValue()
    if value.utf8.count <= JSONBinaryFormat.maxSharedStringLength {
      Self.writeShared(
        value.utf8, in: &_tables().pointee.strings, to: &out, plain: _BinaryTag.string,
        shared: _BinaryTag.sharedString, reference: _BinaryTag.stringRef)
    } else {
      Self.writeBytes(_BinaryTag.string, value.utf8, to: &out)
    }
    try endValue()
  }

  @inlinable public mutating func number(_ value: JSONNumber) throws {
    try beginValue()
    if let number = _BinaryNumber(text: value.utf8) {
      writeNumber(number)
    } else {
      Self.writeBytes(_BinaryTag.numberText, value.utf8, to: &out)
    }
    try endValue()
  }

  /// A number a binary reader kept in binary form (a tree read from binary, replayed): written
  /// in that form, without making its text.
  @inlinable public mutating func _binaryNumber(_ value: _BinaryNumber) throws {
    if case .double(let double) = value {
      // NaN and the infinities go as text, as their events would.
      guard double.isFinite else { return try value.withJSONNumber { try number($0) } }
      return try number(double)
    }
    try beginValue()
    writeNumber(value)
    try endValue()
  }

  /// An integer or decimal, in its tag.
  @inlinable mutating func writeNumber(_ number: _BinaryNumber) {
    switch number {
    case .int(let int):
      out.append(_BinaryTag.int)
      _appendLEB128(_zigzag(int), to: &out)
    case .uint(let uint):
      out.append(_BinaryTag.uint)
      _appendLEB128(uint, to: &out)
    case .decimal(let mantissa, let scale):
      out.append(_BinaryTag.decimal)
      out.append(scale)
      _appendLEB128(_zigzag(mantissa), to: &out)
    case .double(let double):
      out.append(_BinaryTag.float64)
      withUnsafeBytes(of: double.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }
  }

  @inlinable public mutating func bool(_ value: Bool) throws {
    try beginValue()
    out.append(value ? _BinaryTag.true : _BinaryTag.false)
    try endValue()
  }

  @inlinable public mutating func null() throws {
    try beginValue()
    out.append(_BinaryTag.null)
    try endValue()
  }

  // MARK: Conveniences for writing by hand

  /// An object key.
  @inlinable public mutating func key(_ key: String) throws {
    var key = key
    try key.withUTF8 { try self.key(JSONString(_wellFormed: $0)) }
  }

  /// A string value.
  @inlinable public mutating func string(_ value: String) throws {
    var value = value
    try value.withUTF8 { try string(JSONString(_wellFormed: $0)) }
  }

  /// An integer value.
  @inlinable public mutating func number(_ value: Int64) throws {
    try beginValue()
    out.append(_BinaryTag.int)
    _appendLEB128(_zigzag(value), to: &out)
    try endValue()
  }

  /// An integer value.
  @inlinable public mutating func number(_ value: UInt64) throws {
    guard value > UInt64(Int64.max) else { return try number(Int64(value)) }
    try beginValue()
    out.append(_BinaryTag.uint)
    _appendLEB128(value, to: &out)
    try endValue()
  }

  /// A binary floating-point value: binary32 when that holds it exactly, else binary64. NaN
  /// and the infinities are refused, as JSON has none.
  @inlinable public mutating func number(_ value: Double) throws {
    guard value.isFinite else {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "\(value) is not a JSON number")
    }
    try beginValue()
    if let float = Float(exactly: value) {
      out.append(_BinaryTag.float32)
      withUnsafeBytes(of: float.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    } else {
      out.append(_BinaryTag.float64)
      withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }
    try endValue()
  }

  /// A date, as seconds since 2001-01-01T00:00:00Z (Foundation's reference date: the number
  /// a `Date` holds, so nothing is rounded). An extended type: read as JSON, that number.
  @inlinable public mutating func date(secondsSince2001 seconds: Double) throws {
    guard seconds.isFinite else {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "a date of \(seconds) seconds")
    }
    try beginValue()
    out.append(_BinaryTag.date)
    withUnsafeBytes(of: seconds.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    try endValue()
  }

  /// Bytes (an extended type: read as JSON, a base64 string).
  @inlinable public mutating func data(_ bytes: UnsafeRawBufferPointer) throws {
    try beginValue()
    Self.writeBytes(_BinaryTag.data, bytes.assumingMemoryBound(to: UInt8.self), to: &out)
    try endValue()
  }

  /// The start of a set (an extended type: read as JSON, an array); ``endArray()`` ends it.
  @inlinable public mutating func startSet() throws {
    try beginValue()
    out.append(_BinaryTag.startSet)
    stack.append(false)
  }

  // MARK: Structure

  /// The tables, copied first if another copy of the writer shares them.
  @inlinable @inline(__always)
  mutating func _tables() -> UnsafeMutablePointer<_BinaryTables> {
    if !isKnownUniquelyReferenced(&tables) { tables = tables.copy() }
    return tables.state
  }

  @inlinable mutating func writeHeader() {
    out += JSONBinaryFormat.magic
    out.append(JSONBinaryFormat.majorVersion)
    out.append(JSONBinaryFormat.minorVersion)
    wroteHeader = true
  }

  @inlinable mutating func beginValue() throws {
    if !wroteHeader { writeHeader() }
    if stack.isEmpty {
      guard valueCount == 0 || allowsMultipleValues else {
        throw JSONWriterError(
          kind: .multipleTopLevelValues,
          message: "a second top-level value (allowsMultipleValues is off)")
      }
    } else if stack[stack.count - 1] {
      guard awaitingValue else {
        throw JSONWriterError(
          kind: .valueWhereKeyExpected, message: "a value where an object key is expected")
      }
      awaitingValue = false
    }
  }

  @inlinable mutating func endValue() throws {
    if stack.isEmpty { valueCount += 1 }
    if out.count >= chunkSize { try flush() }
  }

  @inlinable static func writeBytes(
    _ tag: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]
  ) {
    out.append(tag)
    _appendLEB128(UInt64(bytes.count), to: &out)
    out.append(contentsOf: bytes)
  }

  /// A key or string: a reference when the table has it, else its bytes, entered in the
  /// table while there is room.
  @inlinable static func writeShared(
    _ bytes: UnsafeBufferPointer<UInt8>, in table: inout _BinaryTable, to out: inout [UInt8],
    plain: UInt8, shared: UInt8, reference: UInt8
  ) {
    if let index = table.index(of: bytes) {
      out.append(reference)
      _appendLEB128(UInt64(index), to: &out)
    } else if table.add(bytes) {
      writeBytes(shared, bytes, to: &out)
    } else {
      writeBytes(plain, bytes, to: &out)
    }
  }
}

extension JSONBinaryWriter where Sink == JSONByteSink {
  /// A writer to memory; read ``bytes`` after ``finish()``.
  @inlinable public init(allowsMultipleValues: Bool = false) {
    self.init(sink: JSONByteSink(), allowsMultipleValues: allowsMultipleValues)
  }

  /// The output so far (all of it after ``finish()``).
  public var bytes: [UInt8] { sink.bytes }
}

/// The byte strings of a key or string table, in order of entry, in plain memory (see
/// `_ManualState`): entry `i` is `storage[starts[i] ..< starts[i + 1]]`. The writer also finds
/// entries by their bytes, through `slots` (open addressing over the entries' hashes). Bounded
/// by ``JSONBinaryFormat``'s limits.
@usableFromInline
struct _BinaryTable {
  @usableFromInline var storage = _Buffer<UInt8>(capacity: 256)
  @usableFromInline var starts: _Buffer<Int> = {
    var starts = _Buffer<Int>(capacity: 64)
    starts.append(0)
    return starts
  }()
  /// Entry index + 1, or 0 for an empty slot; `count == capacity`, a power of two (or 0 while
  /// unused: the reader never looks entries up by bytes).
  @usableFromInline var slots = _Buffer<Int32>(capacity: 1)

  @inlinable init() {}

  @inlinable var count: Int { starts.count &- 1 }

  /// Whether an entry of `length` bytes still fits.
  @inlinable func hasRoom(for length: Int) -> Bool {
    count < JSONBinaryFormat.maxTableEntries
      && storage.count &+ length <= JSONBinaryFormat.maxTableBytes
  }

  /// Entry `index` (which must exist); valid until the next entry is added.
  @inlinable func entry(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(
      start: storage.base + starts[index], count: starts[index &+ 1] &- starts[index])
  }

  /// Adds an entry without indexing it (the reader looks entries up by number only).
  @inlinable mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    storage.append(bytes)
    starts.append(storage.count)
  }

  /// Adds `bytes` as the next, indexed entry if there is room; returns whether it did.
  @inlinable mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard hasRoom(for: bytes.count) else { return false }
    append(bytes)
    if count &* 2 > slots.count { rehash() } else { insertSlot(count &- 1, bytes) }
    return true
  }

  @inlinable func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard slots.count > 0 else { return nil }
    let mask = slots.count &- 1
    var slot = Int(truncatingIfNeeded: _keyHash(bytes)) & mask
    while true {
      let entry = Int(slots[slot])
      if entry == 0 { return nil }
      let candidate = self.entry(entry &- 1)
      if candidate.count == bytes.count && _bytesEqual(candidate, bytes) { return entry &- 1 }
      slot = (slot &+ 1) & mask
    }
  }

  @inlinable mutating func insertSlot(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
    let mask = slots.count &- 1
    var slot = Int(truncatingIfNeeded: _keyHash(bytes)) & mask
    while slots[slot] != 0 { slot = (slot &+ 1) & mask }
    slots[slot] = Int32(index &+ 1)
  }

  @usableFromInline mutating func rehash() {
    let capacity = Swift.max(64, slots.count &* 2)
    slots.deallocate()
    slots = _Buffer<Int32>(capacity: capacity)
    slots.base.initialize(repeating: 0, count: capacity)
    slots.count = capacity
    for index in 0..<count { insertSlot(index, entry(index)) }
  }

  @usableFromInline func copy() -> _BinaryTable {
    var copy = _BinaryTable()
    for index in 0..<count {
      // An indexed table (the writer's) stays indexed.
      if slots.count > 0 { _ = copy.add(entry(index)) } else { copy.append(entry(index)) }
    }
    return copy
  }

  @usableFromInline func deallocate() {
    storage.deallocate()
    starts.deallocate()
    slots.deallocate()
  }
}

/// A reader's or writer's two tables, in plain memory behind a `_StateBox`.
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
