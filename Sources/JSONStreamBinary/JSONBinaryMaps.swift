// The open maps of a binary reader or writer. A map (tag `33`) holds keys and values one
// after the other, so it may end only after a value: the one rule of maps the container
// stack, a bit per level, cannot check.

/// The maps open in a reader or writer: the innermost one's depth and whether its next
/// element is a value, the enclosing ones' saved. Apart from the container stack, so that
/// documents without maps pay one compare per value in an array and nothing else.
@usableFromInline
struct _OpenMaps {
  /// The depth (open containers, the map's own included) of the innermost open map; 0 when
  /// none is open.
  @usableFromInline var depth = 0
  /// The innermost map has read a key whose value has not come.
  @usableFromInline var awaitingValue = false
  /// The enclosing open maps, innermost last: `depth << 1 | awaitingValue`.
  @usableFromInline var enclosing: [Int] = []

  @inlinable init() {}

  /// A value begins inside the innermost open container, at `containerDepth` (not 0, not an
  /// object): a key or a value of the innermost map when that container is it.
  @inlinable @inline(__always)
  mutating func element(in containerDepth: Int) {
    if containerDepth == depth { awaitingValue.toggle() }
  }

  /// A map has opened: the innermost container, at `containerDepth`.
  @inlinable
  mutating func open(at containerDepth: Int) {
    enclosing.append(depth << 1 | (awaitingValue ? 1 : 0))
    depth = containerDepth
    awaitingValue = false
  }

  /// Whether the innermost container, at `containerDepth`, may end: not a map that has read
  /// a key without its value. A map that may end is closed here.
  @inlinable @inline(__always)
  mutating func mayEnd(at containerDepth: Int) -> Bool {
    guard containerDepth == depth else { return true }
    return closeMap()
  }

  @inlinable
  mutating func closeMap() -> Bool {
    guard !awaitingValue else { return false }
    let saved = enclosing.removeLast()
    depth = saved >> 1
    awaitingValue = saved & 1 != 0
    return true
  }
}
