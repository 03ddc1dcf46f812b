import JSONStreamCore
import JSONStreamParser

/// An event consumer that builds ``JSONValue``s: every complete top-level value lands in
/// ``values`` (one for a document; many with ``JSONParseOptions/allowMultipleValues``).
///
/// ```swift
/// var parser = JSONParser(handler: JSONTreeBuilder())
/// try parser.feed(chunk1)
/// try parser.feed(chunk2)
/// try parser.finish()
/// let value = parser.handler.value
/// ```
///
/// Each top-level array or object is built into one arena of fixed-size nodes and one of
/// bytes (RapidJSON's Document layout): a value costs an append, not an allocation, and the
/// ``JSONArray`` and ``JSONObject`` you read are views of that memory. Nesting is kept on
/// explicit stacks, so depth costs no call stack.
public struct JSONTreeBuilder: JSONEventHandler {
  /// What a repeated key in an object does.
  public var duplicateKeyPolicy: JSONDuplicateKeyPolicy

  /// The complete top-level values so far.
  public var values: [JSONValue] { _memory.current.values }

  /// The open containers, the arenas of the value being built and the values complete; shared
  /// between copies of the builder until one of them changes it.
  @usableFromInline package var _memory = _CopyOnWriteState(_BuilderState())

  /// - Parameter duplicateKeyPolicy: what a repeated key does; last wins by default.
  public init(duplicateKeyPolicy: JSONDuplicateKeyPolicy = .lastWins) {
    self.duplicateKeyPolicy = duplicateKeyPolicy
  }

  /// The first complete top-level value, if any.
  public var value: JSONValue? { _memory.current.values.first }

  /// Forgets the values and any partial one.
  public mutating func reset() {
    _memory = _CopyOnWriteState(_BuilderState())
  }

  /// Returns the complete values and forgets them (for streams of many documents).
  public mutating func takeValues() -> [JSONValue] {
    _memory.withUnique { state in
      defer { state.values = [] }
      return state.values
    }
  }

  // MARK: Events

  // Each event is the state's work, in place (see `_BuilderState`).

  /// Opens an object in the value being built.
  @inlinable @inline(__always)
  public mutating func startObject() { _memory.withUnique { $0.open(isObject: true) } }

  /// Opens an array in the value being built.
  @inlinable @inline(__always)
  public mutating func startArray() { _memory.withUnique { $0.open(isObject: false) } }

  /// Closes the innermost open array; a top-level array lands in ``values``.
  @inlinable @inline(__always)
  public mutating func endArray() { _memory.withUnique { $0.endArray() } }

  /// Closes the innermost open object; a top-level object lands in ``values``.
  @inlinable @inline(__always)
  public mutating func endObject() { _memory.withUnique { $0.endObject() } }

  /// Starts a member of the innermost open object. A repeated key does what ``duplicateKeyPolicy``
  /// says: under ``JSONDuplicateKeyPolicy/error`` it throws ``JSONValueError/duplicateKey(_:)``.
  @inlinable @inline(__always)
  public mutating func key(_ key: borrowing JSONString) throws {
    let policy = duplicateKeyPolicy
    try _memory.withUnique { try $0.key(key, policy: policy) }
  }

  /// Adds a string value; a top-level one lands in ``values``. Ill-formed UTF-8 is stored repaired
  /// (U+FFFD).
  @inlinable
  public mutating func string(_ value: borrowing JSONString) {
    _memory.withUnique { $0.string(value) }
  }

  /// Adds a number value, keeping its text; a top-level one lands in ``values``.
  @inlinable
  public mutating func number(_ value: borrowing JSONNumber) {
    _memory.withUnique { $0.number(value) }
  }

  /// A number from the binary reader: kept in its binary form (see `_JSONStorage`). Inlined
  /// into the reader (its only caller), where the form is known and the switch on it goes.
  @inlinable @inline(__always)
  public mutating func binaryNumber(_ value: JSONBinaryNumber) {
    _memory.withUnique { $0.push(_JSONNode.node(value)) }
  }

  /// Adds a Boolean value; a top-level one lands in ``values``.
  @inlinable
  public mutating func bool(_ value: Bool) {
    _memory.withUnique {
      $0.push(_Node(head: value ? _JSONNode.true : _JSONNode.false, payload: 0))
    }
  }

  /// Adds `null`; a top-level one lands in ``values``.
  @inlinable
  public mutating func null() {
    _memory.withUnique { $0.push(_Node(head: _JSONNode.null, payload: 0)) }
  }

  // MARK: Internals

  /// Bytes of tree memory the builder holds now (for the item streamer's bound).
  package var allocatedBytes: Int { _memory.current.arena.allocated }

  /// Makes the builder's memory its own once, for the events of the run.
  @inlinable public mutating func beginEventRun() { _memory.beginEventRun() }
  /// Ends the run that ``beginEventRun()`` began.
  @inlinable public mutating func endEventRun() { _memory.endEventRun() }
}

/// Errors of the tree builder. A producer reports them as located ``JSONParseError``s (see
/// ``JSONContentError``); only code that drives a builder by hand sees this type.
public enum JSONValueError: JSONContentError, Sendable, Equatable, CustomStringConvertible {
  /// An object repeated this key under ``JSONDuplicateKeyPolicy/error``.
  case duplicateKey(String)

  /// ``JSONParseError/Kind/duplicateKey``.
  public var parseErrorKind: JSONParseError.Kind {
    switch self {
    case .duplicateKey: return .duplicateKey
    }
  }

  /// What is wrong: `duplicate key "k" in an object`.
  public var message: String {
    switch self {
    case .duplicateKey(let key): return "duplicate key \"\(key)\" in an object"
    }
  }

  /// The ``message``.
  public var description: String { message }
}
