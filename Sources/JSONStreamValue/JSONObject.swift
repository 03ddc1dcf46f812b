import JSONStreamCore
import JSONStreamParser

/// A JSON object: members in document order, with keyed lookup that stays fast for large
/// objects, changed in place as a Swift dictionary is.
///
/// ```swift
/// var object: JSONObject = ["b": 1, "a": 2]
/// object["a"]                       // 2
/// object.keys                       // ["b", "a"]: document order
/// object["c"] = true                // a new key goes last
/// object["b"] = nil                 // removes the member
/// for (key, value) in object { … }
/// ```
///
/// Keys are unique, and compare by their UTF-8 bytes as JSON compares them (`"é"` written
/// precomposed and decomposed are two keys). When a document repeats a key,
/// ``JSONDuplicateKeyPolicy`` decides. Equality ignores member order, as JSON's meaning does.
///
/// A parsed object is a view of its document's memory (and keeps it alive). Its first change
/// turns this object alone into Swift values (its members' values stay views); from then on a
/// uniquely held object changes in place: setting a member takes amortised constant time,
/// removing one moves the members after it, which keep their order.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
  /// A member: its key and its value.
  public typealias Element = (key: String, value: JSONValue)
  /// Positions are offsets from 0, in member order.
  public typealias Index = Int
  /// A range of positions.
  public typealias Indices = Range<Int>

  /// Where the members are: views of a document's nodes, or, once changed, Swift values.
  @usableFromInline
  package enum _Storage: Sendable {
    case view(_ChildNodes)
    case members(_Members)
  }

  @usableFromInline package var _storage: _Storage

  @inlinable
  init(_children: _ChildNodes) {
    _storage = .view(_children)
  }

  /// The members' nodes in their document's memory (each key's, then its value's), while the
  /// object is unchanged.
  @inlinable package var _view: _ChildNodes? {
    if case .view(let children) = _storage { return children }
    return nil
  }

  /// The number of members.
  @inlinable public var count: Int {
    switch _storage {
    case .view(let children): return children.count
    case .members(let members): return members.values.count
    }
  }

  /// An empty object.
  public init() {
    self.init(_children: .empty)
  }

  /// An object of `members` in order, laid out as a parsed document is; a repeated key keeps
  /// its first position and its last value.
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

  /// The members as a view of nodes: this object's own, or, for a changed object, those of a
  /// copy laid out as a parsed document is.
  @usableFromInline package var _compactView: _ChildNodes {
    if let view = _view { return view }
    return JSONObject(self)._view!
  }

  /// The position of the first member: 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last member: ``count``.
  @inlinable public var endIndex: Int { count }

  /// The member at `position` in member order, which must be in `0..<count`.
  public subscript(position: Int) -> Element {
    switch _storage {
    case .view(let children):
      precondition(position >= 0 && position < children.count, "JSONObject index out of range")
      return (children.key(position), children.value(position, stride: 2, offset: 1))
    case .members(let members):
      return (members.keys[position].string, members.values[position])
    }
  }

  /// The keys, in member order.
  public var keys: [String] {
    switch _storage {
    case .view(let children): return (0..<children.count).map { children.key($0) }
    case .members(let members): return members.keys.map(\.string)
    }
  }

  /// The values, in member order.
  public var values: [JSONValue] {
    switch _storage {
    case .view(let children):
      return (0..<children.count).map { children.value($0, stride: 2, offset: 1) }
    case .members(let members): return members.values
    }
  }

  /// The position of `key`, if present.
  public func index(forKey key: String) -> Int? {
    switch _storage {
    case .view(let children):
      var key = key
      return key.withJSONString { children.position(ofKey: $0) }
    case .members(let members):
      return members.position(of: _MemberKey(key))
    }
  }

  /// The value of `key`. Setting a new key adds it at the end; setting an existing key
  /// replaces its value in its position; setting nil removes the member. Changes through
  /// the subscript (`object["a"]?["b"] = 1`) are made in place.
  @inlinable
  public subscript(key: String) -> JSONValue? {
    get {
      guard let position = index(forKey: key) else { return nil }
      switch _storage {
      case .view(let children): return children.value(position, stride: 2, offset: 1)
      case .members(let members): return members.values[position]
      }
    }
    _modify {
      var members = _takeMembers()
      defer { _storage = .members(members) }
      let memberKey = _MemberKey(key)
      if let position = members.position(of: memberKey) {
        // Moved out while it changes, so that its own containers are uniquely held.
        var value: JSONValue? = members.values[position]
        members.values[position] = .null
        defer {
          if let value {
            members.values[position] = value
          } else {
            _ = members.remove(at: position)
          }
        }
        yield &value
      } else {
        var value: JSONValue? = nil
        defer { if let value { members.append(memberKey, value) } }
        yield &value
      }
    }
  }

  /// Sets the value of `key`, adding the member at the end when it is new; returns the value
  /// it replaced, if any.
  @discardableResult
  @inlinable
  public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
    var members = _takeMembers()
    defer { _storage = .members(members) }
    let memberKey = _MemberKey(key)
    if let position = members.position(of: memberKey) {
      let old = members.values[position]
      members.values[position] = value
      return old
    }
    members.append(memberKey, value)
    return nil
  }

  /// Removes the member `key`; returns its value, or nil when there was none. The members
  /// after it keep their order.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    // Turning a view into members keeps its order: the position stays valid.
    guard let position = index(forKey: key) else { return nil }
    var members = _takeMembers()
    defer { _storage = .members(members) }
    return members.remove(at: position)
  }

  /// Removes every member.
  public mutating func removeAll() {
    self = JSONObject()
  }

  /// Makes room for `minimumCapacity` members.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    var members = _takeMembers()
    members.reserveCapacity(minimumCapacity)
    _storage = .members(members)
  }

  /// Adds the members of `other`; for a key both have, `combine` gets the value here and the
  /// value in `other` and returns the one to keep. New keys go at the end, in `other`'s order.
  public mutating func merge(
    _ other: some Sequence<(key: String, value: JSONValue)>,
    uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
  ) rethrows {
    var members = _takeMembers()
    defer { _storage = .members(members) }
    for (key, value) in other {
      let memberKey = _MemberKey(key)
      if let position = members.position(of: memberKey) {
        members.values[position] = try combine(members.values[position], value)
      } else {
        members.append(memberKey, value)
      }
    }
  }

  /// This object with the members of `other` added (see ``merge(_:uniquingKeysWith:)``).
  public func merging(
    _ other: some Sequence<(key: String, value: JSONValue)>,
    uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
  ) rethrows -> JSONObject {
    var result = self
    try result.merge(other, uniquingKeysWith: combine)
    return result
  }

  /// The members as Swift values, leaving this object empty meanwhile, so that they are
  /// uniquely held and change in place (inlined: a change's accessor then needs no frame of
  /// its own on the heap). A view becomes members here.
  @inlinable
  mutating func _takeMembers() -> _Members {
    if case .members(let members) = _storage {
      // Empty members stand in: empty collections share the standard library's storage,
      // which costs no allocation and no reference count.
      _storage = .members(_Members())
      return members
    }
    return _viewMembers()
  }

  /// The members of a view as Swift values, keeping the text of its numbers (see
  /// `_JSONStorage.value(of:keepingText:)`).
  @usableFromInline
  func _viewMembers() -> _Members {
    var members = _Members()
    guard let children = _view else { return members }
    members.reserveCapacity(children.count)
    for position in 0..<children.count {
      // A view's keys are unique: no lookup needed.
      members.append(
        _MemberKey(children.key(position)),
        children.value(position, stride: 2, offset: 1, keepingText: true))
    }
    return members
  }
}

extension JSONObject {
  /// The members of a changed object: keys and values in order, and each key's position.
  @usableFromInline
  package struct _Members: Sendable {
    @usableFromInline var keys: [_MemberKey] = []
    @usableFromInline var values: [JSONValue] = []
    /// Each key's position in `keys`.
    @usableFromInline var positions: [_MemberKey: Int] = [:]

    @usableFromInline init() {}

    @usableFromInline
    func position(of key: _MemberKey) -> Int? { positions[key] }

    /// Adds a member whose key is not among the members.
    @usableFromInline
    mutating func append(_ key: _MemberKey, _ value: JSONValue) {
      positions[key] = keys.count
      keys.append(key)
      values.append(value)
    }

    /// Removes the member at `position`; the members after it move up one place.
    @usableFromInline
    mutating func remove(at position: Int) -> JSONValue {
      positions[keys[position]] = nil
      keys.remove(at: position)
      // The positions after it move up one: changed in place, without hashing their keys
      // again (which made removing many members of a large object take minutes).
      for index in positions.values.indices where positions.values[index] > position {
        positions.values[index] &-= 1
      }
      return values.remove(at: position)
    }

    @usableFromInline
    mutating func reserveCapacity(_ count: Int) {
      keys.reserveCapacity(count)
      values.reserveCapacity(count)
      positions.reserveCapacity(count)
    }
  }
}

/// A member's key, equal to another when their UTF-8 bytes are: JSON compares keys by their
/// code points, where `String`'s `==` would also equate canonically equivalent spellings.
@usableFromInline
package struct _MemberKey: Hashable, Sendable {
  /// The key.
  @usableFromInline package let string: String

  @inlinable
  package init(_ string: String) { self.string = string }

  @inlinable
  package static func == (lhs: _MemberKey, rhs: _MemberKey) -> Bool {
    var left = lhs.string
    return left.withJSONString { $0.equals(rhs.string) }
  }

  @inlinable
  package func hash(into hasher: inout Hasher) {
    var string = string
    hasher.combine(string.withJSONString { $0.keyHash })
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
    guard let view = _view, let otherView = other._view else { return false }
    return view.isSame(as: otherView)
  }
}
