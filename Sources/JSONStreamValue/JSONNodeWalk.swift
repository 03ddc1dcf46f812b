// The one walk over a tree's nodes: replay and the JSON and binary one-pass writers are each a
// visitor of it. The walk knows the node layout (see `_JSONStorage`) and the order of a
// container's children; a visitor knows only what to do with a key, a value, a container's
// start and end. Nesting is walked with an explicit stack, not recursion.
//
// The Codable cursor reads nodes in place instead, through `_NodeAddress` below: a node's
// address, its children by checked position, its members by key.

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
        unsafe try visitor.visitChild(
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
      case _JSONNode.string:
        unsafe try visitor.visitString(JSONString(_wellFormed: _JSONNode.utf8(node)))
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
@safe struct _WalkFrame: BitwiseCopyable {
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
    unsafe self.next = unsafe next
    unsafe self.end = unsafe end
    unsafe self.last = unsafe last
    self.isObject = isObject
  }

  /// Whether container `node` is an object, and a frame over its children (nil when none).
  @inlinable @inline(__always)
  static func open(_ node: _Node) -> (isObject: Bool, frame: _WalkFrame?) {
    let (block, nodes, last, isObject) = unsafe _JSONNode.children(node)
    if let block = unsafe block {
      return unsafe (
        isObject, _WalkFrame(next: block, end: block + nodes, last: last, isObject: isObject)
      )
    }
    if let last = unsafe last {
      return unsafe (
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
    if unsafe next == end {
      // The block is done; an open container's last element or member follows.
      guard let last = unsafe last else { return nil }
      unsafe next = unsafe last
      unsafe end = unsafe last + (isObject ? 2 : 1)
      unsafe self.last = nil
    }
    let isFirst = !started
    started = true
    if isObject {
      defer { unsafe next += 2 }
      return unsafe (next[0], next[1], isFirst)
    }
    defer { unsafe next += 1 }
    return unsafe (nil, next[0], isFirst)
  }
}

// MARK: A node by its address

/// A node of a document by its address, read in place: what the Codable cursor holds. Valid
/// while the memory holding the node lives (the document's storage, or a `_NodeCopy`); the
/// cursor's root keeps both. Children are reached by position, checked against the count,
/// and only in a container of the kind asked for.
@usableFromInline
@safe package struct _NodeAddress {
  @usableFromInline let pointer: UnsafePointer<_Node>

  @inlinable
  init(_ pointer: UnsafePointer<_Node>) { unsafe self.pointer = unsafe pointer }

  /// The node.
  @inlinable
  package var node: _Node {
    @inline(__always) get { unsafe pointer.pointee }
  }

  /// Equal for the addresses of the same node.
  @inlinable package var identity: Int { unsafe Int(bitPattern: pointer) }

  /// A `null` in no document.
  @usableFromInline package static var null: _NodeAddress { unsafe _NodeAddress(_nullNode) }

  /// Element `index` of an array node (`0..<count`).
  @inlinable
  package func element(_ index: Int) -> _NodeAddress {
    child(index, stride: 1, offset: 0, closed: _JSONNode.array, open: _JSONNode.openArray)
  }

  /// The key node of member `position` of an object node (`0..<count`).
  @inlinable
  package func key(_ position: Int) -> _NodeAddress {
    child(position, stride: 2, offset: 0, closed: _JSONNode.object, open: _JSONNode.openObject)
  }

  /// The value node of member `position` of an object node (`0..<count`).
  @inlinable
  package func value(_ position: Int) -> _NodeAddress {
    child(position, stride: 2, offset: 1, closed: _JSONNode.object, open: _JSONNode.openObject)
  }

  /// Node `offset` of child `position` of a container node of kind `closed` or `open` (an
  /// array's element, or an object's member: its key, then its value): checked to be one.
  @inlinable @inline(__always)
  func child(_ position: Int, stride: Int, offset: Int, closed: UInt64, open: UInt64)
    -> _NodeAddress
  {
    let node = unsafe pointer.pointee
    let kind = _JSONNode.kind(node.head)
    let count = _JSONNode.count(node.head)
    if kind == closed {
      precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "child out of range")
      return unsafe _NodeAddress(
        _JSONNode.nodes(node.payload).unsafelyUnwrapped + (stride &* position &+ offset))
    }
    precondition(kind == open, "not a container of this kind")
    // An open container's (snapshot's) incomplete last child is apart from the others.
    let (block, _, last, _) = unsafe _JSONNode.children(node)
    precondition(UInt(bitPattern: position) <= UInt(bitPattern: count), "child out of range")
    if position == count { return unsafe _NodeAddress(last.unsafelyUnwrapped + offset) }
    return unsafe _NodeAddress(block.unsafelyUnwrapped + (stride &* position &+ offset))
  }

  /// The position of the member with `key` in an object node, and the address of its value,
  /// looking at member `hint` first: decoders ask for keys mostly in document order. The
  /// member at the hint of a complete object is checked inline; a search goes to
  /// `position(ofKey:hint:)`.
  @inlinable @inline(__always)
  package func member(named key: inout String, hint: Int) -> (Int, _NodeAddress)? {
    key.withUTF8 { key in
      let node = unsafe pointer.pointee
      if _JSONNode.kind(node.head) == _JSONNode.object
        && UInt(bitPattern: hint) < UInt(bitPattern: _JSONNode.count(node.head))
      {
        let keyNode = unsafe _JSONNode.nodes(node.payload).unsafelyUnwrapped + 2 &* hint
        if unsafe _JSONNode.stringEquals(keyNode.pointee, key) {
          return unsafe (hint, _NodeAddress(keyNode + 1))
        }
      }
      guard let position = unsafe position(ofKey: key, hint: hint) else { return nil }
      return (position, value(position))
    }
  }

  /// The position of the member with `key` in an object node, looking from `hint` on first.
  @inlinable
  package func position(ofKey key: inout String, hint: Int) -> Int? {
    key.withUTF8 { unsafe position(ofKey: $0, hint: hint) }
  }

  @inlinable
  func position(ofKey key: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
    let node = unsafe pointer.pointee
    let kind = _JSONNode.kind(node.head)
    guard kind == _JSONNode.object || kind == _JSONNode.openObject else { return nil }
    let (block, nodes, last, _) = unsafe _JSONNode.children(node)
    if let block = unsafe block,
      let position = unsafe _JSONStorage.position(
        ofKey: key, first: block, count: nodes / 2, indexed: last == nil, hint: hint)
    {
      return position
    }
    // A snapshot's open object: its incomplete last member is apart.
    if let last = unsafe last, unsafe _JSONNode.stringEquals(last.pointee, key) { return nodes / 2 }
    return nil
  }
}

/// A copy of a container's node (and an open container's header) in memory of its own, for
/// as long as this object lives: the node a container view makes stands on the stack (see
/// `_ChildNodes.withNode`), and the Codable cursor's root must outlive that call.
@usableFromInline
@safe package final class _NodeCopy {
  /// The node, then an open container's header (its first and last node, as the two words
  /// of a node).
  let nodes: UnsafeMutablePointer<_Node>

  /// Copies `node`, which must be a container's.
  @usableFromInline
  package init(_ node: _Node) {
    unsafe nodes = .allocate(capacity: 2)
    unsafe nodes.initialize(repeating: _Node(head: 0, payload: 0), count: 2)
    var node = node
    if _JSONNode.kind(node.head) > _JSONNode.object {
      let header = unsafe UnsafePointer<UInt64>(bitPattern: UInt(truncatingIfNeeded: node.payload))!
      unsafe nodes[1] = unsafe _Node(head: header[0], payload: header[1])
      node.payload = unsafe UInt64(UInt(bitPattern: nodes + 1))
    }
    unsafe nodes[0] = node
  }

  /// The copied node's address.
  @usableFromInline package var address: _NodeAddress { unsafe _NodeAddress(nodes) }

  deinit {
    unsafe nodes.deallocate()
  }
}

/// Allocated once and never freed or written: a constant.
nonisolated(unsafe) let _nullNode: UnsafePointer<_Node> = {
  let node = UnsafeMutablePointer<_Node>.allocate(capacity: 1)
  unsafe node.initialize(to: _Node(head: _JSONNode.null, payload: 0))
  return unsafe UnsafePointer(node)
}()
