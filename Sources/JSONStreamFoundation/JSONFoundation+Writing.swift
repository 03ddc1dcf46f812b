import Foundation
import JSONStream

extension JSONFoundation {
  /// JSON text for a Foundation tree (NSDictionary/`[String: Any]`, NSArray/`[Any]`,
  /// NSString/`String`, NSNumber and Swift numbers, `Bool`, NSNull): replay →
  /// ``JSONStream/JSONWriter``. Like `JSONSerialization.data(withJSONObject:options:)`, with the
  /// writer's options.
  ///
  /// ```swift
  /// let data = try JSONFoundation.data(withJSONObject: ["b": 1, "a": [true, NSNull()]],
  ///                                    options: .pretty)
  /// ```
  ///
  /// - Throws: ``JSONFoundationError`` — never a crash — for a non-string key, an unsupported
  ///   type, NaN or an infinity (unless the options allow them), or a tree that contains itself.
  public static func data(withJSONObject object: Any, options: JSONWriteOptions = .compact) throws
    -> Data
  {
    Data(try bytes(withJSONObject: object, options: options))
  }

  /// The same as ``data(withJSONObject:options:)``, as bytes.
  public static func bytes(withJSONObject object: Any, options: JSONWriteOptions = .compact) throws
    -> [UInt8]
  {
    var writer = JSONWriter(options: options)
    try write(object, to: &writer)
    try writer.finish()
    return writer.bytes
  }

  /// Writes a Foundation tree to any writer (a file or socket sink, in bounded chunks).
  /// Keys are sorted when the writer's options ask for it.
  public static func write<Sink: JSONOutputSink>(_ object: Any, to writer: inout JSONWriter<Sink>)
    throws
  {
    do {
      try replay(object, into: &writer, sortedKeys: writer.options.sortKeys)
    } catch let error as JSONWriterError where error.kind == .nonFiniteNumber {
      throw JSONFoundationError(kind: .nonFiniteNumber, message: error.message)
    }
  }
}
