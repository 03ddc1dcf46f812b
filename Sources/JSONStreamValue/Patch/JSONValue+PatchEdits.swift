// Every change the pointer and patch code makes to a container goes through these functions,
// and only they touch a container's members or elements.
//
// TO BE RE-IMPLEMENTED on the in-place (copy-on-write) mutation API of JSONObject and
// JSONArray (`subscript(key:) { set }`, `updateValue(_:forKey:)`, `removeValue(forKey:)`,
// `subscript(i) { set }`, `insert(_:at:)`, `remove(at:)`). For now each one rebuilds the
// container from its members, at a cost proportional to its size (and its contents').
// The `take` functions are where a value leaves its container for an edit: on the in-place
// API they swap `null` in, so that the value taken is the only reference to its storage and
// the edit below it does not copy it; `put` writes it back.

extension JSONObject {
  /// The value at member `position`, taken out for an edit (see `_put(_:at:)`).
  mutating func _take(at position: Int) -> JSONValue {
    self[position].value
  }

  /// Writes `value` back at member `position` (after `_take(at:)`), or replaces its value.
  mutating func _put(_ value: JSONValue, at position: Int) {
    var members = Array(self)
    members[position].value = value
    self = JSONObject(members)
  }

  /// Sets the member `key`: replaces its value where it is, or adds it at the end.
  mutating func _set(_ value: JSONValue, forKey key: String) {
    if let position = index(forKey: key) {
      _put(value, at: position)
    } else {
      var members = Array(self)
      members.append((key, value))
      self = JSONObject(members)
    }
  }

  /// Removes the member at `position` and returns its value.
  mutating func _remove(at position: Int) -> JSONValue {
    var members = Array(self)
    let removed = members.remove(at: position)
    self = JSONObject(members)
    return removed.value
  }
}

extension JSONArray {
  /// The element at `position`, taken out for an edit (see `_put(_:at:)`).
  mutating func _take(at position: Int) -> JSONValue {
    self[position]
  }

  /// Writes `value` back at `position` (after `_take(at:)`), or replaces the element.
  mutating func _put(_ value: JSONValue, at position: Int) {
    var elements = Array(self)
    elements[position] = value
    self = JSONArray(elements)
  }

  /// Inserts `value` before the element at `position` (at the end when it is `count`).
  mutating func _insert(_ value: JSONValue, at position: Int) {
    var elements = Array(self)
    elements.insert(value, at: position)
    self = JSONArray(elements)
  }

  /// Removes the element at `position` and returns it.
  mutating func _remove(at position: Int) -> JSONValue {
    var elements = Array(self)
    let removed = elements.remove(at: position)
    self = JSONArray(elements)
    return removed
  }
}
