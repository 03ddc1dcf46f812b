import JSONStreamCore
import JSONStreamParser

extension JSONValue {
  /// Parses one JSON document (bytes of any contiguous or other sequence).
  ///
  /// ```swift
  /// let value = try JSONValue(parsing: data)                 // [UInt8], Data, ArraySlice…
  /// let strict = try JSONValue(parsing: text, duplicateKeys: .error)
  /// ```
  ///
  /// - Throws: ``JSONParseError``, including ``JSONParseError/Kind/duplicateKey`` (at the
  ///   repeated key) under ``JSONDuplicateKeyPolicy/error``, and
  ///   ``JSONParseError/Kind/invalidOption`` for ``JSONParseOptions/allowMultipleValues``.
  @inlinable  // so the parser is specialized for the tree builder at the call site
  public init<Bytes: Sequence>(
    parsing bytes: Bytes, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) throws where Bytes.Element == UInt8 {
    if let error = options.oneDocumentError(
      "JSONValue(parsing:)", instead: "read several with JSONDocumentReader or JSONTreeBuilder")
    {
      throw error
    }
    var parser = JSONParser(
      handler: JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys), options: options)
    try parser.feed(bytes)
    try parser.finish()
    self = parser.handler.value!
  }

  /// Parses one JSON document from a string.
  public init(
    parsing text: String, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) throws {
    try self.init(parsing: text.utf8, options: options, duplicateKeys: duplicateKeys)
  }
}
