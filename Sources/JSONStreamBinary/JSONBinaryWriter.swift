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
    _box = _CopyOnWriteState(
      _BinaryWriterState(
        outputCapacity: self.chunkSize + 64, allowMultipleValues: allowMultipleValues,
        chunkSize: self.chunkSize))
  }

  /// Checks that the document is complete and hands the rest of the output to the sink.
  @inlinable public mutating func finish() throws {
    try _box.withUnique { try $0.finish() }
    try flush()
  }

  /// Hands the buffered output to the sink.
  @inlinable public mutating func flush() throws {
    let count = _box.current.out.count
    guard count > 0 else { return }
    try sink.write(_box.current.out, chunkSize: count)
    _box.withUnique { $0.out.truncate(to: 0) }
  }

  // MARK: Events

  // The events are inlined into their producer: as calls, each paid a prologue, spills and
  // loads of the state that the next event loaded again. Inlined, replaying citm_catalog.json's
  // tree into the writer took 7.05M instructions instead of 8.59M (0.90 s against 1.15 s for
  // 2000 documents), and parsing its text into the writer 20.8M instead of 22.6M. Each event
  // changes the state in place and says whether the output is due to the sink.

  /// Opens an object. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func startObject() throws {
    try _box.withUnique { try $0.startContainer(isObject: true) }
  }

  /// Opens an array. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func startArray() throws {
    try _box.withUnique { try $0.startContainer(isObject: false) }
  }

  /// Closes the innermost open object. Throws `JSONWriterError` when that is not an object, or a
  /// key awaits its value.
  @inlinable @inline(__always) public mutating func endObject() throws {
    if try _box.withUnique({ try $0.endObject() }) { try flush() }
  }

  /// Closes the innermost open array. Throws `JSONWriterError` when that is not an array.
  @inlinable @inline(__always) public mutating func endArray() throws {
    if try _box.withUnique({ try $0.endArray() }) { try flush() }
  }

  /// Writes an object key, or a reference to it when it was written before. Throws
  /// `JSONWriterError` outside an object, where a value is due, or for ill-formed UTF-8.
  @inlinable @inline(__always) public mutating func key(_ key: borrowing JSONString) throws {
    try _box.withUnique { try $0.key(key) }
  }

  /// Writes a string value, or a reference to it when it is short and was written before.
  /// Throws `JSONWriterError` where no value may go, or for ill-formed UTF-8.
  @inlinable @inline(__always) public mutating func string(_ value: borrowing JSONString) throws {
    if try _box.withUnique({ try $0.string(value) }) { try flush() }
  }

  /// Writes a number as an integer or decimal when that reproduces its text exactly, else as its
  /// text. Throws `JSONWriterError` where no value may go.
  @inlinable @inline(__always) public mutating func number(_ value: borrowing JSONNumber) throws {
    // A tree's integer comes with its value: written from it, the text not converted again.
    if value._hasIntegerValue { return try number(value._integerValue) }
    if try _box.withUnique({ try $0.number(value) }) { try flush() }
  }

  /// A number a binary reader kept in binary form (a tree read from binary, replayed): written
  /// in that form, without making its text.
  @inlinable public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    if try _box.withUnique({ try $0.keptNumber(value) }) { try flush() }
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
    if try _box.withUnique({ try $0.integer(value) }) { try flush() }
  }

  /// An integer value.
  @inlinable public mutating func number(_ value: UInt64) throws {
    guard value > UInt64(Int64.max) else { return try number(Int64(value)) }
    if try _box.withUnique({ try $0.keptNumber(.uint(value)) }) { try flush() }
  }

  /// A binary floating-point value: binary32 when that holds it exactly, else binary64. NaN
  /// and the infinities are refused, as JSON has none.
  @inlinable public mutating func number(_ value: Double) throws {
    guard value.isFinite else {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "\(value) is not a JSON number")
    }
    if try _box.withUnique({ try $0.double(value) }) { try flush() }
  }

  /// A date, as seconds since 2001-01-01T00:00:00Z (Foundation's reference date: the number
  /// a `Date` holds, so nothing is rounded). An extended type: read as JSON, that number.
  @inlinable public mutating func date(secondsSince2001 seconds: Double) throws {
    guard seconds.isFinite else {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "a date of \(seconds) seconds")
    }
    if try _box.withUnique({ try $0.date(secondsSince2001: seconds) }) { try flush() }
  }

  /// The start of a set (an extended type: read as JSON, an array); ``endArray()`` ends it.
  @inlinable public mutating func startSet() throws {
    try _box.withUnique { try $0.startCollection(_BinaryTag.startSet) }
  }

  /// The start of an ordered set: a set whose order is kept (an extended type: read as JSON,
  /// an array); ``endArray()`` ends it.
  @inlinable public mutating func startOrderedSet() throws {
    try _box.withUnique { try $0.startCollection(_BinaryTag.startOrderedSet) }
  }

  /// Marks the value written next as shared and returns its number: later values may refer
  /// to it with ``reference(toShared:)`` once it has been written to its end, and read as
  /// JSON each reference is a copy of it. A value table belongs to one top-level value, and
  /// holds at most 65,536 values.
  ///
  /// - Throws: ``JSONWriterError`` where no value can go, or right after another mark.
  @inlinable @discardableResult public mutating func shareNextValue() throws -> Int {
    try _box.withUnique { try $0.share() }
  }

  /// A value: a reference to shared value `index` (what ``shareNextValue()`` returned for
  /// it, in this top-level value), which must have been written to its end.
  ///
  /// - Throws: ``JSONWriterError`` of kind ``JSONWriterError/Kind/invalidReference`` for any
  ///   other index (a value still being written: a cycle).
  @inlinable public mutating func reference(toShared index: Int) throws {
    if try _box.withUnique({ try $0.reference(toShared: index) }) { try flush() }
  }

  /// The start of a map: its keys and values follow alternately, each any value, and
  /// ``endArray()`` ends it after a value (an extended type: read as JSON, an array of the
  /// keys and values in that order).
  @inlinable public mutating func startMap() throws {
    try _box.withUnique { try $0.startCollection(_BinaryTag.startMap) }
  }

  // MARK: Structure

  /// Checks that a value may go here, for the one-pass tree writer.
  @inlinable @inline(__always) mutating func _beginValue() throws {
    try _box.withUnique { try $0.beginValue() }
  }

  /// Counts a value written, for the one-pass tree writer.
  @inlinable @inline(__always) mutating func _endValue() throws {
    if _box.withUnique({ $0.endValue() }) { try flush() }
  }

  /// Makes the writer's state its own once, for the events of the run.
  @inlinable public mutating func beginEventRun() { _box.beginEventRun() }
  /// Ends the run that ``beginEventRun()`` began.
  @inlinable public mutating func endEventRun() { _box.endEventRun() }

  /// A value of one byte.
  @inlinable @inline(__always) mutating func writeByte(_ tag: UInt8) throws {
    if try _box.withUnique({ try $0.byte(tag) }) { try flush() }
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
