/// A consumer of JSON events: the one protocol every producer (the text parser, the binary
/// reader, value replay) talks to, and every consumer (tree builders, writers, filters)
/// implements.
///
/// Each method has a default that does nothing, so a handler implements only the events it
/// cares about. Methods may throw: the error aborts the parse and is rethrown unchanged by
/// ``JSONParser/feed(_:)-(UnsafeRawBufferPointer)`` and ``JSONParser/finish()``.
///
/// Strings, keys and numbers arrive as borrowed views (``JSONString``, ``JSONNumber``) that are
/// valid only during the call; copy what you keep.
///
/// ```swift
/// struct KeyCounter: JSONEventHandler {
///   var count = 0
///   mutating func key(_ key: borrowing JSONString) { count += 1 }
/// }
/// let counter = try JSONParser.parse(#"{"a": {"b": 1}}"#.utf8, handler: KeyCounter())
/// print(counter.count)  // 2
/// ```
///
/// To stop early, return `true` from ``isDone``: the parser checks it after every event and
/// stops delivering events once it is set.
public protocol JSONEventHandler {
  /// `{` — an object starts.
  mutating func startObject() throws
  /// `}` — the innermost open object ends.
  mutating func endObject() throws
  /// `[` — an array starts.
  mutating func startArray() throws
  /// `]` — the innermost open array ends.
  mutating func endArray() throws
  /// An object member's key. The member's value follows as the next event(s).
  mutating func key(_ key: borrowing JSONString) throws
  /// A string value.
  mutating func string(_ value: borrowing JSONString) throws
  /// A number value, with its exact text and conversions.
  mutating func number(_ value: borrowing JSONNumber) throws
  /// `true` or `false`.
  mutating func bool(_ value: Bool) throws
  /// A number a producer holds in binary form (``JSONBinaryReader``, or a replayed tree that
  /// was read from binary), before any text is made for it. A consumer that can keep it as it
  /// is (the tree builder, the binary writer) implements this; the default makes its JSON text
  /// and calls ``number(_:)``. A handler that passes events on passes this one on too, so that
  /// the consumer at the end of a chain gets it.
  mutating func binaryNumber(_ value: JSONBinaryNumber) throws
  /// `null`.
  mutating func null() throws
  /// Called by a producer (a parser's `feed` and `finish`, a binary reader's `feed`, a replay
  /// of a tree or of Foundation objects) before a run of events that no other code can watch
  /// or interleave with, and ``endEventRun()`` after it, also when the run throws. No copy of
  /// the handler can be made in between, so a handler whose state copies share until one
  /// changes it (copy on write) can check that once here instead of at every event. A handler
  /// that passes events on passes these on too. The defaults do nothing.
  mutating func beginEventRun()
  /// The run that ``beginEventRun()`` began is over.
  mutating func endEventRun()
  /// Asked right after ``startObject()`` and ``startArray()``: `true` has the parser skip that
  /// container's contents — still checked as JSON, but not decoded, not kept and not delivered
  /// (but held to the same limits as delivered input) — and deliver its end event next.
  /// Filters use it for subtrees they have no use for; the default is `false`. Only asked of
  /// handlers whose ``canSkipContainers`` is true.
  var skipsContainerContents: Bool { get }
  /// `true` for a handler type that may ask to skip (``skipsContainerContents``): the parser
  /// leaves skipping out of its code for the others. The default is `false`.
  static var canSkipContainers: Bool { get }
  /// `true` once the handler has what it needs; the parser then stops and
  /// ``JSONParser/feed(_:)-(UnsafeRawBufferPointer)`` returns ``JSONParseStatus/stopped``. Checked
  /// after every event.
  var isDone: Bool { get }
}

extension JSONEventHandler {
  /// Ignores the start of an object.
  @inlinable public mutating func startObject() throws {}
  /// Ignores the end of an object.
  @inlinable public mutating func endObject() throws {}
  /// Ignores the start of an array.
  @inlinable public mutating func startArray() throws {}
  /// Ignores the end of an array.
  @inlinable public mutating func endArray() throws {}
  /// Ignores the key.
  @inlinable public mutating func key(_ key: borrowing JSONString) throws {}
  /// Ignores the string.
  @inlinable public mutating func string(_ value: borrowing JSONString) throws {}
  /// Ignores the number.
  @inlinable public mutating func number(_ value: borrowing JSONNumber) throws {}
  /// Ignores the Boolean.
  @inlinable public mutating func bool(_ value: Bool) throws {}
  /// Makes the number's JSON text and passes it to ``JSONEventHandler/number(_:)``.
  @inlinable public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    try value.withJSONNumber { try number($0) }
  }
  /// Ignores `null`.
  @inlinable public mutating func null() throws {}
  /// Does nothing.
  @inlinable public mutating func beginEventRun() {}
  /// Does nothing.
  @inlinable public mutating func endEventRun() {}
  /// `false`: the handler never asks the producer to stop.
  @inlinable public var isDone: Bool { false }
  /// `false`: the handler takes every container's contents.
  @inlinable public var skipsContainerContents: Bool { false }
  /// `false`: the handler never asks to skip a container's contents.
  @inlinable public static var canSkipContainers: Bool { false }
}
