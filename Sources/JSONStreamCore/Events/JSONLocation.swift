/// Where in JSON input something is: the byte offset, line and column, and the path of the
/// value when it is known. Every error about input carries one (``JSONParseError/location``,
/// and the Foundation module's errors).
///
/// Lines and columns count from 1. A line ends at `\n`, `\r` or `\r\n`; a column counts
/// characters (Unicode scalars), not bytes. `offset` counts bytes from the start of the input,
/// over all chunks. Binary input has no lines: its line and column are 0.
public struct JSONLocation: Sendable, Hashable, CustomStringConvertible {
  /// Byte offset from the start of the input, from 0.
  public var offset: Int
  /// Line of `offset`, from 1; 0 for binary input.
  public var line: Int
  /// Column of `offset` in characters, from 1; 0 for binary input.
  public var column: Int
  /// Where in the document, outermost first, when it is known: for a handler's error, when a
  /// ``JSONPathTracker`` wrapped it (see ``JSONContentError``). Nil otherwise.
  public var path: [JSONPathComponent]?

  /// A location at byte `offset`, `line` and `column`, with the value's path when it is known.
  public init(offset: Int, line: Int, column: Int, path: [JSONPathComponent]? = nil) {
    self.offset = offset
    self.line = line
    self.column = column
    self.path = path
  }

  /// `line L, column C`, or `byte N` for binary input; with the path as a JSON Pointer after it
  /// when there is one (`line 1, column 9 (at /a)`).
  public var description: String {
    let at = path.map { " (at \($0.jsonPointer.isEmpty ? "the root" : $0.jsonPointer))" } ?? ""
    return line == 0 ? "byte \(offset)\(at)" : "line \(line), column \(column)\(at)"
  }
}
