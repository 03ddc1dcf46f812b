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
    let state = _state()
    let rollback = state.pointee.out.count
    let flushes = state.pointee.flushCount
    let depthBefore = state.pointee.stack.count
    let topBefore: UInt8 = depthBefore > 0 ? state.pointee.stack[depthBefore &- 1] : 0
    do {
      try _writeTreeNodes(root, state)
    } catch let error as JSONWriterError where error.kind == .nonFiniteNumber {
      if state.pointee.flushCount == flushes {
        state.pointee.out.count = rollback
        if depthBefore > 0 { state.pointee.stack[depthBefore &- 1] = topBefore }
      }
      throw error
    }
  }

  @usableFromInline
  mutating func _writeTreeNodes(_ root: _Node, _ state: UnsafeMutablePointer<_WriterState>) throws {
    try _beginValue(state)
    // The writer is moved into the visitor and back, not copied: a copy would share its
    // state, and a flush would copy it.
    var visitor = _TreeTextVisitor(writer: consume self, state: state)
    defer { self = visitor.writer }
    try _JSONStorage.walk(root, into: &visitor)
    try visitor.writer._endValue(state)
  }
}

/// Writing a tree's nodes as JSON text, as a visitor of the walk.
struct _TreeTextVisitor<Sink: JSONOutputSink>: _NodeVisitor {
  var writer: JSONWriter<Sink>
  let state: UnsafeMutablePointer<_WriterState>
  let pretty: Bool
  let allowNonFinite: Bool
  /// The depth of the container the tree is written in.
  let depth: Int

  init(writer: consuming JSONWriter<Sink>, state: UnsafeMutablePointer<_WriterState>) {
    pretty = writer.options.indent != nil
    allowNonFinite = writer.options.allowNonFiniteNumbers
    depth = state.pointee.stack.count
    self.state = state
    self.writer = writer
  }

  var isDone: Bool { false }

  @inline(__always)
  mutating func visitNull() { writer._appendStatic(state, "null") }

  @inline(__always)
  mutating func visitBool(_ value: Bool) {
    if value { writer._appendStatic(state, "true") } else { writer._appendStatic(state, "false") }
  }

  @inline(__always)
  mutating func visitNumber(_ number: borrowing JSONNumber) throws {
    if number._flags & JSONNumber._nonFinite != 0 && !allowNonFinite {
      throw writer._nonFinite(String(decoding: number.utf8, as: UTF8.self))
    }
    state.pointee.out.append(number.utf8)
  }

  @inline(__always)
  mutating func visitInteger(_ value: Int64, text: borrowing JSONNumber) {
    state.pointee.out.append(text.utf8)
  }

  @inline(__always)
  mutating func visitBinaryNumber(_ number: JSONBinaryNumber) throws {
    try number.withJSONNumber { number in
      if number.isNonFinite && !allowNonFinite { throw writer._nonFinite(number.text) }
      state.pointee.out.append(number.utf8)
    }
  }

  @inline(__always)
  mutating func visitString(_ value: borrowing JSONString) {
    _ = writer._writeQuoted(state, value)
  }

  /// A separator, a new line when pretty, and a member's key.
  @inline(__always)
  mutating func visitChild(key: consuming JSONString?, isFirst: Bool, of depth: inout Int) {
    if !isFirst { state.pointee.out.append(._comma) }
    if pretty { writer._newline(state, depth: depth) }
    if let key {
      _ = writer._writeQuoted(state, key)
      state.pointee.out.append(._colon)
      if pretty { state.pointee.out.append(._space) }
    }
  }

  /// The depth of the container's children.
  @inline(__always)
  mutating func visitStart(isObject: Bool, isEmpty: Bool, in parent: Int?) -> Int {
    if !isEmpty { state.pointee.out.append(isObject ? ._openBrace : ._openBracket) }
    return (parent ?? depth) &+ 1
  }

  @inline(__always)
  mutating func visitEnd(_ depth: Int, isObject: Bool, isEmpty: Bool) throws {
    if isEmpty {
      writer._appendStatic(state, isObject ? "{}" : "[]")
      return
    }
    if pretty { writer._newline(state, depth: depth &- 1) }
    state.pointee.out.append(isObject ? ._closeBrace : ._closeBracket)
    if state.pointee.out.count >= writer.chunkSize { try writer._flush() }
  }
}
