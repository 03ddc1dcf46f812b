import JSONStream

/// The frames of one decode call's keyed containers, reused once their containers are gone.
///
/// Each keyed container holds its frame's storage (see `_KeyedContainer`), so a container kept
/// past its `init(from:)`, or past the call, keeps its frame, and through it the decoder and
/// the document. The pool holds the storage it made too, up to `capacity` of them, and takes
/// one again once nothing else holds it: no allocation per container for our part. The
/// standard library's box around the container is made anew each time: reusing it would mean
/// reinterpreting that private class.
final class _KeyedFramePool {
  /// Enough for the nesting depth of common documents; past it, storage is made per container.
  static var capacity: Int { 16 }
  /// The first `count` are initialized.
  let storages: UnsafeMutablePointer<_KeyedFrameStorage>
  var count = 0
  /// The decode call is over (see `finish()`).
  var isFinished = false
  let types = _KeyedContainerTypes()

  init() {
    storages = .allocate(capacity: Self.capacity)
  }

  deinit {
    storages.deinitialize(count: count)
    storages.deallocate()
  }

  /// Storage holding the frame of a container of `object`: one of the pool's that nothing
  /// else holds, else a new one.
  func storage(decoder: _Decoder, object: JSONNodeCursor, depth: Int, extras: _KeyedExtras?)
    -> _KeyedFrameStorage
  {
    // After the call the pool keeps nothing: a frame holds the decoder, which holds the pool.
    if !isFinished {
      // Containers nest, so the ones still held are the first few (the root's, its child's…).
      var index = 0
      while index < count {
        if isKnownUniquelyReferenced(&storages[index]) {
          storages[index].frame.pointee.reset(
            decoder: decoder, object: object, depth: depth, extras: extras)
          return storages[index]
        }
        index &+= 1
      }
    }
    let storage = _KeyedFrameStorage.make(
      _KeyedFrame(decoder: decoder, object: object, depth: depth, extras: extras))
    if !isFinished && count < Self.capacity {
      (storages + count).initialize(to: storage)
      count &+= 1
    }
    return storage
  }

  /// The decode call is over: drops the pool's storage, so that the frames (with the decoder
  /// and document) live only as long as the containers still holding them.
  func finish() {
    isFinished = true
    storages.deinitialize(count: count)
    count = 0
  }
}

/// A keyed container made on a frame's storage. Through an existential metatype of this
/// protocol, kept per key type (see `_KeyedContainerTypes`), a container is made with no
/// runtime lookup of its type's generic metadata or conformance: the existential carries them,
/// and `KeyedDecodingContainerProtocol`'s conformance is read from this one's.
protocol _KeyedFrameContainer<Key>: KeyedDecodingContainerProtocol {
  init(_ storage: _KeyedFrameStorage)
}

extension _KeyedContainer: _KeyedFrameContainer {}

/// A `C` on `storage`, boxed.
func _keyedContainer<Key, C: _KeyedFrameContainer<Key>>(
  _ type: C.Type, on storage: _KeyedFrameStorage
) -> KeyedDecodingContainer<Key> {
  KeyedDecodingContainer(C(storage))
}

/// The container type of one key type: a class of our own, so that one table holds every key
/// type's and a table entry is downcast to it without a check.
class _AnyKeyedContainerType {}

final class _KeyedContainerType<Key: CodingKey>: _AnyKeyedContainerType {
  let type: any _KeyedFrameContainer<Key>.Type = _KeyedContainer<Key>.self
}

/// The container type of each key type met in one decode call: looked up in up to `probes`
/// slots from the key type's own, so that key types whose slots collide do not push each other
/// out; past that, a newcomer replaces the one in its own slot (found again in `byKey`, which
/// holds them all).
final class _KeyedContainerTypes {
  struct Slot {
    var key: ObjectIdentifier? = nil
    /// Not retained: `byKey` holds it.
    var type: Unmanaged<_AnyKeyedContainerType>? = nil
  }

  static var slotBits: Int { 6 }
  static var slotCount: Int { 1 << slotBits }
  static var probes: Int { 4 }
  let slots: UnsafeMutablePointer<Slot>
  var byKey: [ObjectIdentifier: _AnyKeyedContainerType] = [:]

  init() {
    slots = .allocate(capacity: Self.slotCount)
    slots.initialize(repeating: Slot(), count: Self.slotCount)
  }

  deinit {
    slots.deinitialize(count: Self.slotCount)
    slots.deallocate()
  }

  @inline(__always)
  func type<Key: CodingKey>(keyedBy key: Key.Type) -> any _KeyedFrameContainer<Key>.Type {
    let id = ObjectIdentifier(Key.self)
    let home = _slot(of: id, bits: Self.slotBits)
    for probe in 0..<Self.probes {
      let slot = slots + ((home &+ probe) & (Self.slotCount &- 1))
      if slot.pointee.key == id {
        return slot.pointee.type.unsafelyUnwrapped._withUnsafeGuaranteedRef {
          unsafeDowncast($0, to: _KeyedContainerType<Key>.self).type
        }
      }
      if slot.pointee.key == nil { break }
    }
    return add(Key.self)
  }

  @inline(never)
  func add<Key: CodingKey>(_ key: Key.Type) -> any _KeyedFrameContainer<Key>.Type {
    let id = ObjectIdentifier(Key.self)
    let type: _KeyedContainerType<Key>
    if let known = byKey[id] {
      type = unsafeDowncast(known, to: _KeyedContainerType<Key>.self)
    } else {
      type = _KeyedContainerType<Key>()
      byKey[id] = type
    }
    let home = _slot(of: id, bits: Self.slotBits)
    var slot = slots + home
    for probe in 0..<Self.probes {
      let free = slots + ((home &+ probe) & (Self.slotCount &- 1))
      if free.pointee.key == nil {
        slot = free
        break
      }
    }
    slot.pointee = Slot(key: id, type: .passUnretained(type))
    return type.type
  }
}
