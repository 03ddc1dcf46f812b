// Writing a whole array or object of a tree as binary at once. Its structure is valid and its
// strings are well-formed by construction, so instead of one checked event per value (a
// uniqueness check, a grammar check, a call), the nodes are walked and their tokens written
// straight into the output, through the same token writers as the events: the bytes are those
// that replaying the tree into the writer gives, tables and key predictions included.

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
    var walk = _Buffer<_WalkFrame>(capacity: 16)
    defer { walk.deallocate() }
    // Room for a key and a value is made once before them (`makeRoom`), so that their tokens
    // are written without a check each (see `_BinaryWriterState.maxToken`): 6% fewer
    // instructions writing citm_catalog.json.
    let room = 2 &* _BinaryWriterState.maxToken
    var checkAt = 0
    try makeRoom(state, room, &checkAt)
    // The innermost container's frame is a local, the ones around it wait in `walk`: kept
    // in the buffer, its fields were loaded and stored back for every child.
    guard var inner = openTree(state, root) else { return try endValue(state) }
    while true {
      guard let child = inner.nextChild() else {
        state.pointee.closeContainer(isObject: inner.isObject)
        guard walk.count > 0 else { return try endValue(state) }
        inner = walk.removeLast()
        continue
      }
      if state.pointee.out.count >= checkAt { try makeRoom(state, room, &checkAt) }
      if let key = child.key { state.pointee.writeKey(_JSONNode.utf8(key), checked: false) }
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
        if let frame = openTree(state, node) {
          walk.append(inner)
          inner = frame
        }
      }
    }
  }

  /// Opens container `node` and returns the frame of its children; closes it and returns nil
  /// when it has none.
  @inlinable @inline(__always)
  func openTree(_ state: UnsafeMutablePointer<_BinaryWriterState>, _ node: _Node) -> _WalkFrame? {
    let (isObject, frame) = _WalkFrame.open(node)
    state.pointee.openContainer(isObject: isObject, checked: false)
    if frame == nil { state.pointee.closeContainer(isObject: isObject) }
    return frame
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
