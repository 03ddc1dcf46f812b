// Writing a whole parsed array or object at once. Its structure is valid and its strings are
// well-formed by construction, so instead of one checked event per value (a uniqueness check,
// a grammar check, a call), the nodes are walked and written straight into the output.

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
    // Per open container: the next node, the end of its block, an open container's last
    // element or member (written after the block), whether it is an object, and whether a
    // member was written (a comma goes before the next).
    var stack:
      [(
        next: UnsafePointer<_Node>, end: UnsafePointer<_Node>, last: UnsafePointer<_Node>?,
        isObject: Bool, started: Bool
      )] = []
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
      case _JSONNode.string:
        _ = _writeQuoted(state, JSONString(_wellFormed: _JSONNode.utf8(node)))
      default:
        let (block, nodes, last, isObject) = _JSONNode.children(node)
        if let block {
          stack.append((block, block + nodes, last, isObject, false))
        } else if let last {
          stack.append((last, last + (isObject ? 2 : 1), nil, isObject, false))
        } else {
          _appendStatic(state, isObject ? "{}" : "[]")
          break
        }
        state.pointee.out.append(isObject ? ._openBrace : ._openBracket)
        depth &+= 1
      }
      // The next value: close finished containers, write separators and keys.
      while true {
        guard let top = stack.last else {
          try _endValue(state)
          return
        }
        if top.next == top.end, let last = top.last {
          // The block is done; an open container's last element or member follows.
          stack[stack.count &- 1] = (last, last + (top.isObject ? 2 : 1), nil, top.isObject, true)
          continue
        }
        if top.next == top.end {
          stack.removeLast()
          depth &-= 1
          if pretty { _newline(state, depth: depth) }
          state.pointee.out.append(top.isObject ? ._closeBrace : ._closeBracket)
          if state.pointee.out.count >= chunkSize { try _flush() }
          continue
        }
        var next = top.next
        if top.started { state.pointee.out.append(._comma) }
        if pretty { _newline(state, depth: depth) }
        if top.isObject {
          _ = _writeQuoted(state, JSONString(_wellFormed: _JSONNode.utf8(next[0])))
          state.pointee.out.append(._colon)
          if pretty { state.pointee.out.append(._space) }
          next += 1
        }
        stack[stack.count &- 1].next = next + 1
        stack[stack.count &- 1].started = true
        node = next[0]
        break
      }
    }
  }
}
