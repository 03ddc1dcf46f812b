import JSONStreamCore
import JSONStreamValue

/// Applies a JSON Patch (RFC 6902) to events on their way to another consumer, in one pass,
/// when its operations are independent of one another (see ``canStream(_:)``): parser →
/// patch → writer, with memory that does not grow with the document.
///
/// ```swift
/// guard let filter = JSONPatchFilter(patch: patch, downstream: writer) else {
///   // Not streamable: build the tree and apply it (JSONValue.apply(_:)).
/// }
/// var parser = JSONParser(handler: filter)
/// try parser.feed(bytes)
/// try parser.finish()
/// try parser.handler.finish()   // throws the JSONPatchError an operation met, if any
/// ```
///
/// The events are those of ``JSONValue/applying(_:)``'s result, and a failing operation gives
/// the same ``JSONPatchError``, known at the end of the document (``error``): what was sent
/// downstream by then must be thrown away, which is why a consumer that cannot take it back
/// (standard output) wants the tree instead. A value an operation replaces or removes is
/// skipped by the parser (checked, not decoded); a value a `test` compares is built in
/// memory. Each top-level value is patched (NDJSON); ``error`` is the first failing value's.
/// One difference from a tree: when an object repeats a key, every occurrence is patched or
/// tested (a tree keeps one).
public struct JSONPatchFilter<Downstream: JSONEventHandler>: JSONEventHandler {
  /// The consumer of the patched events.
  public var downstream: Downstream
  /// The patch.
  public let patch: JSONPatch
  /// The failure of the first top-level value an operation failed in: the failing operation
  /// with the lowest index, as ``JSONValue/apply(_:)`` reports it. Complete once the value's
  /// last event is in.
  public private(set) var error: JSONPatchError?

  @usableFromInline let _plan: _PatchPlan
  /// The containers of the input on operations' paths, innermost last.
  @usableFromInline var _frames: [_PatchFrame] = []
  /// What becomes of the next value in the innermost object (set by its key).
  @usableFromInline var _next = _PatchNext.forward
  /// Open containers inside a value passed on unchanged, and inside one dropped.
  @usableFromInline var _passDepth = 0
  @usableFromInline var _dropDepth = 0
  /// A value being built for a `test`, while it is passed on: its operation and open
  /// containers.
  @usableFromInline var _test: (operation: Int, depth: Int)?
  @usableFromInline var _builder = JSONTreeBuilder()
  /// Open containers of the input.
  @usableFromInline var _depth = 0
  /// The failure of the top-level value being read.
  @usableFromInline var _valueError: JSONPatchError?
  /// Open containers on operations' paths whose contents ``downstream`` skips: they are still
  /// read, for the operations' outcomes, but nothing in them is sent on.
  @usableFromInline var _muted = 0

  /// Whether `patch` can be applied in one pass: its operations are only `add`, `remove`,
  /// `replace` and `test`, none at the root, none at a path that starts with another's, and
  /// one whose last token may address an array element (an index, or `-`) is the only one
  /// under its container. Then each operation's outcome depends on the document alone, not on
  /// the others.
  public static func canStream(_ patch: JSONPatch) -> Bool {
    _PatchPlan(patch) != nil
  }

  /// A filter applying `patch` to each top-level value on its way to `downstream`; nil when
  /// the patch cannot be applied in one pass (see ``canStream(_:)``).
  public init?(patch: JSONPatch, downstream: Downstream) {
    guard let plan = _PatchPlan(patch) else { return nil }
    self.patch = patch
    self.downstream = downstream
    _plan = plan
  }

  /// Throws ``error``, if an operation failed.
  public func finish() throws(JSONPatchError) {
    if let error { throw error }
  }

  /// `true` once ``downstream`` is done.
  @inlinable public var isDone: Bool { downstream.isDone }
  /// A value the patch replaces or removes is skipped (checked, not decoded); one it passes on
  /// unchanged is skipped when ``downstream`` asks.
  @inlinable public var skipsContainerContents: Bool {
    if _dropDepth > 0 { return true }
    if _test == nil && _passDepth > 0 { return _muted > 0 || downstream.skipsContainerContents }
    return false
  }
  /// `true`: the filter has the parser skip the values it replaces or removes.
  @inlinable public static var canSkipContainers: Bool { true }

  /// Passes the run on to ``downstream``.
  @inlinable public mutating func beginEventRun() { downstream.beginEventRun() }
  /// Passes the end of the run on to ``downstream``.
  @inlinable public mutating func endEventRun() { downstream.endEventRun() }

  /// Passes the object's start on, or writes what replaces it.
  @inlinable public mutating func startObject() throws {
    let route = try _begin(.object)
    if route.passesOn { try downstream.startObject() }
    if route == .forward && Downstream.canSkipContainers { _muteIfSkipped() }
    if route.builds { _builder.startObject() }
  }

  /// Passes the array's start on, or writes what replaces it.
  @inlinable public mutating func startArray() throws {
    let route = try _begin(.array)
    if route.passesOn { try downstream.startArray() }
    if route == .forward && Downstream.canSkipContainers { _muteIfSkipped() }
    if route.builds { _builder.startArray() }
  }

  /// Passes the object's end on (after the members the patch adds to it), unless it is
  /// dropped.
  @inlinable public mutating func endObject() throws {
    let route = try _end()
    if route.passesOn { try downstream.endObject() }
    guard route.builds else { return }
    _builder.endObject()
    try _testEnds()
  }

  /// Passes the array's end on (after the elements the patch adds at its end), unless it is
  /// dropped.
  @inlinable public mutating func endArray() throws {
    let route = try _end()
    if route.passesOn { try downstream.endArray() }
    guard route.builds else { return }
    _builder.endArray()
    try _testEnds()
  }

  /// Passes the key on, unless its member is removed.
  @inlinable public mutating func key(_ key: borrowing JSONString) throws {
    let route = _key(key)
    if route.passesOn { try downstream.key(key) }
    if route.builds { try _builder.key(key) }
  }

  // A scalar: on downstream, and into the value a `test` builds; a whole value tested ends
  // the test there.

  /// Passes the string on, unless the patch replaces or removes it.
  @inlinable public mutating func string(_ value: borrowing JSONString) throws {
    let route = try _begin(.string)
    if route.passesOn { try downstream.string(value) }
    guard route.builds else { return }
    if _test?.depth == 0 {
      try _testEnds(scalar: .string(value.string))
    } else {
      _builder.string(value)
    }
  }

  /// Passes the number on, unless the patch replaces or removes it.
  @inlinable public mutating func number(_ value: borrowing JSONNumber) throws {
    let route = try _begin(.number)
    if route.passesOn { try downstream.number(value) }
    guard route.builds else { return }
    if _test?.depth == 0 {
      try _testEnds(scalar: .number(JSONValue.Number(keepingText: value)))
    } else {
      _builder.number(value)
    }
  }

  /// Passes the number on, unless the patch replaces or removes it.
  @inlinable public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    let route = try _begin(.number)
    if route.passesOn { try downstream.binaryNumber(value) }
    guard route.builds else { return }
    if _test?.depth == 0 {
      try _testEnds(scalar: .number(value.withJSONNumber { JSONValue.Number(keepingText: $0) }))
    } else {
      _builder.binaryNumber(value)
    }
  }

  /// Passes the Boolean on, unless the patch replaces or removes it.
  @inlinable public mutating func bool(_ value: Bool) throws {
    let route = try _begin(value ? .true : .false)
    if route.passesOn { try downstream.bool(value) }
    guard route.builds else { return }
    if _test?.depth == 0 {
      try _testEnds(scalar: .bool(value))
    } else {
      _builder.bool(value)
    }
  }

  /// Passes `null` on, unless the patch replaces or removes it.
  @inlinable public mutating func null() throws {
    let route = try _begin(.null)
    if route.passesOn { try downstream.null() }
    guard route.builds else { return }
    if _test?.depth == 0 {
      try _testEnds(scalar: .null)
    } else {
      _builder.null()
    }
  }
}

/// A container of the input on operations' paths.
@usableFromInline
struct _PatchFrame: Sendable {
  /// The plan's node for it.
  @usableFromInline let node: Int
  @usableFromInline let isObject: Bool
  /// Which of the node's children the container had.
  @usableFromInline var seen: [Bool]
  /// An array's elements so far.
  @usableFromInline var count = 0
  /// Until its first event: the container has just started.
  @usableFromInline var isNew = true
  /// Whether downstream skips its contents.
  @usableFromInline var muted = false

  @usableFromInline
  init(node: Int, isObject: Bool, children: Int) {
    self.node = node
    self.isObject = isObject
    seen = Array(repeating: false, count: children)
  }
}

/// What becomes of the next value.
@usableFromInline
enum _PatchNext: Sendable {
  /// Passed on unchanged.
  case forward
  /// Dropped (`remove`).
  case drop
  /// Replaced by the operation's value (`add` of a member the object has, `replace`).
  case replace(Int)
  /// Passed on, and compared with the operation's value (`test`).
  case test(Int)
  /// On the way to operations: plan node `node`.
  case descend(Int)
}

/// What a value is, as far as the filter cares.
@usableFromInline
enum _PatchValueKind: Sendable {
  case object, array, string, number, `true`, `false`, null

  @usableFromInline var isContainer: Bool { self == .object || self == .array }

  /// A value of this kind, for a message (`notAContainer` names the kind only).
  var sample: JSONValue {
    switch self {
    case .object: return .object(JSONObject())
    case .array: return .array(JSONArray())
    case .string: return .string("")
    case .number: return 0
    case .true: return true
    case .false: return false
    case .null: return .null
    }
  }
}

/// Where an event goes.
@usableFromInline
enum _PatchRoute: Sendable {
  /// On downstream.
  case forward
  /// On downstream, and into the value a `test` builds.
  case test
  /// Only into the value a `test` builds (downstream skips the container it is in).
  case testOnly
  /// Nowhere.
  case drop

  /// Whether the event goes on downstream.
  @usableFromInline var passesOn: Bool { self == .forward || self == .test }
  /// Whether the event goes into the value a `test` builds.
  @usableFromInline var builds: Bool { self == .test || self == .testOnly }

  /// The route inside a container whose contents downstream skips.
  @usableFromInline var muted: _PatchRoute {
    switch self {
    case .forward, .drop: return .drop
    case .test, .testOnly: return .testOnly
    }
  }
}

extension JSONPatchFilter {
  /// A value starts: where its first event goes. Writes what the patch puts before or instead
  /// of it, and keeps track of where it is.
  @inlinable
  mutating func _begin(_ kind: _PatchValueKind) throws -> _PatchRoute {
    let route = try _beginRoute(kind)
    return _muted > 0 ? route.muted : route
  }

  @inlinable
  mutating func _beginRoute(_ kind: _PatchValueKind) throws -> _PatchRoute {
    if kind.isContainer { _depth += 1 }
    if _dropDepth > 0 {
      if kind.isContainer { _dropDepth += 1 }
      return .drop
    }
    if let test = _test {
      if kind.isContainer { _test = (test.operation, test.depth + 1) }
      return .test
    }
    if _passDepth > 0 {
      if kind.isContainer { _passDepth += 1 }
      return .forward
    }
    let route = try _beginOnPath(kind)
    if !kind.isContainer && route != .test { _valueEnds() }
    return route
  }

  /// A value directly in a container on operations' paths, or at the top.
  @usableFromInline
  mutating func _beginOnPath(_ kind: _PatchValueKind) throws -> _PatchRoute {
    var next: _PatchNext
    if let top = _frames.indices.last {
      if _frames[top].isObject {
        next = _next
        _next = .forward
      } else {
        next = try _element(in: top)
      }
    } else {
      next = _plan.operations.isEmpty ? .forward : .descend(0)
    }
    switch next {
    case .forward:
      if kind.isContainer { _passDepth = 1 }
      return .forward
    case .drop:
      if kind.isContainer { _dropDepth = 1 }
      return .drop
    case .replace(let operation):
      if _muted == 0 { try _plan.operations[operation].value!.replay(into: &downstream) }
      if kind.isContainer { _dropDepth = 1 }
      return .drop
    case .test(let operation):
      _test = (operation, kind.isContainer ? 1 : 0)
      return .test
    case .descend(let node):
      let children = _plan.nodes[node].children.count
      switch kind {
      case .object, .array:
        _frames.append(_PatchFrame(node: node, isObject: kind == .object, children: children))
      default:
        // The paths go on below a value that is not a container.
        let first = _plan.nodes[node].firstOperation
        _fail(
          first,
          .notAContainer(
            _plan.operations[first].path, at: _plan.pointer(of: _plan.nodes[node]),
            holding: kind.sample))
      }
      return .forward
    }
  }

  /// The next element of the array `_frames[frame]`: what becomes of it, after what the patch
  /// inserts before it.
  @usableFromInline
  mutating func _element(in frame: Int) throws -> _PatchNext {
    let index = _frames[frame].count
    _frames[frame].count += 1
    let node = _frames[frame].node
    guard let child = _plan.nodes[node].elementChildren[index] else { return .forward }
    let position = _plan.nodes[node].children.firstIndex(of: child)!
    _frames[frame].seen[position] = true
    guard let operation = _plan.nodes[child].operation else { return .descend(child) }
    switch _plan.operations[operation] {
    case .add(_, let value):
      // Inserted before the element at its index.
      if _muted == 0 { try value.replay(into: &downstream) }
      return .forward
    case .remove: return .drop
    case .replace: return .replace(operation)
    default: return .test(operation)
    }
  }

  /// A key in an object on operations' paths (or inside a value passed on, dropped or
  /// tested): where it goes.
  @inlinable
  mutating func _key(_ key: borrowing JSONString) -> _PatchRoute {
    let route = _keyRoute(key)
    return _muted > 0 ? route.muted : route
  }

  @inlinable
  mutating func _keyRoute(_ key: borrowing JSONString) -> _PatchRoute {
    if _dropDepth > 0 { return .drop }
    if _test != nil { return .test }
    if _passDepth > 0 { return .forward }
    let top = _frames.count - 1
    let node = _frames[top].node
    guard let position = _plan.nodes[node].table.position(of: key) else {
      _next = .forward
      return .forward
    }
    _frames[top].seen[position] = true
    let child = _plan.nodes[node].children[position]
    guard let operation = _plan.nodes[child].operation else {
      _next = .descend(child)
      return .forward
    }
    switch _plan.operations[operation] {
    case .remove:
      _next = .drop
      return .drop
    case .test:
      _next = .test(operation)
    default:
      _next = .replace(operation)
    }
    return .forward
  }

  /// A container ends: where its end event goes. One on operations' paths first gets what the
  /// patch adds at its end, and the operations that found nothing fail.
  @inlinable
  mutating func _end() throws -> _PatchRoute {
    _depth -= 1
    if _dropDepth > 0 {
      _dropDepth -= 1
      if _dropDepth == 0 { _valueEnds() }
      return .drop
    }
    if let test = _test {
      _test = (test.operation, test.depth - 1)
      return _muted > 0 ? .testOnly : .test
    }
    if _passDepth > 0 {
      _passDepth -= 1
      if _passDepth == 0 { _valueEnds() }
      return _muted > 0 ? .drop : .forward
    }
    let frame = _frames.removeLast()
    try _close(frame)
    if frame.muted { _muted -= 1 }
    _valueEnds()
    return _muted > 0 ? .drop : .forward
  }

  /// After a container on operations' paths started: when ``downstream`` skips its contents,
  /// nothing in it is sent on.
  @inlinable
  mutating func _muteIfSkipped() {
    guard let top = _frames.indices.last, _frames[top].isNew else { return }
    _frames[top].isNew = false
    if _muted == 0 && downstream.skipsContainerContents {
      _frames[top].muted = true
      _muted += 1
    }
  }

  /// The end of a container on operations' paths: the members or elements the patch adds, and
  /// the failures of the operations whose next token it lacked.
  @usableFromInline
  mutating func _close(_ frame: _PatchFrame) throws {
    let node = _plan.nodes[frame.node]
    // Nothing is added to a container whose contents downstream skips, or that is inside one.
    let quiet = _muted > 0
    for position in node.children.indices where !frame.seen[position] {
      let child = node.children[position]
      let token = node.tokens[position]
      let first = _plan.nodes[child].firstOperation
      let path = _plan.operations[first].path
      let location = _plan.pointer(of: _plan.nodes[child])
      let operation = _plan.nodes[child].operation.map { _plan.operations[$0] }
      if frame.isObject {
        if case .add(_, let value) = operation {
          if quiet { continue }
          var name = token
          try name.withJSONString { try downstream.key($0) }
          try value.replay(into: &downstream)
        } else {
          _fail(first, .missingMember(path, at: location))
        }
        continue
      }
      let count = frame.count
      switch (_ArrayToken(token), operation) {
      case (.invalid, _):
        _fail(first, .invalidIndex(path, at: _plan.pointer(of: node), token: token))
      case (.end, .add(_, let value)):
        if !quiet { try value.replay(into: &downstream) }
      case (.index(let index), .add(_, let value)):
        if index == count {
          if !quiet { try value.replay(into: &downstream) }
        } else {
          _fail(first, .pastTheEnd(path, at: location, count: count))
        }
      case (.end, _), (.index, _):
        _fail(first, .missingElement(path, at: location, count: count))
      }
    }
  }

  /// The value a `test` built is complete when its last container ends: compares it, or the
  /// scalar `scalar` it tests. (A scalar is made as a tree's member gives it, not as a
  /// builder's top-level value: a number then has the same text, `1e0` as `1.0`, in the
  /// error.)
  @usableFromInline
  mutating func _testEnds(scalar: JSONValue? = nil) throws {
    guard let test = _test, test.depth == 0 else { return }
    _test = nil
    let found = scalar ?? _builder.takeValues()[0]
    guard case .test(let path, let expected) = _plan.operations[test.operation] else { return }
    if found != expected {
      _fail(test.operation, .testFailed(path, found: found, expected: expected))
    }
    _valueEnds()
  }

  /// Operation `operation` fails with `error`: kept when it is the first failing operation
  /// of the value.
  @usableFromInline
  mutating func _fail(_ operation: Int, _ error: JSONPatchError) {
    if let known = _valueError?.operationIndex, known <= operation { return }
    _valueError = error.inOperation(operation, _plan.operations[operation].name)
  }

  /// A value ended: at the top, its failure, if any, is the filter's unless an earlier
  /// value's is.
  @usableFromInline
  mutating func _valueEnds() {
    guard _depth == 0 else { return }
    if error == nil { error = _valueError }
    _valueError = nil
    _next = .forward
  }
}
