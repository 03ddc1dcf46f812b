import Foundation
import JSONStream

/// The keyed containers of one decode call: it makes them, owns their frames, and keeps one
/// per coding key type for reuse, the last one made for it.
///
/// `KeyedDecodingContainer` boxes a container in a class of the standard library's, generic
/// over the container's type: each `container(keyedBy:)` costs an allocation and two generic
/// metadata lookups, about 8% of decoding citm_catalog.json's small objects. Once the
/// `init(from:)` that asked for a container has returned, nothing else holds its box, and the
/// next object decoded with the same keys gets the same box, pointed at the new object.
///
/// The cache also owns the frames of the containers it makes, which hold no reference (see
/// `_KeyedContainer`): a box and its frame's storage stay together, in a slot or in
/// `displaced`, until nothing else holds the box. A box still held when the call ends (a
/// model kept its container) goes on to `_EscapedContainers` with its storage, and so do the
/// containers made after it (from a kept container or super decoder).
final class _ContainerCache {
  /// A box and the storage of its container's frame.
  struct Entry {
    /// The `KeyedDecodingContainer`, as the one class reference it is made of.
    var box: AnyObject
    var storage: _KeyedFrameStorage

    /// The box, as the container it is made of (only such boxes are kept), pointed at
    /// `frame`.
    @inline(__always)
    func reused<Key: CodingKey>(for frame: consuming _KeyedFrame, as type: Key.Type)
      -> KeyedDecodingContainer<Key>
    {
      storage.frame.pointee = frame
      return unsafeBitCast(box, to: KeyedDecodingContainer<Key>.self)
    }
  }

  struct Slot {
    var keys: ObjectIdentifier? = nil
    var entry: Entry? = nil
  }

  static var slotBits: Int { 5 }
  static var slotCount: Int { 1 << slotBits }
  static var probes: Int { 4 }
  let slots: UnsafeMutablePointer<Slot>
  /// Entries a newer container took the slot of while their box was busy (a recursive type's
  /// containers, or a kept one).
  var displaced: [Entry] = []
  /// The count of `displaced` that triggers dropping its free entries: twice the count the
  /// last sweep left, so that sweeping costs a constant per entry.
  var sweepAt = 16
  /// The decode call is over (see `finish()`).
  var isFinished = false
  /// Every container owns its storage, as it does where `KeyedDecodingContainer` is not the
  /// one reference this cache relies on (for tests of that case).
  let ownsNone: Bool

  init(ownsNone: Bool = false) {
    self.ownsNone = ownsNone
    slots = .allocate(capacity: Self.slotCount)
    slots.initialize(repeating: Slot(), count: Self.slotCount)
  }

  deinit {
    slots.deinitialize(count: Self.slotCount)
    slots.deallocate()
  }

  /// A container for `frame`: the kept one for `Key` when nothing else holds it, else a new
  /// one, kept in its place.
  func container<Key: CodingKey>(
    keyedBy type: Key.Type, frame: consuming _KeyedFrame
  ) -> KeyedDecodingContainer<Key> {
    if isFinished || !keepsBoxes(of: Key.self) { return uncached(Key.self, frame: frame) }
    let keys = ObjectIdentifier(Key.self)
    // Up to `probes` slots from the type's own, so that types whose slots collide do not
    // push each other out.
    let home = _slot(of: keys, bits: Self.slotBits)
    var free: UnsafeMutablePointer<Slot>? = nil
    for probe in 0..<Self.probes {
      let slot = slots + ((home &+ probe) & (Self.slotCount &- 1))
      if slot.pointee.keys == keys {
        if Self.isFree(&slot.pointee.entry!) {
          return slot.pointee.entry!.reused(for: frame, as: Key.self)
        }
        free = slot
        break
      }
      if slot.pointee.keys == nil, free == nil { free = slot }
    }
    let storage = _KeyedFrameStorage.make(frame)
    let container = KeyedDecodingContainer(_KeyedContainer<Key>(frameOf: storage))
    let slot = free ?? slots + home
    if var old = slot.pointee.entry.take(), !Self.isFree(&old) { displace(old) }
    slot.pointee = Slot(
      keys: keys, entry: Entry(box: unsafeBitCast(container, to: AnyObject.self), storage: storage))
    return container
  }

  /// A container for `frame` that this cache does not keep: after the call, one that
  /// `_EscapedContainers` keeps from the start; else (see `ownsNone`) one that owns its
  /// storage.
  func uncached<Key: CodingKey>(_ type: Key.Type, frame: consuming _KeyedFrame)
    -> KeyedDecodingContainer<Key>
  {
    let storage = _KeyedFrameStorage.make(frame)
    let container = _KeyedContainer<Key>(frameOf: storage)
    if !keepsBoxes(of: Key.self) {
      return KeyedDecodingContainer(_OwningKeyedContainer(container, owner: storage))
    }
    let box = KeyedDecodingContainer(container)
    _EscapedContainers.shared.keep([
      Entry(box: unsafeBitCast(box, to: AnyObject.self), storage: storage)
    ])
    return box
  }

  /// Whether containers for `Key` are kept by their boxes: where `KeyedDecodingContainer` is
  /// the one class reference this cache relies on, unless a test turned that off.
  @inline(__always)
  func keepsBoxes<Key: CodingKey>(of type: Key.Type) -> Bool {
    !ownsNone && MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
  }

  /// Whether nothing but `entry` holds its box (the entry must not be a copy of one still
  /// held elsewhere).
  @inline(__always)
  static func isFree(_ entry: inout Entry) -> Bool {
    // Checked as the native Swift object the box is: through `AnyObject`, an unoptimized
    // build copies the reference to check it, and never finds it unique.
    withUnsafeMutablePointer(to: &entry.box) {
      $0.withMemoryRebound(to: _NativeObject.self, capacity: 1) {
        isKnownUniquelyReferenced(&$0.pointee)
      }
    }
  }

  /// Drops the entries of `list` whose boxes nothing else holds.
  static func dropFree(_ list: inout [Entry]) {
    var kept = 0
    for index in list.indices where !isFree(&list[index]) {
      list.swapAt(kept, index)
      kept &+= 1
    }
    list.removeLast(list.count &- kept)
  }

  /// Keeps `entry`, whose box something else holds, until it is free.
  func displace(_ entry: Entry) {
    displaced.append(entry)
    if displaced.count >= sweepAt {
      Self.dropFree(&displaced)
      sweepAt = max(16, 2 &* displaced.count)
    }
  }

  /// The decode call is over: frees the entries nothing else holds, and hands the others to
  /// `_EscapedContainers`.
  func finish() {
    isFinished = true
    var escaped: [Entry] = []
    for index in 0..<Self.slotCount {
      if var entry = slots[index].entry.take(), !Self.isFree(&entry) { escaped.append(entry) }
      slots[index].keys = nil
    }
    while var entry = displaced.popLast() {
      if !Self.isFree(&entry) { escaped.append(entry) }
    }
    if !escaped.isEmpty { _EscapedContainers.shared.keep(escaped) }
  }
}

/// A native Swift class, for checking references to others (see `_ContainerCache.isFree`).
/// Never instantiated.
final class _NativeObject {}

/// The entries of containers that models kept past their decode call, with the storage of
/// their frames (and through them the decoder and its document), until nothing holds them.
/// Freed when a later call adds to the list and it has doubled since the last sweep: a kept
/// container costs its document's memory until up to twice as many are kept.
final class _EscapedContainers: @unchecked Sendable {
  static let shared = _EscapedContainers()

  /// An `NSLock`, as `_ConformanceTable` explains.
  private let lock = NSLock()
  private var entries: [_ContainerCache.Entry] = []
  private var sweepAt = 16

  /// The count of entries kept (for tests).
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return entries.count
  }

  func keep(_ escaped: [_ContainerCache.Entry]) {
    lock.lock()
    defer { lock.unlock() }
    entries += escaped
    if entries.count >= sweepAt {
      // Checked under the lock: a box found held only here cannot be taken again, so its
      // storage goes with it.
      _ContainerCache.dropFree(&entries)
      sweepAt = max(16, 2 &* entries.count)
    }
  }
}
