// The memory behind parsed arrays and objects: 16-byte nodes and string bytes, bump-allocated
// from 64 KiB chunks, the layout RapidJSON's Document uses. Building a tree is then appending
// nodes and copying bytes, with no allocation or reference count per value; reading a value
// makes a Swift value (a `String`, a `Number`, a view) only when asked. Chunks are small enough
// for malloc to serve from its heap and reuse: one large growing block was mapped fresh from
// the kernel for every document, and its page faults took ~40% of building twitter.json.
//
// A node (`_Node`) is two words:
//
//   kind        head                                  payload
//   null        0                                     0
//   false/true  1 / 2                                 0
//   number      3 | flags << 8 | length << 16         address of its text
//   string      4 | length << 8                       address of its UTF-8 (0 when empty)
//   array       5 | count << 8                        address of its elements (0 when empty)
//   object      6 | count << 8                        address of its members (0 when empty)
//   open array  7 | count << 8                        address of a header: [elements, last]
//   open object 8 | count << 8                        address of a header: [members, last]
//   binary num. 9 | form << 8 | scale << 16           its bits (see `_JSONNode.binaryNumber`)
//   integer     10 | length << 8 | value << 16          address of its text
//
// An integer is a number whose text is an integer in canonical form (no leading zero, not
// `-0`) whose value fits in the head's 48 bits: up to 14 digits. Its text is kept for JSON
// output like any number's, and its value beside it, read once when the tree is built, so
// that writing it as binary, or reading it as an `Int`, converts nothing. (Converting the
// text was a quarter of the time of writing citm_catalog.json's tree as binary.)
//
// A binary number is one the binary reader read as an integer, a decimal or a double: kept as
// it is, so that reading a document makes no number text (formatting a double costs more than
// the rest of reading it); its text is made when it is read or written as JSON, and is the
// text the reader would have made (see `JSONBinaryNumber.withJSONNumber`).
//
// The last two exist only in snapshots of incomplete documents (see JSONParser+Snapshot): a
// container still open holds `count` complete elements (or members) and then one more,
// itself incomplete, at `last` — kept apart so that the complete ones can be shared by the
// snapshots that follow.
//
// The elements of an array are `count` consecutive nodes; the members of an object are `count`
// consecutive key/value node pairs (a key is a string node). An object of more than
// `_JSONNode.indexThreshold` members is followed by its key index: an open-addressing table of
// `_JSONNode.indexCapacity(count)` words, each `hash's top half << 32 | position + 1`, or 0 when
// empty. Number text is kept as written, so a parsed number is written back unchanged.

import JSONStreamCore
import JSONStreamParser

/// The chunks a document's nodes and bytes live in; views keep it alive.
@usableFromInline
package final class _JSONStorage: Sendable {
  @usableFromInline let chunks: [_Chunk]

  @usableFromInline
  init(chunks: [_Chunk]) { self.chunks = chunks }

  /// Storage for empty containers made in code.
  @usableFromInline static let empty = _JSONStorage(chunks: [])

  /// The Swift value of `node`: strings and numbers are decoded here, containers become
  /// views of this storage. With `keepingText`, a number keeps its text when its value alone
  /// would write it differently (`-0`, `1E2`, `1.50`), for a container that becomes Swift
  /// values when it is changed: its other members are then written back as they were.
  @usableFromInline
  func value(of node: _Node, keepingText: Bool = false) -> JSONValue {
    switch _JSONNode.kind(node.head) {
    case _JSONNode.null: return .null
    case _JSONNode.false: return .bool(false)
    case _JSONNode.true: return .bool(true)
    case _JSONNode.integer:
      // Canonical text: the value writes it as it is.
      return .number(JSONValue.Number(_JSONNode.integerValue(node.head)))
    case _JSONNode.number, _JSONNode.binaryNumber:
      return .number(
        _JSONNode.withNumber(node) {
          keepingText ? JSONValue.Number(keepingText: $0) : JSONValue.Number(exactly: $0)
        })
    case _JSONNode.string: return .string(_JSONNode.string(node))
    default:
      let (block, _, last, isObject) = unsafe _JSONNode.children(node)
      let count = unsafe _JSONNode.count(node.head) &+ (last == nil ? 0 : 1)
      let children = unsafe _ChildNodes(storage: self, first: block, count: count, last: last)
      return isObject
        ? .object(JSONObject(_children: children)) : .array(JSONArray(_children: children))
    }
  }

  /// The position of `key` among the `count` members starting at `first`, looking at member
  /// `hint` first: decoders ask for keys mostly in document order, some of them absent.
  @inlinable
  static func position(
    ofKey key: UnsafeBufferPointer<UInt8>, first: UnsafePointer<_Node>, count: Int,
    indexed: Bool = true, hint: Int = 0
  ) -> Int? {
    // Unsigned: a negative hint is out of range too.
    let start = UInt(bitPattern: hint) < UInt(bitPattern: count) ? hint : 0
    // Parsed objects past the threshold carry an index; a snapshot's open objects do not.
    if indexed && count > _JSONNode.indexThreshold {
      if unsafe start < count && _JSONNode.stringEquals(first[2 &* start], key) { return start }
      let index = unsafe UnsafeRawPointer(first + 2 &* count).assumingMemoryBound(to: UInt64.self)
      let mask = _JSONNode.indexCapacity(count) &- 1
      let hash = unsafe _keyHash(key)
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = unsafe index[slot]
        if entry == 0 { return nil }
        let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
        if unsafe entry >> 32 == hash >> 32 && _JSONNode.stringEquals(first[2 &* position], key) {
          return position
        }
        slot = (slot &+ 1) & mask
      }
    }
    // From the hint to the end, then from the start: keys are unique, so the order of the
    // search does not change the answer.
    var position = start
    for _ in 0..<count {
      if unsafe _JSONNode.stringEquals(first[2 &* position], key) { return position }
      position &+= 1
      if position == count { position = 0 }
    }
    return nil
  }
}

/// The children of a container value: where they are in a document's memory, and the storage
/// that keeps that memory alive. The value types (`JSONArray`, `JSONObject`) reach their
/// nodes only through it, and it checks every position against the count.
@usableFromInline
@safe package struct _ChildNodes: @unchecked Sendable {
  // Unchecked: the nodes are immutable once a storage holds them, and `storage` keeps them.
  /// Keeps the nodes' memory alive.
  @usableFromInline package let storage: _JSONStorage
  /// The first element's node, or the first member's key node (its value follows, then the
  /// next key); nil when empty.
  @usableFromInline let first: UnsafePointer<_Node>?
  /// The number of elements or members, `last` included.
  @usableFromInline let count: Int
  /// In a snapshot of an incomplete document, the last element or member, incomplete, which
  /// is not in the block at `first`; nil otherwise.
  @usableFromInline let last: UnsafePointer<_Node>?

  @inlinable
  init(storage: _JSONStorage, first: UnsafePointer<_Node>?, count: Int, last: UnsafePointer<_Node>?)
  {
    self.storage = storage
    unsafe self.first = unsafe first
    self.count = count
    unsafe self.last = unsafe last
  }

  /// No children.
  @usableFromInline static let empty = unsafe _ChildNodes(
    storage: .empty, first: nil, count: 0, last: nil)

  /// Node `offset` (0 for an element or a key, 1 for a member's value) of the child at
  /// `position`, which must be in `0..<count`; `stride` is 1 for an array, 2 for an object.
  @inlinable
  func node(_ position: Int, stride: Int, offset: Int = 0) -> _Node {
    precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "index out of range")
    if let last = unsafe last, position == count &- 1 { return unsafe last[offset] }
    return unsafe first.unsafelyUnwrapped[stride &* position &+ offset]
  }

  /// The Swift value of node `offset` of the child at `position` (see ``node(_:stride:offset:)``).
  @inlinable
  func value(_ position: Int, stride: Int, offset: Int = 0, keepingText: Bool = false) -> JSONValue
  {
    storage.value(of: node(position, stride: stride, offset: offset), keepingText: keepingText)
  }

  /// The key of the member at `position` as a `String`.
  @inlinable
  func key(_ position: Int) -> String {
    _JSONNode.string(node(position, stride: 2))
  }

  /// The position of the member whose key is `key`, if any (the children of an object).
  @inlinable
  func position(ofKey key: borrowing JSONString) -> Int? {
    if let last = unsafe last, unsafe _JSONNode.stringEquals(last[0], key.utf8) {
      return count &- 1
    }
    guard let first = unsafe first else { return nil }
    return unsafe _JSONStorage.position(
      ofKey: key.utf8, first: first, count: count &- (last == nil ? 0 : 1), indexed: last == nil)
  }

  /// Calls `body` with a node that stands for the container (see `_JSONStorage`): a plain one,
  /// or for an open container one whose header lives on the stack during the call.
  @inlinable
  func withNode<R>(open: UInt64, closed: UInt64, _ body: (_Node) throws -> R) rethrows -> R {
    try withExtendedLifetime(storage) {
      unsafe try _JSONNode.withContainerNode(
        open: open, closed: closed, count: count, first: first, last: last, body)
    }
  }

  /// Whether both are the same children of the same document: equal without looking at them.
  @inlinable
  func isSame(as other: _ChildNodes) -> Bool {
    unsafe storage === other.storage && first == other.first && last == other.last
  }
}

/// One block of a document's memory, freed when the last storage or builder holding it goes.
@usableFromInline
@safe final class _Chunk: @unchecked Sendable {
  // Unchecked: written only by the builder that allocated it, before any storage shares it;
  // read-only afterwards.
  @usableFromInline let base: UnsafeMutableRawPointer

  @usableFromInline
  init(byteCount: Int) {
    unsafe base = .allocate(byteCount: byteCount, alignment: 16)
  }

  deinit { unsafe base.deallocate() }
}

/// A block of elements in an arena, for snapshots (see JSONParser+Snapshot): appended to in
/// place, and grown by moving to a block twice as large in the arena. The old block stays as
/// it is, for the nodes of earlier snapshots that point into it.
@usableFromInline
@safe struct _ArenaBlock<Element: BitwiseCopyable> {
  @usableFromInline private(set) var base: UnsafeMutablePointer<Element>? = nil
  @usableFromInline private(set) var capacity = 0
  /// The elements appended so far.
  @usableFromInline private(set) var count = 0

  @usableFromInline
  init() {}

  /// Makes room for `needed` elements in all: a new block of at least `minimum` when it grows.
  /// Returns how many elements it copied.
  mutating func reserve(_ needed: Int, minimum: Int, in arena: inout _Arena) -> Int {
    if needed <= capacity { return 0 }
    let newCapacity = Swift.max(minimum, Swift.max(needed, 2 &* capacity))
    let block = unsafe arena.allocate(words: newCapacity &* MemoryLayout<Element>.stride)
      .bindMemory(to: Element.self, capacity: newCapacity)
    if let base = unsafe base, count > 0 { unsafe block.initialize(from: base, count: count) }
    unsafe base = unsafe block
    capacity = newCapacity
    return count
  }

  /// Appends `source`'s elements in `range`; room for them was reserved.
  mutating func append(_ source: _Buffer<Element>, _ range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= source.count)
    unsafe append(from: source.base + range.lowerBound, count: range.count)
  }

  /// Appends `source`'s elements in `range`; room for them was reserved.
  mutating func append(_ source: [Element], _ range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= source.count)
    unsafe source.withUnsafeBufferPointer { source in
      unsafe append(
        from: source.baseAddress.unsafelyUnwrapped + range.lowerBound, count: range.count)
    }
  }

  /// Appends the `n` elements at `start`, checked against the room reserved.
  private mutating func append(from start: UnsafePointer<Element>, count n: Int) {
    precondition(count &+ n <= capacity)
    unsafe (base.unsafelyUnwrapped + count).initialize(from: start, count: n)
    count &+= n
  }

  /// The element at `index`, one of those appended.
  subscript(index: Int) -> Element {
    precondition(index >= 0 && index < count)
    return unsafe base.unsafelyUnwrapped[index]
  }

  /// The block's address, as a node's payload (0 for a block never reserved).
  var payload: UInt64 { unsafe UInt64(UInt(bitPattern: base)) }
}

extension _Arena {
  /// An open array or object node (see the top of this file): `count` complete children in
  /// the block at `block` (a payload; 0 when none), then `last`, the incomplete one (for an
  /// object, its key and value), in a header of its own in the arena.
  mutating func openNode(isObject: Bool, count: Int, block: UInt64, last: [_Node]) -> _Node {
    let memory = unsafe allocate(words: 16 &+ 16 &* last.count)
    let header = unsafe memory.bindMemory(to: UInt64.self, capacity: 2)
    let nodes = unsafe (memory + 16).bindMemory(to: _Node.self, capacity: last.count)
    unsafe nodes.initialize(from: last, count: last.count)
    unsafe header[0] = count == 0 ? 0 : block
    unsafe header[1] = UInt64(UInt(bitPattern: nodes))
    return _Node(
      head: (isObject ? _JSONNode.openObject : _JSONNode.openArray)
        | UInt64(truncatingIfNeeded: count) << 8,
      payload: UInt64(UInt(bitPattern: header)))
  }
}

/// A bump allocator over chunks.
@usableFromInline
@safe package struct _Arena {
  @usableFromInline var next: UnsafeMutableRawPointer? = nil
  @usableFromInline var remaining = 0
  @usableFromInline var chunks: [_Chunk] = []
  /// Bytes in all chunks so far.
  @usableFromInline package var allocated = 0
  /// The size of the document before (see `newChunk`).
  @usableFromInline var previous = 0

  /// Under glibc's default mmap threshold (128 KiB), so freed chunks are reused.
  @usableFromInline static var chunkSize: Int { 65_536 }

  @inlinable
  init() {}

  /// An arena for the document after one that took `previous` bytes: its first chunk is
  /// about that size, not 256 bytes doubling up to it (five allocations for a 5 KB line of
  /// NDJSON).
  @inlinable
  init(previous: Int) { self.previous = previous }

  /// `count` bytes, unaligned.
  @inlinable @inline(__always)
  mutating func allocate(bytes count: Int) -> UnsafeMutableRawPointer {
    if count > remaining { return unsafe newChunk(for: count) }
    let result = unsafe next.unsafelyUnwrapped
    unsafe next = unsafe result + count
    remaining &-= count
    return unsafe result
  }

  /// `count` bytes aligned for words and nodes.
  @inlinable @inline(__always)
  mutating func allocate(words count: Int) -> UnsafeMutableRawPointer {
    let padding = unsafe Int(truncatingIfNeeded: (8 &- (UInt(bitPattern: next) & 7)) & 7)
    if count &+ padding > remaining { return unsafe newChunk(for: count) }
    let result = unsafe next.unsafelyUnwrapped + padding
    unsafe next = unsafe result + count
    remaining &-= count &+ padding
    return unsafe result
  }

  @usableFromInline
  mutating func newChunk(for count: Int) -> UnsafeMutableRawPointer {
    // Chunks double from 256 bytes up to 64 KiB, so a small document (an NDJSON record)
    // holds about as much memory as it needs.
    let size = Swift.min(_Arena.chunkSize, Swift.max(256, allocated, previous))
    if count > size / 4 {
      // Large blocks get a chunk of their own; the current chunk stays in use.
      let chunk = _Chunk(byteCount: count)
      chunks.append(chunk)
      allocated &+= count
      return unsafe chunk.base
    }
    let chunk = _Chunk(byteCount: size)
    chunks.append(chunk)
    allocated &+= size
    unsafe next = unsafe chunk.base + count
    remaining = size &- count
    return unsafe chunk.base
  }

  /// Forgets the current chunk's free space, so two builders that share chunks after a copy
  /// never allocate the same bytes.
  @usableFromInline
  mutating func closeCurrentChunk() {
    unsafe next = nil
    remaining = 0
  }
}

/// Node layout constants and field access (see the top of this file).
@usableFromInline
package enum _JSONNode {
  @usableFromInline package static var null: UInt64 { 0 }
  @usableFromInline package static var `false`: UInt64 { 1 }
  @usableFromInline package static var `true`: UInt64 { 2 }
  @usableFromInline static var number: UInt64 { 3 }
  @usableFromInline static var string: UInt64 { 4 }
  @usableFromInline static var array: UInt64 { 5 }
  @usableFromInline static var object: UInt64 { 6 }
  @usableFromInline static var openArray: UInt64 { 7 }
  @usableFromInline static var openObject: UInt64 { 8 }
  @usableFromInline static var binaryNumber: UInt64 { 9 }
  @usableFromInline static var integer: UInt64 { 10 }

  /// Whether a node of `kind` is a number, of any of the three kinds.
  @inlinable @inline(__always)
  static func isNumber(_ kind: UInt64) -> Bool {
    kind == number || kind == binaryNumber || kind == integer
  }

  /// Objects larger than this get a key index; smaller ones are searched in order, which is
  /// faster than hashing at these sizes.
  @usableFromInline static var indexThreshold: Int { 64 }

  @inlinable @inline(__always)
  static func kind(_ head: UInt64) -> UInt64 { head & 0xFF }

  /// The element or member count of a container; the byte length of a string.
  @inlinable @inline(__always)
  static func count(_ head: UInt64) -> Int { Int(truncatingIfNeeded: head >> 8) }

  /// Whether a node with `head` is an array or an object.
  @inlinable
  package static func isContainer(_ head: UInt64) -> Bool {
    kind(head) == array || kind(head) == object
  }

  @inlinable @inline(__always)
  static func numberLength(_ head: UInt64) -> Int { Int(truncatingIfNeeded: head >> 16) }

  @inlinable @inline(__always)
  static func numberFlags(_ head: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: head >> 8) }

  /// The bytes at address `payload`.
  @inlinable @inline(__always)
  package static func bytes(_ payload: UInt64, count: Int) -> UnsafeBufferPointer<UInt8> {
    unsafe UnsafeBufferPointer(
      start: UnsafePointer(bitPattern: UInt(truncatingIfNeeded: payload)), count: count)
  }

  /// Whether the `key.count` bytes at address `payload` are those of `key`.
  @inlinable @inline(__always)
  static func bytes(_ payload: UInt64, equal key: borrowing JSONString) -> Bool {
    unsafe _bytesEqual(bytes(payload, count: key.count), key.utf8)
  }

  /// The nodes at address `payload` (nil for an empty container).
  @inlinable @inline(__always)
  static func nodes(_ payload: UInt64) -> UnsafePointer<_Node>? {
    unsafe UnsafePointer(bitPattern: UInt(truncatingIfNeeded: payload))
  }

  /// The children of a container node: the block of complete ones (nil when none), how many
  /// nodes it holds (two per member), and the incomplete last element or member of an open
  /// container (nil otherwise).
  @inlinable @inline(__always)
  static func children(_ node: _Node) -> (
    block: UnsafePointer<_Node>?, nodes: Int, last: UnsafePointer<_Node>?, isObject: Bool
  ) {
    let kind = kind(node.head)
    let isObject = kind == object || kind == openObject
    let nodes = isObject ? 2 &* count(node.head) : count(node.head)
    if kind <= object { return unsafe (self.nodes(node.payload), nodes, nil, isObject) }
    let header = unsafe UnsafePointer<UInt64>(bitPattern: UInt(truncatingIfNeeded: node.payload))!
    return unsafe (self.nodes(header[0]), nodes, self.nodes(header[1]), isObject)
  }

  /// Calls `body` with the node of a container view: a plain one, or for an open container
  /// one whose header lives on the stack during the call.
  @inlinable
  static func withContainerNode<R>(
    open: UInt64, closed: UInt64, count: Int, first: UnsafePointer<_Node>?,
    last: UnsafePointer<_Node>?, _ body: (_Node) throws -> R
  ) rethrows -> R {
    let firstAddress = UInt64(UInt(bitPattern: first))
    guard let last = unsafe last else {
      return try body(
        _Node(head: closed | UInt64(truncatingIfNeeded: count) << 8, payload: firstAddress))
    }
    let header = (firstAddress, UInt64(UInt(bitPattern: last)))
    return unsafe try withUnsafePointer(to: header) { pointer in
      try body(
        _Node(
          head: open | UInt64(truncatingIfNeeded: count &- 1) << 8,
          payload: UInt64(UInt(bitPattern: pointer))))
    }
  }

  /// The head of a string node of `count` bytes.
  @inlinable @inline(__always)
  static func stringHead(count: Int) -> UInt64 {
    string | UInt64(truncatingIfNeeded: count) << 8
  }

  /// The node of a string (or a key) of `count` bytes at address `payload` (0 when empty).
  @inlinable @inline(__always)
  static func stringNode(count: Int, payload: UInt64) -> _Node {
    _Node(head: stringHead(count: count), payload: payload)
  }

  /// The node of a number whose text is at address `payload`: an integer node when the text
  /// is an integer in canonical form that fits (see the top of this file), else a number
  /// node.
  @inlinable @inline(__always)
  static func node(_ number: borrowing JSONNumber, payload: UInt64) -> _Node {
    let count = unsafe UInt64(truncatingIfNeeded: number.utf8.count)
    if number._flags == 0 && count <= 15, let value = unsafe _canonicalInteger(number.utf8),
      (value &<< 16) &>> 16 == value
    {
      // Up to 15 characters (14 digits and a sign always fit), and a value that fits.
      return _Node(
        head: integer | count << 8 | UInt64(bitPattern: value) << 16, payload: payload)
    }
    return unsafe _Node(
      head: numberHead(flags: number._flags, count: number.utf8.count), payload: payload)
  }

  /// The head of a number node of `count` bytes of text.
  @inlinable @inline(__always)
  static func numberHead(flags: UInt8, count: Int) -> UInt64 {
    number | UInt64(flags) << 8 | UInt64(truncatingIfNeeded: count) << 16
  }

  /// The value of an integer node.
  @inlinable @inline(__always)
  static func integerValue(_ head: UInt64) -> Int64 { Int64(bitPattern: head) &>> 16 }

  /// The length of an integer node's text.
  @inlinable @inline(__always)
  static func integerLength(_ head: UInt64) -> Int {
    Int(truncatingIfNeeded: head >> 8 & 0xFF)
  }

  /// The text of a number or an integer node, with its flags.
  @inlinable @inline(__always)
  static func numberText(_ node: _Node) -> JSONNumber {
    let head = node.head
    if kind(head) == integer {
      return unsafe JSONNumber(
        _canonicalText: bytes(node.payload, count: integerLength(head)),
        integerValue: integerValue(head))
    }
    return unsafe JSONNumber(
      _utf8: bytes(node.payload, count: numberLength(head)), flags: numberFlags(head))
  }

  /// The node of a number in binary form: the form (0 int, 1 uint, 2 decimal, 3 double) and
  /// a decimal's scale in the head, the value's bits in the payload.
  @inlinable @inline(__always)
  package static func node(_ number: JSONBinaryNumber) -> _Node {
    switch number {
    case .int(let value):
      return _Node(head: binaryNumber, payload: UInt64(bitPattern: value))
    case .uint(let value):
      return _Node(head: binaryNumber | 1 << 8, payload: value)
    case .decimal(let mantissa, let scale):
      return _Node(
        head: binaryNumber | 2 << 8 | UInt64(scale) << 16, payload: UInt64(bitPattern: mantissa))
    case .double(let value):
      return _Node(head: binaryNumber | 3 << 8, payload: value.bitPattern)
    }
  }

  /// The number of a binary number node.
  @inlinable @inline(__always)
  static func binaryNumber(_ node: _Node) -> JSONBinaryNumber {
    switch UInt8(truncatingIfNeeded: node.head >> 8) {
    case 0: return .int(Int64(bitPattern: node.payload))
    case 1: return .uint(node.payload)
    case 2:
      return .decimal(
        mantissa: Int64(bitPattern: node.payload), scale: UInt8(truncatingIfNeeded: node.head >> 16)
      )
    default: return .double(Double(bitPattern: node.payload))
    }
  }

  /// Calls `body` with the number of a number node of any kind: the text as written, or the
  /// text a binary number stands for.
  @inlinable
  static func withNumber<R>(_ node: _Node, _ body: (borrowing JSONNumber) throws -> R) rethrows -> R
  {
    if kind(node.head) != binaryNumber { return try body(numberText(node)) }
    return try binaryNumber(node).withJSONNumber(body)
  }

  /// The UTF-8 of a string node.
  @inlinable @inline(__always)
  static func utf8(_ node: _Node) -> UnsafeBufferPointer<UInt8> {
    unsafe bytes(node.payload, count: count(node.head))
  }

  @usableFromInline
  static func string(_ node: _Node) -> String {
    // A document's strings are well-formed: the builder repairs any that are not.
    unsafe _stringOfWellFormedUTF8(utf8(node))
  }

  @inlinable @inline(__always)
  static func stringEquals(_ node: _Node, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    unsafe count(node.head) == key.count && _bytesEqual(utf8(node), key)
  }

  /// Slots in the key index of an object of `count` members: a power of two, at least 64 and
  /// at least twice the count, so probes stay short.
  @inlinable
  static func indexCapacity(_ count: Int) -> Int {
    var capacity = 64
    while capacity < count &* 2 { capacity &<<= 1 }
    return capacity
  }
}
