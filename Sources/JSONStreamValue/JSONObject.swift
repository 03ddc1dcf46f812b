import JSONStreamCore
import JSONStreamParser

/// A JSON object: members in document order, with keyed lookup that stays fast for large
/// objects (objects of more than 16 members carry a hash index).
///
/// ```swift
/// let object: JSONObject = ["b": 1, "a": 2]
/// object["a"]                       // 2
/// object.keys                       // ["b", "a"]: document order
/// for (key, value) in object { … }
/// ```
///
/// Keys are unique. When a document repeats a key, ``JSONDuplicateKeyPolicy`` decides.
/// Equality ignores member order, as JSON's meaning does. A parsed object is a view of its
/// document's memory (and keeps it alive); setting a member makes a new object, at a cost
/// proportional to the object's size, so build large objects with ``init(_:)``.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
  /// A member: its key and its value.
  public typealias Element = (key: String, value: JSONValue)

  /// The members' nodes in their document's memory: each key's, then its value's.
  @usableFromInline package let _children: _ChildNodes

  @inlinable
  init(_children: _ChildNodes) {
    self._children = _children
  }

  /// The number of members.
  @inlinable public var count: Int { _children.count }

  /// An empty object.
  public init() {
    self.init(_children: .empty)
  }

  /// An object of `members` in order; a repeated key keeps its first position and its last
  /// value.
  public init(_ members: some Sequence<(key: String, value: JSONValue)>) {
    self = _JSONStorage.build { builder in
      builder.startObject()
      for (key, value) in members {
        var key = key
        try key.withJSONString { try builder.key($0) }
        try value.replay(into: &builder)
      }
      builder.endObject()
    }.objectValue!
  }

  /// A node that stands for this object (see `_JSONStorage`); `withNode` gets it, and memory
  /// for an open object's header while it runs.
  @inlinable
  package func _withNode<R>(_ body: (_Node) throws -> R) rethrows -> R {
    try _children.withNode(open: _JSONNode.openObject, closed: _JSONNode.object, body)
  }

  /// The position of the first member: 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last member: ``count``.
  @inlinable public var endIndex: Int { count }

  /// The member at `position` in document order, which must be in `0..<count`.
  public subscript(position: Int) -> Element {
    precondition(position >= 0 && position < count, "JSONObject index out of range")
    return (_children.key(position), _children.value(position, stride: 2, offset: 1))
  }

  /// The keys, in document order.
  public var keys: [String] {
    (0..<count).map { _children.key($0) }
  }

  /// The values, in document order.
  public var values: [JSONValue] {
    (0..<count).map { _children.value($0, stride: 2, offset: 1) }
  }

  /// The position of `key`, if present.
  public func index(forKey key: String) -> Int? {
    var key = key
    return key.withJSONString { _children.position(ofKey: $0) }
  }

  /// The value of `key`. Setting a new key appends it; setting an existing key replaces its
  /// value in place; setting nil removes the member. Each change copies the object.
  public subscript(key: String) -> JSONValue? {
    get {
      guard let position = index(forKey: key) else { return nil }
      return _children.value(position, stride: 2, offset: 1)
    }
    set {
      var members = Array(self)
      if let position = index(forKey: key) {
        if let newValue {
          members[position].value = newValue
        } else {
          members.remove(at: position)
        }
      } else if let newValue {
        members.append((key, newValue))
      } else {
        return
      }
      self = JSONObject(members)
    }
  }
}

/// What the tree builder does when an object repeats a key.
public enum JSONDuplicateKeyPolicy: Sendable, Equatable {
  /// The last value wins, at the key's first position (JSONKit's and most parsers' choice).
  case lastWins
  /// The first value wins; later ones are ignored.
  case firstWins
  /// A repeated key is an error (``JSONValueError/duplicateKey(_:)``).
  case error
}

extension JSONObject {
  /// The same members of the same document: equal without looking at them.
  func _isSameView(as other: JSONObject) -> Bool {
    _children.isSame(as: other._children)
  }
}
