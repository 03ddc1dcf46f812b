// Growable buffers of trivial values for building documents. The tree builder appends a node
// or a few bytes per event; Swift arrays cost a uniqueness check and a generic call per append
// there, and shrinking one goes through `replaceSubrange`. These are plain memory: the owner
// (the builder's `_BuilderMemory`, then a document's `_JSONStorage`) frees them.

@usableFromInline
struct _Buffer<Element: BitwiseCopyable> {
  @usableFromInline var base: UnsafeMutablePointer<Element>
  @usableFromInline var count: Int
  @usableFromInline var capacity: Int

  @inlinable
  init(capacity: Int) {
    base = .allocate(capacity: capacity)
    count = 0
    self.capacity = capacity
  }

  @inlinable @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow(toAtLeast: count &+ 1) }
    (base + count).initialize(to: element)
    count &+= 1
  }

  @inlinable @inline(__always)
  mutating func append(_ elements: UnsafeBufferPointer<Element>) {
    let n = elements.count
    if n == 0 { return }
    if n > capacity &- count { grow(toAtLeast: count &+ n) }
    (base + count).initialize(from: elements.baseAddress!, count: n)
    count &+= n
  }

  @inlinable @inline(__always)
  mutating func removeLast() -> Element {
    count &-= 1
    return base[count]
  }

  @inlinable @inline(__always)
  subscript(position: Int) -> Element {
    get { base[position] }
    nonmutating set { base[position] = newValue }
  }

  @usableFromInline
  mutating func grow(toAtLeast minimum: Int) {
    var newCapacity = Swift.max(capacity &* 2, 64)
    while newCapacity < minimum { newCapacity &*= 2 }
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    newBase.initialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// A separate buffer with the same elements.
  @usableFromInline
  func copy() -> _Buffer {
    var copy = _Buffer(capacity: Swift.max(capacity, 1))
    copy.append(UnsafeBufferPointer(start: base, count: count))
    return copy
  }

  @usableFromInline
  func deallocate() { base.deallocate() }
}

extension _Buffer where Element == UInt8 {
  /// Makes room for `count` more bytes, so that many unchecked writes may follow.
  @inlinable @inline(__always)
  mutating func reserve(_ count: Int) {
    if count > capacity &- self.count { grow(toAtLeast: self.count &+ count) }
  }

  /// Appends a byte there is room for (see ``reserve(_:)``).
  @inlinable @inline(__always)
  mutating func appendReserved(_ byte: UInt8) {
    base[count] = byte
    count &+= 1
  }

  /// Appends bytes, mostly few: see `_copyBytes`.
  @inlinable @inline(__always)
  mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    let n = bytes.count
    if n > capacity &- count { grow(toAtLeast: count &+ n) }
    if let source = bytes.baseAddress { _copyBytes(from: source, to: base + count, count: n) }
    count &+= n
  }

  /// The first free byte, to write reserved room directly.
  @inlinable @inline(__always)
  var end: UnsafeMutablePointer<UInt8> { base + count }
}

/// State kept in plain memory behind a class: hot code reaches it through a pointer, without
/// the exclusivity checks a class's stored properties get, while the class frees it and lets
/// a struct holding it copy on write (`copy()` when the box is shared).
@usableFromInline
protocol _ManualState {
  /// An independent copy.
  func copy() -> Self
  /// Frees the memory it holds.
  func deallocate()
}

@usableFromInline
final class _StateBox<State: _ManualState> {
  @usableFromInline let state: UnsafeMutablePointer<State>

  @usableFromInline
  init(_ initial: State) {
    state = .allocate(capacity: 1)
    state.initialize(to: initial)
  }

  @usableFromInline
  func copy() -> _StateBox { _StateBox(state.pointee.copy()) }

  deinit {
    state.pointee.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }
}

/// A `_StateBox` as a struct's copy-on-write state: `unique()` makes the box the struct's own
/// before a change, with a runtime call, except inside a producer's run of events (see
/// `JSONEventHandler._beginEventRun()`), where `beginEventRun()` has made it so once. (Per
/// event, that call was 4.6% of building canada.json's tree from binary, 8% of writing it.)
@usableFromInline
struct _CopyOnWriteState<State: _ManualState> {
  @usableFromInline var box: _StateBox<State>
  /// The box's state during a run of events, nil outside one. Kept here, the state is one
  /// load from the struct: through the box, with a flag for the run, each event loaded the
  /// box, the flag and the state in a chain (4–5% of replaying a tree into a binary writer).
  @usableFromInline var runState: UnsafeMutablePointer<State>? = nil

  @inlinable
  init(_ initial: State) {
    box = _StateBox(initial)
  }

  /// The state, for reading.
  @inlinable
  var state: UnsafeMutablePointer<State> { box.state }

  /// The state, for changing: copied first if another copy of the struct shares it.
  @inlinable @inline(__always)
  mutating func unique() -> UnsafeMutablePointer<State> {
    if let runState { return runState }
    if !isKnownUniquelyReferenced(&box) { box = box.copy() }
    return box.state
  }

  @inlinable
  mutating func beginEventRun() {
    if !isKnownUniquelyReferenced(&box) { box = box.copy() }
    runState = box.state
  }

  @inlinable
  mutating func endEventRun() { runState = nil }
}

/// Copies `count` bytes from `source` to `target` (not overlapping). Up to 32 bytes (most keys,
/// numbers and short strings) as two overlapping pairs of loads and stores, inlined: a call
/// to `memcpy` for each of a document's strings cost more than the copy.
@inlinable @inline(__always)
func _copyBytes(_ target: UnsafeMutableRawPointer, _ source: UnsafeRawPointer, count: Int) {
  if count >= 8 {
    if count > 32 {
      target.copyMemory(from: source, byteCount: count)
    } else if count > 16 {
      let a = source.loadUnaligned(as: (UInt64, UInt64).self)
      let b = (source + (count &- 16)).loadUnaligned(as: (UInt64, UInt64).self)
      target.storeBytes(of: a, as: (UInt64, UInt64).self)
      (target + (count &- 16)).storeBytes(of: b, as: (UInt64, UInt64).self)
    } else {
      let a = source.loadUnaligned(as: UInt64.self)
      let b = (source + (count &- 8)).loadUnaligned(as: UInt64.self)
      target.storeBytes(of: a, as: UInt64.self)
      (target + (count &- 8)).storeBytes(of: b, as: UInt64.self)
    }
  } else if count >= 4 {
    let a = source.loadUnaligned(as: UInt32.self)
    let b = (source + (count &- 4)).loadUnaligned(as: UInt32.self)
    target.storeBytes(of: a, as: UInt32.self)
    (target + (count &- 4)).storeBytes(of: b, as: UInt32.self)
  } else if count > 0 {
    // 1 to 3 bytes: the first, the middle and the last (some the same).
    let first = source.load(as: UInt8.self)
    let middle = source.load(fromByteOffset: count >> 1, as: UInt8.self)
    let last = source.load(fromByteOffset: count &- 1, as: UInt8.self)
    target.storeBytes(of: first, as: UInt8.self)
    target.storeBytes(of: middle, toByteOffset: count >> 1, as: UInt8.self)
    target.storeBytes(of: last, toByteOffset: count &- 1, as: UInt8.self)
  }
}
