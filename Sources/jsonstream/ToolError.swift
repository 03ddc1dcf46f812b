/// Failures that end the tool, each with its exit status.
enum ToolError: Error {
  /// Bad command line: exit 2.
  case usage(String)
  /// A file or stream could not be read or written: exit 3.
  case io(String)

  var exitStatus: Int32 {
    switch self {
    case .usage: return 2
    case .io: return 3
    }
  }

  var message: String {
    switch self {
    case .usage(let text), .io(let text): return text
    }
  }
}
