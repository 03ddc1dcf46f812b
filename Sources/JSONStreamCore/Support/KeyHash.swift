// The key hash of the tree's key indexes and the binary writer's tables.

/// A per-process random seed for key hashing, so a document cannot be crafted to make every
/// key collide.
@usableFromInline
package let _keyHashSeed = UInt64.random(in: 1...UInt64.max)

/// Hash of a key's UTF-8, for the tree's key indexes and the binary writer's tables: words as
/// `_bytesEqual` loads them, each mixed in with one multiply and a shift. Eight bytes at a
/// time, the last eight overlapping the ones before; under eight, two overlapping four-byte
/// words or the first, middle and last bytes; the length is mixed in first. No byte loop: a
/// byte loop for the tail was most of the cost on short keys. Swift's seeded SipHash measured
/// at ~17% of building twitter.json's tree. The key indexes use the per-process seed; the
/// binary writer passes its own fixed one, so that its output does not change between runs.
@inlinable @inline(__always)
package func _keyHash(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64 = _keyHashSeed) -> UInt64 {
  let count = key.count
  var hash = (UInt64(truncatingIfNeeded: count) ^ seed) &* 0x9E37_79B9_7F4A_7C15
  guard count > 0, let p = key.baseAddress else { return hash }
  let raw = unsafe UnsafeRawPointer(p)
  @inline(__always) func mix(_ word: UInt64) {
    // A multiply carries upwards only; the fold brings the high bits back down.
    hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash &>> 32
  }
  if count >= 8 {
    var offset = 0
    while offset &+ 8 < count {
      unsafe mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset &+= 8
    }
    unsafe mix(raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
  } else if count >= 4 {
    unsafe mix(
      UInt64(raw.loadUnaligned(as: UInt32.self)) &<< 32
        | UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
  } else {
    unsafe mix(UInt64(p[0]) | UInt64(p[count &>> 1]) &<< 8 | UInt64(p[count &- 1]) &<< 16)
  }
  return hash
}
