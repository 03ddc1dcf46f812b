@_spi(Codable) import JSONStream

/// Keyed containers kept for reuse by one decode call, one per coding key type: the last one
/// made for it.
///
/// `KeyedDecodingContainer` boxes a container in a class of the standard library's, generic
/// over the container's type: each `container(keyedBy:)` costs an allocation and two generic
/// metadata lookups, about 8% of decoding citm_catalog.json's small objects. Once the
/// `init(from:)` that asked for a container has returned, nothing else holds its box, and the
/// next object decoded with the same keys gets the same box, pointed at the new object.
final class _ContainerCache {
  struct Slot {
    var keys: ObjectIdentifier? = nil
    /// The `KeyedDecodingContainer`, as the one class reference it is made of.
    var box: AnyObject? = nil
    var storage: _KeyedFrameStorage? = nil
  }

  static var slotBits: Int { 5 }
  static var slotCount: Int { 1 << slotBits }
  static var probes: Int { 4 }
  let slots: UnsafeMutablePointer<Slot>

  init() {
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
    keyedBy type: Key.Type, frame: _KeyedFrame
  ) -> KeyedDecodingContainer<Key> {
    let keys = ObjectIdentifier(Key.self)
    // Up to `probes` slots from the type's own, so that types whose slots collide do not
    // push each other out.
    let home = _slot(of: keys, bits: Self.slotBits)
    var free: UnsafeMutablePointer<Slot>? = nil
    for probe in 0..<Self.probes {
      let slot = slots + ((home &+ probe) & (Self.slotCount &- 1))
      if slot.pointee.keys == keys {
        if isKnownUniquelyReferenced(&slot.pointee.box) {
          slot.pointee.storage.unsafelyUnwrapped.frame.pointee = frame
          // The box read back as the container it is made of (only such boxes are kept).
          return unsafeBitCast(
            slot.pointee.box.unsafelyUnwrapped, to: KeyedDecodingContainer<Key>.self)
        }
        free = slot
        break
      }
      if slot.pointee.keys == nil, free == nil { free = slot }
    }
    let storage = _KeyedFrameStorage.make(frame)
    let container = KeyedDecodingContainer(_KeyedContainer<Key>(storage: storage))
    // Kept only where the container is the one class reference it is in the standard library.
    let slot = free ?? slots + home
    if MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
      slot.pointee = Slot(
        keys: keys, box: unsafeBitCast(container, to: AnyObject.self), storage: storage)
    }
    return container
  }
}
