// The hash index of a large JSONObject: key → position in `_keys`.
//
// Open addressing with linear probing over a power-of-two table of positions, hashed eight
// bytes at a time over the key's UTF-8. Swift's Dictionary would hash with seeded SipHash, which
// profiling showed at ~17% of building twitter.json's tree; keys here are short and come from
// the document, and a collision only costs a probe (equality still decides), so the simpler
// hash is enough. Lives beside the keys, so copies share it copy-on-write like any array.

@usableFromInline
struct _KeyIndex: Sendable {
  /// Positions in the object's `_keys`, or -1 for an empty slot. The count is a power of two,
  /// at least twice the number of keys.
  @usableFromInline var slots: [Int32]

  /// An index of `keys`, which are unique.
  @usableFromInline
  init(_ keys: [String]) {
    var capacity = 16
    while capacity < keys.count * 2 { capacity <<= 1 }
    slots = Array(repeating: -1, count: capacity)
    for position in keys.indices { insert(position, key: keys[position]) }
  }

  /// Eight bytes per step: each word is mixed in with one multiply and a shift (the tail
  /// word is zero-padded, and the length is mixed in so padding cannot collide).
  @inlinable
  static func hash(_ key: String) -> Int {
    var key = key
    return key.withUTF8 { bytes in
      var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
      guard var p = bytes.baseAddress else { return Int(truncatingIfNeeded: hash) }
      var remaining = bytes.count
      while remaining >= 8 {
        hash = (hash ^ UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 32
        p += 8
        remaining -= 8
      }
      if remaining > 0 {
        var tail: UInt64 = 0
        for i in 0..<remaining { tail |= UInt64(p[i]) << (8 * UInt64(i)) }
        hash = (hash ^ tail) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 32
      }
      return Int(truncatingIfNeeded: hash)
    }
  }

  /// The position of `key`, if present.
  @inlinable
  func find(_ key: String, in keys: [String]) -> Int? {
    let mask = slots.count - 1
    var slot = _KeyIndex.hash(key) & mask
    while true {
      let position = Int(slots[slot])
      if position < 0 { return nil }
      if keys[position] == key { return position }
      slot = (slot + 1) & mask
    }
  }

  /// Records a new key at `position` (the caller grows the table first when needed).
  @inlinable
  mutating func insert(_ position: Int, key: String) {
    let mask = slots.count - 1
    var slot = _KeyIndex.hash(key) & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    slots[slot] = Int32(truncatingIfNeeded: position)
  }

  /// Whether one more key would make the table more than half full.
  @inlinable
  func isFull(afterAdding count: Int) -> Bool {
    count * 2 > slots.count
  }
}
