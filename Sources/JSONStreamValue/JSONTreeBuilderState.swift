// The tree builder's kernel: its state between events (the open containers' nodes, the arena
// of the value being built, key indexes and fingerprints) and the event work on it. Nodes are
// moved into arena blocks and keys' bytes read through the node layout (see `_JSONStorage`),
// by pointer. `JSONTreeBuilder` reaches it only through its methods; the binary tree reader
// calls the package ones with the state it holds for a document.

import JSONStreamCore

/// What the tree builder keeps between events.
@usableFromInline
package struct _BuilderState: _ManualState {
  /// Nodes of the values in open containers, innermost last.
  @usableFromInline var stack: _Buffer<_Node>
  @usableFromInline package var frames: _Buffer<_BuilderFrame>
  /// The memory of the value being built: node blocks of closed containers (and key indexes),
  /// and the bytes of strings, keys and numbers.
  @usableFromInline package var arena: _Arena
  /// Key indexes of open objects with more than `_JSONNode.indexThreshold` members.
  @usableFromInline var indexes: [[UInt64]]
  /// What snapshots share between them (see JSONTreeBuilder+Snapshot).
  @usableFromInline var snapshots = _SnapshotState()
  /// The keys of a binary reader's table, as copied into this value's arena.
  @usableFromInline var keyCache = _TableKeyCache()
  /// The complete top-level values so far.
  @usableFromInline package var values: [JSONValue] = []

  /// No value begun, none complete.
  @usableFromInline
  package init() {
    self.init(
      stack: _Buffer(capacity: 64), frames: _Buffer(capacity: 16), arena: _Arena(), indexes: [])
  }

  @usableFromInline
  init(stack: _Buffer<_Node>, frames: _Buffer<_BuilderFrame>, arena: _Arena, indexes: [[UInt64]]) {
    self.stack = stack
    self.frames = frames
    self.arena = arena
    self.indexes = indexes
  }

  @usableFromInline
  package func copy() -> _BuilderState {
    var copy = _BuilderState(
      stack: stack.copy(), frames: frames.copy(), arena: arena, indexes: indexes)
    copy.values = values
    // Both builders now hold the chunks so far; only the original goes on filling the last,
    // and the copy starts its snapshot copies afresh.
    copy.arena.closeCurrentChunk()
    copy.snapshots = _SnapshotState()
    return copy
  }

  @usableFromInline
  package func deallocate() {
    stack.deallocate()
    frames.deallocate()
    keyCache.deallocate()
  }

  /// The innermost open object, when it has no key index yet (fewer members than
  /// `_JSONNode.indexThreshold`): where a key is found new by its fingerprint bit alone.
  @inlinable @inline(__always)
  func unindexedTop() -> UnsafeMutablePointer<_BuilderFrame>? {
    let frame = unsafe frames.base + (frames.count &- 1)
    guard unsafe frame.pointee.index < 0,
      unsafe (stack.count &- frame.pointee.start) >> 1 < _JSONNode.indexThreshold
    else { return nil }
    return unsafe frame
  }

  // MARK: Events

  // The builder's events, done in place. The reader of `JSONValue(binary:)` also calls the
  // package ones directly, with the state it holds for a whole document.

  @inlinable @inline(__always)
  package mutating func open(isObject: Bool) {
    frames.append(_BuilderFrame(start: stack.count, isObject: isObject))
  }

  @inlinable @inline(__always)
  package mutating func endArray() {
    let frame = frames.removeLast()
    snapshots.invalidate(from: frames.count)
    let count = stack.count &- frame.start
    let first = moveToArena(from: frame.start)
    stack.append(
      _Node(head: _JSONNode.array | UInt64(truncatingIfNeeded: count) << 8, payload: first))
    completed()
  }

  @inlinable @inline(__always)
  package mutating func endObject() {
    let frame = frames.removeLast()
    snapshots.invalidate(from: frames.count)
    let count = (stack.count &- frame.start) >> 1
    let first: UInt64
    if frame.index >= 0 {
      // The key index follows the members; its slots hold positions, which the move does not
      // change.
      let index = indexes.removeLast()
      first = unsafe index.withUnsafeBufferPointer {
        unsafe moveToArena(from: frame.start, index: $0)
      }
    } else {
      // Through the call: inlining the small-container path here too saved instructions on
      // citm_catalog.json but timed worse reading twitter.json from binary (1.65-1.67x of
      // the JSON text's speed, against 1.71-1.81x).
      first = unsafe moveToArena(from: frame.start, index: nil)
    }
    stack.append(
      _Node(head: _JSONNode.object | UInt64(truncatingIfNeeded: count) << 8, payload: first))
    completed()
  }

  /// A key; a repeated one does what `policy` says.
  @inlinable @inline(__always)
  package mutating func key(_ key: borrowing JSONString, policy: JSONDuplicateKeyPolicy) throws {
    if key._keyTableEntry >= 0 {
      try tableKey(key, entry: Int(key._keyTableEntry), policy: policy)
    } else {
      try untabledKey(key, policy: policy)
    }
  }

  /// A key without a table entry (all keys of JSON text).
  @inlinable
  mutating func untabledKey(_ key: borrowing JSONString, policy: JSONDuplicateKeyPolicy) throws {
    if unsafe !key._isWellFormed && !_isWellFormedUTF8(key.utf8) {
      // A producer passed ill-formed bytes: stored repaired (U+FFFD), as a `String` would be.
      var repaired = key.string
      try repaired.withJSONString { try self.key($0, policy: policy) }
      return
    }
    let last = frames.count &- 1
    let frame = frames[last]
    let members = (stack.count &- frame.start) >> 1
    let head = unsafe _JSONNode.stringHead(count: key.utf8.count)
    let duplicate: Int?
    if frame.index >= 0 {
      duplicate = unsafe indexInsert(key.utf8, position: members, frame: last)
    } else if members < _JSONNode.indexThreshold {
      // A key whose fingerprint bit is new cannot repeat one: most keys skip the search.
      let words = unsafe _BuilderFrame.fingerprintWord(of: frames.base + last, key.utf8)
      if unsafe words.seen & words.bit == 0 {
        unsafe words.word.pointee = unsafe words.seen | words.bit
        duplicate = nil
      } else {
        duplicate = unsafe linearFind(key.utf8, head: head, start: frame.start, members: members)
      }
    } else {
      duplicate = unsafe startIndex(key.utf8, frame: last)
    }
    if let duplicate {
      switch policy {
      case .error: throw JSONValueError.duplicateKey(key.string)
      case .lastWins: frames[last].pending = duplicate
      case .firstWins: frames[last].pending = _BuilderFrame.discard
      }
      return
    }
    let payload = unsafe appendBytes(key.utf8)
    stack.append(_Node(head: head, payload: payload))
  }

  /// A key a binary reader read as entry `entry` of its key table. The bytes copied for the
  /// entry's last use in this value, and their fingerprint, are kept by entry: a key met
  /// again is compared with them and, when equal and new in its object, pushed without
  /// hashing or copying it (most keys of a binary document are references). Inlined into the
  /// reader: as a call, its fast path took about 25 more instructions a key.
  @inlinable @inline(__always)
  mutating func tableKey(
    _ key: borrowing JSONString, entry: Int, policy: JSONDuplicateKeyPolicy
  ) throws {
    // The object's checks before the lookup: the other order took 1.5% more instructions
    // reading twitter.json.
    if let frame = unsafe unindexedTop(), let known = keyCache.lookup(entry, key),
      unsafe pushNewKey(
        frame, payload: known.payload, count: key.utf8.count, fingerprint: known.fingerprint)
    {
      return
    }
    try tableKeyFirstUse(key, entry: entry, policy: policy)
  }

  /// `tableKey` for a key not kept yet, or one that needs the general path (a repeated key,
  /// an indexed object): out of line, so that the reader inlines only the common case.
  @inlinable @inline(never)
  mutating func tableKeyFirstUse(
    _ key: borrowing JSONString, entry: Int, policy: JSONDuplicateKeyPolicy
  ) throws {
    let pushed = stack.count &+ 1
    try untabledKey(key, policy: policy)
    // Kept when the key was pushed (not a repeated one) with the bytes it came with.
    if stack.count == pushed {
      let node = stack[pushed &- 1]
      if unsafe _JSONNode.count(node.head) == key.utf8.count {
        unsafe keyCache.remember(
          entry, payload: node.payload, count: key.utf8.count,
          fingerprint: _BuilderFrame.fingerprint(of: key.utf8))
      }
    }
  }

  /// Pushes a key whose `count` bytes are in this value's arena already, at `payload`, with
  /// their fingerprint, when it is new in an object without an index; returns false, having
  /// done nothing, otherwise (the caller then takes `key(_:policy:)`).
  @inlinable @inline(__always)
  package mutating func pushKnownKey(payload: UInt64, count: Int, fingerprint: Int) -> Bool {
    guard let frame = unsafe unindexedTop() else { return false }
    return unsafe pushNewKey(frame, payload: payload, count: count, fingerprint: fingerprint)
  }

  /// `pushKnownKey` once the object `frame` is known to have no index: pushes the key when
  /// its fingerprint bit is new in the object.
  @inlinable @inline(__always)
  mutating func pushNewKey(
    _ frame: UnsafeMutablePointer<_BuilderFrame>, payload: UInt64, count: Int, fingerprint: Int
  ) -> Bool {
    let words = unsafe _BuilderFrame.fingerprintWord(of: frame, index: fingerprint)
    guard unsafe words.seen & words.bit == 0 else { return false }
    unsafe words.word.pointee = unsafe words.seen | words.bit
    stack.append(_JSONNode.stringNode(count: count, payload: payload))
    return true
  }

  /// A key whose `count` bytes are in this value's arena already, at `payload`, that
  /// `pushKnownKey` did not push: `key(_:policy:)` for those bytes.
  @inlinable
  package mutating func knownKey(payload: UInt64, count: Int, policy: JSONDuplicateKeyPolicy)
    throws
  {
    unsafe try key(JSONString(_wellFormed: _JSONNode.bytes(payload, count: count)), policy: policy)
  }

  /// Pushes a string value whose `count` bytes are in this value's arena already, at
  /// `payload`.
  @inlinable @inline(__always)
  package mutating func pushKnownString(payload: UInt64, count: Int) {
    push(_JSONNode.stringNode(count: count, payload: payload))
  }

  /// A string value; ill-formed UTF-8 is stored repaired (U+FFFD).
  @inlinable
  package mutating func string(_ value: borrowing JSONString) {
    if unsafe !value._isWellFormed && !_isWellFormedUTF8(value.utf8) {
      var repaired = value.string
      repaired.withJSONString { string($0) }
      return
    }
    let payload = unsafe appendBytes(value.utf8)
    unsafe push(_JSONNode.stringNode(count: value.utf8.count, payload: payload))
  }

  /// A number value, its text kept.
  @inlinable
  package mutating func number(_ value: borrowing JSONNumber) {
    let payload = unsafe appendBytes(value.utf8)
    push(_JSONNode.node(value, payload: payload))
  }

  /// Pushes a value's node.
  @inlinable @inline(__always)
  package mutating func push(_ node: _Node) {
    stack.append(node)
    completed()
  }

  /// How many nodes are on the stack: where the next value's node goes.
  @inlinable package var stackCount: Int { stack.count }

  /// The node of the value completed last, which must be the top of the stack, made to
  /// identify that value: an empty container, whose node would otherwise equal every other
  /// empty one's, gets an address of its own, which nothing reads (a walk reads no elements
  /// of it). For the binary reader's shared values, whose references push a copy of it.
  @inlinable
  package mutating func identifyLastNode() -> _Node {
    var node = stack[stack.count &- 1]
    let kind = _JSONNode.kind(node.head)
    if (kind == _JSONNode.array || kind == _JSONNode.object) && _JSONNode.count(node.head) == 0 {
      node.payload = unsafe UInt64(UInt(bitPattern: arena.allocate(words: 8)))
      stack[stack.count &- 1] = node
    }
    return node
  }

  /// A value's node was pushed: settle a repeated key, or finish a top-level value.
  @inlinable @inline(__always)
  mutating func completed() {
    let count = frames.count
    if count == 0 {
      values.append(finishTopLevel())
    } else if frames[count &- 1].pending != _BuilderFrame.none {
      settleRepeatedKey(frame: count &- 1)
    }
  }

  /// Copies `bytes` into the arena and returns their address (0 for none): how the binary
  /// tree reader enters a shared key or string in its table.
  @inlinable @inline(__always)
  package mutating func appendBytes(_ bytes: _ScanInput) -> UInt64 {
    unsafe appendBytes(bytes._buffer)
  }

  /// Copies bytes into the arena and returns their address (0 for none).
  @inlinable @inline(__always)
  mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) -> UInt64 {
    if source.isEmpty { return 0 }
    let target = unsafe arena.allocate(bytes: source.count)
    unsafe _copyBytes(target, source.baseAddress.unsafelyUnwrapped, count: source.count)
    return UInt64(UInt(bitPattern: target))
  }

  /// Moves the open container's nodes from the stack into the arena as one block and returns
  /// the block's address (0 for an empty container). One to four nodes (for arrays: objects
  /// take the call) are moved inline: canada.json's 56,000 coordinate pairs each cost a call,
  /// and a call to `memmove`, 80 instructions to move 32 bytes.
  @inlinable @inline(__always)
  mutating func moveToArena(from start: Int) -> UInt64 {
    let count = stack.count &- start
    if count == 0 { return 0 }
    if count > 4 { return unsafe moveToArena(from: start, index: nil) }
    let stride = MemoryLayout<_Node>.stride
    let target = unsafe arena.allocate(words: count &* stride)
    let source = unsafe UnsafeRawPointer(stack.base + start)
    func move(_ offset: Int) {
      unsafe target.storeBytes(
        of: source.load(fromByteOffset: offset, as: _Node.self), toByteOffset: offset,
        as: _Node.self)
    }
    // The first two nodes and the last two: the same ones when there are fewer.
    let last = (count &- 1) &* stride
    let second = count > 2 ? stride : 0
    move(0)
    move(second)
    move(last &- second)
    move(last)
    stack.truncate(to: start)
    return UInt64(UInt(bitPattern: target))
  }

  /// Moves the open container's nodes from the stack into the arena as one block, followed by
  /// `index` when given, and returns the block's address (0 for an empty container).
  @inlinable
  mutating func moveToArena(from start: Int, index: UnsafeBufferPointer<UInt64>?) -> UInt64 {
    let count = stack.count &- start
    if count == 0 { return 0 }
    let nodeBytes = count &* MemoryLayout<_Node>.stride
    let target = unsafe arena.allocate(words: nodeBytes &+ (index?.count ?? 0) &* 8)
    unsafe target.copyMemory(from: stack.base + start, byteCount: nodeBytes)
    if let index = unsafe index {
      unsafe (target + nodeBytes).copyMemory(
        from: index.baseAddress.unsafelyUnwrapped, byteCount: index.count &* 8)
    }
    stack.truncate(to: start)
    return UInt64(UInt(bitPattern: target))
  }

  /// The value of a repeated key is complete: it replaces the first value (last wins) or is
  /// dropped (first wins). Its key was never pushed.
  @usableFromInline
  mutating func settleRepeatedKey(frame last: Int) {
    let position = frames[last].pending
    frames[last].pending = _BuilderFrame.none
    let value = stack.removeLast()
    if position >= 0 {
      stack[frames[last].start &+ 2 &* position &+ 1] = value
      // A member snapshots may have copied has changed.
      snapshots.invalidate(from: last)
    }
  }

  /// The root node is complete: the chunks become the storage of its value.
  @usableFromInline
  mutating func finishTopLevel() -> JSONValue {
    let root = stack.removeLast()
    let storage = _JSONStorage(chunks: arena.chunks)
    arena = _Arena(previous: arena.allocated)
    // The kept keys' bytes are the finished value's now.
    keyCache.forgetAll()
    if _JSONNode.isNumber(_JSONNode.kind(root.head)) {
      // Written back as written, as numbers inside arrays and objects are.
      return .number(_JSONNode.withNumber(root) { JSONValue.Number(keepingText: $0) })
    }
    return storage.value(of: root)
  }

  /// The position of a key equal to `key` among the open object's first `members` members.
  @inlinable
  func linearFind(_ key: UnsafeBufferPointer<UInt8>, head: UInt64, start: Int, members: Int)
    -> Int?
  {
    var position = 0
    var slot = start
    while position < members {
      if unsafe stack[slot].head == head && keyEquals(at: slot, key) { return position }
      position &+= 1
      slot &+= 2
    }
    return nil
  }

  /// The bytes of the key node at stack position `slot`.
  @inlinable
  func key(at slot: Int) -> UnsafeBufferPointer<UInt8> {
    unsafe _JSONNode.utf8(stack[slot])
  }

  @inlinable
  func keyEquals(at slot: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    unsafe _bytesEqual(_JSONNode.utf8(stack[slot]), key)
  }

  /// The open object reached the index threshold: index its keys, then add `key`.
  @usableFromInline
  mutating func startIndex(_ key: UnsafeBufferPointer<UInt8>, frame last: Int) -> Int? {
    let start = frames[last].start
    let members = (stack.count &- start) >> 1
    var slots = [UInt64](repeating: 0, count: _JSONNode.indexCapacity(members &+ 1))
    unsafe slots.withUnsafeMutableBufferPointer { slots in
      for position in 0..<members {
        _ = unsafe _JSONTreeIndex.insert(
          self.key(at: start &+ 2 &* position), position: position, into: slots
        ) { _ in false }
      }
    }
    frames[last].index = indexes.count
    indexes.append(slots)
    return unsafe indexInsert(key, position: members, frame: last)
  }

  /// Adds `key` at `position` to the open object's index, or returns the position of the
  /// equal key already there.
  @usableFromInline
  mutating func indexInsert(_ key: UnsafeBufferPointer<UInt8>, position: Int, frame last: Int)
    -> Int?
  {
    let table = frames[last].index
    let start = frames[last].start
    // Captures the node stack alone: a copy of `self` would share `indexes`, and the insert
    // below would then copy the whole index for every key, quadratic in the object's size.
    let stack = self.stack
    let isEqual = { (candidate: Int) in
      unsafe _bytesEqual(_JSONNode.utf8(stack[start &+ 2 &* candidate]), key)
    }
    if _JSONNode.indexCapacity(position &+ 1) > indexes[table].count {
      // Grow only for a new key: the capacity must stay the one the final count implies.
      if let existing = unsafe indexes[table].withUnsafeMutableBufferPointer({
        unsafe _JSONTreeIndex.find(key, in: $0, isEqual: isEqual)
      }) {
        return existing
      }
      indexes[table] = regrown(indexes[table], members: position &+ 1, start: start)
    }
    return unsafe indexes[table].withUnsafeMutableBufferPointer { slots in
      unsafe _JSONTreeIndex.insert(key, position: position, into: slots, isEqual: isEqual)
    }
  }

  /// An index rebuilt at the capacity `members` members need.
  @usableFromInline
  func regrown(_ old: [UInt64], members: Int, start: Int) -> [UInt64] {
    var slots = [UInt64](repeating: 0, count: _JSONNode.indexCapacity(members))
    let mask = slots.count &- 1
    for entry in old where entry != 0 {
      // An entry keeps only its hash's top half; the slot comes from rehashing the key.
      let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
      var index = unsafe Int(truncatingIfNeeded: _keyHash(key(at: start &+ 2 &* position))) & mask
      while slots[index] != 0 { index = (index &+ 1) & mask }
      slots[index] = entry
    }
    return slots
  }
}

/// Inserting into a key index (the table format is described with `_JSONStorage`).
@usableFromInline
enum _JSONTreeIndex {
  /// The position of the entry for `key`, as `isEqual` decides among equal hashes.
  @inlinable
  static func find(
    _ key: UnsafeBufferPointer<UInt8>, in slots: UnsafeMutableBufferPointer<UInt64>,
    isEqual: (Int) -> Bool
  ) -> Int? {
    unsafe probe(key, slots, isEqual).existing
  }

  /// Inserts `key` at `position`, unless `isEqual` finds an entry with the same key: then
  /// returns that entry's position and inserts nothing.
  @inlinable
  static func insert(
    _ key: UnsafeBufferPointer<UInt8>, position: Int,
    into slots: UnsafeMutableBufferPointer<UInt64>,
    isEqual: (Int) -> Bool
  ) -> Int? {
    let (existing, free, hash) = unsafe probe(key, slots, isEqual)
    if let existing { return existing }
    unsafe slots[free] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(truncatingIfNeeded: position &+ 1)
    return nil
  }

  /// Walks `key`'s probe sequence to an equal entry or the first free slot.
  @inlinable
  static func probe(
    _ key: UnsafeBufferPointer<UInt8>, _ slots: UnsafeMutableBufferPointer<UInt64>,
    _ isEqual: (Int) -> Bool
  ) -> (existing: Int?, free: Int, hash: UInt64) {
    let hash = unsafe _keyHash(key)
    let mask = slots.count &- 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while unsafe slots[index] != 0 {
      let entry = unsafe slots[index]
      let existing = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
      if entry >> 32 == hash >> 32 && isEqual(existing) { return (existing, index, hash) }
      index = (index &+ 1) & mask
    }
    return (nil, index, hash)
  }
}

/// A node while its container is open (see `_JSONStorage` for the layout).
@usableFromInline
package struct _Node: BitwiseCopyable {
  @usableFromInline package var head: UInt64
  @usableFromInline package var payload: UInt64

  @inlinable @inline(__always)
  package init(head: UInt64, payload: UInt64) {
    self.head = head
    self.payload = payload
  }
}

/// An open container while the tree is built.
@usableFromInline
package struct _BuilderFrame: BitwiseCopyable {
  @usableFromInline static var none: Int { -1 }
  @usableFromInline static var discard: Int { -2 }

  /// Where its nodes start on the builder's stack.
  @usableFromInline var start: Int
  /// After a repeated key: the position whose value the next value replaces, `discard`, or
  /// `none`.
  @usableFromInline var pending: Int = _BuilderFrame.none
  /// Its key index among the builder's, or -1 while it has none.
  @usableFromInline var index: Int = -1
  /// One bit per key seen (see `fingerprintWord`), while the object has no index: 512 of
  /// them, so that up to the index threshold (64 members) few new keys find their bit taken
  /// (with 64 bits, the search on a taken bit was a fifth of building twitter.json's keys).
  @usableFromInline var fingerprints:
    (
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0)

  /// The fingerprint word of `frame` that holds `key`'s bit, what it holds, and the bit: one
  /// of 512, from the key's length and three of its bytes. Equal keys have equal bits.
  @inlinable @inline(__always)
  static func fingerprintWord(
    of frame: UnsafeMutablePointer<_BuilderFrame>, _ key: UnsafeBufferPointer<UInt8>
  ) -> (word: UnsafeMutablePointer<UInt64>, seen: UInt64, bit: UInt64) {
    unsafe fingerprintWord(of: frame, index: fingerprint(of: key))
  }

  /// The number (0…511) of the fingerprint bit of the key `bytes` hold.
  @inlinable @inline(__always)
  package static func fingerprint(of bytes: _ScanInput) -> Int {
    unsafe fingerprint(of: bytes._buffer)
  }

  /// The number (0…511) of `key`'s fingerprint bit.
  @inlinable @inline(__always)
  static func fingerprint(of key: UnsafeBufferPointer<UInt8>) -> Int {
    let count = key.count
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    if count > 0 {
      unsafe hash ^= UInt64(key[0]) | UInt64(key[count >> 1]) << 8 | UInt64(key[count &- 1]) << 16
      hash &*= 0xFF51_AFD7_ED55_8CCD
    }
    return Int(truncatingIfNeeded: hash >> 55)
  }

  /// `fingerprintWord` for a key whose fingerprint is `index`.
  @inlinable @inline(__always)
  static func fingerprintWord(
    of frame: UnsafeMutablePointer<_BuilderFrame>, index: Int
  ) -> (word: UnsafeMutablePointer<UInt64>, seen: UInt64, bit: UInt64) {
    let word =
      unsafe (UnsafeMutableRawPointer(frame)
      + MemoryLayout<_BuilderFrame>.offset(of: \_BuilderFrame.fingerprints)! + (index >> 6) &* 8)
      .assumingMemoryBound(to: UInt64.self)
    return unsafe (word, word.pointee, 1 << (index & 63))
  }

  @usableFromInline package var isObject: Bool

  @inlinable
  init(start: Int, isObject: Bool) {
    self.start = start
    self.isObject = isObject
  }
}
