/// A JSON object: members in document order, with keyed lookup that stays fast for large
/// objects (a hash index is kept once an object has more than a few members).
///
/// ```swift
/// let object: JSONObject = ["b": 1, "a": 2]
/// object["a"]                       // 2
/// object.keys                       // ["b", "a"]: document order
/// for (key, value) in object { … }
/// ```
///
/// Keys are unique. When a document repeats a key, ``JSONDuplicateKeyPolicy`` decides.
/// Equality ignores member order, as JSON's meaning does.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
  public typealias Element = (key: String, value: JSONValue)

  @usableFromInline var _keys: [String]
  @usableFromInline var _values: [JSONValue]
  /// Key → position, present once the object is larger than `_indexThreshold`.
  @usableFromInline var _index: _KeyIndex?

  @usableFromInline static var _indexThreshold: Int { 8 }

  /// An empty object.
  @inlinable
  public init() {
    _keys = []
    _values = []
    _index = nil
  }

  /// An object of `members` in order; a repeated key keeps its first position and its last
  /// value.
  public init(_ members: some Sequence<(key: String, value: JSONValue)>) {
    self.init()
    for (key, value) in members { self[key] = value }
  }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { _keys.count }

  @inlinable
  public subscript(position: Int) -> Element {
    (_keys[position], _values[position])
  }

  /// The keys, in document order.
  @inlinable public var keys: [String] { _keys }

  /// The values, in document order.
  @inlinable public var values: [JSONValue] { _values }

  /// The position of `key`, if present.
  @inlinable
  public func index(forKey key: String) -> Int? {
    if let index = _index { return index.find(key, in: _keys) }
    return _keys.firstIndex(of: key)
  }

  /// The value of `key`. Setting a new key appends it; setting an existing key replaces its
  /// value in place; setting nil removes the member.
  @inlinable
  public subscript(key: String) -> JSONValue? {
    get {
      guard let position = index(forKey: key) else { return nil }
      return _values[position]
    }
    set {
      if let position = index(forKey: key) {
        if let newValue {
          _values[position] = newValue
        } else {
          _remove(at: position)
        }
      } else if let newValue {
        _append(key, newValue)
      }
    }
  }

  /// Appends a member whose key is known to be new.
  @inlinable
  mutating func _append(_ key: String, _ value: JSONValue) {
    _keys.append(key)
    _values.append(value)
    if _index != nil {
      if _index!.isFull(afterAdding: _keys.count) {
        _buildIndex()
      } else {
        _index!.insert(_keys.count - 1, key: key)
      }
    } else if _keys.count > JSONObject._indexThreshold {
      _buildIndex()
    }
  }

  @usableFromInline
  mutating func _buildIndex() {
    _index = _KeyIndex(_keys)
  }

  @usableFromInline
  mutating func _remove(at position: Int) {
    _keys.remove(at: position)
    _values.remove(at: position)
    if _index != nil { _buildIndex() }
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, value) in lhs {
      guard rhs[key] == value else { return false }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent, to agree with ==: combine member hashes commutatively.
    var combined = 0
    for (key, value) in self {
      var member = Hasher()
      member.combine(key)
      member.combine(value)
      combined ^= member.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
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
