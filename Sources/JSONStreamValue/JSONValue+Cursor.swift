// Read access to a parsed document's nodes without making a Swift value per node, for the
// Codable decoder of JSONStreamFoundation (through `package` access). Not part of the public
// API: the cursor holds a node's address in the document's memory (`_NodeAddress`, in the
// node walk's kernel), valid only while the `JSONValue` it came from is alive: a decoder
// keeps it so through a `JSONNodeCursorRoot`.

import JSONStreamCore
import JSONStreamParser

/// A node of a parsed document: a value, read in place.
@usableFromInline
package struct JSONNodeCursor {
  @usableFromInline let address: _NodeAddress

  @inlinable
  init(_ address: _NodeAddress) { self.address = address }

  @usableFromInline
  package enum Kind: UInt8 {
    case null, bool, number, string, array, object
  }

  @inlinable
  package var kind: Kind {
    switch _JSONNode.kind(address.node.head) {
    case _JSONNode.null: return .null
    case _JSONNode.false, _JSONNode.true: return .bool
    case _JSONNode.number, _JSONNode.binaryNumber, _JSONNode.integer: return .number
    case _JSONNode.string: return .string
    case _JSONNode.array, _JSONNode.openArray: return .array
    default: return .object
    }
  }

  /// The node's identity while its document lives: equal for cursors on the same node.
  @inlinable package var nodeIdentity: Int { address.identity }

  /// The node's bits: equal for the places of one shared value a binary reader pushed again.
  @inlinable package var node: _Node { address.node }

  @inlinable package var isNull: Bool { address.node.head == _JSONNode.null }

  /// The value of a `true` or `false` node; nil for other kinds.
  @inlinable
  package var bool: Bool? {
    switch address.node.head {
    case _JSONNode.true: return true
    case _JSONNode.false: return false
    default: return nil
    }
  }

  /// A string's value; nil for other kinds.
  @usableFromInline
  package var string: String? {
    let node = address.node
    guard _JSONNode.kind(node.head) == _JSONNode.string else { return nil }
    return _JSONNode.string(node)
  }

  /// Calls `body` with a number, its text as written (or, for a number the binary reader kept
  /// in binary, the text it stands for); nil for other kinds.
  @inlinable
  package func withNumber<R>(_ body: (borrowing JSONNumber) throws -> R) rethrows -> R? {
    let node = address.node
    guard _JSONNode.isNumber(_JSONNode.kind(node.head)) else { return nil }
    return try _JSONNode.withNumber(node, body)
  }

  /// A number as `Int64` when it is an integer that fits (as `JSONNumber.int64`); nil for
  /// other numbers and kinds. An integer read when the tree was built, and a binary integer,
  /// are read without their text.
  @inlinable
  package var int64: Int64? {
    let node = address.node
    if _JSONNode.kind(node.head) == _JSONNode.integer { return _JSONNode.integerValue(node.head) }
    if node.head == _JSONNode.binaryNumber { return Int64(bitPattern: node.payload) }
    return withNumber { $0.int64 } ?? nil
  }

  /// A number the binary reader kept as a double (a float32, float64 or date token), as it
  /// is; nil for other numbers and kinds. The text `withNumber` gives it reads back as this
  /// same double, but costs a conversion each way.
  @inlinable
  package var binaryDouble: Double? {
    let node = address.node
    guard _JSONNode.kind(node.head) == _JSONNode.binaryNumber,
      case .double(let value) = _JSONNode.binaryNumber(node)
    else { return nil }
    return value
  }

  /// The elements of an array or members of an object; 0 for other kinds.
  @inlinable
  package var count: Int {
    let head = address.node.head
    let kind = _JSONNode.kind(head)
    if kind == _JSONNode.array || kind == _JSONNode.object { return _JSONNode.count(head) }
    if kind == _JSONNode.openArray || kind == _JSONNode.openObject {
      return _JSONNode.count(head) &+ 1
    }
    return 0
  }

  /// Element `index` of an array (`0..<count`).
  @inlinable
  package func element(_ index: Int) -> JSONNodeCursor { JSONNodeCursor(address.element(index)) }

  /// The key of member `position` of an object (`0..<count`), as a `String`.
  @usableFromInline
  package func keyString(_ position: Int) -> String {
    _JSONNode.string(address.key(position).node)
  }

  /// The value of member `position` of an object (`0..<count`).
  @inlinable
  package func value(_ position: Int) -> JSONNodeCursor {
    JSONNodeCursor(address.value(position))
  }

  /// The position and value of the member with `key` in an object, looking at `hint` first:
  /// decoders ask for keys mostly in document order.
  @inlinable @inline(__always)
  package func member(named key: inout String, hint: Int) -> (Int, JSONNodeCursor)? {
    guard let (position, value) = address.member(named: &key, hint: hint) else { return nil }
    return (position, JSONNodeCursor(value))
  }

  /// The position of the member with `key` in an object, looking from `hint` on first:
  /// decoders ask for keys mostly in document order, some of them absent.
  @inlinable
  package func position(ofKey key: inout String, hint: Int) -> Int? {
    address.position(ofKey: &key, hint: hint)
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
  /// The root node, copied.
  let root: _NodeCopy
  @usableFromInline
  package let cursor: JSONNodeCursor

  @usableFromInline
  package init(_ value: JSONValue) {
    // A container changed in code is laid out as a parsed document first; a scalar, which
    // has no node of its own, as the element of an array.
    let view: _ChildNodes
    let (open, closed): (UInt64, UInt64)
    var isScalar = false
    switch value {
    case .object(let object):
      (view, open, closed) = (object._compactView, _JSONNode.openObject, _JSONNode.object)
    case .array(let array):
      (view, open, closed) = (array._compactView, _JSONNode.openArray, _JSONNode.array)
    default:
      (view, open, closed) = (JSONArray([value])._compactView, _JSONNode.openArray, _JSONNode.array)
      isScalar = true
    }
    root = view.withNode(open: open, closed: closed, _NodeCopy.init)
    storage = view.storage
    let cursor = JSONNodeCursor(root.address)
    self.cursor = isScalar ? cursor.element(0) : cursor
  }

  /// The value at `cursor`, a cursor into this document: a view of the document's memory,
  /// as parsed, not a copy.
  @usableFromInline
  package func value(at cursor: JSONNodeCursor) -> JSONValue {
    storage.value(of: cursor.address.node)
  }
}

extension JSONNodeCursor {
  /// A `null` that is in no document: the value of an absent member, for a super decoder.
  @usableFromInline
  package static var null: JSONNodeCursor { JSONNodeCursor(.null) }
}
