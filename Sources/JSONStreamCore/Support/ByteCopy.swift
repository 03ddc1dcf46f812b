// Copying short byte runs, for every layer that copies keys, strings and numbers.

/// Copies `count` bytes from `source` to `target` (not overlapping). Up to 32 bytes (most keys,
/// numbers and short strings) as two overlapping pairs of loads and stores, inlined: a call
/// to `memcpy` for each of a document's strings cost more than the copy.
@inlinable @inline(__always)
package func _copyBytes(_ target: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, count: Int) {
  if count >= 8 {
    if count > 32 {
      unsafe target.copyMemory(from: source, byteCount: count)
    } else if count > 16 {
      let a = unsafe source.loadUnaligned(as: (UInt64, UInt64).self)
      let b = unsafe (source + (count &- 16)).loadUnaligned(as: (UInt64, UInt64).self)
      unsafe target.storeBytes(of: a, as: (UInt64, UInt64).self)
      unsafe (target + (count &- 16)).storeBytes(of: b, as: (UInt64, UInt64).self)
    } else {
      let a = unsafe source.loadUnaligned(as: UInt64.self)
      let b = unsafe (source + (count &- 8)).loadUnaligned(as: UInt64.self)
      unsafe target.storeBytes(of: a, as: UInt64.self)
      unsafe (target + (count &- 8)).storeBytes(of: b, as: UInt64.self)
    }
  } else if count >= 4 {
    let a = unsafe source.loadUnaligned(as: UInt32.self)
    let b = unsafe (source + (count &- 4)).loadUnaligned(as: UInt32.self)
    unsafe target.storeBytes(of: a, as: UInt32.self)
    unsafe (target + (count &- 4)).storeBytes(of: b, as: UInt32.self)
  } else if count > 0 {
    // 1 to 3 bytes: the first, the middle and the last (some the same).
    let first = unsafe source.load(as: UInt8.self)
    let middle = unsafe source.load(fromByteOffset: count >> 1, as: UInt8.self)
    let last = unsafe source.load(fromByteOffset: count &- 1, as: UInt8.self)
    unsafe target.storeBytes(of: first, as: UInt8.self)
    unsafe target.storeBytes(of: middle, toByteOffset: count >> 1, as: UInt8.self)
    unsafe target.storeBytes(of: last, toByteOffset: count &- 1, as: UInt8.self)
  }
}

extension Array where Element == UInt8 {
  /// Stores the eight bytes of `word`, the lowest first, at `index..<index + 8`, which must be
  /// within the array: one check that the array is not shared, and one store, for eight bytes
  /// (a store of one byte through the subscript checks each time).
  @inlinable @inline(__always)
  package mutating func _storeWord(_ word: UInt64, at index: Int) {
    precondition(index >= 0 && index <= count &- 8, "a word stored outside the array")
    unsafe withUnsafeMutableBytes { bytes in
      unsafe bytes.baseAddress!.storeBytes(
        of: word.littleEndian, toByteOffset: index, as: UInt64.self)
    }
  }
}
