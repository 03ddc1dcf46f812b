// Every change the pointer and patch code makes to a container goes through these functions,
// and only they touch a container's members or elements.
//
// TO BE RE-IMPLEMENTED on the in-place (copy-on-write) mutation API of JSONObject and
// JSONArray (`subscript(key:) { set }`, `updateValue(_:forKey:)`, `removeValue(forKey:)`,
// `subscript(i) { set }`, `insert(_:at:)`, `remove(at:)`). For now each change rebuilds the
// container, at a cost proportional to its size and its contents': its events are replayed
// into a tree builder with the one change spliced in (`_Splice`), so that the members it
// keeps keep their numbers' text (`1e0` stays `1e0`; a number taken out as a `JSONValue`
// would be written `1.0`).
// `_take` is where a value leaves its container for an edit below it: on the in-place API it
// swaps `null` in, so that the value taken is the only reference to its storage and the edit
// does not copy it; `_put` writes the edited value back, and `_restore` the unedited one after
// a failure (here a no-op: `_take` left the container as it was).

import JSONStreamCore

extension JSONObject {
  /// The value at member `position`, taken out for an edit below it.
  mutating func _take(at position: Int) -> JSONValue {
    self[position].value
  }

  /// Writes the value taken at `position`, edited, back.
  mutating func _put(_ value: JSONValue, at position: Int) {
    self = _Splice.object(self, at: position, .replace(value))
  }

  /// Writes the value taken at `position` back after a failed edit, as it was.
  mutating func _restore(_ value: JSONValue, at position: Int) {}

  /// Sets the member `key`: replaces its value where it is, or adds it at the end.
  mutating func _set(_ value: JSONValue, forKey key: String) {
    if let position = index(forKey: key) {
      self = _Splice.object(self, at: position, .replace(value))
    } else {
      self = _Splice.object(self, at: count, .insert(key, value))
    }
  }

  /// Removes the member at `position` and returns its value.
  mutating func _remove(at position: Int) -> JSONValue {
    let removed = self[position].value
    self = _Splice.object(self, at: position, .remove)
    return removed
  }
}

extension JSONArray {
  /// The element at `position`, taken out for an edit below it.
  mutating func _take(at position: Int) -> JSONValue {
    self[position]
  }

  /// Writes the element taken at `position`, edited, back; or replaces the element.
  mutating func _put(_ value: JSONValue, at position: Int) {
    self = _Splice.array(self, at: position, .replace(value))
  }

  /// Writes the element taken at `position` back after a failed edit, as it was.
  mutating func _restore(_ value: JSONValue, at position: Int) {}

  /// Inserts `value` before the element at `position` (at the end when it is `count`).
  mutating func _insert(_ value: JSONValue, at position: Int) {
    self = _Splice.array(self, at: position, .insert("", value))
  }

  /// Removes the element at `position` and returns it.
  mutating func _remove(at position: Int) -> JSONValue {
    let removed = self[position]
    self = _Splice.array(self, at: position, .remove)
    return removed
  }
}

/// A container's events, on their way to a tree builder, with one change at one child: the
/// stopgap way to change a container until they change in place.
struct _Splice: JSONEventHandler {
  enum Change {
    /// The child's value is replaced.
    case replace(JSONValue)
    /// The child goes, with its key.
    case remove
    /// A child goes in before it (for an object, at the end), with this key.
    case insert(String, JSONValue)
  }

  var builder = JSONTreeBuilder(duplicateKeyPolicy: .lastWins)
  let position: Int
  let change: Change
  /// Open containers; the container spliced is level 1.
  var depth = 0
  /// Whether the container spliced is an array.
  var splicesArray = false
  /// The current child of the container spliced.
  var child = -1
  /// Open containers of a value being dropped, and whether the next value is.
  var dropDepth = 0
  var dropsNext = false

  static func object(_ object: JSONObject, at position: Int, _ change: Change) -> JSONObject {
    var splice = _Splice(position: position, change: change)
    // Replay throws only what its handler does, and the builder under `.lastWins` never does.
    try! JSONValue.object(object).replay(into: &splice)
    return splice.builder.value!.objectValue!
  }

  static func array(_ array: JSONArray, at position: Int, _ change: Change) -> JSONArray {
    var splice = _Splice(position: position, change: change)
    try! JSONValue.array(array).replay(into: &splice)
    return splice.builder.value!.arrayValue!
  }

  /// Whether a value's first event goes to the builder; puts in what the change puts before
  /// or instead of it.
  mutating func begin(container: Bool, isArray: Bool = false) throws -> Bool {
    if dropDepth > 0 {
      if container { dropDepth += 1 }
      return false
    }
    if depth == 0 { splicesArray = isArray }
    if depth == 1 && splicesArray {
      child += 1
      if child == position { try spliceElement() }
    }
    if dropsNext {
      dropsNext = false
      if container { dropDepth = 1 }
      return false
    }
    if container { depth += 1 }
    return true
  }

  /// An element at `position`: what is inserted before it, or whether it goes.
  mutating func spliceElement() throws {
    switch change {
    case .replace(let value):
      try value.replay(into: &builder)
      dropsNext = true
    case .remove: dropsNext = true
    case .insert(_, let value): try value.replay(into: &builder)
    }
  }

  /// Whether a container's end goes to the builder; at the end of the container spliced, puts
  /// in what is added at its end.
  mutating func end() throws -> Bool {
    if dropDepth > 0 {
      dropDepth -= 1
      return false
    }
    if depth == 1, child + 1 == position, case .insert(let key, let value) = change {
      if !splicesArray {
        var key = key
        try key.withJSONString { try builder.key($0) }
      }
      try value.replay(into: &builder)
    }
    depth -= 1
    return true
  }

  mutating func key(_ key: borrowing JSONString) throws {
    if dropDepth > 0 { return }
    if depth == 1 {
      child += 1
      if child == position {
        switch change {
        case .replace(let value):
          try builder.key(key)
          try value.replay(into: &builder)
          dropsNext = true
          return
        case .remove:
          dropsNext = true
          return
        case .insert: break
        }
      }
    }
    try builder.key(key)
  }

  mutating func startObject() throws { if try begin(container: true) { builder.startObject() } }
  mutating func startArray() throws {
    if try begin(container: true, isArray: true) { builder.startArray() }
  }
  mutating func endObject() throws { if try end() { builder.endObject() } }
  mutating func endArray() throws { if try end() { builder.endArray() } }
  mutating func string(_ value: borrowing JSONString) throws {
    if try begin(container: false) { builder.string(value) }
  }
  mutating func number(_ value: borrowing JSONNumber) throws {
    if try begin(container: false) { builder.number(value) }
  }
  mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    if try begin(container: false) { builder.binaryNumber(value) }
  }
  mutating func bool(_ value: Bool) throws {
    if try begin(container: false) { builder.bool(value) }
  }
  mutating func null() throws { if try begin(container: false) { builder.null() } }
  mutating func beginEventRun() { builder.beginEventRun() }
  mutating func endEventRun() { builder.endEventRun() }
}
