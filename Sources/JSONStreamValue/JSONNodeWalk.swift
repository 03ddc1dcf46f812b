// The one walk over a tree's nodes: replay and the JSON and binary one-pass writers are each a
// visitor of it. The walk knows the node layout (see `_JSONStorage`) and the order of a
// container's children; a visitor knows only what to do with a key, a value, a container's
// start and end. Nesting is walked with an explicit stack, not recursion.

import JSONStreamCore
import JSONStreamParser

/// What `_JSONStorage.walk` hands the nodes of a tree to, in document order.
@usableFromInline
package protocol _NodeVisitor {
  /// What the visitor keeps for each open container (the JSON writer its depth, the binary
  /// writer its entry of the key predictions); the walk keeps it in the container's frame.
  associatedtype Container: BitwiseCopyable
  /// The walk stops once this is true, checked after each key, value and container end.
  var isDone: Bool { get }
  mutating func visitNull() throws
  mutating func visitBool(_ value: Bool) throws
  /// A number kept as its text; for an integer node, the text carries its value (see
  /// `JSONNumber.int64`), which `visitInteger` gets as well.
  mutating func visitNumber(_ number: borrowing JSONNumber) throws
  /// A number the tree kept beside its text as an integer (see `_JSONStorage`).
  mutating func visitInteger(_ value: Int64, text: borrowing JSONNumber) throws
  /// A number the binary reader kept in binary form.
  mutating func visitBinaryNumber(_ number: JSONBinaryNumber) throws
  mutating func visitString(_ value: borrowing JSONString) throws
  /// Before each child of `container`: a member's key (nil for an element), and whether the
  /// child is the container's first.
  mutating func visitChild(key: consuming JSONString?, isFirst: Bool, of container: inout Container)
    throws
  /// A container starts, inside `parent` (nil for the root of the walk); returns what to keep
  /// for it. `isEmpty`: it has no children, and its end follows at once.
  mutating func visitStart(isObject: Bool, isEmpty: Bool, in parent: Container?) throws
    -> Container
  mutating func visitEnd(_ container: Container, isObject: Bool, isEmpty: Bool) throws
}

extension _JSONStorage {
  /// Hands the nodes of container `root` and everything in it to `visitor`, in document order.
  /// The memory must stay alive meanwhile.
  @inlinable @inline(__always)
  package static func walk<Visitor: _NodeVisitor>(_ root: _Node, into visitor: inout Visitor)
    throws
  {
    // The innermost container's frame is a local, the ones around it wait in `outer`: kept in
    // the buffer, its fields were loaded and stored back for every child. Plain memory, not
    // an array: changing an array's last frame checked its uniqueness (a runtime call) for
    // every child, 3% of writing citm_catalog.json's tree as binary.
    guard var inner = try visitContainer(root, in: nil, &visitor), !visitor.isDone else { return }
    var outer = _Buffer<_VisitFrame<Visitor.Container>>(capacity: 16)
    defer { outer.deallocate() }
    while true {
      // Close finished containers, hand on a key before a member.
      guard let child = inner.walk.nextChild() else {
        try visitor.visitEnd(inner.container, isObject: inner.walk.isObject, isEmpty: false)
        guard outer.count > 0, !visitor.isDone else { return }
        inner = outer.removeLast()
        continue
      }
      // Two calls, not one with an optional key: each is inlined with its key known to be
      // there or not (through one, writing canada.json, arrays of numbers, took 7% more).
      if let key = child.key {
        try visitor.visitChild(
          key: JSONString(_wellFormed: _JSONNode.utf8(key)), isFirst: child.isFirst,
          of: &inner.container)
      } else {
        try visitor.visitChild(key: nil, isFirst: child.isFirst, of: &inner.container)
      }
      if visitor.isDone { return }
      let node = child.value
      switch _JSONNode.kind(node.head) {
      case _JSONNode.null: try visitor.visitNull()
      case _JSONNode.false: try visitor.visitBool(false)
      case _JSONNode.true: try visitor.visitBool(true)
      case _JSONNode.number: try visitor.visitNumber(_JSONNode.numberText(node))
      case _JSONNode.integer:
        try visitor.visitInteger(
          _JSONNode.integerValue(node.head), text: _JSONNode.numberText(node))
      case _JSONNode.binaryNumber: try visitor.visitBinaryNumber(_JSONNode.binaryNumber(node))
      case _JSONNode.string: try visitor.visitString(JSONString(_wellFormed: _JSONNode.utf8(node)))
      default:
        if let frame = try visitContainer(node, in: inner.container, &visitor) {
          outer.append(inner)
          inner = frame
        }
      }
      if visitor.isDone { return }
    }
  }

  /// Starts container `node` inside `parent`, and returns the frame of its children; ends it
  /// and returns nil when it has none.
  @inlinable @inline(__always)
  static func visitContainer<Visitor: _NodeVisitor>(
    _ node: _Node, in parent: Visitor.Container?, _ visitor: inout Visitor
  ) throws -> _VisitFrame<Visitor.Container>? {
    let (isObject, frame) = _WalkFrame.open(node)
    let container = try visitor.visitStart(isObject: isObject, isEmpty: frame == nil, in: parent)
    guard let frame else {
      // Empty: it ends at once, unless the visitor is done with its start.
      if !visitor.isDone { try visitor.visitEnd(container, isObject: isObject, isEmpty: true) }
      return nil
    }
    return _VisitFrame(walk: frame, container: container)
  }
}

/// A container being walked: its children, and what the visitor keeps for it.
@usableFromInline
struct _VisitFrame<Container: BitwiseCopyable>: BitwiseCopyable {
  @usableFromInline var walk: _WalkFrame
  @usableFromInline var container: Container

  @inlinable
  init(walk: _WalkFrame, container: Container) {
    self.walk = walk
    self.container = container
  }
}

/// The children of a container being walked: its block of children, then an open container's
/// incomplete last child (see `_JSONStorage`).
@usableFromInline
struct _WalkFrame: BitwiseCopyable {
  @usableFromInline var next: UnsafePointer<_Node>
  @usableFromInline var end: UnsafePointer<_Node>
  @usableFromInline var last: UnsafePointer<_Node>?
  @usableFromInline let isObject: Bool
  /// A child was returned already.
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
  static func open(_ node: _Node) -> (isObject: Bool, frame: _WalkFrame?) {
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
  mutating func nextChild() -> (key: _Node?, value: _Node, isFirst: Bool)? {
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
