import JSONStreamCore
import JSONStreamValue

/// Forwards only the values that JSONPath selections pick, each one whole, to another
/// consumer: parser → select filter → writer prints the matches; → tree builder collects them.
///
/// ```swift
/// var filter = JSONSelectFilter(
///   paths: [try JSONPath("$.orders[?@.total > 100].id")],
///   downstream: JSONWriter(options: .init(allowMultipleValues: true)))
/// try JSONParser.parse(bytes, handler: &filter)
/// ```
///
/// Several paths are matched in one pass; ``onMatch`` says which ones selected each value (its
/// key or index, and its normalized path when asked for) before its events are forwarded.
/// Outside the matches nothing is forwarded and nothing is kept: a subtree that no path can
/// reach is only counted through.
///
/// Every query ``JSONPath/isStreamable`` takes is streamed, with bounded memory: a value that
/// a name, an index from 0 or a wildcard selects is forwarded as it is parsed; a filter's
/// candidate (an element of the array it applies to) is held only until it is tested, and
/// not at all when the filter reads only members by name and names, indexes or wildcards
/// follow (`$.orders[?@.total > 100].id`: only `total` and `id` are kept); `[-n]`
/// holds the last n elements, a slice with a negative bound the last elements it may take, a
/// negative step the elements it selects (given in reverse), a union the results that wait
/// for the selectors before it. Results come in RFC 9535's order for each path, except with a
/// descendant segment: there a value is forwarded as it is parsed, and the values inside it
/// that match too are held until it ends, then follow it (document order; the RFC orders
/// them level by level, which would need the whole document).
public struct JSONSelectFilter<Downstream: JSONEventHandler>: JSONEventHandler {
  /// The consumer of the selected values.
  public var downstream: Downstream
  /// Called when a selected value starts, before its first event reaches `downstream`.
  public var onMatch: ((JSONPathMatch) throws -> Void)?
  /// How many values were selected so far.
  public var matchCount: Int { _matchCount }
  @usableFromInline var _matchCount = 0

  @usableFromInline var _tracker: _SelectionTracker

  /// A filter that forwards the values any of `paths` selects to `downstream`, calling `onMatch` as
  /// each one starts; with `reportsPaths`, each match has its ``JSONPathMatch/normalizedPath``.
  public init(
    paths: [JSONPath], downstream: Downstream, reportsPaths: Bool = false,
    onMatch: ((JSONPathMatch) throws -> Void)? = nil
  ) {
    self.downstream = downstream
    self.onMatch = onMatch
    _tracker = _SelectionTracker(paths, holdsValues: true, reportsPaths: reportsPaths)
  }

  /// The match being forwarded now, or the last one.
  public var currentMatch: JSONPathMatch { _tracker.match }

  /// `true` once ``downstream`` is done.
  public var isDone: Bool { downstream.isDone }

  /// Whether the container that started last went to `downstream`, whose skipping then
  /// applies to it.
  @usableFromInline var _forwardedContainer = false

  /// A container no path can reach is skipped by the parser: checked, not decoded; so is one
  /// inside a match that `downstream` skips, unless matches may be inside it.
  @inlinable
  public var skipsContainerContents: Bool {
    _tracker.deadDepth > 0
      || (_forwardedContainer && _tracker.matchDepth > 0 && downstream.skipsContainerContents)
  }
  /// `true`: the filter has the parser skip the containers no path can reach.
  @inlinable
  public static var canSkipContainers: Bool { true }

  /// Passes the run on to ``downstream`` (and to the tree of a value held to decide).
  @inlinable public mutating func beginEventRun() {
    downstream.beginEventRun()
    _tracker.heldBuilder.beginEventRun()
  }
  /// Passes the end of the run on to ``downstream``.
  @inlinable public mutating func endEventRun() {
    downstream.endEventRun()
    _tracker.heldBuilder.endEventRun()
  }

  @inlinable @inline(__always)
  mutating func _start(_ action: _SelectionAction) throws -> Bool {
    switch action {
    case .matchStart:
      _matchCount += 1
      try onMatch?(_tracker.match)
      return true
    case .inside, .heldInside: return true
    case .outside, .matchEnd, .held: return false
    }
  }

  /// Sends the values the tracker has decided to ``downstream``.
  @usableFromInline
  mutating func _forwardResults() throws {
    var index = 0
    while index < _tracker.results.count {
      if downstream.isDone { break }
      let result = _tracker.results[index]
      index += 1
      _tracker.match = result.match
      _matchCount += 1
      try onMatch?(result.match)
      try result.value.replay(into: &downstream)
    }
    _tracker.results.removeAll(keepingCapacity: true)
  }

  /// A held value is complete: forwards what it gave, unless a match being forwarded holds it
  /// (then after that match).
  @usableFromInline
  mutating func _heldValueEnded() throws {
    _tracker.heldValueEnded()
    if _tracker.canDeliver { try _forwardResults() }
  }

  /// A held scalar, whole: made a value directly, not through the tree builder.
  @usableFromInline
  mutating func _heldScalar(_ value: consuming JSONValue) throws {
    _tracker.heldValueEnded(value)
    if _tracker.canDeliver { try _forwardResults() }
  }

  /// A container's end outside matches, or a match's end: forwards what was decided.
  @inlinable @inline(__always)
  mutating func _containerEnded() throws {
    if !_tracker.results.isEmpty && _tracker.canDeliver { try _forwardResults() }
  }

  /// Forwards the object's start to ``downstream`` when the object is selected (after calling
  /// ``onMatch``) or inside a selected value.
  @inlinable @inline(__always)
  public mutating func startObject() throws {
    let action = try _tracker.valueStart(container: true, isObject: true)
    switch action {
    case .held:
      _forwardedContainer = false
      _tracker.heldBuilder.startObject()
    case .heldInside:
      _forwardedContainer = false
      _tracker.heldBuilder.startObject()
      try downstream.startObject()
    default:
      _forwardedContainer = try _start(action)
      if _forwardedContainer { try downstream.startObject() }
    }
  }

  /// Forwards the array's start to ``downstream`` when the array is selected (after calling
  /// ``onMatch``) or inside a selected value.
  @inlinable @inline(__always)
  public mutating func startArray() throws {
    let action = try _tracker.valueStart(container: true)
    switch action {
    case .held:
      _forwardedContainer = false
      _tracker.heldBuilder.startArray()
    case .heldInside:
      _forwardedContainer = false
      _tracker.heldBuilder.startArray()
      try downstream.startArray()
    default:
      _forwardedContainer = try _start(action)
      if _forwardedContainer { try downstream.startArray() }
    }
  }

  /// Forwards the object's end to ``downstream`` when its start was forwarded.
  @inlinable @inline(__always)
  public mutating func endObject() throws {
    switch _tracker.valueEnd() {
    case .inside: try downstream.endObject()
    case .matchEnd:
      try downstream.endObject()
      try _containerEnded()
    case .held:
      _tracker.heldBuilder.endObject()
      if _tracker.heldDepth == 0 { try _heldValueEnded() }
    case .heldInside:
      try downstream.endObject()
      _tracker.heldBuilder.endObject()
      if _tracker.heldDepth == 0 { try _heldValueEnded() }
    case .outside, .matchStart: try _containerEnded()
    }
  }

  /// Forwards the array's end to ``downstream`` when its start was forwarded.
  @inlinable @inline(__always)
  public mutating func endArray() throws {
    switch _tracker.valueEnd() {
    case .inside: try downstream.endArray()
    case .matchEnd:
      try downstream.endArray()
      try _containerEnded()
    case .held:
      _tracker.heldBuilder.endArray()
      if _tracker.heldDepth == 0 { try _heldValueEnded() }
    case .heldInside:
      try downstream.endArray()
      _tracker.heldBuilder.endArray()
      if _tracker.heldDepth == 0 { try _heldValueEnded() }
    case .outside, .matchStart: try _containerEnded()
    }
  }

  /// Forwards the key to ``downstream`` when it is inside a selected value; a selected member's own
  /// key is not forwarded.
  @inlinable @inline(__always)
  public mutating func key(_ key: borrowing JSONString) throws {
    switch _tracker.key(key) {
    case .inside: try downstream.key(key)
    case .held: try _tracker.heldBuilder.key(key)
    case .heldInside:
      try downstream.key(key)
      try _tracker.heldBuilder.key(key)
    case .outside, .matchStart, .matchEnd: break
    }
  }

  /// A scalar: forwarded when `action` says so, or added to the held value.
  @inlinable @inline(__always)
  mutating func _scalar(
    _ action: _SelectionAction, forward: (inout Downstream) throws -> Void,
    hold: (inout JSONTreeBuilder) -> Void
  ) throws {
    if action == .held || action == .heldInside {
      if action == .heldInside { try forward(&downstream) }
      hold(&_tracker.heldBuilder)
      if _tracker.heldDepth == 0 { try _heldValueEnded() }
    } else if try _start(action) {
      try forward(&downstream)
    }
  }

  /// Forwards the number to ``downstream`` when it is selected (after calling ``onMatch``) or
  /// inside a selected value.
  @inlinable @inline(__always)
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    try _scalar(
      _tracker.valueStart(container: false), forward: { try $0.binaryNumber(value) },
      hold: { $0.binaryNumber(value) })
  }

  /// Forwards the string to ``downstream`` when it is selected (after calling ``onMatch``) or
  /// inside a selected value.
  @inlinable @inline(__always)
  public mutating func string(_ value: borrowing JSONString) throws {
    let action = try _tracker.valueStart(container: false)
    if action == .held || action == .heldInside {
      if action == .heldInside { try downstream.string(value) }
      if _tracker.heldDepth == 0 { return try _heldScalar(.string(value.string)) }
      _tracker.heldBuilder.string(value)
    } else if try _start(action) {
      try downstream.string(value)
    }
  }

  /// Forwards the number to ``downstream`` when it is selected (after calling ``onMatch``) or
  /// inside a selected value.
  @inlinable @inline(__always)
  public mutating func number(_ value: borrowing JSONNumber) throws {
    let action = try _tracker.valueStart(container: false)
    if action == .held || action == .heldInside {
      if action == .heldInside { try downstream.number(value) }
      if _tracker.heldDepth == 0 {
        // Only a filter reads a probe's number: its value is enough.
        let number =
          _tracker.heldOnlyFeedsProbes
          ? JSONValue.Number(exactly: value) : JSONValue.Number(keepingText: value)
        return try _heldScalar(.number(number))
      }
      _tracker.heldBuilder.number(value)
    } else if try _start(action) {
      try downstream.number(value)
    }
  }

  /// Forwards the Boolean to ``downstream`` when it is selected (after calling ``onMatch``) or
  /// inside a selected value.
  @inlinable @inline(__always)
  public mutating func bool(_ value: Bool) throws {
    try _scalar(
      _tracker.valueStart(container: false), forward: { try $0.bool(value) },
      hold: { $0.bool(value) })
  }

  /// Forwards `null` to ``downstream`` when it is selected (after calling ``onMatch``) or inside a
  /// selected value.
  @inlinable @inline(__always)
  public mutating func null() throws {
    try _scalar(
      _tracker.valueStart(container: false), forward: { try $0.null() }, hold: { $0.null() })
  }
}

/// Forwards everything except the values JSONPath selections pick: an object member that
/// matches is dropped with its key, an array element that matches is dropped from the array.
/// The rest of the document reaches `downstream` unchanged — parser → exclude filter → writer
/// removes fields from a stream of any size.
///
/// ```swift
/// var filter = JSONExcludeFilter(paths: [try JSONPath("$..password")], downstream: JSONWriter())
/// ```
///
/// When the root itself matches, nothing is forwarded.
public struct JSONExcludeFilter<Downstream: JSONEventHandler>: JSONEventHandler {
  /// The consumer of what is left.
  public var downstream: Downstream
  /// How many values were dropped so far.
  public var matchCount: Int { _matchCount }
  @usableFromInline var _matchCount = 0

  @usableFromInline var _tracker: _SelectionTracker

  /// A filter that forwards to `downstream` everything except the values any of `paths` selects.
  public init(paths: [JSONPath], downstream: Downstream) {
    self.downstream = downstream
    _tracker = _SelectionTracker(paths)
  }

  /// `true` once ``downstream`` is done.
  public var isDone: Bool { downstream.isDone }

  /// What the container that started last is: dropped (a match), or forwarded.
  @usableFromInline var _droppedContainer = false
  @usableFromInline var _forwardedContainer = false

  /// A container that is dropped is skipped by the parser: checked, not decoded; so is one
  /// `downstream` skips.
  @inlinable
  public var skipsContainerContents: Bool {
    _droppedContainer || (_forwardedContainer && downstream.skipsContainerContents)
  }
  /// `true`: the filter has the parser skip the containers it drops.
  @inlinable
  public static var canSkipContainers: Bool { true }

  /// Passes the run on to ``downstream``.
  @inlinable public mutating func beginEventRun() { downstream.beginEventRun() }
  /// Passes the end of the run on to ``downstream``.
  @inlinable public mutating func endEventRun() { downstream.endEventRun() }

  /// A container starts: `action` says whether it is dropped or forwarded.
  @inlinable
  mutating func _containerStarts(_ action: _SelectionAction) -> Bool {
    _droppedContainer = action == .matchStart
    _forwardedContainer = _keeps(action)
    return _forwardedContainer
  }

  @inlinable
  mutating func _keeps(_ action: _SelectionAction) -> Bool {
    switch action {
    case .outside: return true
    case .matchStart:
      _matchCount += 1
      return false
    case .inside, .matchEnd, .held, .heldInside: return false  // Never held: it holds nothing.
    }
  }

  /// Forwards the object's start to ``downstream``, unless the object is selected or inside a
  /// dropped value.
  @inlinable @inline(__always)
  public mutating func startObject() throws {
    if try _containerStarts(_tracker.valueStart(container: true, isObject: true)) {
      try downstream.startObject()
    }
  }

  /// Forwards the array's start to ``downstream``, unless the array is selected or inside a dropped
  /// value.
  @inlinable @inline(__always)
  public mutating func startArray() throws {
    if try _containerStarts(_tracker.valueStart(container: true)) { try downstream.startArray() }
  }

  /// Forwards the object's end to ``downstream`` when its start was forwarded.
  @inlinable @inline(__always)
  public mutating func endObject() throws {
    if _tracker.valueEnd() == .outside { try downstream.endObject() }
  }

  /// Forwards the array's end to ``downstream`` when its start was forwarded.
  @inlinable @inline(__always)
  public mutating func endArray() throws {
    if _tracker.valueEnd() == .outside { try downstream.endArray() }
  }

  /// Forwards the key to ``downstream``, unless its value is selected (the member is dropped) or it
  /// is inside a dropped value.
  @inlinable @inline(__always)
  public mutating func key(_ key: borrowing JSONString) throws {
    // A key whose value is a match goes with it.
    if _tracker.key(key) == .outside { try downstream.key(key) }
  }

  /// Forwards the number to ``downstream``, unless it is selected or inside a dropped value.
  @inlinable @inline(__always)
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    if try _keeps(_tracker.valueStart(container: false)) { try downstream.binaryNumber(value) }
  }

  /// Forwards the string to ``downstream``, unless it is selected or inside a dropped value.
  @inlinable @inline(__always)
  public mutating func string(_ value: borrowing JSONString) throws {
    if try _keeps(_tracker.valueStart(container: false)) { try downstream.string(value) }
  }

  /// Forwards the number to ``downstream``, unless it is selected or inside a dropped value.
  @inlinable @inline(__always)
  public mutating func number(_ value: borrowing JSONNumber) throws {
    if try _keeps(_tracker.valueStart(container: false)) { try downstream.number(value) }
  }

  /// Forwards the Boolean to ``downstream``, unless it is selected or inside a dropped value.
  @inlinable @inline(__always)
  public mutating func bool(_ value: Bool) throws {
    if try _keeps(_tracker.valueStart(container: false)) { try downstream.bool(value) }
  }

  /// Forwards `null` to ``downstream``, unless it is selected or inside a dropped value.
  @inlinable @inline(__always)
  public mutating func null() throws {
    if try _keeps(_tracker.valueStart(container: false)) { try downstream.null() }
  }
}
