// Reading a whole binary document straight into a tree: `JSONValue(binary:)`.
//
// A `JSONBinaryReader` feeding a `JSONTreeBuilder` does the same in chunks of any size, but the
// two keep apart what they know: the reader copies each shared key and string into its tables,
// and the builder copies them again into the tree's arena (and must compare the bytes before
// it may reuse a copy, since it cannot know which reader an entry number came from). Here one
// reader owns both: a shared key or string is copied into the arena once, where its table
// entry then points, so a reference pushes a node without copying, hashing or comparing.
//
// Tokens are read and checked as `JSONBinaryReader.process` reads them, in the same order, so
// the errors and their offsets are the same; the tests hold the two readers to that on every
// truncation and flipped byte of a sample, and the binary fuzz target on arbitrary bytes.

import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

extension JSONValue {
  /// Reads one value in the binary format (see <doc:BinaryFormat>) into a tree.
  ///
  /// ```swift
  /// var writer = JSONBinaryWriter()
  /// try value.replay(into: &writer)
  /// try writer.finish()
  /// let copy = try JSONValue(binary: writer.bytes)      // [UInt8], Data, ArraySlice…
  /// ```
  ///
  /// It reads what a ``JSONBinaryReader`` feeding a ``JSONTreeBuilder`` reads, with the same
  /// errors, but needs the whole input at once; in exchange, keys and short strings that the
  /// binary names by reference are not copied again.
  ///
  /// - Throws: ``JSONParseError``, at the offset of the token at fault, including
  ///   ``JSONParseError/Kind/duplicateKey`` under ``JSONDuplicateKeyPolicy/error``. The
  ///   options' limits and `allowNonFiniteNumbers` apply; a second value is an error.
  @inlinable
  public init<Bytes: Sequence>(
    binary bytes: Bytes, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) throws where Bytes.Element == UInt8 {
    if let value = try bytes.withContiguousStorageIfAvailable({
      try _readBinaryTree($0, options: options, duplicateKeys: duplicateKeys)
    }) {
      self = value
    } else {
      self = try Array(bytes).withUnsafeBufferPointer {
        try _readBinaryTree($0, options: options, duplicateKeys: duplicateKeys)
      }
    }
  }
}

@usableFromInline
func _readBinaryTree(
  _ input: UnsafeBufferPointer<UInt8>, options: JSONParseOptions,
  duplicateKeys: JSONDuplicateKeyPolicy
) throws -> JSONValue {
  var reader = _BinaryTreeReader(options: options, duplicateKeys: duplicateKeys)
  defer { reader.deallocate() }
  do {
    return try reader.read(input)
  } catch let error as any JSONContentError {
    throw JSONParseError(
      kind: error.parseErrorKind, offset: reader.offset, line: 0, column: 0,
      message: error.message)
  }
}

/// The reader behind `JSONValue(binary:)`: the whole input, one value, into a tree builder.
struct _BinaryTreeReader {
  var builder: JSONTreeBuilder
  let limits: JSONParseLimits
  let allowNonFiniteNumbers: Bool
  /// The tables' entries: where their bytes are in the tree's arena (and a key's fingerprint).
  var keys = _Buffer<_TableEntry>(capacity: 64)
  var strings = _Buffer<_TableEntry>(capacity: 64)
  /// The bytes each table holds, for its limit.
  var keyBytes = 0
  var stringBytes = 0
  /// After a key, before its value.
  var awaitingValue = false
  var valueCount = 0
  /// The offset of the token being read.
  var offset = 0
  /// Base64 text of a data value.
  var text: [UInt8] = []

  init(options: JSONParseOptions, duplicateKeys: JSONDuplicateKeyPolicy) {
    builder = JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys)
    limits = options.limits
    allowNonFiniteNumbers = options.allowNonFiniteNumbers
  }

  func deallocate() {
    keys.deallocate()
    strings.deallocate()
  }

  mutating func read(_ input: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
    if let invalid = limits._validationError {
      throw failure(invalid.kind, invalid.message, at: 0)
    }
    guard let base = input.baseAddress, input.count > 0 else {
      throw failure(.emptyInput, "no input", at: 0)
    }
    guard input.count <= limits.maxInputLength else {
      throw failure(.limitExceeded(.inputLength), "input longer than the limit", at: 0)
    }
    let end = input.count
    guard var position = try _BinaryTokens.header(base, end) else {
      throw failure(.unexpectedEndOfInput, "the input ends inside a token", at: end)
    }
    // No copy of the builder exists while this runs: its state is changed in place.
    builder._beginEventRun()
    defer { builder._endEventRun() }
    let state = builder._state()
    while position < end {
      offset = position
      guard let length = try token(base + position, end &- position, state) else {
        throw failure(.unexpectedEndOfInput, "the input ends inside a token", at: end)
      }
      position &+= length
    }
    offset = end
    let depth = state.pointee.frames.count
    if depth > 0 {
      throw failure(
        .unexpectedEndOfInput, "the input ends inside \(depth) open container(s)", at: end)
    }
    guard let value = builder.value else {
      throw failure(.unexpectedEndOfInput, "no value after the header", at: end)
    }
    return value
  }

  /// Delivers the token at `p` to the builder and returns its length, or nil when it runs past
  /// `available` (the end of the input). `JSONBinaryReader.process`, case for case.
  @inline(__always)
  mutating func token(
    _ p: UnsafePointer<UInt8>, _ available: Int, _ state: UnsafeMutablePointer<_BuilderState>
  ) throws -> Int? {
    let tag = p[0]
    var length = 1
    switch tag {
    case _BinaryTag.null, _BinaryTag.false, _BinaryTag.true:
      try beginValue(state)
      builder._push(
        _Node(
          head: tag == _BinaryTag.null
            ? _JSONNode.null : tag == _BinaryTag.true ? _JSONNode.true : _JSONNode.false, payload: 0
        ), state)
      endValue(state)
    case _BinaryTag.int:
      guard let (bits, size) = try _BinaryTokens.leb128(p + 1, available &- 1, at: offset)
      else { return nil }
      length = 1 &+ size
      try number(.int(_unzigzag(bits)), state)
    case _BinaryTag.uint:
      guard let (value, size) = try _BinaryTokens.leb128(p + 1, available &- 1, at: offset)
      else { return nil }
      length = 1 &+ size
      try number(_BinaryTokens.uint(value, at: offset), state)
    case _BinaryTag.decimal:
      guard available >= 2,
        let (bits, size) = try _BinaryTokens.leb128(p + 2, available &- 2, at: offset)
      else { return nil }
      length = 2 &+ size
      try number(_BinaryTokens.decimal(mantissa: _unzigzag(bits), scale: p[1], at: offset), state)
    case _BinaryTag.int32:
      guard available >= 5 else { return nil }
      length = 5
      try number(_BinaryTokens.int32(p + 1), state)
    case _BinaryTag.int64:
      guard available >= 9 else { return nil }
      length = 9
      try number(_BinaryTokens.int64(p + 1), state)
    case _BinaryTag.decimal64:
      guard available >= 10 else { return nil }
      length = 10
      try number(_BinaryTokens.decimal64(p + 1, at: offset), state)
    case _BinaryTag.float32:
      guard available >= 5 else { return nil }
      length = 5
      try double(_BinaryTokens.float32(p + 1), state)
    case _BinaryTag.float64, _BinaryTag.date:
      guard available >= 9 else { return nil }
      length = 9
      try double(_BinaryTokens.float64(p + 1), state)
    case _BinaryTag.numberText:
      guard let (bytes, size) = try payload(p, available, limit: limits.maxNumberLength) else {
        return nil
      }
      length = size
      let flags = try _BinaryTokens.numberTextFlags(
        bytes, allowNonFinite: allowNonFiniteNumbers, at: offset)
      try beginValue(state)
      builder.number(JSONNumber(_utf8: bytes, flags: flags))
      endValue(state)
    case _BinaryTag.string, _BinaryTag.sharedString:
      guard let (bytes, size) = try text(p, available) else { return nil }
      length = size
      if tag == _BinaryTag.sharedString {
        let payload = try enter(bytes, fingerprint: 0, isKey: false, state)
        try beginValue(state)
        builder._pushKnownString(state, payload: payload, count: bytes.count)
      } else {
        try beginValue(state)
        builder.string(JSONString(_wellFormed: bytes))
      }
      endValue(state)
    case _BinaryTag.stringRef:
      guard let (entry, size) = try reference(p, available, in: strings, isKey: false) else {
        return nil
      }
      length = size
      try beginValue(state)
      builder._pushKnownString(state, payload: entry.payload, count: entry.length)
      endValue(state)
    case _BinaryTag.key, _BinaryTag.sharedKey:
      guard let (bytes, size) = try text(p, available) else { return nil }
      length = size
      try beginKey(state)
      if tag == _BinaryTag.sharedKey {
        let fingerprint = _BuilderFrame.fingerprint(of: bytes)
        let payload = try enter(bytes, fingerprint: fingerprint, isKey: true, state)
        if !builder._pushKnownKey(
          state, payload: payload, count: bytes.count, fingerprint: fingerprint)
        {
          try builder.key(JSONString(_wellFormed: bytes))
        }
      } else {
        try builder.key(JSONString(_wellFormed: bytes))
      }
    case _BinaryTag.keyRef:
      guard let (entry, size) = try reference(p, available, in: keys, isKey: true) else {
        return nil
      }
      length = size
      try beginKey(state)
      if !builder._pushKnownKey(
        state, payload: entry.payload, count: entry.length, fingerprint: Int(entry.fingerprintBits))
      {
        try builder.key(
          JSONString(_wellFormed: _JSONNode.bytes(entry.payload, count: entry.length)))
      }
    case _BinaryTag.startArray, _BinaryTag.startSet, _BinaryTag.startObject:
      try beginValue(state)
      guard state.pointee.frames.count < limits.maxDepth else {
        throw _binaryError(.depth(limits.maxDepth), at: offset)
      }
      builder._open(state, isObject: tag == _BinaryTag.startObject)
    case _BinaryTag.endArray:
      guard state.pointee.frames.count > 0 && !inObject(state) else {
        throw _binaryError(.misplacedArrayEnd, at: offset)
      }
      builder._endArray(state)
      endValue(state)
    case _BinaryTag.endObject:
      guard state.pointee.frames.count > 0 && inObject(state) && !awaitingValue else {
        throw _binaryError(.misplacedObjectEnd(afterKey: awaitingValue), at: offset)
      }
      builder._endObject(state)
      endValue(state)
    case _BinaryTag.data:
      guard let (bytes, size) = try payload(p, available, limit: limits.maxStringLength) else {
        return nil
      }
      length = size
      try beginValue(state)
      text.removeAll(keepingCapacity: true)
      _appendBase64(bytes, to: &text)
      text.withUnsafeBufferPointer { builder.string(JSONString(_wellFormed: $0)) }
      endValue(state)
    default:
      throw _binaryError(.unknownTag(tag), at: offset)
    }
    return length
  }

  // MARK: Token parts

  /// The payload of the token at `p` and the token's length; nil when it runs past
  /// `available`.
  @inline(__always)
  func payload(_ p: UnsafePointer<UInt8>, _ available: Int, limit: Int) throws -> (
    UnsafeBufferPointer<UInt8>, length: Int
  )? {
    guard let bytes = try _BinaryTokens.payload(p, available, limit: limit, at: offset) else {
      return nil
    }
    return (bytes, bytes.baseAddress.unsafelyUnwrapped + bytes.count - p)
  }

  /// `payload` for a string or a key: held to the string length limit, and UTF-8.
  @inline(__always)
  func text(_ p: UnsafePointer<UInt8>, _ available: Int) throws -> (
    UnsafeBufferPointer<UInt8>, length: Int
  )? {
    guard let (bytes, length) = try payload(p, available, limit: limits.maxStringLength) else {
      return nil
    }
    guard _isWellFormedUTF8(bytes) else { throw _binaryError(.notUTF8, at: offset) }
    return (bytes, length)
  }

  /// The entry of `table` that the reference token at `p` names, and the token's length; nil
  /// when it runs past `available`. Only earlier entries may be named.
  @inline(__always)
  func reference(
    _ p: UnsafePointer<UInt8>, _ available: Int, in table: _Buffer<_TableEntry>, isKey: Bool
  ) throws -> (_TableEntry, length: Int)? {
    guard let (index, size) = try _BinaryTokens.shortLEB128(p + 1, available &- 1, at: offset)
    else { return nil }
    guard index < UInt64(table.count) else {
      throw _binaryError(.reference(index, of: table.count, isKey: isKey), at: offset)
    }
    return (table.base[Int(index)], 1 &+ size)
  }

  // MARK: Values and structure, as JSONBinaryReader checks them

  @inline(__always)
  mutating func number(_ number: _BinaryNumber, _ state: UnsafeMutablePointer<_BuilderState>)
    throws
  {
    try beginValue(state)
    builder._push(_JSONNode.node(number), state)
    endValue(state)
  }

  mutating func double(_ value: Double, _ state: UnsafeMutablePointer<_BuilderState>) throws {
    try number(
      _BinaryTokens.double(value, allowNonFinite: allowNonFiniteNumbers, at: offset), state)
  }

  @inline(__always)
  func inObject(_ state: UnsafeMutablePointer<_BuilderState>) -> Bool {
    state.pointee.frames.base[state.pointee.frames.count &- 1].isObject
  }

  @inline(__always)
  mutating func beginValue(_ state: UnsafeMutablePointer<_BuilderState>) throws {
    if state.pointee.frames.count == 0 {
      guard valueCount == 0 else { throw _binaryError(.secondValue, at: offset) }
    } else if inObject(state) {
      guard awaitingValue else { throw _binaryError(.valueForKey, at: offset) }
      awaitingValue = false
    }
  }

  @inline(__always)
  mutating func beginKey(_ state: UnsafeMutablePointer<_BuilderState>) throws {
    guard state.pointee.frames.count > 0 && inObject(state) && !awaitingValue else {
      throw _binaryError(.misplacedKey, at: offset)
    }
    awaitingValue = true
  }

  /// After a value: one more top-level value when it was one. (The builder has already closed
  /// the container a value ended.)
  @inline(__always)
  mutating func endValue(_ state: UnsafeMutablePointer<_BuilderState>) {
    if state.pointee.frames.count == 0 { valueCount &+= 1 }
  }

  /// Enters `bytes` in the key or the string table: copied into the tree's arena, where the
  /// entry points (with a key's fingerprint), and whose address it returns. Throws when the
  /// table is full.
  @inline(__always)
  mutating func enter(
    _ bytes: UnsafeBufferPointer<UInt8>, fingerprint: Int, isKey: Bool,
    _ state: UnsafeMutablePointer<_BuilderState>
  ) throws -> UInt64 {
    guard
      JSONBinaryFormat.tableHasRoom(
        entries: isKey ? keys.count : strings.count, bytes: isKey ? keyBytes : stringBytes,
        adding: bytes.count)
    else { throw _binaryError(.tableFull(isKey: isKey), at: offset) }
    let payload = state.pointee.appendBytes(bytes)
    let entry = _TableEntry(
      payload: payload, lengthAndFingerprint: _TableEntry.pack(bytes.count, fingerprint))
    if isKey {
      keys.append(entry)
      keyBytes &+= bytes.count
    } else {
      strings.append(entry)
      stringBytes &+= bytes.count
    }
    return payload
  }

  func failure(_ kind: JSONParseError.Kind, _ message: String, at offset: Int) -> JSONParseError {
    _BinaryTokens.failure(kind, message, at: offset)
  }
}
