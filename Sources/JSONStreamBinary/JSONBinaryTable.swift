// Tables of byte strings, the binary format's key and string tables: entries by number for
// the readers, and by their bytes for the writer. A kernel: entries are handed out as
// buffer views into the table's storage.

import JSONStreamCore

/// The byte strings of a key or string table, in order of entry, in plain memory (see
/// `_ManualState`): entry `i` is `storage[starts[i] ..< starts[i + 1]]`. Bounded by
/// ``JSONBinaryFormat``'s limits.
///
/// The writer also finds entries by their bytes, through `slots`: one entry per slot, at the
/// slot of its `hash`, the latest entry winning. A lookup is one probe and one compare,
/// whatever the input: two strings that share a slot cost only a second table entry when one
/// comes back, never a search. (Open addressing was ~40% of the time of writing
/// twitter.json, with a byte loop in the hash, probing and growing.)
@usableFromInline
struct _BinaryTable {
  @usableFromInline var storage = _Buffer<UInt8>(capacity: 256)
  @usableFromInline var starts: _Buffer<Int> = {
    var starts = _Buffer<Int>(capacity: 64)
    starts.append(0)
    return starts
  }()
  /// For the streaming reader, whether each entry needs no escaping in JSON (see
  /// `_checkUTF8ForJSON`): found once, when the entry is made, so that a writer
  /// of JSON does not look again at each reference. False where not found.
  @usableFromInline var plain = _Buffer<Bool>(capacity: 64)
  /// Entry index + 1, or 0 for an empty slot; `count == capacity`, a power of two at least
  /// four times the entries (or 0 while unused: the reader never looks entries up by bytes).
  @usableFromInline var slots = _Buffer<Int32>(capacity: 1)

  @inlinable init() {}

  /// The hash of an entry's bytes for the slots: `_keyHash` with a fixed seed, not the
  /// per-process one, so that the entries a writer forgets, and so its output, are the same
  /// in every run.
  @inlinable @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    unsafe _keyHash(bytes, seed: 0x243F_6A88_85A3_08D3)
  }

  /// The slot of `hash` (slots must exist).
  @inlinable @inline(__always) func slot(_ hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash) & (slots.count &- 1)
  }

  @inlinable var count: Int { starts.count &- 1 }

  /// Whether an entry of `length` bytes still fits.
  @inlinable func hasRoom(for length: Int) -> Bool {
    JSONBinaryFormat.tableHasRoom(entries: count, bytes: storage.count, adding: length)
  }

  /// Entry `index` (which must exist); valid until the next entry is added.
  @inlinable @inline(__always) func entry(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    unsafe UnsafeBufferPointer(
      start: storage.base + starts[index], count: starts[index &+ 1] &- starts[index])
  }

  /// Adds an entry without indexing it (the readers look entries up by number only), with
  /// whether it needs no escaping in JSON (false where not found: the writer's entries).
  @inlinable @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, needsNoEscaping: Bool = false) {
    unsafe storage.appendBytes(bytes)
    starts.append(storage.count)
    plain.append(needsNoEscaping)
  }

  /// The entry equal to `bytes` that the slot of `hash` (their `Self.hash`) holds, if any.
  @inlinable @inline(__always)
  func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
    guard slots.count > 0 else { return nil }
    let entry = Int(slots[slot(hash)]) &- 1
    return unsafe entry >= 0 && _bytesEqual(self.entry(entry), bytes) ? entry : nil
  }

  /// Adds `bytes` (of `Self.hash` `hash`) as the next entry, in its slot, if there is room;
  /// returns whether it did.
  @inlinable mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    guard hasRoom(for: bytes.count) else { return false }
    unsafe append(bytes)
    if count &* 4 > slots.count {
      rehash()
    } else {
      slots[slot(hash)] = Int32(truncatingIfNeeded: count)
    }
    return true
  }

  /// Twice the slots (at least 1024, and four per entry), refilled in order of entry.
  @usableFromInline mutating func rehash() {
    var capacity = Swift.max(1024, slots.count &* 2)
    while capacity < count &* 4 { capacity &*= 2 }
    slots.deallocate()
    slots = _Buffer<Int32>(repeating: 0, count: capacity)
    for index in 0..<count { unsafe slots[slot(Self.hash(entry(index)))] = Int32(index &+ 1) }
  }

  @usableFromInline func copy() -> _BinaryTable {
    var copy = _BinaryTable()
    for index in 0..<count { unsafe copy.append(entry(index), needsNoEscaping: plain[index]) }
    // An indexed table (the writer's) stays indexed.
    if slots.count > 0 { copy.rehash() }
    return copy
  }

  @usableFromInline func deallocate() {
    storage.deallocate()
    starts.deallocate()
    plain.deallocate()
    slots.deallocate()
  }
}

/// A reader's two tables, in plain memory behind a `_CopyOnWriteState`.
@usableFromInline
struct _BinaryTables: _ManualState {
  @usableFromInline var keys = _BinaryTable()
  @usableFromInline var strings = _BinaryTable()

  @inlinable init() {}

  @usableFromInline func copy() -> _BinaryTables {
    var copy = _BinaryTables()
    copy.keys.deallocate()
    copy.strings.deallocate()
    copy.keys = keys.copy()
    copy.strings = strings.copy()
    return copy
  }

  @usableFromInline func deallocate() {
    keys.deallocate()
    strings.deallocate()
  }
}
