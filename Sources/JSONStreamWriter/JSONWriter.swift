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
  public var options: JSONWriteOptions { _box.current.options }
  /// Output is handed to the sink in chunks of at most this many bytes.
  public var chunkSize: Int { _box.current.chunkSize }

  /// The output buffer, the open containers and the grammar, in plain memory (see
  /// `_StateBox`): a byte written is a store, not an array append with its uniqueness check.
  /// Each event is one change of this state; the writer itself adds only the sink.
  @usableFromInline var _box: _CopyOnWriteState<_WriterState>

  /// A writer to `sink`.
  public init(sink: Sink, options: JSONWriteOptions = .compact, chunkSize: Int = 64 * 1024) {
    self.sink = sink
    let chunkSize = max(1, chunkSize)
    _box = _CopyOnWriteState(
      _WriterState(
        options: options, chunkSize: chunkSize, outputCapacity: min(chunkSize, 64 * 1024) + 256))
  }

  /// Checks that a complete document was written and hands the rest of the output to the sink.
  public mutating func finish() throws {
    try _checkComplete()
    try _flush()
  }

  /// Throws unless a complete document was written.
  @usableFromInline
  func _checkComplete() throws {
    try _box.current.checkOptions()
    let open = _box.current.stack.count
    guard open == 0 else {
      throw JSONWriterError(
        kind: .incompleteDocument,
        message: "finish() with \(open) container(s) still open: the"
          + " output so far is the start of a JSON document, cut short (flush() hands it on)")
    }
    guard _box.current.valueCount > 0 || options.allowMultipleValues else {
      throw JSONWriterError(kind: .incompleteDocument, message: "finish() before any value")
    }
  }

  /// Hands everything buffered so far to the sink, without checking that the document is
  /// complete (for example to show progress, or to keep what was written before an error: the
  /// writer closes nothing it opened, so its output is the start of valid JSON).
  /// Output from the start of an object held for ``JSONWriteOptions/sortKeys`` on stays held.
  public mutating func flush() throws {
    if _box.current.isSorting { return try _flushBeforeSortedObject() }
    try _flush()
  }

  /// Hands the sink the output before the outermost object held for sorting; that object's
  /// output moves to the front, and the records of its members with it.
  @usableFromInline
  mutating func _flushBeforeSortedObject() throws {
    guard let start = _box.current.sorting?.current.frames.first?.start, start > 0 else { return }
    try sink.write(_box.current.out, count: start, chunkSize: chunkSize)
    _box.withUnique { state in
      state.out.replace(from: 0, withTailFrom: start)
      state.sorting?.withUnique { $0.moveDown(by: start) }
      state.flushCount &+= 1
    }
  }

  /// The number of complete top-level values written.
  public var valueCount: Int { _box.current.valueCount }

  /// The containers open now (objects and arrays started and not yet ended): 0 between
  /// top-level values.
  public var depth: Int { _box.current.stack.count }

  // MARK: Events

  /// Writes `{`, or with ``JSONWriteOptions/sortKeys`` holds the object's members until it ends.
  /// Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func startObject() throws {
    try _box.withUnique { try $0.startObject() }
  }

  /// Writes `}` for the innermost open object (its members in key order with
  /// ``JSONWriteOptions/sortKeys``). Throws ``JSONWriterError`` when that is not an object, or a
  /// key awaits its value.
  @inlinable
  public mutating func endObject() throws {
    if try _box.withUnique({ try $0.endObject() }) { try _flush() }
  }

  /// Writes `[`. Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func startArray() throws {
    try _box.withUnique { try $0.startArray() }
  }

  /// Writes `]` for the innermost open array. Throws ``JSONWriterError`` when that is not an array.
  @inlinable
  public mutating func endArray() throws {
    if try _box.withUnique({ try $0.endArray() }) { try _flush() }
  }

  /// Writes an object key, escaped as the options say. Throws ``JSONWriterError`` outside an
  /// object, where a value is due, or for ill-formed UTF-8.
  @inlinable
  public mutating func key(_ key: borrowing JSONString) throws {
    try _box.withUnique { try $0.key(key) }
  }

  /// Writes an object key given already quoted and escaped as the options say
  /// (`text[quoted]`, quotes included), with its own bytes (`text[key]`, to sort by): for a
  /// writer of the same keys again and again, the Codable encoder, which makes each key's
  /// text once and keeps them all in one array. Throws
  /// ``JSONWriterError`` outside an object or where a value is due.
  @inlinable
  package mutating func writeQuotedKey(_ text: [UInt8], quoted: Range<Int>, key: Range<Int>)
    throws
  {
    try _box.withUnique { try $0.quotedKey(text, quoted: quoted, key: key) }
  }

  /// Writes a string value, escaped as the options say. Throws ``JSONWriterError`` where no value
  /// may go, or for ill-formed UTF-8.
  @inlinable
  public mutating func string(_ value: borrowing JSONString) throws {
    if try _box.withUnique({ try $0.string(value) }) { try _flush() }
  }

  /// Writes the number's text unchanged. Throws ``JSONWriterError`` where no value may go, or for a
  /// non-finite number unless ``JSONWriteOptions/allowNonFiniteNumbers``.
  @inlinable
  public mutating func number(_ value: borrowing JSONNumber) throws {
    if value.isNonFinite && !options.allowNonFiniteNumbers {
      throw _WriterState.nonFinite(value.text)
    }
    try _writeValue { $0.out.append(value) }
  }

  /// Writes a number in binary form (from a binary reader, or a tree read from one): the text
  /// ``JSONBinaryNumber/withJSONNumber(_:)`` gives, written straight into the output. Throws
  /// ``JSONWriterError`` where no value may go, or for a non-finite double unless
  /// ``JSONWriteOptions/allowNonFiniteNumbers``.
  @inlinable
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    switch value {
    case .int(let integer):
      try _writeInteger(integer.magnitude, negative: integer < 0)
    case .uint(let integer):
      try _writeInteger(integer, negative: false)
    case .decimal(let mantissa, let scale):
      try writeDecimal(
        mantissa.magnitude, fractionDigits: Int(scale), negative: mantissa < 0, pointZero: false)
    case .double(let double):
      try number(double)
    }
  }

  /// Writes `true` or `false`. Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func bool(_ value: Bool) throws {
    try _writeValue { $0.out.append(value ? "true" : "false") }
  }

  /// Writes `null`. Throws ``JSONWriterError`` where no value may go.
  @inlinable
  public mutating func null() throws {
    try _writeValue { $0.out.append("null") }
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
      throw _WriterState.nonFinite(_nonFiniteAwareText(Double(value)))
    }
    var text = value.isFinite ? value.description : _nonFiniteAwareText(Double(value))
    try writeTrustedNumberText(&text)
  }

  /// An integer's digits, written straight into the output (no string made).
  @inlinable
  mutating func _writeInteger(_ magnitude: UInt64, negative: Bool) throws {
    try _writeValue { $0.out.appendDecimal(magnitude, negative: negative) }
  }

  /// A double, in the shortest text that reads back as the same double.
  public mutating func number(_ value: Double) throws {
    if !value.isFinite && !options.allowNonFiniteNumbers {
      throw _WriterState.nonFinite(value.description)
    }
    try writeDouble(value, trimmingPointZero: false)
  }

  // MARK: Structure

  /// Makes the writer's state its own once, for the events of the run.
  @inlinable public mutating func beginEventRun() { _box.beginEventRun() }
  /// Ends the run that ``beginEventRun()`` began.
  @inlinable public mutating func endEventRun() { _box.endEventRun() }

  /// A value whose bytes `write` appends, once the grammar allows one and its separators are
  /// written; the output goes to the sink when it reaches the chunk size.
  @inlinable @inline(__always)
  mutating func _writeValue(_ write: (inout _WriterState) -> Void) throws {
    let full = try _box.withUnique { state in
      try state.beginValue()
      write(&state)
      return state.endValue()
    }
    if full { try _flush() }
  }

  /// Hands the buffered output to the sink, in chunks of at most `chunkSize`.
  @usableFromInline
  mutating func _flush() throws {
    try sink.write(_box.current.out, chunkSize: chunkSize)
    _box.withUnique { state in
      state.out.truncate(to: 0)
      state.flushCount &+= 1
    }
  }
}

/// What a ``JSONWriter`` keeps between events, and what each event does to it: the grammar,
/// separators and indentation, escaping. Event methods that complete a value return whether
/// the output has reached the chunk size, for the writer to hand it to its sink.
@usableFromInline
struct _WriterState: _ManualState {
  /// Output not yet handed to the sink.
  @usableFromInline var out: _Buffer<UInt8>
  /// Open containers, innermost last: `isObject`, `hasMembers`, `awaitingValue` bits.
  @usableFromInline var stack: _Buffer<UInt8>
  @usableFromInline var valueCount = 0
  /// How many times output went to the sink (what is before it can no longer be taken back).
  @usableFromInline var flushCount = 0
  /// With ``JSONWriteOptions/sortKeys``: the objects being sorted, whose members are written
  /// to `out` as they come and put in order, in place, when the object ends. Output is not
  /// handed on while one is open.
  @usableFromInline var sorting: _CopyOnWriteState<_SortState>?
  /// How many sorted objects are open (read per value, without reaching into `sorting`).
  @usableFromInline var openSortedObjects = 0
  /// Levels of indentation added to every line: a writer whose output goes inside another
  /// writer's, at that depth (see `writeRawValue`).
  @usableFromInline var indentBase = 0
  /// The writer's options and chunk size: kept here, where the events read them (the writer's
  /// own properties read them from here).
  @usableFromInline let options: JSONWriteOptions
  @usableFromInline let chunkSize: Int

  @usableFromInline static var isObject: UInt8 { 1 }
  @usableFromInline static var hasMembers: UInt8 { 2 }
  @usableFromInline static var awaitingValue: UInt8 { 4 }

  @usableFromInline
  init(options: JSONWriteOptions, chunkSize: Int, outputCapacity: Int) {
    self.options = options
    self.chunkSize = chunkSize
    out = _Buffer(capacity: outputCapacity)
    stack = _Buffer(capacity: 64)
    sorting = options.sortKeys ? _CopyOnWriteState(_SortState()) : nil
  }

  @usableFromInline
  func copy() -> _WriterState {
    var copy = self
    copy.out = out.copy()
    copy.stack = stack.copy()
    // The sorting state is copied on write by its own box.
    return copy
  }

  @usableFromInline
  func deallocate() {
    out.deallocate()
    stack.deallocate()
  }

  // MARK: Events

  @inlinable @inline(__always)
  mutating func startObject() throws {
    try beginValue()
    stack.append(Self.isObject)
    if sorting != nil {
      let start = out.count
      sorting?.withUnique { $0.startObject(at: start) }
      openSortedObjects &+= 1
    }
    out.append(._openBrace)
  }

  @inlinable @inline(__always)
  mutating func endObject() throws -> Bool {
    let depth = stack.count
    guard depth > 0, case let top = stack[depth &- 1], top & Self.isObject != 0,
      top & Self.awaitingValue == 0
    else {
      throw unbalanced(closing: "}")
    }
    if sorting != nil {
      sorting?.withUnique { $0.endObject(in: &out) }
      openSortedObjects &-= 1
    }
    if top & Self.hasMembers != 0 { newline(depth: depth &- 1) }
    out.append(._closeBrace)
    stack.truncate(to: depth &- 1)
    return endValue()
  }

  @inlinable @inline(__always)
  mutating func startArray() throws {
    try beginValue()
    stack.append(0)
    out.append(._openBracket)
  }

  @inlinable @inline(__always)
  mutating func endArray() throws -> Bool {
    let depth = stack.count
    guard depth > 0, case let top = stack[depth &- 1], top & Self.isObject == 0 else {
      throw unbalanced(closing: "]")
    }
    if top & Self.hasMembers != 0 { newline(depth: depth &- 1) }
    out.append(._closeBracket)
    stack.truncate(to: depth &- 1)
    return endValue()
  }

  /// The innermost container, which must be an object waiting for a key. `mutating`, though
  /// it changes nothing: called from a mutating method, a non-mutating one worked on a copy
  /// of the whole state, made for every key.
  @inlinable @inline(__always)
  mutating func placeForKey() throws -> (depth: Int, top: UInt8) {
    let depth = stack.count
    guard depth > 0, case let top = stack[depth &- 1], top & Self.isObject != 0,
      top & Self.awaitingValue == 0
    else {
      throw misplacedKey()
    }
    return (depth, top)
  }

  @inlinable @inline(__always)
  mutating func key(_ key: borrowing JSONString) throws {
    let (depth, top) = try placeForKey()
    let rollback = out.count
    if top & Self.hasMembers != 0 { out.append(._comma) }
    let memberStart = out.count
    newline(depth: depth)
    guard writeQuoted(key) else {
      out.truncate(to: rollback)
      throw Self.invalidUTF8("key")
    }
    out.append(._colon)
    if options.indent != nil { out.append(._space) }
    sorting?.withUnique {
      $0.startMember(at: memberStart, previousEnd: rollback) {
        $0.replaceTail(from: $0.count, with: key)
      }
    }
    stack[depth &- 1] = top | Self.hasMembers | Self.awaitingValue
  }

  /// See `JSONWriter.writeQuotedKey(_:quoted:key:)`.
  @inlinable @inline(__always)
  mutating func quotedKey(_ text: [UInt8], quoted: Range<Int>, key: Range<Int>) throws {
    let (depth, top) = try placeForKey()
    let rollback = out.count
    if top & Self.hasMembers != 0 { out.append(._comma) }
    let memberStart = out.count
    newline(depth: depth)
    out.append(contentsOf: text, range: quoted)
    out.append(._colon)
    if options.indent != nil { out.append(._space) }
    sorting?.withUnique {
      $0.startMember(at: memberStart, previousEnd: rollback) {
        $0.append(contentsOf: text, range: key)
      }
    }
    stack[depth &- 1] = top | Self.hasMembers | Self.awaitingValue
  }

  @inlinable @inline(__always)
  mutating func string(_ value: borrowing JSONString) throws -> Bool {
    let rollback = out.count
    let depth = stack.count
    let top: UInt8 = depth > 0 ? stack[depth &- 1] : 0
    try beginValue()
    guard writeQuoted(value) else {
      out.truncate(to: rollback)
      if depth > 0 { stack[depth &- 1] = top }
      throw Self.invalidUTF8("string")
    }
    return endValue()
  }

  // MARK: Structure

  /// Separators and indentation before a value; refuses a value where none may go.
  @inlinable @inline(__always)
  mutating func beginValue() throws {
    let depth = stack.count
    guard depth > 0 else {
      // Every document starts with a top-level value: the options are checked there, once,
      // rather than in every event.
      if valueCount > 0 {
        try beginNextTopLevelValue()
      } else {
        try checkOptions()
      }
      return
    }
    let top = stack[depth &- 1]
    if top & Self.isObject != 0 {
      guard top & Self.awaitingValue != 0 else {
        throw JSONWriterError(
          kind: .valueWhereKeyExpected, message: "a value where an object key is expected")
      }
      stack[depth &- 1] = top & ~Self.awaitingValue
    } else {
      if top & Self.hasMembers != 0 { out.append(._comma) }
      stack[depth &- 1] = top | Self.hasMembers
      newline(depth: depth)
    }
  }

  @usableFromInline
  mutating func beginNextTopLevelValue() throws {
    guard options.allowMultipleValues else {
      throw JSONWriterError(
        kind: .multipleTopLevelValues,
        message: "a second top-level value (allowMultipleValues is off)")
    }
    out.append(._newline)
  }

  /// After a complete value: counts a top-level value; whether the output is due to go to the
  /// sink (never while an object is held for sorting).
  @inlinable @inline(__always)
  mutating func endValue() -> Bool {
    if stack.count == 0 { valueCount &+= 1 }
    return out.count >= chunkSize && !isSorting
  }

  /// In pretty mode, a line break and the indentation of `depth`.
  @inlinable @inline(__always)
  mutating func newline(depth: Int) {
    guard let indent = options.indent else { return }
    out.append(._newline)
    out.append(repeating: ._space, count: indent &* (depth &+ indentBase))
  }

  /// The string quoted and escaped as the options say; false, with nothing written, when its
  /// bytes are not UTF-8.
  @inlinable @inline(__always)
  mutating func writeQuoted(_ string: borrowing JSONString) -> Bool {
    out.appendQuoted(string, escapeUnicode: options.escapeUnicode, escapeSlash: options.escapeSlash)
  }

  /// Whether a sorted object is open, whose output may still move.
  @inlinable @inline(__always)
  var isSorting: Bool { openSortedObjects > 0 }

  // MARK: Errors

  /// Throws when the options are invalid, so that none is ever used.
  @usableFromInline
  func checkOptions() throws {
    if let error = options._validationError { throw error }
  }

  @usableFromInline
  func unbalanced(closing: String) -> JSONWriterError {
    if let error = options._validationError { return error }
    let message: String
    if stack.count > 0 {
      let top = stack[stack.count - 1]
      if top & Self.awaitingValue != 0 {
        message = "'\(closing)' after a key, before its value"
      } else {
        message =
          "'\(closing)' does not close the open \(top & Self.isObject != 0 ? "object" : "array")"
      }
    } else {
      message = "'\(closing)' with no open container"
    }
    return JSONWriterError(kind: .unbalancedEnd, message: message)
  }

  @usableFromInline
  func misplacedKey() -> JSONWriterError {
    if let error = options._validationError { return error }
    let message =
      stack.count == 0
      ? "a key outside any object"
      : (stack[stack.count - 1] & Self.isObject == 0
        ? "a key inside an array" : "a key where a value is expected")
    return JSONWriterError(kind: .misplacedKey, message: message)
  }

  @usableFromInline
  static func invalidUTF8(_ what: String) -> JSONWriterError {
    JSONWriterError(kind: .invalidUTF8, message: "the \(what) is not well-formed UTF-8")
  }

  @usableFromInline
  static func nonFinite(_ text: String) -> JSONWriterError {
    JSONWriterError(kind: .nonFiniteNumber, message: "\(text) is not a JSON number")
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

// MARK: - For the Codable encoder (JSONStreamFoundation)

extension JSONWriter {
  /// How many containers are open.
  package var openContainerCount: Int { _box.current.stack.count }

  /// Indents every line by `levels` more (for a value that goes into another writer at that
  /// depth, with ``writeRawValue(_:)``).
  package mutating func setIndentBase(_ levels: Int) {
    _box.withUnique { $0.indentBase = levels }
  }

  /// A complete value written by another writer with the same options, as the next value.
  @inlinable
  package mutating func writeRawValue(_ bytes: [UInt8]) throws {
    try _writeValue { $0.out.append(contentsOf: bytes) }
  }

  /// Number text known to be valid, written without checking; with `trimmingPointZero`,
  /// without a final `.0` (`60`, not `60.0`, as `JSONEncoder` writes a whole double).
  @inlinable
  package mutating func writeTrustedNumberText(
    _ text: inout String, trimmingPointZero: Bool = false
  ) throws {
    var dropLast = 0
    if trimmingPointZero && text.utf8.count > 2 && text.utf8.last == UInt8(ascii: "0")
      && text.utf8.dropLast().last == UInt8(ascii: ".")
    {
      dropLast = 2
    }
    try _writeValue { $0.out.append(utf8Of: &text, dropLast: dropLast) }
  }

  /// A double's shortest text (`description`'s, non-finite values in their JSON5 spellings:
  /// the caller checks the option), without a trailing `.0` when `trimmingPointZero`. The
  /// common values' digits are written without making the text (see `_shortDecimal`).
  package mutating func writeDouble(_ value: Double, trimmingPointZero: Bool) throws {
    if let decimal = _shortDecimal(value) {
      return try writeDecimal(
        decimal.digits, fractionDigits: decimal.fractionDigits, negative: value < 0,
        pointZero: !trimmingPointZero)
    }
    var text = _nonFiniteAwareText(value)
    try writeTrustedNumberText(&text, trimmingPointZero: trimmingPointZero)
  }

  /// A number written as `digits` with the last `fractionDigits` after the point (see
  /// `_Buffer.appendDecimal(_:fractionDigits:negative:pointZero:)`): a double's shortest
  /// decimal, or a binary decimal, written without making its text.
  @usableFromInline
  package mutating func writeDecimal(
    _ digits: UInt64, fractionDigits: Int, negative: Bool, pointZero: Bool
  ) throws {
    try _writeValue {
      $0.out.appendDecimal(
        digits, fractionDigits: fractionDigits, negative: negative, pointZero: pointZero)
    }
  }
}
