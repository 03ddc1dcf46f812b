import JSONStreamCore
import JSONStreamValue

/// Writes JSON text from events — compact or pretty — to a sink, in chunks of bounded size.
///
/// The writer is itself a ``JSONEventHandler``, so a parser can drive it directly: parse →
/// write reformats or minifies a file of any size in constant memory.
///
/// ```swift
/// var parser = JSONParser(handler: JSONWriter(sink: JSONChunkSink { try output.write($0) },
///                                             options: .pretty))
/// for chunk in input { try parser.feed(chunk) }
/// try parser.finish()
/// try parser.handler.finish()       // checks the document is complete, flushes the rest
/// ```
///
/// Or write events yourself:
///
/// ```swift
/// var writer = JSONWriter()                        // in memory
/// try writer.startObject()
/// try writer.key("name"); try writer.string("Zoë")
/// try writer.key("n");    try writer.number(1.5)
/// try writer.endObject()
/// try writer.finish()
/// writer.bytes                                     // {"name":"Zoë","n":1.5}
/// ```
///
/// The writer checks the event grammar and refuses (throws ``JSONWriterError``, writing
/// nothing) a key outside an object, a value where a key is due, an unbalanced end, a second
/// top-level value unless allowed, NaN or an infinity, and ill-formed UTF-8: whatever it has
/// written is always a prefix of valid JSON. Number text from a parser passes through
/// unchanged; doubles are written in the shortest form that reads back the same.
public struct JSONWriter<Sink: JSONOutputSink>: JSONEventHandler {
  /// Where output goes. For ``JSONByteSink``, read ``bytes`` after ``finish()``.
  public var sink: Sink
  /// The formatting options.
  public let options: JSONWriteOptions
  /// Output is handed to the sink in chunks of at most this many bytes.
  public let chunkSize: Int

  /// The output buffer and the open containers, in plain memory (see `_StateBox`): a byte
  /// written is a store, not an array append with its uniqueness check.
  @usableFromInline var _box: _CopyOnWriteState<_WriterState>

  @usableFromInline static var _isObject: UInt8 { 1 }
  @usableFromInline static var _hasMembers: UInt8 { 2 }
  @usableFromInline static var _awaitingValue: UInt8 { 4 }

  /// A writer to `sink`.
  public init(sink: Sink, options: JSONWriteOptions = .compact, chunkSize: Int = 64 * 1024) {
    self.sink = sink
    self.options = options
    self.chunkSize = max(1, chunkSize)
    _box = _CopyOnWriteState(_WriterState(outputCapacity: min(self.chunkSize, 64 * 1024) + 256))
  }

  /// Checks that a complete document was written and hands the rest of the output to the sink.
  public mutating func finish() throws {
    try _checkOptions()
    let state = _state()
    guard state.pointee.stack.count == 0 else {
      throw JSONWriterError(
        kind: .incompleteDocument,
        message: "finish() with \(state.pointee.stack.count) container(s) still open: the"
          + " output so far is the start of a JSON document, cut short (flush() hands it on)")
    }
    guard state.pointee.valueCount > 0 || options.allowMultipleValues else {
      throw JSONWriterError(kind: .incompleteDocument, message: "finish() before any value")
    }
    try _flush()
  }

  /// Hands everything buffered so far to the sink, without checking that the document is
  /// complete (for example to show progress, or to keep what was written before an error: the
  /// writer closes nothing it opened, so its output is the start of valid JSON).
  /// Output inside an object held for ``JSONWriteOptions/sortKeys`` stays held.
  public mutating func flush() throws {
    if !_state().pointee.sortFrames.isEmpty { return }
    try _flush()
  }

  /// The number of complete top-level values written.
  public var valueCount: Int { _box.state.pointee.valueCount }

  // MARK: Events

  /// Writes `{`, or with ``JSONWriteOptions/sortKeys`` holds the object's members until it ends.
  /// Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func startObject() throws {
    let state = _state()
    try _beginValue(state)
    state.pointee.stack.append(Self._isObject)
    if options.sortKeys {
      state.pointee.sortFrames.append(_SortFrame(savedOutput: state.pointee.takeOutput()))
    } else {
      state.pointee.out.append(._openBrace)
    }
  }

  /// Writes `}` for the innermost open object (its members in key order with
  /// ``JSONWriteOptions/sortKeys``). Throws ``JSONWriterError`` when that is not an object, or a
  /// key awaits its value.
  @inlinable
  public mutating func endObject() throws {
    let state = _state()
    let depth = state.pointee.stack.count
    guard depth > 0, case let top = state.pointee.stack[depth &- 1], top & Self._isObject != 0,
      top & Self._awaitingValue == 0
    else {
      throw _unbalanced(closing: "}")
    }
    if options.sortKeys {
      _writeSortedObject(state)
    } else {
      if top & Self._hasMembers != 0 { _newline(state, depth: depth &- 1) }
      state.pointee.out.append(._closeBrace)
    }
    state.pointee.stack.count = depth &- 1
    try _endValue(state)
  }

  /// Writes `[`. Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func startArray() throws {
    let state = _state()
    try _beginValue(state)
    state.pointee.stack.append(0)
    state.pointee.out.append(._openBracket)
  }

  /// Writes `]` for the innermost open array. Throws ``JSONWriterError`` when that is not an array.
  @inlinable
  public mutating func endArray() throws {
    let state = _state()
    let depth = state.pointee.stack.count
    guard depth > 0, case let top = state.pointee.stack[depth &- 1], top & Self._isObject == 0
    else {
      throw _unbalanced(closing: "]")
    }
    if top & Self._hasMembers != 0 { _newline(state, depth: depth &- 1) }
    state.pointee.out.append(._closeBracket)
    state.pointee.stack.count = depth &- 1
    try _endValue(state)
  }

  /// Writes an object key, escaped as the options say. Throws ``JSONWriterError`` outside an
  /// object, where a value is due, or for ill-formed UTF-8.
  @inlinable
  public mutating func key(_ key: borrowing JSONString) throws {
    let state = _state()
    let depth = state.pointee.stack.count
    guard depth > 0, case let top = state.pointee.stack[depth &- 1], top & Self._isObject != 0,
      top & Self._awaitingValue == 0
    else {
      throw _misplacedKey()
    }
    if options.sortKeys {
      var quoted: [UInt8] = []
      quoted.append(._quote)
      guard
        _appendEscapedJSONStringContent(
          key.utf8, to: &quoted, escapeUnicode: options.escapeUnicode,
          escapeSlash: options.escapeSlash)
      else {
        throw _invalidUTF8("key")
      }
      quoted.append(._quote)
      state.pointee.startSortedMember(key: key.bytes, quoted: quoted)
    } else {
      let rollback = state.pointee.out.count
      if top & Self._hasMembers != 0 { state.pointee.out.append(._comma) }
      _newline(state, depth: depth)
      guard _writeQuoted(state, key) else {
        state.pointee.out.count = rollback
        throw _invalidUTF8("key")
      }
      state.pointee.out.append(._colon)
      if options.indent != nil { state.pointee.out.append(._space) }
    }
    state.pointee.stack[depth &- 1] = top | Self._hasMembers | Self._awaitingValue
  }

  /// Writes a string value, escaped as the options say. Throws ``JSONWriterError`` where no value
  /// may go, or for ill-formed UTF-8.
  @inlinable
  public mutating func string(_ value: borrowing JSONString) throws {
    let state = _state()
    let rollback = state.pointee.out.count
    let depth = state.pointee.stack.count
    let top: UInt8 = depth > 0 ? state.pointee.stack[depth &- 1] : 0
    try _beginValue(state)
    guard _writeQuoted(state, value) else {
      state.pointee.out.count = rollback
      if depth > 0 { state.pointee.stack[depth &- 1] = top }
      throw _invalidUTF8("string")
    }
    try _endValue(state)
  }

  /// Writes the number's text unchanged. Throws ``JSONWriterError`` where no value may go, or for a
  /// non-finite number unless ``JSONWriteOptions/allowNonFiniteNumbers``.
  @inlinable
  public mutating func number(_ value: borrowing JSONNumber) throws {
    if value.isNonFinite && !options.allowNonFiniteNumbers { throw _nonFinite(value.text) }
    let state = _state()
    try _beginValue(state)
    state.pointee.out.appendBytes(value.utf8)
    try _endValue(state)
  }

  /// Writes `true` or `false`. Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func bool(_ value: Bool) throws {
    let state = _state()
    try _beginValue(state)
    _appendStatic(state, value ? "true" : "false")
    try _endValue(state)
  }

  /// Writes `null`. Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func null() throws {
    let state = _state()
    try _beginValue(state)
    _appendStatic(state, "null")
    try _endValue(state)
  }

  // MARK: Conveniences for writing by hand

  /// An object key.
  @inlinable
  public mutating func key(_ key: String) throws {
    var key = key
    try key.withJSONString { try self.key($0) }
  }

  /// A string value.
  @inlinable
  public mutating func string(_ value: String) throws {
    var value = value
    try value.withJSONString { try string($0) }
  }

  /// An integer value.
  @inlinable
  public mutating func number(_ value: Int) throws {
    try _writeInteger(UInt64(value.magnitude), negative: value < 0)
  }

  /// An integer value.
  @inlinable
  public mutating func number(_ value: Int64) throws {
    try _writeInteger(value.magnitude, negative: value < 0)
  }

  /// An integer value.
  @inlinable
  public mutating func number(_ value: UInt64) throws {
    try _writeInteger(value, negative: false)
  }

  /// A float, in the shortest text that reads back as the same float (`0.1`, where the double
  /// it widens to would write `0.10000000149011612`).
  public mutating func number(_ value: Float) throws {
    if !value.isFinite && !options.allowNonFiniteNumbers {
      throw _nonFinite(_nonFiniteAwareText(Double(value)))
    }
    var text = value.isFinite ? value.description : _nonFiniteAwareText(Double(value))
    try writeTrustedNumberText(&text)
  }

  /// An integer's digits, written straight into the output (no string made).
  @inlinable
  mutating func _writeInteger(_ magnitude: UInt64, negative: Bool) throws {
    let state = _state()
    try _beginValue(state)
    // 20 digits hold UInt64.max; one more for the sign.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
      var position = 21
      var rest = magnitude
      repeat {
        position &-= 1
        buffer[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
        rest /= 10
      } while rest != 0
      if negative {
        position &-= 1
        buffer[position] = UInt8(ascii: "-")
      }
      state.pointee.out.append(UnsafeBufferPointer(rebasing: buffer[position...]))
    }
    try _endValue(state)
  }

  /// A double, in the shortest text that reads back as the same double.
  public mutating func number(_ value: Double) throws {
    if !value.isFinite && !options.allowNonFiniteNumbers { throw _nonFinite(value.description) }
    var text = _nonFiniteAwareText(value)
    try writeTrustedNumberText(&text)
  }

  // MARK: Structure

  /// The writer's state, copied first if another copy of the writer shares it.
  @inlinable @inline(__always)
  mutating func _state() -> UnsafeMutablePointer<_WriterState> {
    _box.unique()
  }

  /// Makes the writer's state its own once, for the events of the run.
  @inlinable public mutating func beginEventRun() { _box.beginEventRun() }
  /// Ends the run that ``beginEventRun()`` began.
  @inlinable public mutating func endEventRun() { _box.endEventRun() }

  /// Separators and indentation before a value; refuses a value where none may go.
  @inlinable @inline(__always)
  func _beginValue(_ state: UnsafeMutablePointer<_WriterState>) throws {
    let depth = state.pointee.stack.count
    guard depth > 0 else {
      // Every document starts with a top-level value: the options are checked there, once,
      // rather than in every event.
      if state.pointee.valueCount > 0 {
        try _beginNextTopLevelValue(state)
      } else {
        try _checkOptions()
      }
      return
    }
    let top = state.pointee.stack[depth &- 1]
    if top & Self._isObject != 0 {
      guard top & Self._awaitingValue != 0 else {
        throw JSONWriterError(
          kind: .valueWhereKeyExpected, message: "a value where an object key is expected")
      }
      state.pointee.stack[depth &- 1] = top & ~Self._awaitingValue
    } else {
      if top & Self._hasMembers != 0 { state.pointee.out.append(._comma) }
      state.pointee.stack[depth &- 1] = top | Self._hasMembers
      _newline(state, depth: depth)
    }
  }

  @usableFromInline
  func _beginNextTopLevelValue(_ state: UnsafeMutablePointer<_WriterState>) throws {
    guard options.allowMultipleValues else {
      throw JSONWriterError(
        kind: .multipleTopLevelValues,
        message: "a second top-level value (allowMultipleValues is off)")
    }
    state.pointee.out.append(._newline)
  }

  /// After a complete value: count top-level values, flush a full buffer.
  @inlinable @inline(__always)
  mutating func _endValue(_ state: UnsafeMutablePointer<_WriterState>) throws {
    if state.pointee.stack.count == 0 { state.pointee.valueCount &+= 1 }
    if state.pointee.out.count >= chunkSize && state.pointee.sortFrames.isEmpty { try _flush() }
  }

  /// In pretty mode, a line break and the indentation of `depth`.
  @inlinable @inline(__always)
  func _newline(_ state: UnsafeMutablePointer<_WriterState>, depth: Int) {
    guard let indent = options.indent else { return }
    let spaces = indent &* (depth &+ state.pointee.indentBase)
    state.pointee.out.reserve(spaces &+ 1)
    state.pointee.out.appendReserved(._newline)
    state.pointee.out.end.initialize(repeating: ._space, count: spaces)
    state.pointee.out.count &+= spaces
  }

  @inlinable @inline(__always)
  func _appendStatic(_ state: UnsafeMutablePointer<_WriterState>, _ text: StaticString) {
    state.pointee.out.appendBytes(
      UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Quoted, escaped string; false (with the output to be rolled back) when `bytes` is not
  /// UTF-8.
  @inlinable @inline(__always)
  func _writeQuoted(_ state: UnsafeMutablePointer<_WriterState>, _ string: borrowing JSONString)
    -> Bool
  {
    state.pointee.out.reserve(string.utf8.count &* _maxEscapedBytesPerByte &+ 2)
    state.pointee.out.appendReserved(._quote)
    let end: UnsafeMutablePointer<UInt8>?
    if string._needsNoEscaping && !options.escapeUnicode && !options.escapeSlash {
      let count = string.utf8.count
      if let source = string.utf8.baseAddress {
        _copyBytes(from: source, to: state.pointee.out.end, count: count)
      }
      end = state.pointee.out.end + count
    } else if string._isWellFormed && !options.escapeUnicode && !options.escapeSlash {
      end = _writeEscapedWellFormedContent(string.utf8, to: state.pointee.out.end)
    } else {
      end = _writeEscapedJSONStringContent(
        string.utf8, to: state.pointee.out.end, escapeUnicode: options.escapeUnicode,
        escapeSlash: options.escapeSlash)
    }
    guard let end else { return false }
    end.pointee = ._quote
    state.pointee.out.count = end + 1 - state.pointee.out.base
    return true
  }

  /// Hands the buffered output to the sink, in chunks of at most `chunkSize`.
  @usableFromInline
  mutating func _flush() throws {
    let state = _state()
    let out = state.pointee.out
    var start = 0
    while start < out.count {
      let end = min(out.count, start + chunkSize)
      try sink.write(UnsafeRawBufferPointer(start: out.base + start, count: end - start))
      start = end
    }
    state.pointee.out.count = 0
    state.pointee.flushCount &+= 1
  }

  /// Ends a sorted object: its members, sorted, into the output that was set aside.
  @usableFromInline
  func _writeSortedObject(_ state: UnsafeMutablePointer<_WriterState>) {
    var frame = state.pointee.sortFrames.removeLast()
    frame.finishMember(output: state.pointee.takeOutput())
    state.pointee.out.count = 0
    frame.savedOutput.withUnsafeBufferPointer { state.pointee.out.append($0) }
    frame.members.sort { $0.key.lexicographicallyPrecedes($1.key) }
    let depth = state.pointee.stack.count
    state.pointee.out.append(._openBrace)
    for (index, member) in frame.members.enumerated() {
      if index > 0 { state.pointee.out.append(._comma) }
      _newline(state, depth: depth)
      member.quotedKey.withUnsafeBufferPointer { state.pointee.out.append($0) }
      state.pointee.out.append(._colon)
      if options.indent != nil { state.pointee.out.append(._space) }
      member.value.withUnsafeBufferPointer { state.pointee.out.append($0) }
    }
    if !frame.members.isEmpty { _newline(state, depth: depth - 1) }
    state.pointee.out.append(._closeBrace)
  }

  // MARK: Errors

  /// Throws when the options are invalid, so that none is ever used.
  @usableFromInline
  func _checkOptions() throws {
    if let error = options._validationError { throw error }
  }

  @usableFromInline
  func _unbalanced(closing: String) -> JSONWriterError {
    if let error = options._validationError { return error }
    let message: String
    let stack = _box.state.pointee.stack
    if stack.count > 0 {
      let top = stack[stack.count - 1]
      if top & Self._awaitingValue != 0 {
        message = "'\(closing)' after a key, before its value"
      } else {
        message =
          "'\(closing)' does not close the open \(top & Self._isObject != 0 ? "object" : "array")"
      }
    } else {
      message = "'\(closing)' with no open container"
    }
    return JSONWriterError(kind: .unbalancedEnd, message: message)
  }

  @usableFromInline
  func _misplacedKey() -> JSONWriterError {
    if let error = options._validationError { return error }
    let stack = _box.state.pointee.stack
    let message =
      stack.count == 0
      ? "a key outside any object"
      : (stack[stack.count - 1] & Self._isObject == 0
        ? "a key inside an array" : "a key where a value is expected")
    return JSONWriterError(kind: .misplacedKey, message: message)
  }

  @usableFromInline
  func _invalidUTF8(_ what: String) -> JSONWriterError {
    JSONWriterError(kind: .invalidUTF8, message: "the \(what) is not well-formed UTF-8")
  }

  @usableFromInline
  func _nonFinite(_ text: String) -> JSONWriterError {
    JSONWriterError(kind: .nonFiniteNumber, message: "\(text) is not a JSON number")
  }
}

/// What a ``JSONWriter`` keeps between events.
@usableFromInline
struct _WriterState: _ManualState {
  /// Output not yet handed to the sink.
  @usableFromInline var out: _Buffer<UInt8>
  /// Open containers, innermost last: `_isObject`, `_hasMembers`, `_awaitingValue` bits.
  @usableFromInline var stack: _Buffer<UInt8>
  @usableFromInline var valueCount = 0
  /// How many times output went to the sink (what is before it can no longer be taken back).
  @usableFromInline var flushCount = 0
  /// Objects being collected for sorting (``JSONWriteOptions/sortKeys``), innermost last.
  @usableFromInline var sortFrames: [_SortFrame] = []
  /// Levels of indentation added to every line: a writer whose output goes inside another
  /// writer's, at that depth (see `writeRawValue`).
  @usableFromInline var indentBase = 0

  @usableFromInline
  init(outputCapacity: Int) {
    out = _Buffer(capacity: outputCapacity)
    stack = _Buffer(capacity: 64)
  }

  @usableFromInline
  func copy() -> _WriterState {
    var copy = self
    copy.out = out.copy()
    copy.stack = stack.copy()
    return copy
  }

  @usableFromInline
  func deallocate() {
    out.deallocate()
    stack.deallocate()
  }

  /// The output so far, taken out of the buffer.
  @usableFromInline
  mutating func takeOutput() -> [UInt8] {
    defer { out.count = 0 }
    return Array(UnsafeBufferPointer(start: out.base, count: out.count))
  }

  /// A key of a sorted object: the previous member's value is complete in the output.
  @usableFromInline
  mutating func startSortedMember(key: [UInt8], quoted: [UInt8]) {
    let last = sortFrames.count - 1
    if sortFrames[last].pending != nil {
      sortFrames[last].finishMember(output: takeOutput())
    } else {
      out.count = 0
    }
    sortFrames[last].pending = (key, quoted)
  }
}

extension JSONWriter where Sink == JSONByteSink {
  /// A writer that collects its output in memory.
  public init(options: JSONWriteOptions = .compact) {
    self.init(sink: JSONByteSink(), options: options, chunkSize: 64 * 1024)
  }

  /// The output; complete after ``finish()``.
  public var bytes: [UInt8] { sink.bytes }
}

/// An object's members held back for sorting.
@usableFromInline
struct _SortFrame {
  @usableFromInline var savedOutput: [UInt8]
  @usableFromInline var members: [(key: [UInt8], quotedKey: [UInt8], value: [UInt8])] = []
  @usableFromInline var pending: (key: [UInt8], quotedKey: [UInt8])?

  @inlinable
  init(savedOutput: [UInt8]) { self.savedOutput = savedOutput }

  /// The pending member's value is complete: it is `output`.
  @inlinable
  mutating func finishMember(output: [UInt8]) {
    if let pending { members.append((pending.key, pending.quotedKey, output)) }
    pending = nil
  }
}

// MARK: - For the Codable encoder (JSONStreamFoundation)

extension JSONWriter {
  /// How many containers are open.
  package var openContainerCount: Int { _box.state.pointee.stack.count }

  /// Indents every line by `levels` more (for a value that goes into another writer at that
  /// depth, with ``writeRawValue(_:)``).
  package mutating func setIndentBase(_ levels: Int) {
    _state().pointee.indentBase = levels
  }

  /// A complete value written by another writer with the same options, as the next value.
  @inlinable
  package mutating func writeRawValue(_ bytes: UnsafeRawBufferPointer) throws {
    let state = _state()
    try _beginValue(state)
    state.pointee.out.append(bytes.assumingMemoryBound(to: UInt8.self))
    try _endValue(state)
  }

  /// ``writeRawValue(_:)`` for a value's text in an array.
  @inlinable
  package mutating func writeRawValue(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try writeRawValue($0) }
  }

  /// Number text known to be valid (made by `Double.description`), written without checking.
  @inlinable
  package mutating func writeTrustedNumberText(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    let state = _state()
    try _beginValue(state)
    state.pointee.out.append(bytes)
    try _endValue(state)
  }

  /// Number text known to be valid, written without checking; with `trimmingPointZero`,
  /// without a final `.0` (`60`, not `60.0`, as `JSONEncoder` writes a whole double).
  @inlinable
  package mutating func writeTrustedNumberText(
    _ text: inout String, trimmingPointZero: Bool = false
  ) throws {
    try text.withUTF8 { bytes in
      var count = bytes.count
      if trimmingPointZero && count > 2 && bytes[count &- 2] == UInt8(ascii: ".")
        && bytes[count &- 1] == UInt8(ascii: "0")
      {
        count &-= 2
      }
      try writeTrustedNumberText(UnsafeBufferPointer(rebasing: bytes[..<count]))
    }
  }
}
