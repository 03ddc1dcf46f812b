// A JSONValue as JSON text: through a writer, in one pass for arrays and objects (see
// JSONWriter+Tree.swift), or as a replay of events.

import JSONStreamCore
import JSONStreamValue

extension JSONValue {
  /// Writes this value with `writer`: the same output as ``replay(into:)`` into it, faster for
  /// arrays and objects, which are written in one pass.
  ///
  /// ```swift
  /// var writer = JSONWriter(sink: JSONChunkSink { try file.write(contentsOf: $0) })
  /// try value.write(to: &writer)
  /// try writer.finish()
  /// ```
  public func write<Sink>(to writer: inout JSONWriter<Sink>) throws {
    switch self {
    case .array, .object:
      guard !writer.options.sortKeys else { return try replay(into: &writer) }
      // Parsed containers in one pass each; containers changed in code as events.
      try _replay(into: &writer) { node, writer in try writer._writeTree(node) }
    default:
      try replay(into: &writer)
    }
  }

  /// The value as JSON text (UTF-8 bytes).
  ///
  /// - Throws: ``JSONWriterError`` for NaN or infinite numbers (unless the options allow them).
  public func jsonBytes(options: JSONWriteOptions = .compact) throws -> [UInt8] {
    var writer = JSONWriter(options: options)
    try write(to: &writer)
    try writer.finish()
    return writer.bytes
  }

  /// The value as JSON text.
  public func jsonString(options: JSONWriteOptions = .compact) throws -> String {
    String(decoding: try jsonBytes(options: options), as: UTF8.self)
  }
}

extension JSONValue: CustomStringConvertible {
  /// Compact JSON (non-finite numbers appear as `NaN`/`Infinity`, which JSON lacks).
  public var description: String {
    var options = JSONWriteOptions()
    options.allowNonFiniteNumbers = true
    return (try? jsonString(options: options)) ?? "<invalid>"
  }
}

extension JSONObject: CustomStringConvertible {
  /// The object as compact JSON, as `JSONValue.description` writes it.
  public var description: String { JSONValue.object(self).description }
}

extension JSONArray: CustomStringConvertible {
  /// The array as compact JSON, as `JSONValue.description` writes it.
  public var description: String { JSONValue.array(self).description }
}
