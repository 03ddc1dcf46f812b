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

  @usableFromInline var _out: [UInt8] = []
  /// Open containers, innermost last: `_isObject`, `_hasMembers`, `_awaitingValue` bits.
  @usableFromInline var _stack: [UInt8] = []
  @usableFromInline var _valueCount = 0
  /// Objects being collected for sorting (``JSONWriteOptions/sortKeys``), innermost last.
  @usableFromInline var _sortFrames: [_SortFrame] = []

  @usableFromInline static var _isObject: UInt8 { 1 }
  @usableFromInline static var _hasMembers: UInt8 { 2 }
  @usableFromInline static var _awaitingValue: UInt8 { 4 }

  /// A writer to `sink`.
  public init(sink: Sink, options: JSONWriteOptions = .compact, chunkSize: Int = 64 * 1024) {
    self.sink = sink
    self.options = options
    self.chunkSize = max(1, chunkSize)
    _out.reserveCapacity(min(self.chunkSize, 64 * 1024) + 256)
  }

  /// Checks that a complete document was written and hands the rest of the output to the sink.
  public mutating func finish() throws {
    guard _stack.isEmpty else {
      throw JSONWriterError(
        kind: .incompleteDocument,
        message: "finish() with \(_stack.count) container(s) still open")
    }
    guard _valueCount > 0 || options.allowMultipleValues else {
      throw JSONWriterError(kind: .incompleteDocument, message: "finish() before any value")
    }
    try _flush()
  }

  /// Hands everything buffered so far to the sink, without checking that the document is
  /// complete (for example to show progress, or to keep what was written before an error).
  /// Output inside an object held for ``JSONWriteOptions/sortKeys`` stays held.
  public mutating func flush() throws {
    try _flush()
  }

  /// The number of complete top-level values written.
  public var valueCount: Int { _valueCount }

  // MARK: Events

  @inlinable
  public mutating func startObject() throws {
    try _beginValue()
    _stack.append(Self._isObject)
    if options.sortKeys {
      _sortFrames.append(_SortFrame(savedOutput: _out))
      _out = []
    } else {
      _out.append(._openBrace)
    }
  }

  @inlinable
  public mutating func endObject() throws {
    guard let top = _stack.last, top & Self._isObject != 0, top & Self._awaitingValue == 0 else {
      throw _unbalanced(closing: "}")
    }
    if options.sortKeys {
      _writeSortedObject()
    } else {
      if top & Self._hasMembers != 0 { _newline(depth: _stack.count - 1) }
      _out.append(._closeBrace)
    }
    _stack.removeLast()
    try _endValue()
  }

  @inlinable
  public mutating func startArray() throws {
    try _beginValue()
    _stack.append(0)
    _out.append(._openBracket)
  }

  @inlinable
  public mutating func endArray() throws {
    guard let top = _stack.last, top & Self._isObject == 0 else {
      throw _unbalanced(closing: "]")
    }
    if top & Self._hasMembers != 0 { _newline(depth: _stack.count - 1) }
    _out.append(._closeBracket)
    _stack.removeLast()
    try _endValue()
  }

  @inlinable
  public mutating func key(_ key: JSONString) throws {
    guard let top = _stack.last, top & Self._isObject != 0, top & Self._awaitingValue == 0 else {
      throw _misplacedKey()
    }
    if options.sortKeys {
      var quoted: [UInt8] = []
      guard Self._appendQuoted(key.utf8, to: &quoted, options: options) else {
        throw _invalidUTF8("key")
      }
      _sortFrames[_sortFrames.count - 1].startMember(key: key.bytes, quoted: quoted, output: &_out)
    } else {
      let rollback = _out.count
      if top & Self._hasMembers != 0 { _out.append(._comma) }
      _newline(depth: _stack.count)
      guard Self._appendQuoted(key.utf8, to: &_out, options: options) else {
        _out.removeSubrange(rollback...)
        throw _invalidUTF8("key")
      }
      _out.append(._colon)
      if options.indent != nil { _out.append(._space) }
    }
    _stack[_stack.count - 1] = top | Self._hasMembers | Self._awaitingValue
  }

  @inlinable
  public mutating func string(_ value: JSONString) throws {
    let rollback = _out.count
    let state = _stack.last
    try _beginValue()
    guard Self._appendQuoted(value.utf8, to: &_out, options: options) else {
      _out.removeSubrange(rollback...)
      if let state { _stack[_stack.count - 1] = state }
      throw _invalidUTF8("string")
    }
    try _endValue()
  }

  @inlinable
  public mutating func number(_ value: JSONNumber) throws {
    if value.isNonFinite && !options.allowNonFiniteNumbers { throw _nonFinite(value.text) }
    try _beginValue()
    _out.append(contentsOf: value.utf8)
    try _endValue()
  }

  @inlinable
  public mutating func bool(_ value: Bool) throws {
    try _beginValue()
    _appendStatic(value ? "true" : "false")
    try _endValue()
  }

  @inlinable
  public mutating func null() throws {
    try _beginValue()
    _appendStatic("null")
    try _endValue()
  }

  // MARK: Conveniences for writing by hand

  /// An object key.
  public mutating func key(_ key: String) throws {
    var key = key
    try key.withUTF8 { try self.key(JSONString(utf8: $0)) }
  }

  /// A string value.
  public mutating func string(_ value: String) throws {
    var value = value
    try value.withUTF8 { try string(JSONString(utf8: $0)) }
  }

  /// An integer value.
  public mutating func number(_ value: Int) throws {
    try _writeNumberText(String(value))
  }

  /// A double, in the shortest text that reads back as the same double.
  public mutating func number(_ value: Double) throws {
    if !value.isFinite && !options.allowNonFiniteNumbers { throw _nonFinite(value.description) }
    try _writeNumberText(_nonFiniteAwareText(value))
  }

  mutating func _writeNumberText(_ text: String) throws {
    var text = text
    try text.withUTF8 { bytes in
      try _beginValue()
      _out.append(contentsOf: bytes)
      try _endValue()
    }
  }

  // MARK: Structure

  /// Separators and indentation before a value; refuses a value where none may go.
  @inlinable
  mutating func _beginValue() throws {
    guard let top = _stack.last else {
      if _valueCount > 0 {
        guard options.allowMultipleValues else {
          throw JSONWriterError(
            kind: .multipleTopLevelValues,
            message: "a second top-level value (allowMultipleValues is off)")
        }
        _out.append(._newline)
      }
      return
    }
    if top & Self._isObject != 0 {
      guard top & Self._awaitingValue != 0 else {
        throw JSONWriterError(
          kind: .valueWhereKeyExpected, message: "a value where an object key is expected")
      }
      _stack[_stack.count - 1] = top & ~Self._awaitingValue
    } else {
      if top & Self._hasMembers != 0 { _out.append(._comma) }
      _stack[_stack.count - 1] = top | Self._hasMembers
      _newline(depth: _stack.count)
    }
  }

  /// After a complete value: count top-level values, flush a full buffer.
  @inlinable
  mutating func _endValue() throws {
    if _stack.isEmpty { _valueCount &+= 1 }
    if _out.count >= chunkSize && _sortFrames.isEmpty { try _flush() }
  }

  /// In pretty mode, a line break and the indentation of `depth`.
  @inlinable
  mutating func _newline(depth: Int) {
    guard let indent = options.indent else { return }
    _out.append(._newline)
    for _ in 0..<(indent * depth) { _out.append(._space) }
  }

  @inlinable
  mutating func _appendStatic(_ text: StaticString) {
    _out.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Quoted, escaped string; false (with partial output) when `bytes` is not UTF-8.
  /// Static on purpose: a method on `self` taking `&self._out` would copy `self`, and with it
  /// force a copy of the whole output buffer.
  @inlinable
  static func _appendQuoted(
    _ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], options: JSONWriteOptions
  ) -> Bool {
    output.append(._quote)
    let valid = _appendEscapedJSONStringContent(
      bytes, to: &output, escapeUnicode: options.escapeUnicode, escapeSlash: options.escapeSlash)
    output.append(._quote)
    return valid
  }

  /// Hands the buffered output to the sink, in chunks of at most `chunkSize`.
  @usableFromInline
  mutating func _flush() throws {
    guard !_out.isEmpty else { return }
    let size = chunkSize
    let output = _out
    try output.withUnsafeBytes { all in
      var start = 0
      while start < all.count {
        let end = min(all.count, start + size)
        try sink.write(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        start = end
      }
    }
    _out.removeAll(keepingCapacity: true)
  }

  /// Ends a sorted object: its members, sorted, into the output that was set aside.
  @usableFromInline
  mutating func _writeSortedObject() {
    var frame = _sortFrames.removeLast()
    frame.finishMember(output: &_out)
    _out = frame.savedOutput
    frame.members.sort { $0.key.lexicographicallyPrecedes($1.key) }
    let depth = _stack.count
    _out.append(._openBrace)
    for (index, member) in frame.members.enumerated() {
      if index > 0 { _out.append(._comma) }
      _newline(depth: depth)
      _out.append(contentsOf: member.quotedKey)
      _out.append(._colon)
      if options.indent != nil { _out.append(._space) }
      _out.append(contentsOf: member.value)
    }
    if !frame.members.isEmpty { _newline(depth: depth - 1) }
    _out.append(._closeBrace)
  }

  // MARK: Errors

  @usableFromInline
  func _unbalanced(closing: String) -> JSONWriterError {
    let message: String
    if let top = _stack.last {
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
    let message =
      _stack.last.map {
        $0 & Self._isObject == 0 ? "a key inside an array" : "a key where a value is expected"
      }
      ?? "a key outside any object"
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

  /// A new key: the previous member's value is complete in `output`.
  @inlinable
  mutating func startMember(key: [UInt8], quoted: [UInt8], output: inout [UInt8]) {
    finishMember(output: &output)
    pending = (key, quoted)
  }

  @inlinable
  mutating func finishMember(output: inout [UInt8]) {
    if let pending {
      members.append((pending.key, pending.quotedKey, output))
      output = []
    }
    pending = nil
  }
}

/// Swift's shortest round-trip text, with the JSON5 spellings of the non-finite values.
func _nonFiniteAwareText(_ value: Double) -> String {
  if value.isNaN { return "NaN" }
  if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
  return _shortestText(value)
}
