// Applying a JSON Patch to a tree: each operation through the pointer walk, all of them on a
// copy that replaces the value only when every one succeeded.

import JSONStreamCore
import JSONStreamValue

extension JSONValue {
  /// Applies `patch`'s operations in order. Atomic: when one fails, the value is as it was.
  ///
  /// ```swift
  /// var document: JSONValue = ["tags": ["a"]]
  /// try document.apply([.add(path: "/tags/-", value: "b"), .remove(path: "/tags/0")])
  /// // ["tags": ["b"]]
  /// ```
  ///
  /// - Throws: ``JSONPatchError`` with the failing operation's index, `op` and pointer.
  public mutating func apply(_ patch: JSONPatch) throws(JSONPatchError) {
    var patched = self
    for (index, operation) in patch.operations.enumerated() {
      do {
        try patched._apply(operation)
      } catch {
        throw error.inOperation(index, operation.name)
      }
    }
    self = patched
  }

  /// This value with `patch` applied (see ``apply(_:)``).
  public func applying(_ patch: JSONPatch) throws(JSONPatchError) -> JSONValue {
    var patched = self
    try patched.apply(patch)
    return patched
  }

  /// Applies one operation. When it throws, the value may be partly changed (a `move`'s
  /// removal): ``apply(_:)`` works on a copy, which it drops.
  mutating func _apply(_ operation: JSONPatch.Operation) throws(JSONPatchError) {
    switch operation {
    case .add(let path, let value):
      try _add(value, at: path)
    case .remove(let path):
      try removeValue(at: path)
    case .replace(let path, let value):
      guard !path.isRoot else {
        self = value
        return
      }
      try _edit(path) { (parent, token, depth) throws(JSONPatchError) in
        let position = try JSONValue._position(of: token, in: parent, path, depth)
        parent._changeContainer(
          object: { $0._put(value, at: position) },
          array: { $0._put(value, at: position) },
          other: { _ in preconditionFailure("a position in a value that is not a container") })
      }
    case .move(let from, let path):
      let value: JSONValue
      do { value = try _resolve(from) } catch { throw error.aboutFrom() }
      if from == path { return }
      guard !path.hasPrefix(from) else {
        throw JSONPatchError.moveIntoDescendant(from: from, path: path)
      }
      // When the add fails, the removal stays here; `apply` then drops its working copy.
      try removeValue(at: from)
      try _add(value, at: path)
    case .copy(let from, let path):
      let value: JSONValue
      do { value = try _resolve(from) } catch { throw error.aboutFrom() }
      try _add(value, at: path)
    case .test(let path, let expected):
      let found = try _resolve(path)
      guard found == expected else {
        throw JSONPatchError.testFailed(path, found: found, expected: expected)
      }
    }
  }

  /// `add`: sets an object's member, inserts into an array (at an index up to its count, or
  /// `-` for its end), or replaces the whole value.
  mutating func _add(_ value: JSONValue, at path: JSONPointer) throws(JSONPatchError) {
    try _place(value, at: path, replacingElements: false)
  }

}
