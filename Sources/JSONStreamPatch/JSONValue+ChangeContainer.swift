// Every change the pointer and patch code makes to a container goes through the containers'
// package edits (`_take`, `_put`, `_remove`, … in the value module) or, for the container
// itself, through `_changeContainer`.

import JSONStreamCore
import JSONStreamValue

extension JSONValue {
  /// Calls `object` or `array` with this value's container moved out (`null` stands in, so
  /// that it is uniquely held and changes in place), then puts it back; calls `other` with
  /// any other value. Matched with `if case`: a `switch` holds a copy of its subject while it
  /// runs, and the container would be copied on every change.
  mutating func _changeContainer<Result, Failure: Error>(
    object: (inout JSONObject) throws(Failure) -> Result,
    array: (inout JSONArray) throws(Failure) -> Result,
    other: (JSONValue) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if case .object(var container) = self {
      self = .null
      defer { self = .object(container) }
      return try object(&container)
    }
    if case .array(var container) = self {
      self = .null
      defer { self = .array(container) }
      return try array(&container)
    }
    return try other(self)
  }
}
