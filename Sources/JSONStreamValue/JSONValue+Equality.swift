// Equality and hashing for trees of any depth: a parsed document may be nested a million
// levels deep (with the depth limit raised), and comparing or hashing it must not recurse
// once per level, which would overflow the stack.

import JSONStreamCore
import JSONStreamParser

extension JSONValue {
  /// JSON's meaning: objects compare as unordered maps, numbers by value (`1 == 1.0`),
  /// strings by their code points (`"é"` precomposed and decomposed differ).
  /// Walks both values with a stack of its own, so any depth compares.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    // The first pair is held apart, so that comparing scalars allocates nothing: the stack
    // grows only for the children of containers.
    var next: (JSONValue, JSONValue)? = (lhs, rhs)
    var pending: [(JSONValue, JSONValue)] = []
    while let (a, b) = next ?? pending.popLast() {
      next = nil
      switch (a, b) {
      case (.null, .null):
        continue
      case (.bool(let x), .bool(let y)):
        guard x == y else { return false }
      case (.number(let x), .number(let y)):
        guard x == y else { return false }
      case (.string(let x), .string(let y)):
        // By code points, as JSON compares strings (RFC 8259 §8.3), and as keys compare.
        guard _MemberKey(x) == _MemberKey(y) else { return false }
      case (.array(let x), .array(let y)):
        guard x.count == y.count else { return false }
        if x._isSameView(as: y) { continue }
        // Pushed last to first, so the first elements compare first.
        for index in x.indices.reversed() { pending.append((x[index], y[index])) }
      case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        if x._isSameView(as: y) { continue }
        for (key, value) in x {
          guard let other = y[key] else { return false }
          pending.append((value, other))
        }
      default:
        return false
      }
    }
    return true
  }

  /// Consistent with `==`. Containers hash their count and, down to a few levels, their
  /// contents: equal values hash alike at any depth, and hashing stays bounded in depth.
  public func hash(into hasher: inout Hasher) {
    _hash(into: &hasher, levels: JSONValue._hashedLevels)
  }

  /// Levels of nesting whose contents go into a hash; below them only counts do.
  static let _hashedLevels = 8

  func _hash(into hasher: inout Hasher, levels: Int) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .number(let value):
      hasher.combine(2 as UInt8)
      hasher.combine(value)
    case .string(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    case .array(let array):
      hasher.combine(4 as UInt8)
      array._hash(into: &hasher, levels: levels)
    case .object(let object):
      hasher.combine(5 as UInt8)
      object._hash(into: &hasher, levels: levels)
    }
  }
}

extension JSONArray {
  /// `true` when the arrays have equal elements in the same order (numbers compare by value).
  public static func == (lhs: JSONArray, rhs: JSONArray) -> Bool {
    JSONValue.array(lhs) == JSONValue.array(rhs)
  }

  /// Hashes the array so that equal arrays hash alike.
  public func hash(into hasher: inout Hasher) {
    _hash(into: &hasher, levels: JSONValue._hashedLevels)
  }

  func _hash(into hasher: inout Hasher, levels: Int) {
    hasher.combine(count)
    guard levels > 0 else { return }
    for element in self { element._hash(into: &hasher, levels: levels - 1) }
  }
}

extension JSONObject {
  /// `true` when the objects have the same keys with equal values, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    JSONValue.object(lhs) == JSONValue.object(rhs)
  }

  /// Hashes the object so that equal objects hash alike, whatever their member order.
  public func hash(into hasher: inout Hasher) {
    _hash(into: &hasher, levels: JSONValue._hashedLevels)
  }

  func _hash(into hasher: inout Hasher, levels: Int) {
    hasher.combine(count)
    guard levels > 0 else { return }
    // Order-independent, to agree with ==: member hashes combine commutatively.
    var combined = 0
    for (key, value) in self {
      var member = Hasher()
      member.combine(key)
      value._hash(into: &member, levels: levels - 1)
      combined ^= member.finalize()
    }
    hasher.combine(combined)
  }
}
