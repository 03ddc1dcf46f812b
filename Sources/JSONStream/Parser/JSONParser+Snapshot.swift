/// What a snapshot of an incomplete document may show besides complete values and open
/// containers (which it always shows, closed): like partial-json's `Allow` flags and jiter's
/// partial modes.
public struct JSONSnapshotOptions: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A string value the input ends inside, with the characters so far (jiter's
  /// "trailing-strings"). A key the input ends inside never shows: its member is left out.
  public static let partialStrings = JSONSnapshotOptions(rawValue: 1 << 0)
  /// A number the input ends inside, when its text so far is a number (`12`, `1.5`; not `1.`
  /// or `-`). Off by default: `12` may yet become `123`.
  public static let partialNumbers = JSONSnapshotOptions(rawValue: 1 << 1)
}

extension JSONParser where Handler == JSONTreeBuilder {
  /// The best value of the document so far: open strings, arrays and objects closed; an
  /// incomplete key (and its member), number or literal left out. The complete value once
  /// the document is complete (with ``JSONParseOptions/allowMultipleValues``, the value in
  /// progress, or the last complete one); nil while nothing can be shown yet.
  ///
  /// Made for following a document as it streams in — an LLM's tool-call arguments, a slow
  /// API — after every chunk:
  ///
  /// ```swift
  /// var parser = JSONParser(handler: JSONTreeBuilder())
  /// for try await delta in deltas {
  ///   try parser.feed(delta)
  ///   render(parser.snapshot())           // {"city":"Par"} … {"city":"Paris","days":[1]}
  /// }
  /// ```
  ///
  /// Snapshots share what earlier ones built: a snapshot costs what was parsed since the last
  /// one plus a little per open container, so a snapshot after every chunk of an N-byte
  /// stream costs O(N) in all, not O(N²) as parsing the text so far again each time would.
  /// Each snapshot is an independent, immutable value.
  public mutating func snapshot(including options: JSONSnapshotOptions = .partialStrings)
    -> JSONValue?
  {
    var pending: (isString: Bool, isKey: Bool, start: Int)? = nil
    // A token in a skipped container is not kept, so scratch does not hold it.
    if !_skipping && _token == .string && _tokenInScratch {
      pending = (true, _stringIsKey, _tokenStart)
    } else if !_skipping && _token == .number && _tokenInScratch {
      pending = (false, false, _tokenStart)
    }
    // A reference to the scratch bytes (not a copy): nothing changes them meanwhile.
    let scratch = _scratch
    let value = scratch.withUnsafeBufferPointer { bytes in
      handler._snapshot(
        pending: pending.map {
          _PendingToken(isString: $0.isString, isKey: $0.isKey, bytes: bytes, start: $0.start)
        }, options: options)
    }
    return value ?? handler.values.last
  }
}

extension JSONTreeBuilder {
  @usableFromInline
  mutating func _snapshot(pending: _PendingToken?, options: JSONSnapshotOptions) -> JSONValue? {
    _state().pointee.snapshot(
      pending: pending, partialNumbers: options.contains(.partialNumbers),
      partialStrings: options.contains(.partialStrings))
  }

  /// Nodes and bytes snapshots have written so far (for tests of their cost).
  var _snapshotWork: Int { _memory.state.pointee.snapshots.work }
}
