import JSONStreamCore
import JSONStreamParser

/// An immutable JSON value: what the tree builder makes of a document, and what you build in
/// code with literals.
///
/// ```swift
/// let order = try JSONValue(parsing: #"{"id": 7, "items": [{"sku": "A1", "qty": 2}]}"#)
/// order["items"]?[0]?["sku"]?.stringValue   // "A1"
/// order["id"]?.int64Value                   // 7
///
/// let reply: JSONValue = ["ok": true, "ids": [1, 2, 3], "note": nil]
/// print(reply)                              // {"ok":true,"ids":[1,2,3],"note":null}
/// ```
///
/// Numbers keep their exact value (see ``Number``), and a parsed number is written back as it
/// was written; objects keep member order and look keys up in constant time when large (see
/// ``JSONObject``). A parsed document lives in one block of memory that its arrays and
/// objects view (see ``JSONTreeBuilder``). Equality follows JSON's meaning: objects
/// compare as unordered maps, and `1`, `1.0` and `1e0` are the same number.
public enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, with its exact value.
  case number(Number)
  /// A string.
  case string(String)
  /// An array.
  case array(JSONArray)
  /// An object.
  case object(JSONObject)
}

// MARK: - Typed access

extension JSONValue {
  /// The member named `key`, when this is an object that has it.
  @inlinable
  public subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The element at `index`, when this is an array that long.
  @inlinable
  public subscript(index: Int) -> JSONValue? {
    if case .array(let array) = self, array.indices.contains(index) { return array[index] }
    return nil
  }

  /// `true` for `null`.
  @inlinable
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The Boolean, when this is `true` or `false`.
  @inlinable
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The string, when this is a string.
  @inlinable
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number, when this is a number.
  @inlinable
  public var numberValue: Number? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The number as `Int64` when it is an integer that fits.
  @inlinable
  public var int64Value: Int64? { numberValue?.int64 }

  /// The number as `Int` when it is an integer that fits.
  @inlinable
  public var intValue: Int? { numberValue?.int64.flatMap { Int(exactly: $0) } }

  /// The number as the nearest `Double`.
  @inlinable
  public var doubleValue: Double? { numberValue?.double }

  /// The array, when this is an array.
  @inlinable
  public var arrayValue: JSONArray? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The object, when this is an object.
  @inlinable
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }
}
