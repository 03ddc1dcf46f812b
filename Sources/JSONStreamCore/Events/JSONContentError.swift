/// An error a handler throws because of what the input says, not because of its own state: a
/// repeated key under ``JSONDuplicateKeyPolicy/error`` is the library's one case.
///
/// A producer that knows where the current event is (``JSONParser``, ``JSONBinaryReader``)
/// reports it as a ``JSONParseError`` of ``parseErrorKind`` at that event, like its own errors,
/// so the same input gives the same located error whichever consumer refused it, and however
/// it is wrapped (``JSONPathTracker`` adds the path). Conform your own handler's errors to it
/// to have them reported the same way.
public protocol JSONContentError: Error {
  /// The kind of the ``JSONParseError`` it becomes.
  var parseErrorKind: JSONParseError.Kind { get }
  /// What is wrong, without the position: the parse error's message.
  var message: String { get }
}

extension JSONParseError {
  /// `error` as a parse error at this position when it is a ``JSONContentError``, also inside a
  /// ``JSONLocatedError`` (whose path it keeps); nil for any other error.
  @usableFromInline
  package init?(content error: any Error, offset: Int, line: Int, column: Int) {
    var path: [JSONPathComponent]? = nil
    var error = error
    if let located = error as? JSONLocatedError {
      path = located.path
      error = located.underlying
    }
    guard let content = error as? any JSONContentError else { return nil }
    self.init(
      kind: content.parseErrorKind, offset: offset, line: line, column: column,
      message: content.message, path: path)
  }
}
