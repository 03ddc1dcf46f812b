// The text of a Double: the shortest that reads back as it.

/// The shortest text that reads back as `value`, as a JSON number (Swift's `description`,
/// which is shortest round-trip; `5.0` stays `5.0`, `1e-07` is valid JSON as is).
@usableFromInline
package func _shortestText(_ value: Double) -> String {
  value.description
}

/// Swift's shortest round-trip text, with the JSON5 spellings of the non-finite values.
@usableFromInline
package func _nonFiniteAwareText(_ value: Double) -> String {
  if value.isNaN { return "NaN" }
  if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
  return _shortestText(value)
}
