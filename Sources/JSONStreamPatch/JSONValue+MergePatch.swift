// RFC 7396 JSON Merge Patch on a tree, walked with a stack of its own: any depth works.

import JSONStreamCore
import JSONStreamValue

extension JSONValue {
  /// Applies a JSON Merge Patch (RFC 7396): an object patch sets each of its members in this
  /// value (made an object if it is not one), merging objects into objects, and removes the
  /// members it sets to `null`; any other patch replaces the value.
  ///
  /// ```swift
  /// var settings: JSONValue = ["theme": "dark", "font": ["size": 12, "family": "Menlo"]]
  /// settings.merge(patch: ["theme": nil, "font": ["size": 14]])
  /// // {"font": {"size": 14, "family": "Menlo"}}
  /// ```
  ///
  /// Members keep their place; new ones go at the end of their object, in the patch's order.
  public mutating func merge(patch: JSONValue) {
    guard case .object(let patchObject) = patch else {
      self = patch
      return
    }
    /// An object being merged: the target (taken out of its parent, under `key`), its patch,
    /// and the patch's next member.
    struct Level {
      var target: JSONObject
      let patch: JSONObject
      var next = 0
      let key: String
    }
    var levels = [Level(target: objectValue ?? JSONObject(), patch: patchObject, key: "")]
    self = .null
    while true {
      let top = levels.count - 1
      guard levels[top].next < levels[top].patch.count else {
        let done = levels.removeLast()
        guard let parent = levels.indices.last else {
          self = .object(done.target)
          return
        }
        levels[parent].target._set(.object(done.target), forKey: done.key)
        continue
      }
      let (key, value) = levels[top].patch._member(at: levels[top].next, keepingText: true)
      levels[top].next += 1
      switch value {
      case .null:
        if let position = levels[top].target.index(forKey: key) {
          _ = levels[top].target._remove(at: position)
        }
      case .object(let inner):
        let existing = levels[top].target.index(forKey: key).map {
          levels[top].target._take(at: $0)
        }
        levels.append(Level(target: existing?.objectValue ?? JSONObject(), patch: inner, key: key))
      default:
        levels[top].target._set(value, forKey: key)
      }
    }
  }

  /// This value with the JSON Merge Patch `patch` applied (see ``merge(patch:)``).
  public func merging(patch: JSONValue) -> JSONValue {
    var merged = self
    merged.merge(patch: patch)
    return merged
  }
}
