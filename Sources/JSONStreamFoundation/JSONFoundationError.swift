import JSONStream

/// Why a JSON document could not become a Foundation tree, or a Foundation tree could not become
/// events.
///
/// Errors of the input's syntax are ``JSONStream/JSONParseError``s; this type covers what is valid
/// JSON but not acceptable here (a top-level fragment without
/// ``JSONFoundationReadingOptions/fragmentsAllowed``, a number no `NSNumber` holds) and, for
/// ``JSONFoundation/replay(_:into:sortedKeys:)``, objects that have no JSON form.
///
/// `description` reads like ``JSONStream/JSONParseError``'s when the position is known:
/// `line 1, column 1: a top-level string is not allowed without .fragmentsAllowed`.
public struct JSONFoundationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// The top-level value is a string, number, boolean or null, and fragments are not allowed.
    case fragmentNotAllowed
    /// A number too large for every Foundation number type (`1e400`), as `JSONSerialization`
    /// rejects it.
    case numberNotRepresentable
    /// Replay: a dictionary key that is not a string.
    case nonStringKey
    /// Replay: an object with no JSON form (`Date`, `Data`, an arbitrary class or struct, …).
    case unsupportedType
    /// Replay: NaN or an infinity, which JSON numbers cannot express.
    case nonFiniteNumber
    /// Replay: an `NSArray` or `NSDictionary` that contains itself.
    case cyclicReference
    /// ``JSONFileReader``: the file could not be opened or read; `code` is the system's error
    /// number, and the message names the file and the reason.
    case unreadableFile(code: Int32)
  }

  /// The old name of ``JSONStream/JSONLocation``, which every error about input now shares.
  @available(*, deprecated, renamed: "JSONLocation")
  public typealias Position = JSONLocation

  /// What went wrong.
  public var kind: Kind
  /// A readable explanation, without the position or path.
  public var message: String
  /// Where in the JSON text, when the error comes from parsing and the parser is known (see
  /// ``positioned(by:)``): where the parser was when the builder threw, which is just past the
  /// offending token (or at its start, for a number the end of input completes).
  public var location: JSONLocation?
  /// Replay errors: where in the Foundation object, as a JSONPath, e.g. `$["users"][3]["born"]`.
  /// It is not a location in JSON text, which a replayed object does not have.
  public var path: String?

  /// An error of `kind`, explained by `message`, with its location in JSON text or its path in a
  /// Foundation object when known.
  public init(kind: Kind, message: String, location: JSONLocation? = nil, path: String? = nil) {
    self.kind = kind
    self.message = message
    self.location = location
    self.path = path
  }

  /// The old name of ``location``.
  @available(*, deprecated, renamed: "location")
  public var position: JSONLocation? {
    get { location }
    set { location = newValue }
  }

  /// The old spelling of ``init(kind:message:location:path:)``.
  @available(*, deprecated, renamed: "init(kind:message:location:path:)")
  public init(kind: Kind, message: String, position: JSONLocation?, path: String? = nil) {
    self.init(kind: kind, message: message, location: position, path: path)
  }

  /// This error with the location of `parser`, which has just failed with it: the parser
  /// remembers where it was when the handler threw.
  ///
  /// ```swift
  /// do { try parser.feed(chunk) } catch let error as JSONFoundationError {
  ///   throw error.positioned(by: parser)
  /// }
  /// ```
  public func positioned<Handler>(by parser: JSONParser<Handler>) -> JSONFoundationError {
    var copy = self
    copy.location = JSONLocation(offset: parser.offset, line: parser.line, column: parser.column)
    return copy
  }

  /// `line L, column C: message`, or `message at path`, or just the message.
  public var description: String {
    var text = message
    if let path { text += " at \(path)" }
    if let location { text = "\(location): " + text }
    return text
  }
}
