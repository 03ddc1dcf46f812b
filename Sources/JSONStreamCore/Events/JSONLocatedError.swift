/// A consumer's error, with where in the document it happened.
public struct JSONLocatedError: Error, CustomStringConvertible {
  /// The location of the event the consumer refused.
  public let path: [JSONPathComponent]
  /// What the consumer threw.
  public let underlying: any Error

  /// Wraps the error `underlying` that a consumer threw at `path`.
  public init(path: [JSONPathComponent], underlying: any Error) {
    self.path = path
    self.underlying = underlying
  }

  /// The location as a JSON Pointer.
  public var pointer: String { path.jsonPointer }

  /// `at POINTER: error`, with the path as a JSON Pointer (`at the root` for the empty path).
  public var description: String {
    "at \(pointer.isEmpty ? "the root" : pointer): \(underlying)"
  }
}
