// The state of the library's handlers (the tree builder, the writers, the binary reader) kept in plain memory
// behind a class, copied on write.

/// State kept in plain memory behind a class: hot code reaches it through a pointer, without
/// the exclusivity checks a class's stored properties get, while the class frees it and lets
/// a struct holding it copy on write (`copy()` when the box is shared).
@usableFromInline
package protocol _ManualState {
  /// An independent copy.
  func copy() -> Self
  /// Frees the memory it holds.
  func deallocate()
}

@usableFromInline
@safe package final class _StateBox<State: _ManualState> {
  @usableFromInline package let state: UnsafeMutablePointer<State>

  // Inlinable, as is `copy()`: a call of either, unspecialized, from another module's
  // inlinable code kept the compiler from devirtualizing that code's event calls (the tree
  // builder's events went through its witness table: 5–12% on building trees).
  @inlinable
  package init(_ initial: State) {
    unsafe state = .allocate(capacity: 1)
    unsafe state.initialize(to: initial)
  }

  @inlinable
  package func copy() -> _StateBox { unsafe _StateBox(state.pointee.copy()) }

  deinit {
    unsafe state.pointee.deallocate()
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }
}

/// A `_StateBox` as a struct's copy-on-write state: `unique()` makes the box the struct's own
/// before a change, with a runtime call, except inside a producer's run of events (see
/// `JSONEventHandler.beginEventRun()`), where `beginEventRun()` has made it so once. (Per
/// event, that call was 4.6% of building canada.json's tree from binary, 8% of writing it.)
@usableFromInline
@safe package struct _CopyOnWriteState<State: _ManualState> {
  /// Replaced only together with `memory`, which always points into it.
  @usableFromInline package private(set) var box: _StateBox<State>
  /// The box's state during a run of events, nil outside one. Kept here, the state is one
  /// load from the struct: through the box, with a flag for the run, each event loaded the
  /// box, the flag and the state in a chain (4–5% of replaying a tree into a binary writer).
  @usableFromInline package private(set) var runState: UnsafeMutablePointer<State>? = nil
  /// The box's state, in or out of a run: for `inRun`, which then needs no check to be valid.
  @usableFromInline package private(set) var memory: UnsafeMutablePointer<State>

  @inlinable
  package init(_ initial: State) {
    box = _StateBox(initial)
    unsafe memory = unsafe box.state
  }

  /// The state, for reading.
  @inlinable
  package var state: UnsafeMutablePointer<State> { unsafe box.state }

  /// The state, for changing: copied first if another copy of the struct shares it.
  @inlinable @inline(__always)
  package mutating func unique() -> UnsafeMutablePointer<State> {
    if let runState = unsafe runState { return unsafe runState }
    if !isKnownUniquelyReferenced(&box) { makeOwnCopy() }
    return unsafe box.state
  }

  @inlinable
  mutating func makeOwnCopy() {
    box = box.copy()
    unsafe memory = unsafe box.state
  }

  /// The state, read in place.
  @inlinable
  package var current: State {
    unsafeAddress { unsafe UnsafePointer(box.state) }
  }

  /// Calls `body` with the state to change in place, copied first if another copy of the
  /// struct shares it (see `unique()`).
  @inlinable @inline(__always)
  package mutating func withUnique<R>(_ body: (inout State) throws -> R) rethrows -> R {
    unsafe try body(&unique().pointee)
  }

  /// The state during a run of events (see `beginEventRun()`), changed in place without a
  /// check of the box: for code that is always inside a run, such as the one-pass writers'
  /// walks. Outside a run it would change a box that copies of the struct may share, but
  /// memory this struct's box holds all the same: never freed memory. Debug builds check that
  /// a run is open.
  @inlinable
  package var inRun: State {
    unsafeAddress {
      unsafe assert(runState != nil, "inRun outside a run of events")
      return unsafe UnsafePointer(memory)
    }
    nonmutating unsafeMutableAddress {
      unsafe assert(runState != nil, "inRun outside a run of events")
      return unsafe memory
    }
  }

  @inlinable
  package mutating func beginEventRun() {
    if !isKnownUniquelyReferenced(&box) { makeOwnCopy() }
    unsafe runState = unsafe box.state
  }

  @inlinable
  package mutating func endEventRun() { unsafe runState = nil }
}
