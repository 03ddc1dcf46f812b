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
public struct JSONArray: @unchecked Sendable, Hashable, RandomAccessCollection {
  /// An element: a ``JSONValue``.
  public typealias Element = JSONValue

  @usableFromInline package let _storage: _JSONStorage
  /// The first element's node (nil when empty), in `_storage`'s memory: immutable, and kept
  /// alive by `_storage`, hence `@unchecked Sendable`.
  @usableFromInline let _first: UnsafePointer<_Node>?
  /// The number of elements.
  public let count: Int
  /// In a snapshot of an incomplete document, the last element, incomplete, which is not in
  /// the block at `_first` (see `_JSONStorage`); nil otherwise.
  @usableFromInline let _last: UnsafePointer<_Node>?

  @inlinable
  init(
    _storage: _JSONStorage, first: UnsafePointer<_Node>?, count: Int,
    last: UnsafePointer<_Node>? = nil
  ) {
    self._storage = _storage
    self._first = first
    self.count = count
    self._last = last
  }

  /// The node of the element at `position`.
  @inlinable
  func _node(at position: Int) -> UnsafePointer<_Node> {
    if let last = _last, position == count &- 1 { return last }
    return _first.unsafelyUnwrapped + position
  }

  /// An empty array.
  public init() {
    self.init(_storage: .empty, first: nil, count: 0)
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
    try _JSONNode.withContainerNode(
      open: _JSONNode.openArray, closed: _JSONNode.array, count: count, first: _first,
      last: _last, body)
  }

  /// The position of the first element: 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last element: ``count``.
  @inlinable public var endIndex: Int { count }

  /// The element at `position`, which must be in `0..<count`.
  public subscript(position: Int) -> JSONValue {
    precondition(position >= 0 && position < count, "JSONArray index out of range")
    return _storage.value(of: _node(at: position)[0])
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
    _storage === other._storage && _first == other._first && _last == other._last
  }
}
