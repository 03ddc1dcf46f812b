import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

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
public struct JSONBinaryReader<Handler: JSONEventHandler>: _BinaryTokenSink {
  /// The handler the events go to; read its result from here after ``finish()``.
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
  /// The open containers, as the JSON parser keeps them (an array's append and removeLast
  /// were 7% of reading canada).
  @usableFromInline var containers = _ContainerStack()
  /// How many containers are open.
  @inlinable var depth: Int { containers.depth }
  /// Whether the innermost open container is an object.
  @inlinable var inObject: Bool { containers.innermostIsObject }
  @usableFromInline var awaitingValue = false
  /// The open maps (see `_OpenMaps`).
  @usableFromInline var maps = _OpenMaps()
  /// The value table (see `_SharedValues`), and the bytes of its values, kept as they are read
  /// for references to replay.
  @usableFromInline var shares = _SharedValues()
  @usableFromInline var kept: [UInt8] = []
  @usableFromInline var valueCount = 0
  @usableFromInline var phase = _Phase.running
  /// The error every call throws once the reader has failed.
  @usableFromInline var _failure: (any Error)? = nil
  /// The key and string tables, copied on write; reached as `tables.inRun` during `feed`.
  @usableFromInline var tables = _CopyOnWriteState(_BinaryTables())
  /// Number text made from a binary number.
  @usableFromInline var text: [UInt8] = []

  /// A reader delivering its events to `handler`, under `options`.
  @inlinable public init(handler: Handler, options: JSONParseOptions = JSONParseOptions()) {
    self.handler = handler
    self.options = options
  }

  // MARK: Input
  //
  // The `feed` methods, which take raw bytes, are in JSONBinaryTokens.swift: they only wrap
  // them in the checked view read here.

  /// Reads the chunk `input` (nil when empty).
  @inlinable
  mutating func _feed(_ input: _ScanInput?) throws -> JSONParseStatus {
    switch phase {
    case .stopped: return .stopped
    case .running: try _checkOptions()
    case .failed: throw _failure!
    default: throw error(.inputAfterFinish, "input after finish()", at: offset)
    }
    guard let input else { return .needsMoreInput }
    if offset + carry.count + input.count > options.limits.maxInputLength {
      throw error(.limitExceeded(.inputLength), "input longer than the limit", at: offset)
    }
    var position = 0
    // One uniqueness check per chunk: no copy of the reader can be made during this call.
    tables.beginEventRun()
    defer { tables.endEventRun() }
    handler.beginEventRun()
    defer { handler.endEventRun() }
    if !carry.isEmpty {
      // Complete the token the last chunk ended inside: take what it still needs.
      while true {
        let (length, isComplete) = try _ScanInput.with(carry) { try processCarried($0) }
        if !isComplete {
          let take = Swift.min(length - carry.count, input.count - position)
          if take == 0 { return .needsMoreInput }
          input.copy(position, position + take, to: &carry)
          position += take
          continue
        }
        _offset += length
        carry.removeAll(keepingCapacity: true)
        if phase == .stopped { return .stopped }
        break
      }
    }
    if !headerDone && input.contains(position) {
      guard let length = try readHeader(input, at: position) else {
        input.copy(position, input.count, to: &carry)
        return .needsMoreInput
      }
      position += length
      _offset += length
    }
    // The header is read and the reader runs: the loop checks neither per token (they were
    // a tenth of the loop's own instructions on canada.json), only whether a token stopped it.
    var rest = input.slice(position, input.count)
    while rest.count > 0 {
      // Each token is decoded once: `process` finds its length as it reads it, drops it from
      // `rest`, and does nothing with a token that runs past the chunk.
      let (length, isComplete) = try process(&rest)
      guard isComplete else {
        rest.copy(0, rest.count, to: &carry)
        return .needsMoreInput
      }
      // No overflow: the input is no longer than `maxInputLength`, checked above.
      _offset &+= length
      if handler.isDone {
        phase = .stopped
        return .stopped
      }
    }
    return .needsMoreInput
  }

  /// The end of the input: throws if it ends inside a token or a container, or holds no value.
  @inlinable public mutating func finish() throws {
    do {
      try _finish()
    } catch {
      throw _fail(error)
    }
  }

  @inlinable mutating func _finish() throws {
    if phase == .stopped { return }
    if phase == .failed { throw _failure! }
    guard phase == .running else { throw error(.inputAfterFinish, "finish() twice", at: offset) }
    try _checkOptions()
    phase = .ended
    if !headerDone && carry.isEmpty && offset == 0 {
      throw error(.emptyInput, "no input", at: 0)
    }
    if !carry.isEmpty {
      throw error(.unexpectedEndOfInput, "the input ends inside a token", at: offset + carry.count)
    }
    if depth > 0 {
      throw error(
        .unexpectedEndOfInput, "the input ends inside \(depth) open container(s)", at: offset)
    }
    if shares.markPending {
      throw error(.unexpectedEndOfInput, "the input ends after a shared-value mark", at: offset)
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

  /// `process` for a token (or the header) completed from `carry`: a call of its own, so that
  /// `process` is inlined only into the loop over a chunk's tokens (a call per token was ~10%
  /// of reading).
  @inlinable @inline(never)
  mutating func processCarried(_ input: _ScanInput) throws -> (length: Int, isComplete: Bool) {
    if !headerDone {
      guard let length = try readHeader(input, at: 0) else { return (6, false) }
      return (length, true)
    }
    var rest = input
    let token = try process(&rest)
    if token.isComplete && handler.isDone { phase = .stopped }
    return token
  }

  /// Delivers the token `rest` starts with to the handler and drops it from `rest` (see
  /// `_BinaryTokens.decode`, which calls this reader's token methods below). The header must
  /// have been read; the caller checks `handler.isDone` after it.
  @inlinable @inline(__always)
  mutating func process(_ rest: inout _ScanInput) throws -> (length: Int, isComplete: Bool) {
    let start = rest
    let token = try _BinaryTokens.decode(&rest, into: &self)
    if shares.tracksTokens && token.isComplete { keep(start, token.length) }
    return token
  }

  /// Keeps the token of `length` bytes at the start of `input`, read while a shared value
  /// is, and ends the entry it closed.
  @inlinable @inline(never)
  mutating func keep(_ input: _ScanInput, _ length: Int) {
    input.copy(0, length, to: &kept)
    shares.tokenEnded(at: offset &+ length)
  }

  /// Delivers a copy of the shared value `entry`, replaying its kept tokens (and, through a
  /// stack, not by recursion, those of the references inside it).
  @inlinable
  mutating func replay(_ entry: _SharedValues.Entry) throws {
    shares.replaying = true
    defer {
      shares.replaying = false
      shares.queued.removeAll()
    }
    var frames = [(bytes: keptBytes(entry), position: 0)]
    while let last = frames.indices.last {
      let bytes = frames[last].bytes
      let position = frames[last].position
      if position == bytes.count {
        frames.removeLast()
        continue
      }
      // Kept tokens are complete and were checked when read.
      let length = try _ScanInput.with(bytes) { input in
        var rest = input.slice(position, input.count)
        return try _BinaryTokens.decode(&rest, into: &self).length
      }
      frames[last].position = position &+ length
      if handler.isDone { return }
      for index in shares.queued { frames.append((keptBytes(shares.entries[index]), 0)) }
      shares.queued.removeAll(keepingCapacity: true)
    }
  }

  /// A copy of the kept bytes of `entry`.
  @inlinable
  func keptBytes(_ entry: _SharedValues.Entry) -> [UInt8] {
    Array(kept[entry.keptStart..<entry.keptStart &+ (entry.end &- entry.start)])
  }

  /// Reads the header at `position` of `input` and returns its length, or nil when the bytes
  /// from there do not hold it yet.
  @inlinable mutating func readHeader(_ input: _ScanInput, at position: Int) throws -> Int? {
    guard let length = try _BinaryTokens.header(input, at: position) else { return nil }
    headerDone = true
    return length
  }

  /// The entry a table reference names, after checking it names an earlier one.
  @inlinable @inline(__always)
  mutating func reference(_ index: UInt64, in table: _BinaryTable, isKey: Bool) throws
    -> JSONString
  {
    guard index < UInt64(table.count) else {
      throw _binaryError(.reference(index, of: table.count, isKey: isKey), at: offset)
    }
    // Made here, right after the check, which the table's own check then repeats and the
    // optimizer drops (made after `beginValue`, the table's count was loaded again and
    // checked again: 12 more instructions a key on twitter.json).
    return table.string(Int(index), keyTableEntry: isKey ? Int(index) : -1)
  }

  /// Enters `bytes` in `table`, with whether they need no escaping in JSON. Static, not a
  /// method: a method taking a table of `self` inout would work on a copy of `self`, and copy
  /// the table's storage on every entry.
  @inlinable static func enter(
    _ bytes: _ScanInput, needsNoEscaping: Bool, in table: inout _BinaryTable, at offset: Int,
    isKey: Bool
  ) throws {
    guard table.hasRoom(for: bytes.count) else {
      throw _binaryError(.tableFull(isKey: isKey), at: offset)
    }
    table.append(bytes, needsNoEscaping: needsNoEscaping)
  }

  // MARK: Tokens, as the decoder hands them on

  @inlinable var maxStringLength: Int { options.limits.maxStringLength }
  /// The handler may be a writer, which copies strings that need no escaping as they are.
  @inlinable static var findsEscapes: Bool { true }
  @inlinable var maxNumberLength: Int { options.limits.maxNumberLength }
  @inlinable var allowNonFiniteNumbers: Bool { options.allowNonFiniteNumbers }

  @inlinable @inline(__always)
  mutating func tokenNull() throws {
    try beginValue()
    try handler.null()
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenBool(_ value: Bool) throws {
    try beginValue()
    try handler.bool(value)
    try endValue()
  }

  /// A number read in binary form: as it is to a handler that keeps it so (the tree builder),
  /// else as the text it stands for.
  @inlinable @inline(__always)
  mutating func tokenNumber(_ number: JSONBinaryNumber) throws {
    try beginValue()
    try handler.binaryNumber(number)
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenNumberText(_ bytes: _ScanInput, flags: UInt8) throws {
    try beginValue()
    try handler.number(bytes.number(0, bytes.count, flags: flags))
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenString(_ bytes: _ScanInput, shared: Bool, needsNoEscaping: Bool) throws {
    if shared && !shares.replaying {
      try Self.enter(
        bytes, needsNoEscaping: needsNoEscaping, in: &tables.inRun.strings, at: offset,
        isKey: false)
    }
    try beginValue()
    try handler.string(bytes.wellFormedString(needsNoEscaping: needsNoEscaping))
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenStringReference(_ index: UInt64) throws {
    let string = try reference(index, in: tables.inRun.strings, isKey: false)
    try beginValue()
    try handler.string(string)
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenKey(_ bytes: _ScanInput, shared: Bool, needsNoEscaping: Bool) throws {
    try beginKey()
    if shared && !shares.replaying {
      try Self.enter(
        bytes, needsNoEscaping: needsNoEscaping, in: &tables.inRun.keys, at: offset, isKey: true)
      try handler.key(
        bytes.wellFormedString(
          keyTableEntry: tables.inRun.keys.count &- 1, needsNoEscaping: needsNoEscaping))
    } else {
      try handler.key(bytes.wellFormedString(needsNoEscaping: needsNoEscaping))
    }
  }

  @inlinable @inline(__always)
  mutating func tokenKeyReference(_ index: UInt64) throws {
    let key = try reference(index, in: tables.inRun.keys, isKey: true)
    try beginKey()
    try handler.key(key)
  }

  @inlinable @inline(__always)
  mutating func tokenStart(isObject: Bool) throws {
    try beginValue()
    guard depth < options.limits.maxDepth else {
      throw _binaryError(.depth(options.limits.maxDepth), at: offset)
    }
    open(isObject)
    if isObject { try handler.startObject() } else { try handler.startArray() }
  }

  @inlinable
  mutating func tokenShare() throws {
    try checkValueMayStand(else: .sharedMark)
    try shares.share(at: offset, depth: depth, keptCount: kept.count)
  }

  @inlinable
  mutating func tokenValueReference(_ index: UInt64) throws {
    if shares.replaying { return shares.queued.append(Int(index)) }
    // Where it stands first, as for any value: a second top-level value names no entry of
    // this one's table, which the tree reader still holds.
    try checkValueMayStand(else: .valueForKey)
    try replay(try shares.reference(index, at: offset, limit: options.limits.maxInputLength))
  }

  @inlinable
  mutating func tokenStartMap() throws {
    try tokenStart(isObject: false)
    maps.open(at: depth)
  }

  @inlinable @inline(__always)
  mutating func tokenEndArray() throws {
    guard depth > 0 && !inObject && !shares.markPending else {
      throw _binaryError(shares.markPending ? .sharedMark : .misplacedArrayEnd, at: offset)
    }
    guard maps.mayEnd(at: depth) else { throw _binaryError(.mapEndAfterKey, at: offset) }
    close()
    try handler.endArray()
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenEndObject() throws {
    guard depth > 0 && inObject && !awaitingValue else {
      throw _binaryError(.misplacedObjectEnd(afterKey: awaitingValue), at: offset)
    }
    close()
    try handler.endObject()
    try endValue()
  }

  @inlinable @inline(__always)
  mutating func tokenData(_ bytes: _ScanInput) throws {
    try beginValue()
    text.removeAll(keepingCapacity: true)
    _appendBase64(bytes, to: &text)
    try JSONString.withWellFormed(text) { try handler.string($0) }
    try endValue()
  }

  // MARK: Structure

  /// Throws unless a value may stand here: at the top level (the first, unless several are
  /// allowed), in an array or after a key; `misplaced` where a key is due.
  @inlinable @inline(__always)
  mutating func checkValueMayStand(else misplaced: _BinaryFailure) throws {
    if depth == 0 {
      guard valueCount == 0 || options.allowMultipleValues else {
        throw _binaryError(.secondValue, at: offset)
      }
    } else if inObject && !awaitingValue {
      throw _binaryError(misplaced, at: offset)
    }
  }

  /// `checkValueMayStand(else: .valueForKey)`, then the value's place taken. Written out,
  /// not calling it: the two tests of the container's kind were not merged, and reading
  /// citm_catalog.json took 3% more instructions.
  @inlinable @inline(__always)
  mutating func beginValue() throws {
    if depth == 0 {
      guard valueCount == 0 || options.allowMultipleValues else {
        throw _binaryError(.secondValue, at: offset)
      }
    } else if inObject {
      guard awaitingValue else { throw _binaryError(.valueForKey, at: offset) }
      awaitingValue = false
    } else {
      maps.element(in: depth)
    }
  }

  @inlinable @inline(__always)
  mutating func beginKey() throws {
    guard depth > 0 && inObject && !awaitingValue else {
      throw _binaryError(.misplacedKey, at: offset)
    }
    awaitingValue = true
  }

  @inlinable @inline(__always)
  mutating func open(_ isObject: Bool) {
    containers.push(isObject: isObject)
  }

  @inlinable @inline(__always)
  mutating func close() {
    _ = containers.pop()
  }

  @inlinable @inline(__always)
  mutating func endValue() throws {
    shares.valueEnded(at: depth)
    if depth == 0 {
      valueCount &+= 1
      // The value table is a top-level value's own.
      if !shares.entries.isEmpty {
        shares.reset()
        kept.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Enters the failed state with `error` (a handler's ``JSONContentError`` located at the
  /// token being read), and returns what every later call throws.
  @usableFromInline
  @inline(never)
  mutating func _fail(_ error: any Error) -> any Error {
    if phase == .failed, let failure = _failure { return failure }
    phase = .failed
    _failure = JSONParseError(content: error, offset: offset, line: 0, column: 0) ?? error
    return _failure!
  }

  /// Invalid limits fail every call before any input is read (once per chunk: no cost that
  /// matters).
  @inlinable func _checkOptions() throws {
    if let invalid = options.limits._validationError {
      throw error(invalid.kind, invalid.message, at: 0)
    }
  }

  @inlinable func error(_ kind: JSONParseError.Kind, _ message: String, at offset: Int)
    -> JSONParseError
  {
    _BinaryTokens.failure(kind, message, at: offset)
  }
}

/// Standard base64 with padding.
@usableFromInline
func _appendBase64(_ bytes: _ScanInput, to out: inout [UInt8]) {
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

/// What can be wrong with binary input, made into a `JSONParseError` out of line: building
/// the messages inline made every token's code larger and slower.
@usableFromInline
enum _BinaryFailure {
  case longNumber
  case unsignedFitsSigned
  case badDecimal
  case badNumberText
  case nonFinite(Double)
  case depth(Int)
  case misplacedArrayEnd
  case mapEndAfterKey
  case sharedMark
  case sharedTableFull
  case valueReference(UInt64, of: Int)
  case expansion
  case misplacedObjectEnd(afterKey: Bool)
  case misplacedKey
  case valueForKey
  case secondValue
  case unknownTag(UInt8)
  case length(UInt64, limit: Int, isNumber: Bool)
  case notUTF8
  case reference(UInt64, of: Int, isKey: Bool)
  case tableFull(isKey: Bool)
}

@usableFromInline @inline(never)
func _binaryError(_ failure: _BinaryFailure, at offset: Int) -> JSONParseError {
  let kind: JSONParseError.Kind
  let message: String
  switch failure {
  case .longNumber: (kind, message) = (.invalidBinary, "a number longer than 64 bits")
  case .unsignedFitsSigned:
    (kind, message) = (.invalidBinary, "an unsigned integer that fits a signed one")
  case .badDecimal:
    (kind, message) = (.invalidBinary, "a decimal with a scale of 0 or no magnitude")
  case .badNumberText: (kind, message) = (.invalidNumber, "number text that is not a JSON number")
  case .nonFinite(let value): (kind, message) = (.invalidNumber, "\(value) is not a JSON number")
  case .depth(let limit): (kind, message) = (.limitExceeded(.depth), "nesting deeper than \(limit)")
  case .misplacedArrayEnd: (kind, message) = (.invalidBinary, "an array end where no array is open")
  case .mapEndAfterKey:
    (kind, message) = (.invalidBinary, "a map end after a key, before its value")
  case .sharedMark:
    (kind, message) = (
      .invalidBinary, "a shared-value mark (40) not followed by a value, or where a key goes"
    )
  case .sharedTableFull:
    (kind, message) = (.invalidBinary, "a shared value after the value table is full")
  case .valueReference(let index, let count):
    (kind, message) = (
      .invalidBinary,
      "a reference to shared value \(index), of \(count), not read to its end before it"
    )
  case .expansion:
    (kind, message) = (
      .limitExceeded(.inputLength),
      "references that stand for more bytes than the input limit, or than 64 per byte of"
        + " input after the first 16 MiB"
    )
  case .misplacedObjectEnd(let afterKey):
    kind = .invalidBinary
    message =
      afterKey
      ? "an object end after a key, before its value" : "an object end where no object is open"
  case .misplacedKey:
    (kind, message) = (.invalidBinary, "a key outside an object or where a value is expected")
  case .valueForKey: (kind, message) = (.invalidBinary, "a value where an object key is expected")
  case .secondValue: (kind, message) = (.trailingText, "a second top-level value")
  case .unknownTag(let tag):
    kind = .invalidBinary
    message = "unknown tag 0x\(String(tag, radix: 16)) (written by a newer minor version?)"
  case .length(let length, let limit, let isNumber):
    kind = .limitExceeded(isNumber ? .numberLength : .stringLength)
    message = "a length of \(length) bytes, over the limit of \(limit)"
  case .notUTF8: (kind, message) = (.invalidUTF8, "a string that is not UTF-8")
  case .reference(let index, let count, let isKey):
    (kind, message) = (
      .invalidBinary, "a reference to \(isKey ? "key" : "string") \(index) of \(count)"
    )
  case .tableFull(let isKey):
    (kind, message) = (
      .invalidBinary, "a shared \(isKey ? "key" : "string") after its table is full"
    )
  }
  return JSONParseError(kind: kind, offset: offset, line: 0, column: 0, message: message)
}
