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
    case .array, .object:
      // Parsed containers in one pass each; containers changed in code as events.
      try _replay(into: &writer) { node, writer in try writer._writeTree(node) }
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
    // One run for the walk: each node then reaches the state without a uniqueness check.
    beginEventRun()
    defer { endEventRun() }
    // The grammar is checked once, for the tree as a whole; inside it, it holds.
    try _beginValue()
    // The writer is moved into the visitor and back, not copied: a copy would share its
    // state, and a flush would copy it.
    var visitor = _TreeBinaryVisitor(writer: consume self)
    defer { self = visitor.writer }
    try visitor.makeRoom()
    try _JSONStorage.walk(root, into: &visitor)
    try visitor.writer._endValue()
  }
}

/// Writing a tree's nodes as binary tokens, through the same token writers as the events, as a
/// visitor of the walk. What it keeps for each container is the container's entry of the key
/// predictions' stack (see `_BinaryWriterState.stack`): kept on that stack, as the events keep
/// it, it was pushed, popped, and loaded and stored for every key, 3-5% of the time of writing
/// twitter.json and citm_catalog.json.
struct _TreeBinaryVisitor<Sink: JSONOutputSink>: _NodeVisitor {
  var writer: JSONBinaryWriter<Sink>
  /// Room for a key and a value is made once before them (`makeRoom`), so that their tokens
  /// are written without a check each (see `_BinaryWriterState.maxToken`): 6% fewer
  /// instructions writing citm_catalog.json.
  let room = 2 &* _BinaryWriterState.maxToken
  var checkAt = 0

  init(writer: consuming JSONBinaryWriter<Sink>) {
    self.writer = writer
  }

  var isDone: Bool { false }

  /// Hands the output on once it reaches the chunk size, as the events would: memory stays
  /// bounded by the chunk size, whatever the shape of the tree. Then makes room for `room`
  /// bytes, and sets `checkAt` to the output size at which to come back here.
  mutating func makeRoom() throws {
    if writer._box.inRun.out.count >= writer.chunkSize { try writer.flush() }
    writer._box.inRun.out.reserve(room)
    checkAt = Swift.min(writer.chunkSize, writer._box.inRun.out.capacity &- room)
  }

  @inline(__always)
  mutating func visitNull() { writer._box.inRun.writeTag(_BinaryTag.null, checked: false) }

  @inline(__always)
  mutating func visitBool(_ value: Bool) {
    writer._box.inRun.writeTag(value ? _BinaryTag.true : _BinaryTag.false, checked: false)
  }

  /// Number text is a call (see `writeNumber(_:)`), where `checked: false` would be a test,
  /// not a saving.
  @inline(__always)
  mutating func visitNumber(_ number: borrowing JSONNumber) {
    writer._box.inRun.writeNumber(number)
  }

  @inline(__always)
  mutating func visitInteger(_ value: Int64, text: borrowing JSONNumber) {
    writer._box.inRun.writeInteger(value, checked: false)
  }

  @inline(__always)
  mutating func visitBinaryNumber(_ number: JSONBinaryNumber) {
    writer._box.inRun.writeKeptNumber(number)
  }

  @inline(__always)
  mutating func visitString(_ value: borrowing JSONString) {
    writer._box.inRun.writeString(value)
  }

  @inline(__always)
  mutating func visitChild(key: consuming JSONString?, isFirst: Bool, of keys: inout Int32) throws {
    if writer._box.inRun.out.count >= checkAt { try makeRoom() }
    if let key { writer._box.inRun.writeKey(key, in: &keys, checked: false) }
  }

  /// The container's entry of the key predictions' stack, for a container started in the
  /// context of `parent`'s (see `_BinaryWriterState.nextKey`).
  @inline(__always)
  mutating func visitStart(isObject: Bool, isEmpty: Bool, in parent: Int32?) -> Int32 {
    writer._box.inRun.writeTag(
      isObject ? _BinaryTag.startObject : _BinaryTag.startArray, checked: false)
    let context = parent.map(_BinaryWriterState.context(in:)) ?? writer._box.inRun.context
    return _BinaryWriterState.frame(isObject: isObject, context: context)
  }

  @inline(__always)
  mutating func visitEnd(_ keys: Int32, isObject: Bool, isEmpty: Bool) {
    writer._box.inRun.writeTag(isObject ? _BinaryTag.endObject : _BinaryTag.endArray)
  }
}
