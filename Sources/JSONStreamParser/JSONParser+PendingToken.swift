// The token the input so far ends inside, as far as it was read: what a snapshot of an
// incomplete document (see JSONTreeBuilder+Snapshot.swift) may show of it.

import JSONStreamCore

extension JSONParser {
  /// The string (or key) or number token the input so far ends inside, or nil when it ends
  /// elsewhere (between tokens, inside a literal or a skipped container). Its decoded bytes
  /// so far are `scratch`: a reference to the parser's buffer, not a copy, so read it before
  /// the next `feed`.
  package var pendingToken: (isString: Bool, isKey: Bool, start: Int, scratch: [UInt8])? {
    // A token in a skipped container is not kept, so scratch does not hold it.
    guard !_skipping && _tokenInScratch else { return nil }
    switch _token {
    case .string: return (true, _stringIsKey, _tokenStart, _scratch)
    case .number: return (false, false, _tokenStart, _scratch)
    default: return nil
    }
  }
}
