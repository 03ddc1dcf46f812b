import JSONStreamCore
import JSONStreamParser

/// A JSON array: its elements in order, with constant-time access by position.
///
/// ```swift
/// let tags: JSONArray = ["a", "b"]
/// tags[1]                            // "b"
/// for tag in tags { … }
/// JSONArray(names.map(JSONValue.init))
/// ```
///
/// A parsed array is a view of its document's memory: reading an element makes its Swift
/// value then. Like an array slice, a view keeps the whole document's memory alive.
public struct JSONArray: Sendable, Hashable, RandomAccessCollection {
  /// An element: a ``JSONValue``.
  public typealias Element = JSONValue

  /// The elements' nodes in their document's memory.
  @usableFromInline package let _children: _ChildNodes

  @inlinable
  init(_children: _ChildNodes) {
    self._children = _children
  }

  /// The number of elements.
  @inlinable public var count: Int { _children.count }

  /// An empty array.
  public init() {
    self.init(_children: .empty)
  }

  /// An array of `elements`, in order.
  public init(_ elements: some Sequence<JSONValue>) {
    self = _JSONStorage.build { builder in
      builder.startArray()
      for element in elements { try element.replay(into: &builder) }
      builder.endArray()
    }.arrayValue!
  }

  /// A node that stands for this array (see `_JSONStorage`); `withNode` gets it, and memory
  /// for an open array's header while it runs.
  @inlinable
  package func _withNode<R>(_ body: (_Node) throws -> R) rethrows -> R {
    try _children.withNode(open: _JSONNode.openArray, closed: _JSONNode.array, body)
  }

  /// The position of the first element: 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last element: ``count``.
  @inlinable public var endIndex: Int { count }

  /// The element at `position`, which must be in `0..<count`.
  public subscript(position: Int) -> JSONValue {
    precondition(position >= 0 && position < count, "JSONArray index out of range")
    return _children.value(position, stride: 1)
  }
}

extension JSONArray: ExpressibleByArrayLiteral {
  /// An array of `elements`, in order.
  public init(arrayLiteral elements: JSONValue...) {
    self.init(elements)
  }
}

extension _JSONStorage {
  /// The value one builder makes of the events `body` sends it. Values built in code go
  /// through the tree builder, so they share the parsed layout.
  static func build(_ body: (inout JSONTreeBuilder) throws -> Void) -> JSONValue {
    var builder = JSONTreeBuilder(duplicateKeyPolicy: .lastWins)
    // Under `.lastWins` the builder never throws, and replay only throws what its handler does.
    try! body(&builder)
    return builder.value!
  }
}

extension JSONArray {
  /// The same elements of the same document: equal without looking at them.
  func _isSameView(as other: JSONArray) -> Bool {
    _children.isSame(as: other._children)
  }
}
