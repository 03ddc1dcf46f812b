import JSONStreamCore
import JSONStreamParser

/// A JSON value: what the tree builder makes of a document, and what you build in code with
/// literals or change in place.
///
/// ```swift
/// let order = try JSONValue(parsing: #"{"id": 7, "items": [{"sku": "A1", "qty": 2}]}"#)
/// order["items"]?[0]?["sku"]?.stringValue   // "A1"
/// order["id"]?.int64Value                   // 7
///
/// var copy = order                          // a value: changing it leaves `order` as it is
/// copy["items"]?[0]?["qty"] = 3
/// copy["note"] = "gift"
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
  ///
  /// Setting changes the value in place, through any depth of optional chaining
  /// (`value["a"]?["b"]?[0] = 3`): setting a member adds or replaces it, setting nil removes
  /// it (see ``JSONObject``). Setting a member of `null` makes it an
  /// object first. Setting a member of an array, a string, a number or a Boolean is a
  /// programming error, like an array index out of range, and stops the program; chaining
  /// through a missing member (`value["missing"]?["b"] = 1`) changes nothing. For data whose
  /// shape you do not know, ``set(_:at:)`` reports a mismatch as an error instead.
  @inlinable
  public subscript(key: String) -> JSONValue? {
    get {
      if case .object(let object) = self { return object[key] }
      return nil
    }
    _modify {
      // `if case`, not `switch`: a switch holds a copy of its subject while it runs, and the
      // object would then be copied on every change.
      if case .object(var object) = self {
        // Moved out while it changes, so that it is uniquely held and changes in place.
        self = .null
        defer { self = .object(object) }
        yield &object[key]
      } else if case .null = self {
        var object = JSONObject()
        defer { if !object.isEmpty { self = .object(object) } }
        yield &object[key]
      } else {
        var member: JSONValue? = nil
        yield &member
        precondition(member == nil, "JSONValue: setting a member of a value that is no object")
      }
    }
  }

  /// The element at `index`, when this is an array that long.
  ///
  /// Setting replaces the element in place, through any depth of optional chaining
  /// (`value["list"]?[0] = 3`). Setting an element out of range, setting nil, or setting an
  /// element of a value that is no array is a programming error and stops the program, as
  /// Swift's arrays do; use ``JSONArray``'s `append`, `insert` and `remove(at:)` to change the
  /// length. Chaining through a missing element (`value[9]?["a"] = 1`) changes nothing.
  @inlinable
  public subscript(index: Int) -> JSONValue? {
    get {
      if case .array(let array) = self, array.indices.contains(index) { return array[index] }
      return nil
    }
    _modify {
      if case .array(var array) = self, array.indices.contains(index) {
        self = .null
        defer { self = .array(array) }
        var element: JSONValue? = array[index]
        array[index] = .null
        defer {
          precondition(element != nil, "JSONValue: setting an array element to nil")
          array[index] = element ?? .null
        }
        yield &element
      } else {
        var element: JSONValue? = nil
        yield &element
        precondition(element == nil, "JSONValue: setting an element out of range or of no array")
      }
    }
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
