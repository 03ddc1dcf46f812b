// One value in memory of its own, for state a class reaches on its hottest paths.

/// A value in memory of its own, owned by one holder (a class's stored property): read and
/// changed in place through `value`, without the runtime exclusivity check that a class's
/// stored `var` gets on every access (the Codable decoder's state is reached several times per
/// value decoded). Not copyable, so its memory is freed once, with its holder.
///
/// What it gives up is that check alone: two overlapping changes of `value` (a change made
/// from inside a closure that another change of it is running) are not caught. The memory
/// itself is valid as long as the holder.
@usableFromInline
@safe package struct _StateMemory<Value>: ~Copyable {
  @usableFromInline let pointer: UnsafeMutablePointer<Value>

  @inlinable
  package init(_ initial: consuming Value) {
    unsafe pointer = .allocate(capacity: 1)
    unsafe pointer.initialize(to: initial)
  }

  /// The value, read and changed in place.
  @inlinable
  package var value: Value {
    unsafeAddress { unsafe UnsafePointer(pointer) }
    nonmutating unsafeMutableAddress { unsafe pointer }
  }

  deinit {
    unsafe pointer.deinitialize(count: 1)
    unsafe pointer.deallocate()
  }
}
