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
    var depth = state.pointee.stack.count
    let pretty = options.indent != nil
    let allowNonFinite = options.allowNonFiniteNumbers
    // Plain memory, not an array: changing an array's last frame checked its uniqueness
    // (a runtime call) for every child.
    var stack = _Buffer<_WalkFrame>(capacity: 16)
    defer { stack.deallocate() }
    var node = root
    while true {
      let head = node.head
      switch _JSONNode.kind(head) {
      case _JSONNode.null: _appendStatic(state, "null")
      case _JSONNode.false: _appendStatic(state, "false")
      case _JSONNode.true: _appendStatic(state, "true")
      case _JSONNode.number:
        let text = _JSONNode.bytes(node.payload, count: _JSONNode.numberLength(head))
        if _JSONNode.numberFlags(head) & JSONNumber._nonFinite != 0 && !allowNonFinite {
          throw _nonFinite(String(decoding: text, as: UTF8.self))
        }
        state.pointee.out.append(text)
      case _JSONNode.integer:
        state.pointee.out.append(
          _JSONNode.bytes(node.payload, count: _JSONNode.integerLength(head)))
      case _JSONNode.binaryNumber:
        try _JSONNode.withNumber(node) { number in
          if number.isNonFinite && !allowNonFinite { throw _nonFinite(number.text) }
          state.pointee.out.append(number.utf8)
        }
      case _JSONNode.string:
        _ = _writeQuoted(state, JSONString(_wellFormed: _JSONNode.utf8(node)))
      default:
        let (isObject, frame) = _WalkFrame.open(node)
        guard let frame else {
          _appendStatic(state, isObject ? "{}" : "[]")
          break
        }
        stack.append(frame)
        state.pointee.out.append(isObject ? ._openBrace : ._openBracket)
        depth &+= 1
      }
      // The next value: close finished containers, write separators and keys.
      while true {
        guard stack.count > 0 else {
          try _endValue(state)
          return
        }
        guard let child = stack.nextChildOfInnermost() else {
          let isObject = stack.removeLast().isObject
          depth &-= 1
          if pretty { _newline(state, depth: depth) }
          state.pointee.out.append(isObject ? ._closeBrace : ._closeBracket)
          if state.pointee.out.count >= chunkSize { try _flush() }
          continue
        }
        if !child.isFirst { state.pointee.out.append(._comma) }
        if pretty { _newline(state, depth: depth) }
        if let key = child.key {
          _ = _writeQuoted(state, JSONString(_wellFormed: _JSONNode.utf8(key)))
          state.pointee.out.append(._colon)
          if pretty { state.pointee.out.append(._space) }
        }
        node = child.value
        break
      }
    }
  }
}
