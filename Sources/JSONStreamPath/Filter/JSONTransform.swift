import JSONStreamCore
import JSONStreamValue

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

    @usableFromInline
    var path: JSONPath {
      switch self {
      case .drop(let path), .rename(let path, _), .replace(let path, _), .map(let path, _):
        return path
      }
    }
  }

  /// The consumer of the rewritten events.
  public var downstream: Downstream
  /// The rules, in order of precedence: the first that selects a value applies.
  public let rules: [Rule]

  @usableFromInline var tracker: _SelectionTracker
  /// The rule applying to the value being matched now.
  @usableFromInline var rule = 0
  /// For `.map`: the selected value being built, and its member's key, held until the
  /// closure decides.
  @usableFromInline var builder = JSONTreeBuilder()
  @usableFromInline var heldKey: [UInt8]?
  /// What became of the container that started last: its contents are skipped by the parser
  /// when it is dropped or replaced, or when it went to `downstream` and that skips it.
  @usableFromInline var containerFate = _ContainerFate.forwarded

  /// A transform that applies `rules` to events on their way to `downstream`.
  public init(rules: [Rule], downstream: Downstream) {
    self.rules = rules
    self.downstream = downstream
    tracker = _SelectionTracker(rules.map(\.path))
  }

  /// `true` once ``downstream`` is done.
  @inlinable public var isDone: Bool { downstream.isDone }

  /// A container the transform drops or replaces is skipped by the parser (checked, not
  /// decoded); one it forwards is skipped when `downstream` asks.
  @inlinable public var skipsContainerContents: Bool {
    if tracker.deadDepth > 0 { return downstream.skipsContainerContents }
    switch containerFate {
    case .discarded: return true
    case .forwarded: return downstream.skipsContainerContents
    case .built: return false
    }
  }
  /// `true`: the transform has the parser skip the containers it drops or replaces.
  @inlinable public static var canSkipContainers: Bool { true }

  /// Passes the run on to ``downstream``.
  @inlinable public mutating func beginEventRun() { downstream.beginEventRun() }
  /// Passes the end of the run on to ``downstream``.
  @inlinable public mutating func endEventRun() { downstream.endEventRun() }

  // Each event asks what becomes of it (`_keyAction`, `_valueStartAction`, `_valueEndAction`:
  // the selection tracker and the rules, nothing of `downstream`), then sends it on itself, so
  // that the common case is a direct call of `downstream`'s method in the specialized code.
  // Inside a container no rule reaches (the tracker's `deadDepth`), it does not ask: it counts
  // the depth in the tracker's stead.

  /// Forwards the key to ``downstream`` (under its new name for a rename rule); drops it when it
  /// goes with a dropped value, and holds it while a map rule decides.
  @inlinable @inline(__always)
  public mutating func key(_ key: borrowing JSONString) throws {
    if tracker.deadDepth > 0 { return try downstream.key(key) }
    let action = _keyAction(key)
    if action == .forward { return try downstream.key(key) }
    try _divertKey(action, key)
  }

  /// Forwards the object's start to ``downstream``, or builds the object for a map rule; writes a
  /// replaced object's replacement, and nothing for a dropped one.
  @inlinable @inline(__always)
  public mutating func startObject() throws {
    if tracker.deadDepth > 0 {
      tracker.deadDepth &+= 1
      return try downstream.startObject()
    }
    let action = try _valueStartAction(container: true, isObject: true)
    if action == .forward { return try downstream.startObject() }
    try _divertStart(action, isObject: true)
  }

  /// Forwards the array's start to ``downstream``, or builds the array for a map rule; writes a
  /// replaced array's replacement, and nothing for a dropped one.
  @inlinable @inline(__always)
  public mutating func startArray() throws {
    if tracker.deadDepth > 0 {
      tracker.deadDepth &+= 1
      return try downstream.startArray()
    }
    let action = try _valueStartAction(container: true, isObject: false)
    if action == .forward { return try downstream.startArray() }
    try _divertStart(action, isObject: false)
  }

  /// Forwards the object's end to ``downstream``; for a mapped object, writes what the closure
  /// returns instead.
  @inlinable @inline(__always)
  public mutating func endObject() throws {
    if tracker.deadDepth > 0 {
      tracker.deadDepth &-= 1
      return try downstream.endObject()
    }
    let action = _valueEndAction()
    if action == .forward { return try downstream.endObject() }
    try _divertEnd(action, isObject: true)
  }

  /// Forwards the array's end to ``downstream``; for a mapped array, writes what the closure
  /// returns instead.
  @inlinable @inline(__always)
  public mutating func endArray() throws {
    if tracker.deadDepth > 0 {
      tracker.deadDepth &-= 1
      return try downstream.endArray()
    }
    let action = _valueEndAction()
    if action == .forward { return try downstream.endArray() }
    try _divertEnd(action, isObject: false)
  }

  /// Forwards the string to ``downstream``, unless a rule drops, replaces or maps it.
  @inlinable @inline(__always)
  public mutating func string(_ value: borrowing JSONString) throws {
    if tracker.deadDepth > 0 { return try downstream.string(value) }
    let action = try _valueStartAction(container: false, isObject: false)
    if action == .forward { return try downstream.string(value) }
    try _scalar(action, build: { $0.string(value) })
  }

  /// Forwards the number to ``downstream``, unless a rule drops, replaces or maps it.
  @inlinable @inline(__always)
  public mutating func number(_ value: borrowing JSONNumber) throws {
    if tracker.deadDepth > 0 { return try downstream.number(value) }
    let action = try _valueStartAction(container: false, isObject: false)
    if action == .forward { return try downstream.number(value) }
    try _scalar(action, build: { $0.number(value) })
  }

  /// Forwards the number to ``downstream``, unless a rule drops, replaces or maps it.
  @inlinable @inline(__always)
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    if tracker.deadDepth > 0 { return try downstream.binaryNumber(value) }
    let action = try _valueStartAction(container: false, isObject: false)
    if action == .forward { return try downstream.binaryNumber(value) }
    try _scalar(action, build: { $0.binaryNumber(value) })
  }

  /// Forwards the Boolean to ``downstream``, unless a rule drops, replaces or maps it.
  @inlinable @inline(__always)
  public mutating func bool(_ value: Bool) throws {
    if tracker.deadDepth > 0 { return try downstream.bool(value) }
    let action = try _valueStartAction(container: false, isObject: false)
    if action == .forward { return try downstream.bool(value) }
    try _scalar(action, build: { $0.bool(value) })
  }

  /// Forwards `null` to ``downstream``, unless a rule drops, replaces or maps it.
  @inlinable @inline(__always)
  public mutating func null() throws {
    if tracker.deadDepth > 0 { return try downstream.null() }
    let action = try _valueStartAction(container: false, isObject: false)
    if action == .forward { return try downstream.null() }
    try _scalar(action, build: { $0.null() })
  }
}

/// What became of the container that started last (see `JSONTransform.containerFate`).
@usableFromInline
enum _ContainerFate { case forwarded, discarded, built }

/// What a transform does with a key.
@usableFromInline
enum _KeyAction {
  /// Sends it on unchanged.
  case forward
  /// Adds it to the `.map` value being built.
  case build
  /// Drops it (a dropped or replaced value's member, or a member inside one).
  case discard
  /// Sends the rule's new name instead (`.rename`).
  case rename
  /// Keeps it until the `.map` closure decides (the key of the member it starts).
  case hold
}

/// What a transform does with a value's first or last event.
@usableFromInline
enum _ValueAction {
  /// Sends it on unchanged.
  case forward
  /// Adds it to the `.map` value being built.
  case build
  /// Adds it to the `.map` value, which it completes: the closure runs next.
  case buildAndFinish
  /// Drops it.
  case discard
  /// Sends the `.replace` rule's value instead (and drops the value).
  case replace
}

extension JSONTransform {
  @inlinable @inline(__always)
  mutating func _keyAction(_ key: borrowing JSONString) -> _KeyAction {
    switch tracker.key(key) {
    case .outside, .held, .heldInside: return .forward  // Never: its tracker holds nothing.
    case .inside:
      switch rules[rule] {
      case .rename: return .forward
      case .map: return .build
      case .drop, .replace: return .discard
      }
    case .matchStart, .matchEnd:
      switch rules[tracker.match.paths[0]] {
      case .drop: return .discard
      case .rename: return .rename
      case .replace: return .forward
      case .map: return .hold
      }
    }
  }

  /// For a value's first event (a container's start, or a whole scalar); sets the fate of a
  /// container.
  @inlinable @inline(__always)
  mutating func _valueStartAction(container: Bool, isObject: Bool) throws -> _ValueAction {
    var action = _ValueAction.forward
    switch try tracker.valueStart(container: container, isObject: isObject) {
    case .outside, .held, .heldInside: break
    case .inside:
      switch rules[rule] {
      case .rename: break
      case .map: action = .build
      case .drop, .replace: action = .discard
      }
    case .matchStart, .matchEnd:
      rule = tracker.match.paths[0]
      switch rules[rule] {
      case .drop: action = .discard
      case .rename: break
      case .replace: action = .replace
      case .map: action = container ? .build : .buildAndFinish
      }
    }
    if container {
      switch action {
      case .forward: containerFate = .forwarded
      case .build, .buildAndFinish: containerFate = .built
      case .discard, .replace: containerFate = .discarded
      }
    }
    return action
  }

  /// For a container's last event.
  @inlinable @inline(__always)
  mutating func _valueEndAction() -> _ValueAction {
    switch tracker.valueEnd() {
    case .outside, .held, .heldInside: return .forward
    case .inside, .matchEnd:
      switch rules[rule] {
      case .rename: return .forward
      case .map: return tracker.isInsideMatch ? .build : .buildAndFinish
      case .drop, .replace: return .discard
      }
    case .matchStart: return .discard
    }
  }

  // The events a rule diverts, out of line: kept out of the producer's loop, into which each
  // event's sending on unchanged is inlined.

  /// A key that is not sent on as it is: added to the `.map` value, dropped, renamed or held.
  @inlinable @inline(never)
  mutating func _divertKey(_ action: _KeyAction, _ key: borrowing JSONString) throws {
    switch action {
    case .forward: try downstream.key(key)
    case .build: try builder.key(key)
    case .discard: break
    case .rename: try _writeRenamedKey()
    case .hold: heldKey = key.bytes
    }
  }

  /// A container's start that is not sent on: added to the `.map` value, dropped or replaced.
  @inlinable @inline(never)
  mutating func _divertStart(_ action: _ValueAction, isObject: Bool) throws {
    switch action {
    case .forward: try isObject ? downstream.startObject() : downstream.startArray()
    case .build: isObject ? builder.startObject() : builder.startArray()
    case .discard: break
    case .replace: try _writeReplacement()
    case .buildAndFinish: break  // only for scalars
    }
  }

  /// A container's end that is not sent on: added to the `.map` value (and, when it completes
  /// it, the closure's value written), or dropped.
  @inlinable @inline(never)
  mutating func _divertEnd(_ action: _ValueAction, isObject: Bool) throws {
    switch action {
    case .forward: try isObject ? downstream.endObject() : downstream.endArray()
    case .build: isObject ? builder.endObject() : builder.endArray()
    case .buildAndFinish:
      if isObject { builder.endObject() } else { builder.endArray() }
      try _finishMap()
    case .discard, .replace: break
    }
  }

  /// A scalar that is not sent on: added to the `.map` value with `build`, dropped, or replaced.
  @inlinable @inline(never)
  mutating func _scalar(_ action: _ValueAction, build: (inout JSONTreeBuilder) -> Void) throws {
    switch action {
    case .forward: break
    case .build: build(&builder)
    case .buildAndFinish:
      build(&builder)
      try _finishMap()
    case .discard: break
    case .replace: try _writeReplacement()
    }
  }

  /// The `.rename` rule's new name, for the key of the member it matched.
  @usableFromInline
  mutating func _writeRenamedKey() throws {
    guard case .rename(_, let name) = rules[tracker.match.paths[0]] else { return }
    var newName = name
    try newName.withJSONString { try downstream.key($0) }
  }

  /// The `.replace` rule's value, for the value it matched.
  @usableFromInline
  mutating func _writeReplacement() throws {
    guard case .replace(_, let value) = rules[rule] else { return }
    try value.replay(into: &downstream)
  }

  /// The `.map` value is complete: write the closure's value, with its held key.
  @usableFromInline
  mutating func _finishMap() throws {
    guard case .map(_, let body) = rules[rule] else { return }
    let original = builder.takeValues()[0]
    let key = heldKey
    heldKey = nil
    guard let replacement = try body(original) else { return }
    if let key {
      try JSONString.withWellFormed(key) { try downstream.key($0) }
    }
    try replacement.replay(into: &downstream)
  }
}
