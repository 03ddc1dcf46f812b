// Writing a whole parsed array or object at once. Its structure is valid and its strings are
// well-formed by construction, so instead of one checked event per value (a uniqueness check,
// a grammar check, a call), the nodes are walked and written straight into the output.

import JSONStreamCore
import JSONStreamValue

extension JSONWriter {
  /// Writes the container `root` as one value, like replaying its events would. Not for
  /// ``JSONWriteOptions/sortKeys`` (the caller replays then). A NaN or infinity the options
  /// refuse is an error that writes nothing, unless output was already handed to the sink.
  @usableFromInline
  mutating func _writeTree(_ root: _Node) throws {
    let rollback = _box.current.out.count
    let flushes = _box.current.flushCount
    let depthBefore = _box.current.stack.count
    let topBefore: UInt8 = depthBefore > 0 ? _box.current.stack[depthBefore &- 1] : 0
    do {
      try _writeTreeNodes(root)
    } catch let error as JSONWriterError where error.kind == .nonFiniteNumber {
      _box.withUnique { state in
        if state.flushCount == flushes {
          state.out.truncate(to: rollback)
          if depthBefore > 0 { state.stack[depthBefore &- 1] = topBefore }
        }
      }
      throw error
    }
  }

  @usableFromInline
  mutating func _writeTreeNodes(_ root: _Node) throws {
    // One run for the walk: each node then reaches the state without a uniqueness check.
    beginEventRun()
    defer { endEventRun() }
    try _box.withUnique { try $0.beginValue() }
    // The writer is moved into the visitor and back, not copied: a copy would share its
    // state, and a flush would copy it.
    var visitor = _TreeTextVisitor(writer: consume self)
    defer { self = visitor.writer }
    try _JSONStorage.walk(root, into: &visitor)
    if visitor.writer._box.withUnique({ $0.endValue() }) { try visitor.writer._flush() }
  }
}

/// Writing a tree's nodes as JSON text, as a visitor of the walk.
struct _TreeTextVisitor<Sink: JSONOutputSink>: _NodeVisitor {
  var writer: JSONWriter<Sink>
  let pretty: Bool
  let allowNonFinite: Bool
  let chunkSize: Int
  /// The depth of the container the tree is written in.
  let depth: Int

  init(writer: consuming JSONWriter<Sink>) {
    pretty = writer.options.indent != nil
    allowNonFinite = writer.options.allowNonFiniteNumbers
    chunkSize = writer.chunkSize
    depth = writer._box.current.stack.count
    self.writer = writer
  }

  var isDone: Bool { false }

  @inline(__always)
  mutating func visitNull() { writer._box.inRun.out.append("null") }

  @inline(__always)
  mutating func visitBool(_ value: Bool) {
    writer._box.inRun.out.append(value ? "true" : "false")
  }

  @inline(__always)
  mutating func visitNumber(_ number: borrowing JSONNumber) throws {
    if number._flags & JSONNumber._nonFinite != 0 && !allowNonFinite {
      throw _WriterState.nonFinite(number.text)
    }
    writer._box.inRun.out.append(number)
  }

  @inline(__always)
  mutating func visitInteger(_ value: Int64, text: borrowing JSONNumber) {
    writer._box.inRun.out.append(text)
  }

  @inline(__always)
  mutating func visitBinaryNumber(_ number: JSONBinaryNumber) throws {
    try number.withJSONNumber { number in
      if number.isNonFinite && !allowNonFinite { throw _WriterState.nonFinite(number.text) }
      writer._box.inRun.out.append(number)
    }
  }

  @inline(__always)
  mutating func visitString(_ value: borrowing JSONString) {
    _ = writer._box.inRun.writeQuoted(value)
  }

  /// A separator, a new line when pretty, and a member's key.
  @inline(__always)
  mutating func visitChild(key: consuming JSONString?, isFirst: Bool, of depth: inout Int) {
    if !isFirst { writer._box.inRun.out.append(._comma) }
    if pretty { writer._box.inRun.newline(depth: depth) }
    if let key {
      _ = writer._box.inRun.writeQuoted(key)
      writer._box.inRun.out.append(._colon)
      if pretty { writer._box.inRun.out.append(._space) }
    }
  }

  /// The depth of the container's children.
  @inline(__always)
  mutating func visitStart(isObject: Bool, isEmpty: Bool, in parent: Int?) -> Int {
    if !isEmpty { writer._box.inRun.out.append(isObject ? ._openBrace : ._openBracket) }
    return (parent ?? depth) &+ 1
  }

  @inline(__always)
  mutating func visitEnd(_ depth: Int, isObject: Bool, isEmpty: Bool) throws {
    if isEmpty {
      writer._box.inRun.out.append(isObject ? "{}" : "[]")
      return
    }
    if pretty { writer._box.inRun.newline(depth: depth &- 1) }
    writer._box.inRun.out.append(isObject ? ._closeBrace : ._closeBracket)
    if writer._box.inRun.out.count >= chunkSize { try writer._flush() }
  }
}
