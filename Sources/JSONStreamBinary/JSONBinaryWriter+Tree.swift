// Writing a whole array or object of a tree as binary at once. Its structure is valid and its
// strings are well-formed by construction, so instead of one checked event per value (a
// uniqueness check, a grammar check, a call), the nodes are walked and their tokens written
// straight into the output, through the same token writers as the events: the bytes are those
// that replaying the tree into the writer gives, tables and key predictions included.

import JSONStreamCore
import JSONStreamValue
import JSONStreamWriter

extension JSONValue {
  /// Writes this value with `writer`: the same output as ``replay(into:)`` into it, faster for
  /// arrays and objects, which are written in one pass.
  ///
  /// ```swift
  /// var writer = JSONBinaryWriter(sink: JSONChunkSink { try file.write(contentsOf: $0) })
  /// try value.write(to: &writer)
  /// try writer.finish()
  /// ```
  public func write<Sink>(to writer: inout JSONBinaryWriter<Sink>) throws {
    switch self {
    case .array(let array):
      try withExtendedLifetime(array._storage) { try array._withNode { try writer._writeTree($0) } }
    case .object(let object):
      try withExtendedLifetime(object._storage) {
        try object._withNode { try writer._writeTree($0) }
      }
    default:
      try replay(into: &writer)
    }
  }

  /// The value in the binary format (see ``JSONBinaryWriter``): a whole document, header
  /// included, which `JSONValue(binary:)` reads back as this value.
  ///
  /// ```swift
  /// let cached = try value.binaryBytes()
  /// let back = try JSONValue(binary: cached)   // == value
  /// ```
  public func binaryBytes() throws -> [UInt8] {
    var writer = JSONBinaryWriter()
    try write(to: &writer)
    try writer.finish()
    return writer.bytes
  }
}

extension JSONBinaryWriter {
  /// Writes the container `root` as one value, like replaying its events would.
  @usableFromInline
  mutating func _writeTree(_ root: _Node) throws {
    let state = _state()
    // The grammar is checked once, for the tree as a whole; inside it, it holds.
    try beginValue(state)
    // Plain memory, not an array (see `_JSONStorage.replay`).
    var walk = _Buffer<_BinaryWalkFrame>(capacity: 16)
    defer { walk.deallocate() }
    // Room for a key and a value is made once before them (`makeRoom`), so that their tokens
    // are written without a check each (see `_BinaryWriterState.maxToken`): 6% fewer
    // instructions writing citm_catalog.json.
    let room = 2 &* _BinaryWriterState.maxToken
    var checkAt = 0
    try makeRoom(state, room, &checkAt)
    // The innermost container's frame is a local, the ones around it wait in `walk`: kept
    // in the buffer, its fields were loaded and stored back for every child. A frame holds
    // the container's entry of the key predictions' stack as well (see
    // `_BinaryWriterState.stack`): kept on that stack, as the events keep it, it was pushed,
    // popped, and loaded and stored for every key, 3-5% of the time of writing twitter.json
    // and citm_catalog.json.
    guard var inner = openTree(state, root, context: state.pointee.context) else {
      return try endValue(state)
    }
    while true {
      guard let child = inner.walk.nextChild() else {
        state.pointee.writeTag(inner.walk.isObject ? _BinaryTag.endObject : _BinaryTag.endArray)
        guard walk.count > 0 else { return try endValue(state) }
        inner = walk.removeLast()
        continue
      }
      if state.pointee.out.count >= checkAt { try makeRoom(state, room, &checkAt) }
      if let key = child.key {
        state.pointee.writeKey(_JSONNode.utf8(key), in: &inner.keys, checked: false)
      }
      let node = child.value
      let head = node.head
      switch _JSONNode.kind(head) {
      case _JSONNode.null: state.pointee.writeTag(_BinaryTag.null, checked: false)
      case _JSONNode.false: state.pointee.writeTag(_BinaryTag.false, checked: false)
      case _JSONNode.true: state.pointee.writeTag(_BinaryTag.true, checked: false)
      case _JSONNode.integer:
        state.pointee.writeInteger(_JSONNode.integerValue(head), checked: false)
      case _JSONNode.number:
        // Number text is a call (see `writeNumber(_:)`), where `checked: false` would be a
        // test, not a saving.
        state.pointee.writeNumber(_JSONNode.numberText(node))
      case _JSONNode.binaryNumber:
        state.pointee.writeKeptNumber(_JSONNode.binaryNumber(node))
      case _JSONNode.string:
        state.pointee.writeString(_JSONNode.utf8(node))
      default:
        let context = _BinaryWriterState.context(in: inner.keys)
        if let frame = openTree(state, node, context: context) {
          walk.append(inner)
          inner = frame
        }
      }
    }
  }

  /// Opens container `node`, started in `context` (see `_BinaryWriterState.nextKey`), and
  /// returns the frame of its children; closes it and returns nil when it has none.
  @inlinable @inline(__always)
  func openTree(
    _ state: UnsafeMutablePointer<_BinaryWriterState>, _ node: _Node, context: Int32
  ) -> _BinaryWalkFrame? {
    let (isObject, frame) = _WalkFrame.open(node)
    state.pointee.writeTag(
      isObject ? _BinaryTag.startObject : _BinaryTag.startArray, checked: false)
    guard let frame else {
      state.pointee.writeTag(isObject ? _BinaryTag.endObject : _BinaryTag.endArray)
      return nil
    }
    return _BinaryWalkFrame(
      walk: frame, keys: _BinaryWriterState.frame(isObject: isObject, context: context))
  }

  /// Hands the output on once it reaches the chunk size, as the events would: memory stays
  /// bounded by the chunk size, whatever the shape of the tree. Then makes room for `room`
  /// bytes, and sets `checkAt` to the output size at which to come back here.
  @inlinable
  mutating func makeRoom(
    _ state: UnsafeMutablePointer<_BinaryWriterState>, _ room: Int, _ checkAt: inout Int
  ) throws {
    if state.pointee.out.count >= chunkSize { try flush() }
    state.pointee.out.reserve(room)
    checkAt = Swift.min(chunkSize, state.pointee.out.capacity &- room)
  }
}

/// A container the one-pass binary writer walks: its children, and its entry of the key
/// predictions' stack (see `_BinaryWriterState.stack`).
@usableFromInline
struct _BinaryWalkFrame: BitwiseCopyable {
  @usableFromInline var walk: _WalkFrame
  @usableFromInline var keys: Int32

  @inlinable init(walk: _WalkFrame, keys: Int32) {
    self.walk = walk
    self.keys = keys
  }
}
