// What a producer tells its caller after a chunk.

/// What ``JSONParser/feed(_:)-(UnsafeRawBufferPointer)`` tells the caller.
public enum JSONParseStatus: Sendable, Equatable {
  /// All input so far is consumed; feed more, or call ``JSONParser/finish()``.
  case needsMoreInput
  /// The handler's ``JSONEventHandler/isDone`` became true; later input is ignored.
  case stopped
  /// The top-level value is complete and ``JSONParseOptions/allowTrailingText`` is on; what
  /// follows is ignored. ``JSONParser/offset`` is where the value ended.
  case finished
}
