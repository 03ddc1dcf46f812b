// Reading a whole binary document straight into a tree: `JSONValue(binary:)`.
//
// A `JSONBinaryReader` feeding a `JSONTreeBuilder` does the same in chunks of any size, but the
// two keep apart what they know: the reader copies each shared key and string into its tables,
// and the builder copies them again into the tree's arena (and must compare the bytes before
// it may reuse a copy, since it cannot know which reader an entry number came from). Here one
// reader owns both: a shared key or string is copied into the arena once, where its table
// entry then points, so a reference pushes a node without copying, hashing or comparing.
//
// Both readers decode tokens with one decoder, `_BinaryTokens.decode`, and check what it hands
// them in the same order, so the errors and their offsets are the same; the tests hold the two
// readers to that on every truncation and flipped byte of a sample, and the binary fuzz target
// on arbitrary bytes.

import JSONStreamCore
import JSONStreamValue

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
    self = try _ScanInput.with(contentsOf: bytes) {
      try _readBinaryTree($0, options: options, duplicateKeys: duplicateKeys)
    }
  }
}

/// The value of the binary document `input` holds (nil for no bytes), or a located error.
@usableFromInline
func _readBinaryTree(
  _ input: _ScanInput?, options: JSONParseOptions, duplicateKeys: JSONDuplicateKeyPolicy
) throws -> JSONValue {
  var reader = _BinaryTreeReader(
    options: options, duplicateKeys: duplicateKeys, sharesNodes: false)
  defer { reader.deallocate() }
  do {
    return try reader.read(input)
  } catch let error as any JSONContentError {
    throw JSONParseError(
      kind: error.parseErrorKind, offset: reader.offset, line: 0, column: 0,
      message: error.message)
  }
}

extension JSONValue {
  /// `JSONValue(binary:options:duplicateKeys:)` for a decoder that keeps identity: each
  /// reference to a shared value is the value's own node again, not a copy, and `shared` holds
  /// those nodes, by which the decoder knows the places that hold one value. Only nodes that
  /// no other value has are given (containers: a scalar's node may equal another's).
  package static func readingSharedValues<Bytes: Sequence<UInt8>>(
    binary bytes: Bytes, options: JSONParseOptions, duplicateKeys: JSONDuplicateKeyPolicy
  ) throws -> (value: JSONValue, shared: [_Node]) {
    try _ScanInput.with(contentsOf: bytes) { input in
      var reader = _BinaryTreeReader(
        options: options, duplicateKeys: duplicateKeys, sharesNodes: true)
      defer { reader.deallocate() }
      do {
        let value = try reader.read(input)
        let shared = reader.sharedNodes.compactMap { node in
          node.flatMap { _JSONNode.isContainer($0.head) ? $0 : nil }
        }
        return (value, shared)
      } catch let error as any JSONContentError {
        throw JSONParseError(
          kind: error.parseErrorKind, offset: reader.offset, line: 0, column: 0,
          message: error.message)
      }
    }
  }
}

/// The reader behind `JSONValue(binary:)`: the whole input, one value, into a tree builder's
/// state, which it holds for the document (no builder, so no copy of it to check for).
struct _BinaryTreeReader: _BinaryDocumentSink {
  /// The tree being built: what `JSONTreeBuilder` keeps, worked on by the same methods.
  var state = _BuilderState()
  let duplicateKeys: JSONDuplicateKeyPolicy
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
  /// The open maps (see `_OpenMaps`).
  var maps = _OpenMaps()
  /// The value table (see `_SharedValues`): its values are replayed from `document`.
  var shares = _SharedValues()
  var document: _ScanInput? = nil
  /// Whether a reference pushes a copy of its value's node instead of replaying the value:
  /// the tree then holds the value once, reached from each place (nothing in a tree is
  /// changed in place), and a decoder can tell the places apart from other equal values.
  let sharesNodes: Bool
  /// With `sharesNodes`: each shared value's node (nil when it has none of its own: a
  /// top-level value, or one a repeated key set aside), and the stack's count where it went.
  var sharedNodes: [_Node?] = []
  var sharedNodeStackCounts: [Int] = []
  /// With `sharesNodes`: each shared value's height (the levels of containers it opens, its
  /// references' included), which a reference that pushes its node adds to the depth; the
  /// deepest level reached since the innermost open value began, and that of each enclosing
  /// one, set aside.
  var sharedHeights: [Int] = []
  var deepest = 0
  var deepestSetAside: [Int] = []
  var valueCount = 0
  /// The offset of the token being read.
  var offset = 0
  /// Base64 text of a data value.
  var text: [UInt8] = []

  init(options: JSONParseOptions, duplicateKeys: JSONDuplicateKeyPolicy, sharesNodes: Bool) {
    self.duplicateKeys = duplicateKeys
    self.sharesNodes = sharesNodes
    limits = options.limits
    allowNonFiniteNumbers = options.allowNonFiniteNumbers
  }

  func deallocate() {
    state.deallocate()
    keys.deallocate()
    strings.deallocate()
  }

  mutating func read(_ input: _ScanInput?) throws -> JSONValue {
    if let invalid = limits._validationError {
      throw failure(invalid.kind, invalid.message, at: 0)
    }
    guard let input else { throw failure(.emptyInput, "no input", at: 0) }
    guard input.count <= limits.maxInputLength else {
      throw failure(.limitExceeded(.inputLength), "input longer than the limit", at: 0)
    }
    let end = input.count
    document = input
    guard let headerLength = try _BinaryTokens.header(input, at: 0) else {
      throw failure(.unexpectedEndOfInput, "the input ends inside a token", at: end)
    }
    guard try _BinaryTokens.decodeTokens(input, from: headerLength, into: &self) else {
      throw failure(.unexpectedEndOfInput, "the input ends inside a token", at: end)
    }
    offset = end
    let depth = state.frames.count
    if depth > 0 {
      throw failure(
        .unexpectedEndOfInput, "the input ends inside \(depth) open container(s)", at: end)
    }
    if shares.markPending {
      throw failure(.unexpectedEndOfInput, "the input ends after a shared-value mark", at: end)
    }
    guard let value = state.values.first else {
      throw failure(.unexpectedEndOfInput, "no value after the header", at: end)
    }
    return value
  }

  // MARK: Tokens, as the decoder hands them on

  // Each checks and delivers what `JSONBinaryReader`'s does, case for case.

  var maxStringLength: Int { limits.maxStringLength }
  /// A tree keeps no escaping flags.
  static var findsEscapes: Bool { false }
  var maxNumberLength: Int { limits.maxNumberLength }

  @inline(__always)
  mutating func tokenNull() throws {
    try beginValue()
    state.push(_Node(head: _JSONNode.null, payload: 0))
    endValue()
  }

  @inline(__always)
  mutating func tokenBool(_ value: Bool) throws {
    try beginValue()
    state.push(_Node(head: value ? _JSONNode.true : _JSONNode.false, payload: 0))
    endValue()
  }

  @inline(__always)
  mutating func tokenNumber(_ number: JSONBinaryNumber) throws {
    try beginValue()
    state.push(_JSONNode.node(number))
    endValue()
  }

  @inline(__always)
  mutating func tokenNumberText(_ bytes: _ScanInput, flags: UInt8) throws {
    try beginValue()
    state.number(bytes.number(0, bytes.count, flags: flags))
    endValue()
  }

  @inline(__always)
  mutating func tokenString(_ bytes: _ScanInput, shared: Bool, needsNoEscaping: Bool) throws {
    if shared && !shares.replaying {
      let payload = try enter(bytes, fingerprint: 0, isKey: false)
      try beginValue()
      state.pushKnownString(payload: payload, count: bytes.count)
    } else {
      try beginValue()
      state.string(bytes.wellFormedString())
    }
    endValue()
  }

  @inline(__always)
  mutating func tokenStringReference(_ index: UInt64) throws {
    let entry = try reference(index, in: strings, isKey: false)
    try beginValue()
    state.pushKnownString(payload: entry.payload, count: entry.length)
    endValue()
  }

  @inline(__always)
  mutating func tokenKey(_ bytes: _ScanInput, shared: Bool, needsNoEscaping: Bool) throws {
    try beginKey()
    if shared && !shares.replaying {
      let fingerprint = _BuilderFrame.fingerprint(of: bytes)
      let payload = try enter(bytes, fingerprint: fingerprint, isKey: true)
      if !state.pushKnownKey(payload: payload, count: bytes.count, fingerprint: fingerprint) {
        try state.key(bytes.wellFormedString(), policy: duplicateKeys)
      }
    } else {
      try state.key(bytes.wellFormedString(), policy: duplicateKeys)
    }
  }

  @inline(__always)
  mutating func tokenKeyReference(_ index: UInt64) throws {
    let entry = try reference(index, in: keys, isKey: true)
    try beginKey()
    if !state.pushKnownKey(
      payload: entry.payload, count: entry.length, fingerprint: Int(entry.fingerprintBits))
    {
      try state.knownKey(payload: entry.payload, count: entry.length, policy: duplicateKeys)
    }
  }

  @inline(__always)
  mutating func tokenStart(isObject: Bool) throws {
    try beginValue()
    guard state.frames.count < limits.maxDepth else {
      throw _binaryError(.depth(limits.maxDepth), at: offset)
    }
    state.open(isObject: isObject)
    if sharesNodes && state.frames.count > deepest { deepest = state.frames.count }
  }

  mutating func tokenShare() throws {
    try checkValueMayStand(else: .sharedMark)
    try shares.share(at: offset, depth: state.frames.count, keptCount: 0)
    if sharesNodes && !shares.replaying {
      sharedNodes.append(nil)
      sharedNodeStackCounts.append(state.stackCount)
      sharedHeights.append(0)
      deepestSetAside.append(deepest)
      deepest = state.frames.count
    }
  }

  mutating func tokenValueReference(_ index: UInt64) throws {
    if shares.replaying { return shares.queued.append(Int(index)) }
    // Where it stands first, as `JSONBinaryReader` checks it.
    try checkValueMayStand(else: .valueForKey)
    let entry = try shares.reference(index, at: offset, limit: limits.maxInputLength)
    if sharesNodes, let node = sharedNodes[Int(index)] {
      // Its levels count as a copy's would: a tree deeper than `maxDepth` would make a
      // decoder that walks it recurse as deep.
      let depth = state.frames.count &+ sharedHeights[Int(index)]
      guard depth <= limits.maxDepth else {
        throw _binaryError(.depth(limits.maxDepth), at: offset)
      }
      if depth > deepest { deepest = depth }
      try beginValue()
      state.push(node)
      endValue()
    } else {
      try replay(entry)
    }
  }

  /// With `sharesNodes`: the shared value `index` has just ended, at the depth it began at.
  /// Its node is the top of the stack when it went there (not when a repeated key set it
  /// aside).
  mutating func keepSharedNode(_ index: Int) {
    sharedHeights[index] = deepest &- state.frames.count
    deepest = max(deepest, deepestSetAside.removeLast())
    guard state.frames.count > 0, state.stackCount == sharedNodeStackCounts[index] &+ 1 else {
      return
    }
    sharedNodes[index] = state.identifyLastNode()
  }

  /// Reads a copy of the shared value `entry` from its tokens in the input (and, through a
  /// stack, not by recursion, those of the references inside it).
  mutating func replay(_ entry: _SharedValues.Entry) throws {
    shares.replaying = true
    defer {
      shares.replaying = false
      shares.queued.removeAll()
    }
    var frames = [(position: entry.start, end: entry.end)]
    while let last = frames.indices.last {
      let (position, end) = frames[last]
      if position == end {
        frames.removeLast()
        continue
      }
      // The tokens are complete and were checked when read.
      var rest = document!.slice(position, end)
      let length = try _BinaryTokens.decode(&rest, into: &self).length
      frames[last].position = position &+ length
      for index in shares.queued {
        frames.append((shares.entries[index].start, shares.entries[index].end))
      }
      shares.queued.removeAll(keepingCapacity: true)
    }
  }

  mutating func tokenStartMap() throws {
    try tokenStart(isObject: false)
    maps.open(at: state.frames.count)
  }

  @inline(__always)
  mutating func tokenEndArray() throws {
    guard state.frames.count > 0 && !inObject && !shares.markPending else {
      throw _binaryError(shares.markPending ? .sharedMark : .misplacedArrayEnd, at: offset)
    }
    guard maps.mayEnd(at: state.frames.count) else {
      throw _binaryError(.mapEndAfterKey, at: offset)
    }
    state.endArray()
    endValue()
  }

  @inline(__always)
  mutating func tokenEndObject() throws {
    guard state.frames.count > 0 && inObject && !awaitingValue else {
      throw _binaryError(.misplacedObjectEnd(afterKey: awaitingValue), at: offset)
    }
    state.endObject()
    endValue()
  }

  @inline(__always)
  mutating func tokenData(_ bytes: _ScanInput) throws {
    try beginValue()
    text.removeAll(keepingCapacity: true)
    _appendBase64(bytes, to: &text)
    JSONString.withWellFormed(text) { state.string($0) }
    endValue()
  }

  // MARK: Table references

  /// The entry `index` of `table` names: only earlier entries may be named.
  @inline(__always)
  func reference(_ index: UInt64, in table: _Buffer<_TableEntry>, isKey: Bool) throws -> _TableEntry
  {
    guard index < UInt64(table.count) else {
      throw _binaryError(.reference(index, of: table.count, isKey: isKey), at: offset)
    }
    return table[Int(index)]
  }

  // MARK: Values and structure, as JSONBinaryReader checks them

  /// Whether the innermost open container, which must exist, is an object.
  @inline(__always)
  var inObject: Bool { state.frames[state.frames.count &- 1].isObject }

  /// Throws unless a value may stand here: first at the top level, in an array or after a
  /// key; `misplaced` where a key is due.
  @inline(__always)
  func checkValueMayStand(else misplaced: _BinaryFailure) throws {
    if state.frames.count == 0 {
      guard valueCount == 0 else { throw _binaryError(.secondValue, at: offset) }
    } else if inObject && !awaitingValue {
      throw _binaryError(misplaced, at: offset)
    }
  }

  /// `checkValueMayStand(else: .valueForKey)`, then the value's place taken: written out, as
  /// `JSONBinaryReader.beginValue()` is.
  @inline(__always)
  mutating func beginValue() throws {
    if state.frames.count == 0 {
      guard valueCount == 0 else { throw _binaryError(.secondValue, at: offset) }
    } else if inObject {
      guard awaitingValue else { throw _binaryError(.valueForKey, at: offset) }
      awaitingValue = false
    } else {
      maps.element(in: state.frames.count)
    }
  }

  @inline(__always)
  mutating func beginKey() throws {
    guard state.frames.count > 0 && inObject && !awaitingValue else {
      throw _binaryError(.misplacedKey, at: offset)
    }
    awaitingValue = true
  }

  /// After a value: one more top-level value when it was one. (The state has already closed
  /// the container a value ended.)
  @inline(__always)
  mutating func endValue() {
    shares.valueEnded(at: state.frames.count)
    if shares.closing >= 0 && sharesNodes { keepSharedNode(shares.closing) }
    if state.frames.count == 0 { valueCount &+= 1 }
  }

  /// Enters `bytes` in the key or the string table: copied into the tree's arena, where the
  /// entry points (with a key's fingerprint), and whose address it returns. Throws when the
  /// table is full.
  @inline(__always)
  mutating func enter(_ bytes: _ScanInput, fingerprint: Int, isKey: Bool) throws -> UInt64 {
    guard
      JSONBinaryFormat.tableHasRoom(
        entries: isKey ? keys.count : strings.count, bytes: isKey ? keyBytes : stringBytes,
        adding: bytes.count)
    else { throw _binaryError(.tableFull(isKey: isKey), at: offset) }
    let payload = state.appendBytes(bytes)
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
