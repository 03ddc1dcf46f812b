// Sorted keys (JSONWriteOptions.sortKeys): an object's members are written to the output as
// they come, each recorded with its key; when the object ends they are put in key order in
// place. The output from the object's `{` on is then its members separated by commas, and a
// permutation keeps their total length, so the members of the objects around it stay where
// they are recorded.

import JSONStreamCore

/// The objects being sorted and their members. The writer's state holds it copied on write,
/// in a box of its own, so that the writer's state, which each event works on, stays small.
@usableFromInline
struct _SortState: _ManualState {
  /// The open objects, innermost last.
  var frames: [_SortFrame] = []
  /// Their members in input order, the innermost object's last.
  var members: [_SortMember] = []
  /// The members' keys, unescaped (the order compares these), one after another.
  var keyBytes = _Buffer<UInt8>(capacity: 256)

  @usableFromInline init() {}

  @usableFromInline
  func copy() -> _SortState {
    var copy = self
    copy.keyBytes = keyBytes.copy()
    return copy
  }

  @usableFromInline
  func deallocate() { keyBytes.deallocate() }

  /// An object starts with its `{` at `start` in the output.
  @usableFromInline
  mutating func startObject(at start: Int) {
    frames.append(
      _SortFrame(start: start, firstMember: members.count, keyBytesStart: keyBytes.count))
  }

  /// A member of the innermost object starts at `start` in the output, after the comma that
  /// ends the one before, whose value ended at `previousEnd`; `appendKey` appends its key's
  /// bytes.
  @usableFromInline
  mutating func startMember(
    at start: Int, previousEnd: Int, appendKey: (inout _Buffer<UInt8>) -> Void
  ) {
    if members.count > frames[frames.count &- 1].firstMember {
      members[members.count &- 1].end = previousEnd
    }
    let keyStart = keyBytes.count
    appendKey(&keyBytes)
    members.append(_SortMember(key: keyStart..<keyBytes.count, start: start, end: start))
  }

  /// The output before the objects moved out: every recorded place is `distance` lower.
  mutating func moveDown(by distance: Int) {
    for index in frames.indices { frames[index].start &-= distance }
    for index in members.indices {
      members[index].start &-= distance
      members[index].end &-= distance
    }
  }

  /// The innermost object has ended at the end of `out`: its members go in key order
  /// (members with equal keys keep their order).
  @usableFromInline
  mutating func endObject(in out: inout _Buffer<UInt8>) {
    let frame = frames.removeLast()
    defer {
      members.removeSubrange(frame.firstMember...)
      keyBytes.truncate(to: frame.keyBytesStart)
    }
    let range = frame.firstMember..<members.count
    guard range.count > 1 else { return }
    members[range.upperBound &- 1].end = out.count
    if !range.dropFirst().contains(where: { compare($0, $0 &- 1) < 0 }) { return }
    // Equal keys compare by position, so the order is a stable sort's.
    let order = range.sorted { a, b in
      let order = compare(a, b)
      return order < 0 || (order == 0 && a < b)
    }
    let arranged = out.count
    for (place, member) in order.enumerated() {
      if place > 0 { out.append(._comma) }
      out.appendCopy(of: members[member].start..<members[member].end)
    }
    out.replace(from: frame.start &+ 1, withTailFrom: arranged)
  }

  /// Member `a`'s key against member `b`'s, in UTF-8 byte order: negative when it comes
  /// first, 0 when they are equal, positive when it comes after.
  func compare(_ a: Int, _ b: Int) -> Int {
    keyBytes.compare(members[a].key, members[b].key)
  }
}

/// An object being sorted: where its `{` is in the output, and where its members start among
/// the members and its keys among the key bytes.
struct _SortFrame {
  var start: Int
  let firstMember: Int
  let keyBytesStart: Int
}

/// A member of an object being sorted: its key among the key bytes, and its bytes in the
/// output (its line break and indentation, key and value; not the comma before it).
struct _SortMember {
  let key: Range<Int>
  var start: Int
  var end: Int
}
