// Literals, so values can be written in code as they read in JSON:
// `let v: JSONValue = ["name": "x", "tags": ["a", "b"], "n": 1.5, "ok": true, "none": nil]`.

import JSONStreamCore
import JSONStreamParser

extension JSONValue: ExpressibleByNilLiteral {
  /// `null`, from the literal `nil`.
  @inlinable public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  /// A Boolean value, from `true` or `false`.
  @inlinable public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  /// A number value, from an integer literal.
  @inlinable public init(integerLiteral value: Int64) { self = .number(Number(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  /// A number value, from a floating-point literal.
  @inlinable public init(floatLiteral value: Double) { self = .number(Number(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
  /// A string value, from a string literal.
  @inlinable public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  /// An array value of `elements`, in order.
  @inlinable public init(arrayLiteral elements: JSONValue...) { self = .array(JSONArray(elements)) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// An object value of `elements`, in order; a repeated key keeps its first position and its last
  /// value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// An object of `elements`, in order; a repeated key keeps its first position and its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements.map { (key: $0.0, value: $0.1) })
  }
}

extension JSONValue {
  /// A number value from an integer.
  @inlinable public init(_ value: Int) { self = .number(Number(value)) }
  /// A number value from a double (writers refuse NaN and infinities).
  @inlinable public init(_ value: Double) { self = .number(Number(value)) }
  /// A string value.
  @inlinable public init(_ value: String) { self = .string(value) }
  /// A boolean value.
  @inlinable public init(_ value: Bool) { self = .bool(value) }
}
