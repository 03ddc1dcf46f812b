// Counts of work done, for tests that check it stays linear in the input; nothing in release
// builds, where the counter is empty and counting does nothing.

/// Work done so far (bytes copied, nodes written): read by tests, and by the fuzz targets,
/// which are built with `JSONSTREAM_TEST_COUNTERS`.
@usableFromInline
package struct _WorkCounter {
  #if DEBUG || JSONSTREAM_TEST_COUNTERS
    /// The count.
    @usableFromInline package var value = 0

    @inlinable package init() {}

    /// Counts `amount` more.
    @inlinable @inline(__always)
    package mutating func add(_ amount: Int) { value &+= amount }
  #else
    /// Always 0: release builds do not count.
    @inlinable package var value: Int { 0 }

    @inlinable package init() {}

    /// Does nothing in release builds.
    @inlinable @inline(__always)
    package mutating func add(_ amount: Int) {}
  #endif
}
