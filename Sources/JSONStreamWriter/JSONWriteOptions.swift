import JSONStreamCore
import JSONStreamValue

/// How a ``JSONWriter`` formats its output. The default is compact.
///
/// ```swift
/// var options = JSONWriteOptions.pretty     // 2-space indent
/// options.sortKeys = true
/// options.escapeUnicode = true              // "é" → "\u00e9"
/// ```
public struct JSONWriteOptions: Sendable, Equatable {
  /// Spaces per nesting level for pretty output; nil for compact output (the default). 0
  /// breaks lines without indenting them. At most ``maxIndent``; anything outside
  /// `0...maxIndent` is invalid (see ``validate()``).
  public var indent: Int? = nil

  /// Write object members sorted by key (by Unicode code point, which is UTF-8 byte order);
  /// members with the same key keep their order. The writer then holds an object's output
  /// until it ends (and, while it puts the members in order, a second copy of them): memory
  /// grows with the largest object, not with the document.
  public var sortKeys = false

  /// Write every non-ASCII character as `\uXXXX` (a surrogate pair above U+FFFF), so the
  /// output is pure ASCII (JSONKit's EscapeUnicode).
  public var escapeUnicode = false

  /// Write `/` as `\/` (JSONKit's EscapeForwardSlashes, for `<\/script>` and ASP.NET dates).
  public var escapeSlash = false

  /// Accept several top-level values, each after a newline (NDJSON when compact).
  public var allowMultipleValues = false

  /// Write NaN and the infinities as `NaN`, `Infinity`, `-Infinity` instead of refusing them.
  /// Not JSON: for debugging output and JSON5-style readers only.
  public var allowNonFiniteNumbers = false

  /// Compact output.
  public init() {}

  /// Compact output: no whitespace outside strings.
  public static var compact: JSONWriteOptions { JSONWriteOptions() }

  /// Pretty output with a 2-space indent.
  public static var pretty: JSONWriteOptions {
    var options = JSONWriteOptions()
    options.indent = 2
    return options
  }

  /// The largest valid ``indent``: wider serves no reader, and the bound keeps the spaces of
  /// a deep line (indent × depth) far from overflowing.
  public static var maxIndent: Int { 1024 }

  /// Checks the options: ``indent`` must be nil or in `0...maxIndent`. Setters cannot throw,
  /// so a writer made with invalid options fails instead: its first value, key, end or
  /// `finish()` throws this error, before anything is written. Call this to find out sooner.
  ///
  /// - Throws: ``JSONWriterError`` of kind ``JSONWriterError/Kind/invalidOption``, naming the
  ///   option and its value.
  public func validate() throws {
    if let error = _validationError { throw error }
  }

  /// The error ``validate()`` throws, or nil.
  @usableFromInline
  var _validationError: JSONWriterError? {
    if let indent, indent < 0 || indent > Self.maxIndent {
      return JSONWriterError(
        kind: .invalidOption,
        message: "invalid option: indent is \(indent); it must be nil or 0...\(Self.maxIndent)")
    }
    return nil
  }
}

/// An event a ``JSONWriter`` refused, so that it never writes invalid JSON.
public struct JSONWriterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What the writer refused: an event out of place, a value JSON cannot hold, or invalid
  /// options.
  public enum Kind: Sendable, Equatable {
    /// A key outside an object, or where a value is due.
    case misplacedKey
    /// A value where an object key is due.
    case valueWhereKeyExpected
    /// `endObject`/`endArray` that does not close the innermost container (or nothing is
    /// open), or an object closed right after a key.
    case unbalancedEnd
    /// A second top-level value without ``JSONWriteOptions/allowMultipleValues``.
    case multipleTopLevelValues
    /// NaN or an infinity.
    case nonFiniteNumber
    /// A string or key that is not well-formed UTF-8.
    case invalidUTF8
    /// `finish()` with containers still open or no value at all.
    case incompleteDocument
    /// In the binary format: a reference to a shared value not written to its end, or a
    /// shared-value mark not followed by a value.
    case invalidReference
    /// The writer's options are invalid (see ``JSONWriteOptions/validate()``); the message
    /// names the option and its value.
    case invalidOption
  }

  /// What went wrong.
  public let kind: Kind
  /// A readable explanation, e.g. `the key is not well-formed UTF-8`.
  public let message: String

  /// An error of `kind`, explained by `message`.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}
