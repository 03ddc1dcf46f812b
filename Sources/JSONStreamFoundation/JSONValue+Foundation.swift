// A JSONValue to and from a Foundation tree (what JSONSerialization reads and writes), in one
// call each, through events: no JSON text in between.

import Foundation
import JSONStream

extension JSONValue {
  /// The value of a Foundation tree: what `JSONSerialization.jsonObject(with:options:)`
  /// returns, or any tree `JSONSerialization.data(withJSONObject:)` accepts (see
  /// ``JSONFoundation/replay(_:into:sortedKeys:)`` for the types).
  ///
  /// ```swift
  /// let value = try JSONValue(foundationObject: ["id": 7, "tags": ["a", "b"]])
  /// ```
  ///
  /// A dictionary's members keep its enumeration order, unless `sortedKeys`.
  ///
  /// - Throws: ``JSONFoundationError`` with the path of the first object that has no JSON form
  ///   (a non-string key, `Date`, NaN, a container that contains itself).
  public init(foundationObject object: Any, sortedKeys: Bool = false) throws {
    var builder = JSONTreeBuilder()
    try JSONFoundation.replay(object, into: &builder, sortedKeys: sortedKeys)
    // A replay delivers one value, and a builder under `.lastWins` throws nothing.
    self = builder.value!
  }

  /// The value as the Foundation tree `JSONSerialization.jsonObject(with:options:)` returns
  /// for its JSON text (see ``JSONFoundationBuilder``): `[String: Any]`, `[Any]`, `String`,
  /// `NSNumber` and `NSNull`, or the mutable containers and leaves `options` ask for. A
  /// scalar is returned on its own, as with `.fragmentsAllowed`.
  ///
  /// ```swift
  /// let object = try value.foundationObject() as? [String: Any]
  /// ```
  ///
  /// - Throws: ``JSONFoundationError`` for a number no Foundation type holds (`1e400`).
  public func foundationObject(options: JSONFoundationReadingOptions = []) throws -> Any {
    var builder = JSONFoundationBuilder(options: options.union(.fragmentsAllowed))
    try replay(into: &builder)
    return builder.value!
  }
}
