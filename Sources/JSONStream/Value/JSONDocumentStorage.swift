// The memory behind parsed arrays and objects: one arena of 16-byte nodes and one of bytes per
// document, the layout RapidJSON's Document uses. Building a tree is then appending words and
// copying bytes, with no allocation or reference count per value; reading a value makes a
// Swift value (a `String`, a `Number`, a view) only when asked.
//
// A node is two words:
//
//   kind        word 0                                word 1
//   null        0                                     0
//   false/true  1 / 2                                 0
//   number      3 | flags << 8 | length << 16         offset of its text in `bytes`
//   string      4 | length << 8                       offset of its UTF-8 in `bytes`
//   array       5 | count << 8                        node index of its first element
//   object      6 | count << 8                        node index of its first member
//
// The elements of an array are `count` consecutive nodes; the members of an object are `count`
// consecutive key/value node pairs (a key is a string node). An object of more than
// `_JSONNode.indexThreshold` members is followed by its key index: an open-addressing table of
// `_JSONNode.indexCapacity(count)` words, each `hash >> 32 << 32 | position + 1` or 0 when
// empty. Number text is kept as written, so a parsed number is written back unchanged.

@usableFromInline
final class _JSONStorage: @unchecked Sendable {
  // Unchecked: the memory is written once, by the builder that hands it over, and only read
  // afterwards. The storage owns it.
  @usableFromInline let words: UnsafeMutablePointer<UInt64>
  @usableFromInline let bytes: UnsafeMutablePointer<UInt8>

  /// Takes over the builder's arenas.
  @usableFromInline
  init(words: _Buffer<UInt64>, bytes: _Buffer<UInt8>) {
    self.words = words.base
    self.bytes = bytes.base
  }

  deinit {
    words.deallocate()
    bytes.deallocate()
  }

  /// Storage for empty containers made in code.
  @usableFromInline static let empty = _JSONStorage(
    words: _Buffer(capacity: 0), bytes: _Buffer(capacity: 0))

  @inlinable
  func bytes(_ start: Int, count: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes + start, count: count)
  }

  /// The value of node `node`, made into Swift values: strings and numbers are decoded here,
  /// containers become views of this storage.
  @usableFromInline
  func value(at node: Int) -> JSONValue {
    let head = words[2 &* node]
    let payload = Int(truncatingIfNeeded: words[2 &* node &+ 1])
    switch _JSONNode.kind(head) {
    case _JSONNode.null: return .null
    case _JSONNode.false: return .bool(false)
    case _JSONNode.true: return .bool(true)
    case _JSONNode.number:
      let text = bytes(payload, count: _JSONNode.numberLength(head))
      return .number(
        JSONValue.Number(exactly: JSONNumber(_utf8: text, flags: _JSONNode.numberFlags(head))))
    case _JSONNode.string: return .string(string(at: node))
    case _JSONNode.array:
      return .array(JSONArray(_storage: self, first: payload, count: _JSONNode.count(head)))
    default:
      return .object(JSONObject(_storage: self, first: payload, count: _JSONNode.count(head)))
    }
  }

  /// The text of string node `node`.
  @usableFromInline
  func string(at node: Int) -> String {
    let start = Int(truncatingIfNeeded: words[2 &* node &+ 1])
    let length = _JSONNode.count(words[2 &* node])
    return String(decoding: bytes(start, count: length), as: UTF8.self)
  }

  /// Whether string node `node` holds exactly `key`.
  @usableFromInline
  func stringEquals(at node: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    let head = words[2 &* node]
    guard _JSONNode.count(head) == key.count else { return false }
    let start = Int(truncatingIfNeeded: words[2 &* node &+ 1])
    return _bytesEqual(bytes(start, count: key.count), key)
  }

  /// The position of `key` among the `count` members of the object at node `first`.
  @usableFromInline
  func position(ofKey key: UnsafeBufferPointer<UInt8>, first: Int, count: Int) -> Int? {
    if count > _JSONNode.indexThreshold {
      let index = 2 &* (first &+ 2 &* count)
      let mask = _JSONNode.indexCapacity(count) &- 1
      let hash = _keyHash(key)
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = words[index &+ slot]
        if entry == 0 { return nil }
        let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
        if entry >> 32 == hash >> 32 && stringEquals(at: first &+ 2 &* position, key) {
          return position
        }
        slot = (slot &+ 1) & mask
      }
    }
    for position in 0..<count where stringEquals(at: first &+ 2 &* position, key) {
      return position
    }
    return nil
  }
}

/// Node layout constants and field access (see the top of this file).
@usableFromInline
enum _JSONNode {
  @usableFromInline static var null: UInt64 { 0 }
  @usableFromInline static var `false`: UInt64 { 1 }
  @usableFromInline static var `true`: UInt64 { 2 }
  @usableFromInline static var number: UInt64 { 3 }
  @usableFromInline static var string: UInt64 { 4 }
  @usableFromInline static var array: UInt64 { 5 }
  @usableFromInline static var object: UInt64 { 6 }

  /// Objects larger than this get a key index; smaller ones are searched in order, which is
  /// faster than hashing at these sizes.
  @usableFromInline static var indexThreshold: Int { 16 }

  @inlinable @inline(__always)
  static func kind(_ head: UInt64) -> UInt64 { head & 0xFF }

  /// The element or member count of a container; the byte length of a string.
  @inlinable @inline(__always)
  static func count(_ head: UInt64) -> Int { Int(truncatingIfNeeded: head >> 8) }

  @inlinable @inline(__always)
  static func numberLength(_ head: UInt64) -> Int { Int(truncatingIfNeeded: head >> 16) }

  @inlinable @inline(__always)
  static func numberFlags(_ head: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: head >> 8) }

  /// Slots in the key index of an object of `count` members: a power of two, at least 64 and
  /// at least twice the count, so probes stay short.
  @inlinable
  static func indexCapacity(_ count: Int) -> Int {
    var capacity = 64
    while capacity < count &* 2 { capacity &<<= 1 }
    return capacity
  }
}

/// A per-process random seed for key hashing, so a document cannot be crafted to make every
/// key collide.
@usableFromInline
let _keyHashSeed = UInt64.random(in: 1...UInt64.max)

/// Hash of a key's UTF-8 for key indexes: eight bytes per step, each word mixed in with one
/// multiply and a shift (the tail word is zero-padded; the length is mixed in so padding cannot
/// collide). Swift's seeded SipHash measured at ~17% of building twitter.json's tree.
@inlinable
func _keyHash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
  var hash = (UInt64(truncatingIfNeeded: key.count) ^ _keyHashSeed) &* 0x9E37_79B9_7F4A_7C15
  guard var p = key.baseAddress else { return hash }
  var remaining = key.count
  while remaining >= 8 {
    hash = (hash ^ UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 32
    p += 8
    remaining &-= 8
  }
  if remaining > 0 {
    var tail: UInt64 = 0
    for i in 0..<remaining { tail |= UInt64(p[i]) << (8 &* UInt64(i)) }
    hash = (hash ^ tail) &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 32
  }
  return hash
}
