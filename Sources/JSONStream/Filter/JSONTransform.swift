/// Rewrites events on their way to another consumer: rename keys, drop members or elements,
/// replace values, or compute new values from old ones — while a stream of any size is copied
/// through (parser → transform → writer).
///
/// ```swift
/// var redact = JSONTransform(
///   rules: [
///     .replace(try JSONPath("$..password"), with: "***"),
///     .rename(try JSONPath("$..userName"), to: "user_name"),
///     .drop(try JSONPath("$..internal")),
///     .map(try JSONPath("$.items[*].price")) { price in .number(.init(price.doubleValue! * 1.2)) },
///   ],
///   downstream: JSONWriter())
/// ```
///
/// Rules select values with ``JSONPath``; when several select the same value, the first rule
/// in the list applies. Values inside a value a rule applies to are not looked at again. A
/// ``Rule/map(_:_:)`` rule builds the selected value (only it) in memory to call its closure.
public struct JSONTransform<Downstream: JSONEventHandler>: JSONEventHandler {
  /// A rewrite of the values a path selects.
  public enum Rule {
    /// Removes the value: an object member with its key, an array element from its array.
    case drop(JSONPath)
    /// Gives object members a new key (array elements, which have none, pass unchanged).
    case rename(JSONPath, to: String)
    /// Writes `value` instead.
    case replace(JSONPath, with: JSONValue)
    /// Writes what the closure returns for the value, or drops it for nil.
    case map(JSONPath, (JSONValue) throws -> JSONValue?)

    var path: JSONPath {
      switch self {
      case .drop(let path), .rename(let path, _), .replace(let path, _), .map(let path, _):
        return path
      }
    }
  }

  public var downstream: Downstream
  public let rules: [Rule]

  private var tracker: _SelectionTracker
  /// The rule applying to the value being matched now.
  private var rule = 0
  /// For `.map`: the selected value being built, and its member's key, held until the
  /// closure decides.
  private var builder = JSONTreeBuilder()
  private var heldKey: [UInt8]?
  /// What became of the container that started last: its contents are skipped by the parser
  /// when it is dropped or replaced, or when it went to `downstream` and that skips it.
  private var containerFate = ContainerFate.forwarded

  private enum ContainerFate { case forwarded, discarded, built }

  public init(rules: [Rule], downstream: Downstream) {
    self.rules = rules
    self.downstream = downstream
    tracker = _SelectionTracker(rules.map(\.path))
  }

  public var isDone: Bool { downstream.isDone }

  /// A container the transform drops or replaces is skipped by the parser (checked, not
  /// decoded); one it forwards is skipped when `downstream` asks.
  public var skipsContainerContents: Bool {
    switch containerFate {
    case .discarded: return true
    case .forwarded: return downstream.skipsContainerContents
    case .built: return false
    }
  }
  public static var canSkipContainers: Bool { true }

  public mutating func _beginEventRun() { downstream._beginEventRun() }
  public mutating func _endEventRun() { downstream._endEventRun() }

  public mutating func key(_ key: JSONString) throws {
    try self.key(key, forward: { try $0.key(key) }, build: { try $0.key(key) })
  }

  /// A key; `forward` sends it on unchanged, `build` adds it to the `.map` value.
  private mutating func key(
    _ key: JSONString, forward: (inout Downstream) throws -> Void,
    build: (inout JSONTreeBuilder) throws -> Void
  ) throws {
    switch tracker.key(key.utf8) {
    case .outside: try forward(&downstream)
    case .inside:
      switch rules[rule] {
      case .rename: try forward(&downstream)
      case .map: try build(&builder)
      case .drop, .replace: break
      }
    case .matchStart, .matchEnd:
      switch rules[tracker.match.paths[0]] {
      case .drop: break
      case .rename(_, let name):
        var name = name
        try name.withUTF8 { try downstream.key(JSONString(_wellFormed: $0)) }
      case .replace: try forward(&downstream)
      case .map: heldKey = Array(key.utf8)
      }
    }
  }

  /// A value begins; `forward` sends it on unchanged, `build` adds it to the `.map` value.
  private mutating func valueStart(
    container: Bool, isObject: Bool = false, forward: (inout Downstream) throws -> Void,
    build: (inout JSONTreeBuilder) throws -> Void
  ) throws {
    var fate = ContainerFate.forwarded
    switch tracker.valueStart(container: container, isObject: isObject) {
    case .outside: try forward(&downstream)
    case .inside:
      switch rules[rule] {
      case .rename: try forward(&downstream)
      case .map:
        fate = .built
        try build(&builder)
      case .drop, .replace: fate = .discarded
      }
    case .matchStart, .matchEnd:
      rule = tracker.match.paths[0]
      switch rules[rule] {
      case .drop: fate = .discarded
      case .rename: try forward(&downstream)
      case .replace(_, let value):
        fate = .discarded
        try value.replay(into: &downstream)
      case .map:
        fate = .built
        try build(&builder)
        if !container { try finishMap() }
      }
    }
    if container { containerFate = fate }
  }

  private mutating func valueEnd(
    forward: (inout Downstream) throws -> Void, build: (inout JSONTreeBuilder) throws -> Void
  ) throws {
    switch tracker.valueEnd() {
    case .outside: try forward(&downstream)
    case .inside, .matchEnd:
      let ended = !tracker.isInsideMatch
      switch rules[rule] {
      case .rename: try forward(&downstream)
      case .map:
        try build(&builder)
        if ended { try finishMap() }
      case .drop, .replace: break
      }
    case .matchStart: break
    }
  }

  /// The `.map` value is complete: write the closure's value, with its held key.
  private mutating func finishMap() throws {
    guard case .map(_, let body) = rules[rule] else { return }
    let original = builder.takeValues()[0]
    let key = heldKey
    heldKey = nil
    guard let replacement = try body(original) else { return }
    if let key {
      try key.withUnsafeBufferPointer { try downstream.key(JSONString(_wellFormed: $0)) }
    }
    try replacement.replay(into: &downstream)
  }

  public mutating func startObject() throws {
    try valueStart(
      container: true, isObject: true, forward: { try $0.startObject() },
      build: { $0.startObject() })
  }

  public mutating func startArray() throws {
    try valueStart(container: true, forward: { try $0.startArray() }, build: { $0.startArray() })
  }

  public mutating func endObject() throws {
    try valueEnd(forward: { try $0.endObject() }, build: { $0.endObject() })
  }

  public mutating func endArray() throws {
    try valueEnd(forward: { try $0.endArray() }, build: { $0.endArray() })
  }

  public mutating func string(_ value: JSONString) throws {
    try valueStart(container: false, forward: { try $0.string(value) }, build: { $0.string(value) })
  }

  public mutating func number(_ value: JSONNumber) throws {
    try valueStart(container: false, forward: { try $0.number(value) }, build: { $0.number(value) })
  }

  public mutating func _binaryNumber(_ value: _BinaryNumber) throws {
    try valueStart(
      container: false, forward: { try $0._binaryNumber(value) },
      build: { $0._binaryNumber(value) })
  }

  public mutating func bool(_ value: Bool) throws {
    try valueStart(container: false, forward: { try $0.bool(value) }, build: { $0.bool(value) })
  }

  public mutating func null() throws {
    try valueStart(container: false, forward: { try $0.null() }, build: { $0.null() })
  }
}
