// The tree builder's memory of a producer's key table (see `JSONTreeBuilder._tableKey`).
//
// A binary document names most keys by reference to a table entry. The builder copies a key's
// bytes into the arena the first time and keeps, by entry number, where they went and the
// key's fingerprint bit; the next key of that entry is compared with those bytes and, when
// equal, pushed as a node that points at them. Entry numbers are only a hint (a reader swapped
// under the builder, or a table that holds the same bytes twice, gives other numbers), so the
// comparison decides, never the number alone. The addresses point into the arena of the value
// being built, so they are forgotten when that value is finished.

import JSONStreamCore
import JSONStreamParser

@usableFromInline
struct _TableKeyCache {
  /// By entry: the arena address of the key's bytes, and its length and fingerprint. Made
  /// on the first key kept: every tree builder has a cache, and only binary input fills it.
  @usableFromInline var entries: _Buffer<_TableEntry>?

  @inlinable
  init() {}

  /// The arena address and fingerprint kept for `entry`, when they are of the bytes `key`.
  @inlinable @inline(__always)
  func lookup(_ entry: Int, _ key: borrowing JSONString) -> (
    payload: UInt64, fingerprint: Int
  )? {
    guard let entries, entry < entries.count else { return nil }
    let known = entries[entry]
    guard known.lengthAndFingerprint == _TableEntry.pack(key.count, 0) | known.fingerprintBits,
      _JSONNode.bytes(known.payload, equal: key)
    else { return nil }
    return (known.payload, Int(truncatingIfNeeded: known.fingerprintBits))
  }

  /// The most entries kept: a cache bounds its own memory, whatever numbers a producer sends
  /// (the binary format's tables hold no more, so none of its keys is left out).
  @inlinable
  static var maxEntries: Int { 1 << 16 }

  /// Keeps where the bytes of `entry`'s key went. Entries past `maxEntries` are not kept.
  @inlinable
  mutating func remember(_ entry: Int, payload: UInt64, count: Int, fingerprint: Int) {
    guard entry >= 0 && entry < Self.maxEntries else { return }
    if entries == nil { entries = _Buffer(capacity: 64) }
    while entries!.count <= entry { entries!.append(_TableEntry.unknown) }
    entries![entry] = _TableEntry(
      payload: payload, lengthAndFingerprint: _TableEntry.pack(count, fingerprint))
  }

  /// Forgets every entry (their bytes belong to a finished value).
  @inlinable
  mutating func forgetAll() { entries?.truncate(to: 0) }

  @usableFromInline
  func deallocate() { entries?.deallocate() }
}

/// A table entry's bytes in a tree's arena: a key the builder keeps (with its fingerprint), or
/// a key or string of `JSONValue(binary:)`'s tables (a string's fingerprint is 0).
@usableFromInline
package struct _TableEntry: BitwiseCopyable {
  @usableFromInline package var payload: UInt64
  /// The length shifted up by nine bits, and a key's fingerprint (0…511) in those nine.
  @usableFromInline var lengthAndFingerprint: UInt64

  /// An entry not kept: no length packs to all ones.
  @usableFromInline static var unknown: _TableEntry {
    _TableEntry(payload: 0, lengthAndFingerprint: .max)
  }

  @inlinable
  package init(payload: UInt64, lengthAndFingerprint: UInt64) {
    self.payload = payload
    self.lengthAndFingerprint = lengthAndFingerprint
  }

  @inlinable @inline(__always)
  package static func pack(_ length: Int, _ fingerprint: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: length) &<< 9 | UInt64(truncatingIfNeeded: fingerprint)
  }

  @inlinable @inline(__always)
  package var fingerprintBits: UInt64 { lengthAndFingerprint & 0x1FF }

  @inlinable @inline(__always)
  package var length: Int { Int(truncatingIfNeeded: lengthAndFingerprint &>> 9) }
}
