/// An event consumer that builds ``JSONValue``s: every complete top-level value lands in
/// ``values`` (one for a document; many with ``JSONParseOptions/allowMultipleValues``).
///
/// ```swift
/// var parser = JSONParser(handler: JSONTreeBuilder())
/// try parser.feed(chunk1)
/// try parser.feed(chunk2)
/// try parser.finish()
/// let value = parser.handler.value
/// ```
///
/// Each top-level array or object is built into one arena of fixed-size nodes and one of
/// bytes (RapidJSON's Document layout): a value costs an append, not an allocation, and the
/// ``JSONArray`` and ``JSONObject`` you read are views of that memory. Nesting is kept on
/// explicit stacks, so depth costs no call stack.
public struct JSONTreeBuilder: JSONEventHandler {
  /// What a repeated key in an object does.
  public var duplicateKeyPolicy: JSONDuplicateKeyPolicy

  /// The complete top-level values so far.
  public var values: [JSONValue] { _values }

  @usableFromInline var _values: [JSONValue] = []
  /// Nodes of the values in open containers, innermost last (two words each).
  @usableFromInline var _stack: [UInt64] = []
  @usableFromInline var _frames: [_BuilderFrame] = []
  /// The arenas of the value being built: the node blocks of closed containers, and the bytes
  /// of strings, keys and numbers.
  @usableFromInline var _words: [UInt64] = []
  @usableFromInline var _bytes: [UInt8] = []
  /// Key indexes of open objects with more than `_JSONNode.indexThreshold` members.
  @usableFromInline var _indexes: [[UInt64]] = []

  /// - Parameters:
  ///   - duplicateKeyPolicy: what a repeated key does; last wins by default.
  ///   - cachesKeys: kept for source compatibility; keys are stored as bytes in the
  ///     document's arena and no longer need a cache.
  public init(duplicateKeyPolicy: JSONDuplicateKeyPolicy = .lastWins, cachesKeys: Bool = true) {
    self.duplicateKeyPolicy = duplicateKeyPolicy
  }

  /// The first complete top-level value, if any.
  public var value: JSONValue? { _values.first }

  /// Forgets the values and any partial one.
  public mutating func reset() {
    _values.removeAll()
    _stack.removeAll(keepingCapacity: true)
    _frames.removeAll(keepingCapacity: true)
    _indexes.removeAll()
    _words = []
    _bytes = []
  }

  /// Returns the complete values and forgets them (for streams of many documents).
  public mutating func takeValues() -> [JSONValue] {
    defer { _values.removeAll() }
    return _values
  }

  // MARK: Events

  @inlinable
  public mutating func startObject() {
    _frames.append(_BuilderFrame(start: _stack.count))
  }

  @inlinable
  public mutating func startArray() {
    _frames.append(_BuilderFrame(start: _stack.count))
  }

  @inlinable
  public mutating func endArray() {
    let frame = _frames.removeLast()
    _close(frame, kind: _JSONNode.array, count: (_stack.count &- frame.start) >> 1)
  }

  @inlinable
  public mutating func endObject() {
    let frame = _frames.removeLast()
    let count = (_stack.count &- frame.start) >> 2
    if frame.index >= 0 {
      // The key index follows the members in the arena; its slots are positions, which the
      // copy does not change.
      let index = _indexes.removeLast()
      let first = _words.count >> 1
      _words.append(contentsOf: _stack[frame.start...])
      _words.append(contentsOf: index)
      _stack.removeSubrange(frame.start...)
      _push(_JSONNode.object | UInt64(truncatingIfNeeded: count) << 8, UInt64(truncatingIfNeeded: first))
      _completed()
    } else {
      _close(frame, kind: _JSONNode.object, count: count)
    }
  }

  /// Moves the open container's nodes from the stack into the arena, as one block, and
  /// replaces them on the stack by the container's node.
  @inlinable
  mutating func _close(_ frame: _BuilderFrame, kind: UInt64, count: Int) {
    let first = _words.count >> 1
    _words.append(contentsOf: _stack[frame.start...])
    _stack.removeSubrange(frame.start...)
    _push(kind | UInt64(truncatingIfNeeded: count) << 8, UInt64(truncatingIfNeeded: first))
    _completed()
  }

  @inlinable
  public mutating func key(_ key: JSONString) throws {
    let last = _frames.count &- 1
    let frame = _frames[last]
    let members = (_stack.count &- frame.start) >> 2
    let head = _JSONNode.string | UInt64(truncatingIfNeeded: key.utf8.count) << 8
    let duplicate: Int?
    if frame.index >= 0 {
      duplicate = _indexInsert(key.utf8, position: members, frame: last)
    } else if members < _JSONNode.indexThreshold {
      duplicate = _linearFind(key.utf8, head: head, start: frame.start, members: members)
    } else {
      duplicate = _startIndex(key.utf8, frame: last)
    }
    if let duplicate {
      switch duplicateKeyPolicy {
      case .error: throw JSONValueError.duplicateKey(key.string)
      case .lastWins: _frames[last].pending = duplicate
      case .firstWins: _frames[last].pending = _BuilderFrame.discard
      }
      return
    }
    _push(head, _appendBytes(key.utf8))
  }

  @inlinable
  public mutating func string(_ value: JSONString) {
    _push(
      _JSONNode.string | UInt64(truncatingIfNeeded: value.utf8.count) << 8,
      _appendBytes(value.utf8))
    _completed()
  }

  @inlinable
  public mutating func number(_ value: JSONNumber) {
    _push(
      _JSONNode.number | UInt64(value._flags) << 8
        | UInt64(truncatingIfNeeded: value.utf8.count) << 16,
      _appendBytes(value.utf8))
    _completed()
  }

  @inlinable
  public mutating func bool(_ value: Bool) {
    _push(value ? _JSONNode.true : _JSONNode.false, 0)
    _completed()
  }

  @inlinable
  public mutating func null() {
    _push(_JSONNode.null, 0)
    _completed()
  }

  // MARK: Internals

  @inlinable @inline(__always)
  mutating func _push(_ head: UInt64, _ payload: UInt64) {
    _stack.append(head)
    _stack.append(payload)
  }

  /// Copies bytes into the byte arena and returns where they start.
  @inlinable @inline(__always)
  mutating func _appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let offset = UInt64(truncatingIfNeeded: _bytes.count)
    _bytes.append(contentsOf: bytes)
    return offset
  }

  /// A value's node was pushed: settle a repeated key, or finish a top-level value.
  @inlinable @inline(__always)
  mutating func _completed() {
    if let last = _frames.indices.last {
      if _frames[last].pending != _BuilderFrame.none { _settleRepeatedKey(frame: last) }
    } else {
      _finishTopLevel()
    }
  }

  /// The value of a repeated key is complete: it replaces the first value (last wins) or is
  /// dropped (first wins). Its key was never pushed.
  @usableFromInline
  mutating func _settleRepeatedKey(frame last: Int) {
    let position = _frames[last].pending
    _frames[last].pending = _BuilderFrame.none
    let end = _stack.count
    if position >= 0 {
      let slot = _frames[last].start &+ 4 &* position &+ 2
      _stack[slot] = _stack[end &- 2]
      _stack[slot &+ 1] = _stack[end &- 1]
    }
    _stack.removeLast(2)
  }

  /// The root node is complete: its arenas become a storage of their own.
  @usableFromInline
  mutating func _finishTopLevel() {
    let payload = _stack.removeLast()
    let head = _stack.removeLast()
    _words.append(head)
    _words.append(payload)
    let root = (_words.count >> 1) &- 1
    let storage = _JSONStorage(words: _words, bytes: _bytes)
    _words = []
    _bytes = []
    _values.append(storage.value(at: root))
  }

  /// The position of a key equal to `key` among the open object's first `members` members.
  @inlinable
  func _linearFind(
    _ key: UnsafeBufferPointer<UInt8>, head: UInt64, start: Int, members: Int
  ) -> Int? {
    if members == 0 { return nil }
    return _stack.withUnsafeBufferPointer { stack in
      var position = 0
      while position < members {
        let slot = start &+ 4 &* position
        if stack[slot] == head && _keyEquals(at: slot, key) { return position }
        position &+= 1
      }
      return nil
    }
  }

  /// The open object reached the index threshold: index its keys, then add `key`.
  @usableFromInline
  mutating func _startIndex(_ key: UnsafeBufferPointer<UInt8>, frame last: Int) -> Int? {
    let start = _frames[last].start
    let members = (_stack.count &- start) >> 2
    var slots = [UInt64](repeating: 0, count: _JSONNode.indexCapacity(members &+ 1))
    slots.withUnsafeMutableBufferPointer { slots in
      for position in 0..<members {
        _withKey(at: start &+ 4 &* position) { key in
          _ = _JSONTreeIndex.insert(key, position: position, into: slots) { _ in false }
        }
      }
    }
    _frames[last].index = _indexes.count
    _indexes.append(slots)
    return _indexInsert(key, position: members, frame: last)
  }

  /// Calls `body` with the bytes of the key node at stack word `slot`.
  @inlinable
  func _withKey<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let offset = Int(truncatingIfNeeded: _stack[slot &+ 1])
    let count = _JSONNode.count(_stack[slot])
    return _bytes.withUnsafeBufferPointer {
      body(UnsafeBufferPointer(rebasing: $0[offset..<offset &+ count]))
    }
  }

  @inlinable
  func _keyEquals(at slot: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    _withKey(at: slot) { _bytesEqual($0, key) }
  }

  /// Adds `key` at `position` to the open object's index, or returns the position of the
  /// equal key already there.
  @usableFromInline
  mutating func _indexInsert(_ key: UnsafeBufferPointer<UInt8>, position: Int, frame last: Int)
    -> Int?
  {
    let table = _frames[last].index
    let start = _frames[last].start
    // Taken out while it is changed, so the array is not copied.
    var slots = _indexes[table]
    _indexes[table] = []
    if _JSONNode.indexCapacity(position &+ 1) > slots.count {
      slots = _regrown(slots, members: position &+ 1, start: start)
    }
    let found = slots.withUnsafeMutableBufferPointer { slots in
      _JSONTreeIndex.insert(key, position: position, into: slots) { candidate in
        _keyEquals(at: start &+ 4 &* candidate, key)
      }
    }
    _indexes[table] = slots
    return found
  }

  /// An index rebuilt at the capacity `members` members need.
  @usableFromInline
  func _regrown(_ old: [UInt64], members: Int, start: Int) -> [UInt64] {
    var slots = [UInt64](repeating: 0, count: _JSONNode.indexCapacity(members))
    let mask = slots.count &- 1
    for entry in old where entry != 0 {
      // An entry keeps only its hash's top half; the slot comes from rehashing the key.
      let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
      var index = Int(truncatingIfNeeded: _withKey(at: start &+ 4 &* position, _keyHash)) & mask
      while slots[index] != 0 { index = (index &+ 1) & mask }
      slots[index] = entry
    }
    return slots
  }
}

/// Inserting into a key index (the table format is described with `_JSONStorage`).
@usableFromInline
enum _JSONTreeIndex {
  /// Inserts `key` at `position`, unless `isEqual` finds an entry with the same key: then
  /// returns that entry's position and inserts nothing.
  @inlinable
  static func insert(
    _ key: UnsafeBufferPointer<UInt8>, position: Int, into slots: UnsafeMutableBufferPointer<UInt64>,
    isEqual: (Int) -> Bool
  ) -> Int? {
    let hash = _keyHash(key)
    let mask = slots.count &- 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while slots[index] != 0 {
      let entry = slots[index]
      let existing = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
      if entry >> 32 == hash >> 32 && isEqual(existing) { return existing }
      index = (index &+ 1) & mask
    }
    slots[index] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(truncatingIfNeeded: position &+ 1)
    return nil
  }
}

/// An open container while the tree is built.
@usableFromInline
struct _BuilderFrame {
  @usableFromInline static var none: Int { -1 }
  @usableFromInline static var discard: Int { -2 }

  /// Where its nodes start on the builder's stack.
  @usableFromInline var start: Int
  /// After a repeated key: the position whose value the next value replaces, `discard`, or
  /// `none`.
  @usableFromInline var pending: Int = _BuilderFrame.none
  /// Its key index among the builder's, or -1 while it has none.
  @usableFromInline var index: Int = -1

  @inlinable
  init(start: Int) {
    self.start = start
  }
}

/// Errors of the tree builder.
public enum JSONValueError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An object repeated this key under ``JSONDuplicateKeyPolicy/error``.
  case duplicateKey(String)

  public var description: String {
    switch self {
    case .duplicateKey(let key): return "duplicate key \"\(key)\" in an object"
    }
  }
}
