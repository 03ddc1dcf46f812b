import Foundation
import JSONStream

/// One-call conversions between JSON and Foundation trees, in the manner of `JSONSerialization`.
///
/// ```swift
/// let tree = try JSONFoundation.object(with: data)          // like JSONSerialization.jsonObject
/// try JSONFoundation.replay(tree, into: &writer)            // the tree back as events
/// ```
public enum JSONFoundation {
  /// Parses a whole JSON text into a Foundation tree, like
  /// `JSONSerialization.jsonObject(with:options:)`: see ``JSONFoundationBuilder`` for the objects
  /// made.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8 JSON text.
  ///   - options: mutable containers or leaves, and whether a top-level scalar is allowed.
  ///   - parseOptions: the parser's strictness and limits (strict RFC 8259 by default). With
  ///     ``JSONStream/JSONParseOptions/allowMultipleValues``, the result is the first value; use
  ///     ``objects(with:options:parseOptions:)`` for all of them.
  /// - Throws: ``JSONStream/JSONParseError`` for malformed input; ``JSONFoundationError`` (with its
  ///   ``JSONFoundationError/location``) for a fragment that is not allowed or a number out of
  ///   range.
  public static func object<Bytes: Sequence<UInt8>>(
    with bytes: Bytes, options: JSONFoundationReadingOptions = [],
    parseOptions: JSONParseOptions = JSONParseOptions()
  ) throws -> Any {
    try firstObject(bytes, options: options, parseOptions: parseOptions)
  }

  /// ``object(with:options:parseOptions:)`` for `Data`.
  public static func object(
    with data: Data, options: JSONFoundationReadingOptions = [],
    parseOptions: JSONParseOptions = JSONParseOptions()
  ) throws -> Any {
    // Not left to the generic overload: called from another module, that one runs
    // unspecialized, and so does the parser in it (building twitter.json's tree took 16% more
    // instructions). Here `Data` is known, and the parser is specialized for it.
    try firstObject(data, options: options, parseOptions: parseOptions)
  }

  private static func firstObject<Bytes: Sequence<UInt8>>(
    _ bytes: Bytes, options: JSONFoundationReadingOptions, parseOptions: JSONParseOptions
  ) throws -> Any {
    let parser = try parse(bytes, options: options, parseOptions: parseOptions)
    guard let first = parser.handler.values.first else {
      // Only under allowMultipleValues; otherwise the parser reports the empty input itself.
      throw JSONParseError(
        kind: .emptyInput, offset: parser.offset, line: parser.line, column: parser.column,
        message: "expected a JSON value, found the end of the input")
    }
    return first
  }

  /// Every top-level value of the input: one for a JSON document; any number (zero included)
  /// with ``JSONStream/JSONParseOptions/allowMultipleValues`` (NDJSON, concatenated JSON).
  public static func objects<Bytes: Sequence<UInt8>>(
    with bytes: Bytes, options: JSONFoundationReadingOptions = [],
    parseOptions: JSONParseOptions = JSONParseOptions()
  ) throws -> [Any] {
    try parse(bytes, options: options, parseOptions: parseOptions).handler.values
  }

  private static func parse<Bytes: Sequence<UInt8>>(
    _ bytes: Bytes, options: JSONFoundationReadingOptions, parseOptions: JSONParseOptions
  ) throws -> JSONParser<JSONFoundationBuilder> {
    var parser = JSONParser(handler: JSONFoundationBuilder(options: options), options: parseOptions)
    do {
      try parser.feed(bytes)
      try parser.finish()
    } catch let error as JSONFoundationError {
      throw error.positioned(by: parser)
    }
    return parser
  }
}
