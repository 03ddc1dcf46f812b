/// Reads the binary format (see ``JSONBinaryFormat``) in chunks of any size and delivers its
/// events to a handler, as ``JSONParser`` does for JSON text: binary → JSON is this reader
/// driving a ``JSONWriter``, and every consumer works on binary input unchanged.
///
/// ```swift
/// var reader = JSONBinaryReader(handler: JSONTreeBuilder())
/// for chunk in chunks { try reader.feed(chunk) }
/// try reader.finish()
/// let value = reader.handler.value
/// ```
///
/// Safe on untrusted bytes: every length is checked against the limits before anything is
/// kept, and bytes are kept only as they arrive (a false length cannot make it allocate);
/// references may only name earlier entries; nesting is bounded by `maxDepth`; strings must be
/// UTF-8 and numbers JSON numbers. Anything else is a ``JSONParseError`` whose `offset` is
/// the byte at fault (its `line` is 0: binary has no lines).
public struct JSONBinaryReader<Handler: JSONEventHandler> {
  public var handler: Handler
  /// The limits, `allowMultipleValues` and `allowNonFiniteNumbers` apply; the other options
  /// are about JSON text.
  public let options: JSONParseOptions
  /// Bytes consumed so far: the offset of the next token.
  public var offset: Int { _offset }
  @usableFromInline var _offset = 0

  /// A token the last chunk ended inside, as much of it as has arrived.
  @usableFromInline var carry: [UInt8] = []
  @usableFromInline var headerDone = false
  @usableFromInline var stack: [Bool] = []
  @usableFromInline var awaitingValue = false
  @usableFromInline var valueCount = 0
  @usableFromInline var phase = _Phase.running
  @usableFromInline var tables = _StateBox(_BinaryTables())
  /// Number text made from a binary number.
  @usableFromInline var text: [UInt8] = []

  @inlinable public init(handler: Handler, options: JSONParseOptions = JSONParseOptions()) {
    self.handler = handler
    self.options = options
  }

  // MARK: Input

  /// Reads the next chunk.
  @inlinable @discardableResult
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> JSONParseStatus {
    switch phase {
    case .stopped: return .stopped
    case .running: break
    default: throw error(.inputAfterFinish, "input after finish()", at: offset)
    }
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0
    else { return .needsMoreInput }
    if offset + carry.count + bytes.count > options.limits.maxInputLength {
      throw error(.limitExceeded(.inputLength), "input longer than the limit", at: offset)
    }
    var p = base
    let end = base + bytes.count
    if !carry.isEmpty {
      // Complete the token the last chunk ended inside: take what it still needs.
      while true {
        let need = try carry.withUnsafeBufferPointer { try tokenLength($0.baseAddress!, $0.count) }
        let missing = need.map { $0 - carry.count } ?? 1
        if missing > 0 {
          let take = Swift.min(missing, end - p)
          if take == 0 { return .needsMoreInput }
          carry.append(contentsOf: UnsafeBufferPointer(start: p, count: take))
          p += take
          continue
        }
        try carry.withUnsafeBufferPointer { try process($0.baseAddress!, need!) }
        _offset += need!
        carry.removeAll(keepingCapacity: true)
        break
      }
    }
    while p < end {
      if phase == .stopped { return .stopped }
      guard let need = try tokenLength(p, end - p), need <= end - p else {
        carry.append(contentsOf: UnsafeBufferPointer(start: p, count: end - p))
        return .needsMoreInput
      }
      try process(p, need)
      p += need
      _offset += need
    }
    return phase == .stopped ? .stopped : .needsMoreInput
  }

  /// Reads the next chunk.
  @inlinable @discardableResult
  public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> JSONParseStatus
  where Bytes.Element == UInt8 {
    if let status = try bytes.withContiguousStorageIfAvailable({
      try feed(UnsafeRawBufferPointer($0))
    }) {
      return status
    }
    return try Array(bytes).withUnsafeBytes { try feed($0) }
  }

  /// The end of the input: throws if it ends inside a token or a container, or holds no value.
  @inlinable public mutating func finish() throws {
    if phase == .stopped { return }
    guard phase == .running else { throw error(.inputAfterFinish, "finish() twice", at: offset) }
    phase = .ended
    if !headerDone && carry.isEmpty && offset == 0 {
      throw error(.emptyInput, "no input", at: 0)
    }
    if !carry.isEmpty {
      throw error(.unexpectedEndOfInput, "the input ends inside a token", at: offset + carry.count)
    }
    if !stack.isEmpty {
      throw error(
        .unexpectedEndOfInput, "the input ends inside \(stack.count) open container(s)",
        at: offset)
    }
    // A stream of several values may hold none (as an empty NDJSON file does).
    if valueCount == 0 && !options.allowMultipleValues {
      throw error(.unexpectedEndOfInput, "no value after the header", at: offset)
    }
  }

  // MARK: Tokens
  //
  // The helpers below change nothing, yet are `mutating`: the reader is a large struct, and a
  // non-mutating method called from a mutating one gets a copy of it (a memcpy per token, a
  // sixth of the time of reading into a tree); a mutating one gets its address.

  /// The length of the token at `p`, or nil when `available` bytes do not tell yet; throws for
  /// a token that cannot be valid (an unknown tag, a length over the limits).
  @inlinable mutating func tokenLength(_ p: UnsafePointer<UInt8>, _ available: Int) throws -> Int? {
    if !headerDone { return 6 }
    let tag = p[0]
    switch tag {
    case _BinaryTag.null, _BinaryTag.false, _BinaryTag.true, _BinaryTag.startArray,
      _BinaryTag.endArray, _BinaryTag.startObject, _BinaryTag.endObject, _BinaryTag.startSet:
      return 1
    case _BinaryTag.int, _BinaryTag.uint, _BinaryTag.stringRef, _BinaryTag.keyRef:
      return try leb128(p + 1, available - 1).map { 1 + $0.length }
    case _BinaryTag.decimal:
      guard available >= 2 else { return nil }
      return try leb128(p + 2, available - 2).map { 2 + $0.length }
    case _BinaryTag.float32: return 5
    case _BinaryTag.float64, _BinaryTag.date: return 9
    case _BinaryTag.numberText, _BinaryTag.string, _BinaryTag.sharedString, _BinaryTag.key,
      _BinaryTag.sharedKey, _BinaryTag.data:
      guard let (length, size) = try leb128(p + 1, available - 1) else { return nil }
      let limit =
        tag == _BinaryTag.numberText
        ? options.limits.maxNumberLength : options.limits.maxStringLength
      guard length <= UInt64(limit) else {
        throw error(
          .limitExceeded(tag == _BinaryTag.numberText ? .numberLength : .stringLength),
          "a length of \(length) bytes, over the limit of \(limit)", at: offset + 1)
      }
      return 1 + size + Int(length)
    default:
      throw error(
        .invalidBinary,
        "unknown tag 0x\(String(tag, radix: 16)) (written by a newer minor version?)",
        at: offset)
    }
  }

  /// A LEB128 number at `p` and its size in bytes; nil when it runs past `available`.
  @inlinable mutating func leb128(_ p: UnsafePointer<UInt8>, _ available: Int) throws -> (
    UInt64, length: Int
  )? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var index = 0
    while true {
      guard index < available else { return nil }
      let byte = p[index]
      if shift == 63 && byte > 1 || index == 10 {
        throw error(.invalidBinary, "a number longer than 64 bits", at: offset + 1)
      }
      value |= UInt64(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 { return (value, index) }
      shift += 7
    }
  }

  /// Delivers the complete token of `length` bytes at `p`.
  @inlinable mutating func process(_ p: UnsafePointer<UInt8>, _ length: Int) throws {
    if !headerDone {
      try readHeader(p)
      return
    }
    let tag = p[0]
    switch tag {
    case _BinaryTag.null:
      try beginValue()
      try handler.null()
      try endValue()
    case _BinaryTag.false, _BinaryTag.true:
      try beginValue()
      try handler.bool(tag == _BinaryTag.true)
      try endValue()
    case _BinaryTag.int:
      let value = _unzigzag(try leb128(p + 1, length - 1)!.0)
      try number(.int(value))
    case _BinaryTag.uint:
      let value = try leb128(p + 1, length - 1)!.0
      guard value > UInt64(Int64.max) else {
        throw error(.invalidBinary, "an unsigned integer that fits a signed one", at: offset)
      }
      try number(.uint(value))
    case _BinaryTag.decimal:
      let scale = p[1]
      let mantissa = _unzigzag(try leb128(p + 2, length - 2)!.0)
      guard scale > 0, mantissa != Int64.min else {
        throw error(.invalidBinary, "a decimal with a scale of 0 or no magnitude", at: offset)
      }
      try number(.decimal(mantissa: mantissa, scale: scale))
    case _BinaryTag.float32:
      try double(
        Double(
          Float(bitPattern: UnsafeRawPointer(p + 1).loadUnaligned(as: UInt32.self).littleEndian)))
    case _BinaryTag.float64:
      try double(
        Double(bitPattern: UnsafeRawPointer(p + 1).loadUnaligned(as: UInt64.self).littleEndian))
    case _BinaryTag.numberText:
      let bytes = payload(p, length)
      guard let flags = _classifyNumberText(bytes),
        flags & JSONNumber._nonFinite == 0 || options.allowNonFiniteNumbers
      else {
        throw error(.invalidNumber, "number text that is not a JSON number", at: offset)
      }
      try beginValue()
      try handler.number(JSONNumber(_utf8: bytes, flags: flags))
      try endValue()
    case _BinaryTag.string, _BinaryTag.sharedString:
      let bytes = try utf8(payload(p, length))
      if tag == _BinaryTag.sharedString {
        try Self.enter(bytes, in: &_tables().pointee.strings, at: offset, "string")
      }
      try beginValue()
      try handler.string(JSONString(_wellFormed: bytes))
      try endValue()
    case _BinaryTag.stringRef:
      let tables = _tables()
      let index = try reference(p, length, in: tables.pointee.strings, "string")
      try beginValue()
      try handler.string(JSONString(_wellFormed: tables.pointee.strings.entry(index)))
      try endValue()
    case _BinaryTag.key, _BinaryTag.sharedKey:
      let bytes = try utf8(payload(p, length))
      try beginKey()
      if tag == _BinaryTag.sharedKey {
        try Self.enter(bytes, in: &_tables().pointee.keys, at: offset, "key")
      }
      try handler.key(JSONString(_wellFormed: bytes))
    case _BinaryTag.keyRef:
      let tables = _tables()
      let index = try reference(p, length, in: tables.pointee.keys, "key")
      try beginKey()
      try handler.key(JSONString(_wellFormed: tables.pointee.keys.entry(index)))
    case _BinaryTag.startArray, _BinaryTag.startSet, _BinaryTag.startObject:
      try beginValue()
      guard stack.count < options.limits.maxDepth else {
        throw error(
          .limitExceeded(.depth), "nesting deeper than \(options.limits.maxDepth)", at: offset)
      }
      let isObject = tag == _BinaryTag.startObject
      stack.append(isObject)
      if isObject { try handler.startObject() } else { try handler.startArray() }
    case _BinaryTag.endArray:
      guard stack.last == false else {
        throw error(.invalidBinary, "an array end where no array is open", at: offset)
      }
      stack.removeLast()
      try handler.endArray()
      try endValue()
    case _BinaryTag.endObject:
      guard stack.last == true, !awaitingValue else {
        throw error(
          .invalidBinary,
          awaitingValue
            ? "an object end after a key, before its value"
            : "an object end where no object is open",
          at: offset)
      }
      stack.removeLast()
      try handler.endObject()
      try endValue()
    case _BinaryTag.data:
      let bytes = payload(p, length)
      try beginValue()
      text.removeAll(keepingCapacity: true)
      _appendBase64(bytes, to: &text)
      try text.withUnsafeBufferPointer { try handler.string(JSONString(_wellFormed: $0)) }
      try endValue()
    case _BinaryTag.date:
      // Read as JSON: its seconds since 2001, as a number (exactly: the binary64's text).
      try double(
        Double(bitPattern: UnsafeRawPointer(p + 1).loadUnaligned(as: UInt64.self).littleEndian))
    default:
      throw error(.invalidBinary, "unknown tag 0x\(String(tag, radix: 16))", at: offset)
    }
    if handler.isDone { phase = .stopped }
  }

  @inlinable mutating func readHeader(_ p: UnsafePointer<UInt8>) throws {
    guard (0..<4).allSatisfy({ p[$0] == JSONBinaryFormat.magic[$0] }) else {
      throw error(.invalidBinary, "not the binary format (no JSB header)", at: 0)
    }
    guard p[4] == JSONBinaryFormat.majorVersion else {
      throw error(
        .invalidBinary,
        "binary format version \(p[4]).\(p[5]); this reader reads version \(JSONBinaryFormat.majorVersion).x",
        at: 4)
    }
    headerDone = true
  }

  /// A token's payload: the bytes after its tag and LEB128 length.
  @inlinable mutating func payload(_ p: UnsafePointer<UInt8>, _ length: Int) -> UnsafeBufferPointer<
    UInt8
  > {
    var size = 1
    while p[size] & 0x80 != 0 { size += 1 }
    return UnsafeBufferPointer(start: p + 1 + size, count: length - 1 - size)
  }

  @inlinable mutating func utf8(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UnsafeBufferPointer<
    UInt8
  > {
    guard _isWellFormedUTF8(bytes) else {
      throw error(.invalidUTF8, "a string that is not UTF-8", at: offset)
    }
    return bytes
  }

  /// A table entry's index, which must name an earlier entry.
  @inlinable mutating func reference(
    _ p: UnsafePointer<UInt8>, _ length: Int, in table: _BinaryTable, _ what: String
  ) throws -> Int {
    let index = try leb128(p + 1, length - 1)!.0
    guard index < UInt64(table.count) else {
      throw error(.invalidBinary, "a reference to \(what) \(index) of \(table.count)", at: offset)
    }
    return Int(index)
  }

  /// Enters `bytes` in `table`. Static, not a method: a method taking a table of `self`
  /// inout would work on a copy of `self`, and copy the table's storage on every entry.
  @inlinable static func enter(
    _ bytes: UnsafeBufferPointer<UInt8>, in table: inout _BinaryTable, at offset: Int,
    _ what: String
  ) throws {
    guard table.hasRoom(for: bytes.count) else {
      throw JSONParseError(
        kind: .invalidBinary, offset: offset, line: 0, column: 0,
        message: "a shared \(what) after its table is full")
    }
    table.append(bytes)
  }

  @inlinable mutating func number(_ number: _BinaryNumber) throws {
    let flags: UInt8
    if case .decimal = number { flags = JSONNumber._hasFractionOrExponent } else { flags = 0 }
    try beginValue()
    try number.withText { try handler.number(JSONNumber(_utf8: $0, flags: flags)) }
    try endValue()
  }

  @inlinable mutating func double(_ value: Double) throws {
    guard value.isFinite || options.allowNonFiniteNumbers else {
      throw error(.invalidNumber, "\(value) is not a JSON number", at: offset)
    }
    var description = _nonFiniteAwareText(value)
    try description.withUTF8 { bytes in
      try beginValue()
      try handler.number(JSONNumber(_utf8: bytes, flags: _classifyNumberText(bytes) ?? 0))
      try endValue()
    }
  }

  // MARK: Structure

  /// The tables, copied first if another copy of the reader shares them.
  @inlinable @inline(__always)
  mutating func _tables() -> UnsafeMutablePointer<_BinaryTables> {
    if !isKnownUniquelyReferenced(&tables) { tables = tables.copy() }
    return tables.state
  }

  @inlinable mutating func beginValue() throws {
    if stack.isEmpty {
      guard valueCount == 0 || options.allowMultipleValues else {
        throw error(.trailingText, "a second top-level value", at: offset)
      }
    } else if stack[stack.count - 1] {
      guard awaitingValue else {
        throw error(.invalidBinary, "a value where an object key is expected", at: offset)
      }
      awaitingValue = false
    }
  }

  @inlinable mutating func beginKey() throws {
    guard stack.last == true, !awaitingValue else {
      throw error(
        .invalidBinary, "a key outside an object or where a value is expected", at: offset)
    }
    awaitingValue = true
  }

  @inlinable mutating func endValue() throws {
    if stack.isEmpty { valueCount += 1 }
  }

  @inlinable func error(_ kind: JSONParseError.Kind, _ message: String, at offset: Int)
    -> JSONParseError
  {
    JSONParseError(kind: kind, offset: offset, line: 0, column: 0, message: message)
  }
}

/// Standard base64 with padding.
@usableFromInline
func _appendBase64(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
  let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  var index = 0
  while index + 3 <= bytes.count {
    let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
    for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
    index += 3
  }
  let rest = bytes.count - index
  if rest > 0 {
    let n = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
    out.append(alphabet[Int(n >> 18 & 63)])
    out.append(alphabet[Int(n >> 12 & 63)])
    out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
    out.append(UInt8(ascii: "="))
  }
}
