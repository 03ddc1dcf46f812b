// A JSONValue as a producer of events: replay into any consumer. Nesting is walked with an
// explicit stack, not recursion.

import JSONStreamCore
import JSONStreamParser

extension JSONValue {
  /// Delivers this value's events to `handler`, as a parser of its JSON text would. Stops early
  /// when the handler's ``JSONEventHandler/isDone`` becomes true.
  ///
  /// ```swift
  /// var writer = JSONWriter(options: .pretty)
  /// try value.replay(into: &writer)
  /// try writer.finish()
  /// ```
  @inlinable
  public func replay<Handler: JSONEventHandler>(into handler: inout Handler) throws {
    handler._beginEventRun()
    defer { handler._endEventRun() }
    switch self {
    case .null: try handler.null()
    case .bool(let flag): try handler.bool(flag)
    case .number(let number): try number.withJSONNumber { try handler.number($0) }
    case .string(var text): try text.withUTF8 { try handler.string(JSONString(_wellFormed: $0)) }
    case .array(let array):
      try withExtendedLifetime(array._storage) {
        try array._withNode { try _JSONStorage.replay($0, into: &handler) }
      }
    case .object(let object):
      try withExtendedLifetime(object._storage) {
        try object._withNode { try _JSONStorage.replay($0, into: &handler) }
      }
    }
  }
}

extension _JSONStorage {
  /// Delivers the events of `root` and everything in it: a walk over the nodes, with an
  /// explicit stack of the containers open around it. The memory must stay alive meanwhile.
  @inlinable
  static func replay<Handler: JSONEventHandler>(_ root: _Node, into handler: inout Handler) throws {
    // Plain memory, not an array: changing an array's last frame checked its uniqueness
    // (a runtime call) for every child, 3% of writing citm_catalog.json's tree as binary.
    // It holds the containers around the innermost, whose frame is a local: kept in the
    // buffer, its fields were loaded and stored back for every child.
    var stack = _Buffer<_WalkFrame>(capacity: 16)
    defer { stack.deallocate() }
    try withUnsafePointer(to: root) { rootNode in
      // The root is the one child of a frame of its own, at the bottom, whose end is the end
      // of the walk.
      var inner = _WalkFrame(next: rootNode, end: rootNode + 1, last: nil, isObject: false)
      while true {
        // Close finished containers, deliver a key before a member.
        guard let child = inner.nextChild() else {
          guard stack.count > 0 else { return }
          if inner.isObject { try handler.endObject() } else { try handler.endArray() }
          if handler.isDone { return }
          inner = stack.removeLast()
          continue
        }
        if let key = child.key {
          try handler.key(JSONString(_wellFormed: _JSONNode.utf8(key)))
          if handler.isDone { return }
        }
        let node = child.value
        switch _JSONNode.kind(node.head) {
        case _JSONNode.null: try handler.null()
        case _JSONNode.false: try handler.bool(false)
        case _JSONNode.true: try handler.bool(true)
        case _JSONNode.number, _JSONNode.integer: try handler.number(_JSONNode.numberText(node))
        case _JSONNode.binaryNumber:
          try handler._binaryNumber(_JSONNode.binaryNumber(node))
        case _JSONNode.string:
          try handler.string(JSONString(_wellFormed: _JSONNode.utf8(node)))
        default:
          let (isObject, frame) = _WalkFrame.open(node)
          if isObject { try handler.startObject() } else { try handler.startArray() }
          if let frame {
            stack.append(inner)
            inner = frame
          } else if !handler.isDone {
            // Empty: it ends at once, unless the handler is done with its start.
            if isObject { try handler.endObject() } else { try handler.endArray() }
          }
        }
        if handler.isDone { return }
      }
    }
  }
}

/// A container being walked, by replay or by the one-pass writer: its block of children, then
/// an open container's incomplete last child (see `_JSONStorage`).
@usableFromInline
package struct _WalkFrame: BitwiseCopyable {
  @usableFromInline var next: UnsafePointer<_Node>
  @usableFromInline var end: UnsafePointer<_Node>
  @usableFromInline var last: UnsafePointer<_Node>?
  @usableFromInline package let isObject: Bool
  /// A child was returned already (a separator goes before the next).
  @usableFromInline var started = false

  @inlinable
  init(
    next: UnsafePointer<_Node>, end: UnsafePointer<_Node>, last: UnsafePointer<_Node>?,
    isObject: Bool
  ) {
    self.next = next
    self.end = end
    self.last = last
    self.isObject = isObject
  }

  /// Whether container `node` is an object, and a frame over its children (nil when none).
  @inlinable @inline(__always)
  package static func open(_ node: _Node) -> (isObject: Bool, frame: _WalkFrame?) {
    let (block, nodes, last, isObject) = _JSONNode.children(node)
    if let block {
      return (isObject, _WalkFrame(next: block, end: block + nodes, last: last, isObject: isObject))
    }
    if let last {
      return (
        isObject,
        _WalkFrame(next: last, end: last + (isObject ? 2 : 1), last: nil, isObject: isObject)
      )
    }
    return (isObject, nil)
  }

  /// The next child — a member's key node and value node, or an element's node — and whether
  /// it is the first; nil once the container is done.
  @inlinable @inline(__always)
  package mutating func nextChild() -> (key: _Node?, value: _Node, isFirst: Bool)? {
    if next == end {
      // The block is done; an open container's last element or member follows.
      guard let last else { return nil }
      next = last
      end = last + (isObject ? 2 : 1)
      self.last = nil
    }
    let isFirst = !started
    started = true
    if isObject {
      defer { next += 2 }
      return (next[0], next[1], isFirst)
    }
    defer { next += 1 }
    return (nil, next[0], isFirst)
  }
}

extension _Buffer where Element == _WalkFrame {
  /// The next child of the innermost container of a walk (the last frame; see
  /// `_WalkFrame.nextChild`). The frame is changed in place through its address: through the
  /// buffer's subscript (a get and a set of the whole frame) writing citm_catalog.json took
  /// 5–9% more instructions.
  @inlinable @inline(__always)
  package func nextChildOfInnermost() -> (key: _Node?, value: _Node, isFirst: Bool)? {
    (base + (count &- 1)).pointee.nextChild()
  }
}
