// Read access to a parsed document's nodes without making a Swift value per node, for the
// Codable decoder of JSONStreamFoundation (through `package` access). Not part of
// the public API: the cursor is a pointer into the document's memory, valid only while the
// `JSONValue` it came from is alive (see `JSONNodeCursorRoot`).

import JSONStreamCore
import JSONStreamParser

/// A node of a parsed document: a value, read in place.
@usableFromInline
package struct JSONNodeCursor {
  @usableFromInline let node: UnsafePointer<_Node>

  @inlinable
  init(_ node: UnsafePointer<_Node>) { self.node = node }

  @usableFromInline
  package enum Kind: UInt8 {
    case null, bool, number, string, array, object
  }

  @inlinable
  package var kind: Kind {
    switch _JSONNode.kind(node.pointee.head) {
    case _JSONNode.null: return .null
    case _JSONNode.false, _JSONNode.true: return .bool
    case _JSONNode.number, _JSONNode.binaryNumber, _JSONNode.integer: return .number
    case _JSONNode.string: return .string
    case _JSONNode.array, _JSONNode.openArray: return .array
    default: return .object
    }
  }

  /// The node's identity while its document lives: equal for cursors on the same node.
  @inlinable package var nodeIdentity: Int { Int(bitPattern: node) }

  @inlinable package var isNull: Bool { node.pointee.head == _JSONNode.null }

  /// The value of a `true` or `false` node; nil for other kinds.
  @inlinable
  package var bool: Bool? {
    switch node.pointee.head {
    case _JSONNode.true: return true
    case _JSONNode.false: return false
    default: return nil
    }
  }

  /// A string's UTF-8 (well-formed); nil for other kinds.
  @inlinable
  package var utf8: UnsafeBufferPointer<UInt8>? {
    guard _JSONNode.kind(node.pointee.head) == _JSONNode.string else { return nil }
    return _JSONNode.utf8(node.pointee)
  }

  /// A string's value; nil for other kinds.
  @usableFromInline
  package var string: String? {
    guard _JSONNode.kind(node.pointee.head) == _JSONNode.string else { return nil }
    return _JSONNode.string(node.pointee)
  }

  /// Calls `body` with a number, its text as written (or, for a number the binary reader kept
  /// in binary, the text it stands for); nil for other kinds.
  @inlinable
  package func withNumber<R>(_ body: (borrowing JSONNumber) throws -> R) rethrows -> R? {
    guard _JSONNode.isNumber(_JSONNode.kind(node.pointee.head)) else { return nil }
    return try _JSONNode.withNumber(node.pointee, body)
  }

  /// A number as `Int64` when it is an integer that fits (as `JSONNumber.int64`); nil for
  /// other numbers and kinds. An integer read when the tree was built, and a binary integer,
  /// are read without their text.
  @inlinable
  package var int64: Int64? {
    let head = node.pointee.head
    if _JSONNode.kind(head) == _JSONNode.integer { return _JSONNode.integerValue(head) }
    if head == _JSONNode.binaryNumber { return Int64(bitPattern: node.pointee.payload) }
    return withNumber { $0.int64 } ?? nil
  }

  /// The elements of an array or members of an object; 0 for other kinds.
  @inlinable
  package var count: Int {
    let head = node.pointee.head
    let kind = _JSONNode.kind(head)
    if kind == _JSONNode.array || kind == _JSONNode.object { return _JSONNode.count(head) }
    if kind == _JSONNode.openArray || kind == _JSONNode.openObject {
      return _JSONNode.count(head) &+ 1
    }
    return 0
  }

  /// The node of child `index` of a container (an array's element; an object's member key, at
  /// twice the member's position, and its value after it). `index` must be in range.
  @inlinable
  func child(_ index: Int) -> UnsafePointer<_Node> {
    let (block, nodes, last, _) = _JSONNode.children(node.pointee)
    // An open container's (snapshot's) incomplete last child is apart from the others.
    if index >= nodes, let last { return last + (index &- nodes) }
    return block.unsafelyUnwrapped + index
  }

  /// Element `index` of an array (`0..<count`).
  @inlinable
  package func element(_ index: Int) -> JSONNodeCursor { JSONNodeCursor(child(index)) }

  /// The key of member `position` of an object (`0..<count`), as a `String`.
  @usableFromInline
  package func keyString(_ position: Int) -> String {
    _JSONNode.string(child(2 &* position).pointee)
  }

  /// The value of member `position` of an object (`0..<count`).
  @inlinable
  package func value(_ position: Int) -> JSONNodeCursor {
    JSONNodeCursor(child(2 &* position &+ 1))
  }

  /// The position and value of the member with `key` in an object, looking at `hint` first:
  /// decoders ask for keys mostly in document order. The member at the hint of a complete
  /// object is checked here, inlined into the decoder; a search goes to `position(ofKey:)`.
  @inlinable @inline(__always)
  package func member(_ key: UnsafeBufferPointer<UInt8>, hint: Int) -> (Int, JSONNodeCursor)? {
    let head = node.pointee.head
    if _JSONNode.kind(head) == _JSONNode.object && hint < _JSONNode.count(head) {
      let keyNode = _JSONNode.nodes(node.pointee.payload).unsafelyUnwrapped + 2 &* hint
      if _JSONNode.stringEquals(keyNode.pointee, key) { return (hint, JSONNodeCursor(keyNode + 1)) }
    }
    guard let position = position(ofKey: key, hint: hint) else { return nil }
    return (position, value(position))
  }

  /// `member(_:hint:)` of a key given as a string (made contiguous if it is not).
  @inlinable @inline(__always)
  package func member(named key: inout String, hint: Int) -> (Int, JSONNodeCursor)? {
    key.withUTF8 { member($0, hint: hint) }
  }

  /// `position(ofKey:hint:)` of a key given as a string (made contiguous if it is not).
  @inlinable
  package func position(ofKey key: inout String, hint: Int) -> Int? {
    key.withUTF8 { position(ofKey: $0, hint: hint) }
  }

  /// The position of the member with `key` in an object, looking from `hint` on first:
  /// decoders ask for keys mostly in document order, some of them absent.
  @inlinable
  package func position(ofKey key: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
    let (block, nodes, last, _) = _JSONNode.children(node.pointee)
    if let block,
      let position = _JSONStorage.position(
        ofKey: key, first: block, count: nodes / 2, indexed: last == nil, hint: hint)
    {
      return position
    }
    // A snapshot's open object: its incomplete last member is apart.
    if let last, _JSONNode.stringEquals(last.pointee, key) { return nodes / 2 }
    return nil
  }
}

/// A cursor on a value, valid as long as this object: it keeps the value's document alive
/// and holds its root node (and an open container's header) in memory of its own, where a
/// container's node is otherwise made on the stack. A decoder keeps one, so that a container
/// an `init(from:)` kept can be read after the decode call returned.
@usableFromInline
package final class JSONNodeCursorRoot {
  /// The storage of the value's document (for a scalar, of an array holding it: a scalar has
  /// no node of its own): it keeps the nodes alive.
  let storage: _JSONStorage
  /// The root node, then an open container's header (its first and last node, as the two
  /// words of a node).
  let nodes: UnsafeMutablePointer<_Node>
  @usableFromInline
  package let cursor: JSONNodeCursor

  @usableFromInline
  package init(_ value: JSONValue) {
    let nodes = UnsafeMutablePointer<_Node>.allocate(capacity: 2)
    nodes.initialize(repeating: _Node(head: 0, payload: 0), count: 2)
    let keep = { (node: _Node) in
      var node = node
      if _JSONNode.kind(node.head) > _JSONNode.object {
        // An open container: its header is on the stack during `_withNode` only.
        let header = UnsafePointer<UInt64>(bitPattern: UInt(truncatingIfNeeded: node.payload))!
        nodes[1] = _Node(head: header[0], payload: header[1])
        node.payload = UInt64(UInt(bitPattern: nodes + 1))
      }
      nodes[0] = node
    }
    let root = JSONNodeCursor(nodes)
    switch value {
    // A container changed in code is laid out as a parsed document first.
    case .object(let object):
      let view = object._compactView
      view.withNode(open: _JSONNode.openObject, closed: _JSONNode.object, keep)
      storage = view.storage
      cursor = root
    case .array(let array):
      let view = array._compactView
      view.withNode(open: _JSONNode.openArray, closed: _JSONNode.array, keep)
      storage = view.storage
      cursor = root
    default:
      let view = JSONArray([value])._compactView
      view.withNode(open: _JSONNode.openArray, closed: _JSONNode.array, keep)
      storage = view.storage
      cursor = root.element(0)
    }
    self.nodes = nodes
  }

  deinit {
    nodes.deallocate()
  }

  /// The value at `cursor`, a cursor into this document: a view of the document's memory,
  /// as parsed, not a copy.
  @usableFromInline
  package func value(at cursor: JSONNodeCursor) -> JSONValue {
    storage.value(of: cursor.node.pointee)
  }
}

extension JSONNodeCursor {
  /// A `null` that is in no document: the value of an absent member, for a super decoder.
  @usableFromInline
  package static var null: JSONNodeCursor { JSONNodeCursor(_nullNode) }
}

/// Allocated once and never freed or written: a constant.
nonisolated(unsafe) let _nullNode: UnsafePointer<_Node> = {
  let node = UnsafeMutablePointer<_Node>.allocate(capacity: 1)
  node.initialize(to: _Node(head: _JSONNode.null, payload: 0))
  return UnsafePointer(node)
}()
