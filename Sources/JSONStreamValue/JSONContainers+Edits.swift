// Container edits and reads for the JSON Pointer and Patch module, on the containers'
// in-place (copy-on-write) mutation. `_take` is where a value leaves its container for an
// edit below it: it swaps `null` in, so that the value taken is the only reference to its
// storage and the edit below does not copy it; `_put` writes it back, edited, or as it was
// after a failure.

extension JSONObject {
  /// The value at member `position`, taken out for an edit below it (`null` stands in).
  package mutating func _take(at position: Int) -> JSONValue {
    var members = _takeMembers()
    defer { _storage = .members(members) }
    let value = members.values[position]
    members.values[position] = .null
    return value
  }

  /// Writes the value taken at `position`, edited, back.
  package mutating func _put(_ value: JSONValue, at position: Int) {
    var members = _takeMembers()
    members.values[position] = value
    _storage = .members(members)
  }

  /// Sets the member `key`: replaces its value where it is, or adds it at the end.
  package mutating func _set(_ value: JSONValue, forKey key: String) {
    updateValue(value, forKey: key)
  }

  /// Removes the member at `position` and returns its value.
  package mutating func _remove(at position: Int) -> JSONValue {
    var members = _takeMembers()
    defer { _storage = .members(members) }
    return members.remove(at: position)
  }
}

extension JSONArray {
  /// The element at `position`, taken out for an edit below it (`null` stands in).
  package mutating func _take(at position: Int) -> JSONValue {
    var values = _takeValues()
    defer { _storage = .values(values) }
    let value = values[position]
    values[position] = .null
    return value
  }

  /// Writes the element taken at `position`, edited, back; or replaces the element.
  package mutating func _put(_ value: JSONValue, at position: Int) {
    self[position] = value
  }

  /// Inserts `value` before the element at `position` (at the end when it is `count`).
  package mutating func _insert(_ value: JSONValue, at position: Int) {
    insert(value, at: position)
  }

  /// Removes the element at `position` and returns it.
  package mutating func _remove(at position: Int) -> JSONValue {
    remove(at: position)
  }
}

// Reading with number text kept: a patch's values, and the values a patch reads out of a
// document (`copy`, a failed `test`), are written or shown as they were written, `-0` and
// `1E2` included, on the tree route as on the streaming one.

extension JSONObject {
  /// The member at `position`, a number keeping its text (see `_JSONStorage.value(of:)`).
  @usableFromInline
  package func _member(at position: Int, keepingText: Bool) -> Element {
    guard keepingText, let view = _view else { return self[position] }
    precondition(position >= 0 && position < view.count, "JSONObject index out of range")
    return (view.key(position), view.value(position, stride: 2, offset: 1, keepingText: true))
  }

  /// The value of `key`, a number keeping its text.
  @usableFromInline
  package func _value(forKey key: String, keepingText: Bool) -> JSONValue? {
    index(forKey: key).map { _member(at: $0, keepingText: keepingText).value }
  }
}

extension JSONArray {
  /// The element at `position`, a number keeping its text.
  @usableFromInline
  package func _element(at position: Int, keepingText: Bool) -> JSONValue {
    guard keepingText, let view = _view else { return self[position] }
    precondition(position >= 0 && position < view.count, "JSONArray index out of range")
    return view.value(position, stride: 1, keepingText: true)
  }
}
