// A JSONValue as a producer of events: replay into any consumer. Nesting is walked with an
// explicit stack, not recursion.

import JSONStreamCore
import JSONStreamParser

extension JSONValue {
  /// Delivers this value's events to `handler`, as a parser of its JSON text would. Stops early
  /// when the handler's ``JSONEventHandler/isDone`` becomes true.
  ///
  /// ```swift
  /// var writer = JSONWriter(options: .pretty)
  /// try value.replay(into: &writer)
  /// try writer.finish()
  /// ```
  @inlinable
  public func replay<Handler: JSONEventHandler>(into handler: inout Handler) throws {
    handler.beginEventRun()
    defer { handler.endEventRun() }
    try _replay(into: &handler) { node, handler in try _JSONStorage.replay(node, into: &handler) }
  }

  /// Delivers this value's events to `handler`, but hands each array or object that is still
  /// a view of a parsed document to `writeView` with its node, for a consumer that has a
  /// faster way to take a whole tree (the writers' one-pass paths). Containers changed in
  /// code are walked here, with a stack of their own: any depth replays without recursion.
  @inlinable
  package func _replay<Handler: JSONEventHandler>(
    into handler: inout Handler, writeView: (_Node, inout Handler) throws -> Void
  ) throws {
    if try _replayLeaf(into: &handler, writeView: writeView) { return }
    // A changed container: its members, and what they hold, through an explicit stack.
    var stack: [_ReplayFrame] = []
    try _ReplayFrame.start(self, on: &stack, into: &handler)
    while !stack.isEmpty && !handler.isDone {
      let top = stack.count &- 1
      switch stack[top] {
      case .array(let values, let next):
        guard next < values.count else {
          stack.removeLast()
          try handler.endArray()
          continue
        }
        stack[top] = .array(values, next: next &+ 1)
        let value = values[next]
        if try !value._replayLeaf(into: &handler, writeView: writeView) {
          try _ReplayFrame.start(value, on: &stack, into: &handler)
        }
      case .object(let members, let next):
        guard next < members.values.count else {
          stack.removeLast()
          try handler.endObject()
          continue
        }
        stack[top] = .object(members, next: next &+ 1)
        var key = members.keys[next].string
        try key.withJSONString { try handler.key($0) }
        let value = members.values[next]
        if try !value._replayLeaf(into: &handler, writeView: writeView) {
          try _ReplayFrame.start(value, on: &stack, into: &handler)
        }
      }
    }
  }

  /// Delivers this value's events when it is a scalar or a view of a parsed document, and
  /// returns true; returns false for a changed container, which `_replay` walks.
  @inlinable
  func _replayLeaf<Handler: JSONEventHandler>(
    into handler: inout Handler, writeView: (_Node, inout Handler) throws -> Void
  ) throws -> Bool {
    switch self {
    case .null: try handler.null()
    case .bool(let flag): try handler.bool(flag)
    case .number(let number): try number.withJSONNumber { try handler.number($0) }
    case .string(var text): try text.withJSONString { try handler.string($0) }
    case .array(let array):
      guard let view = array._view else { return false }
      try view.withNode(open: _JSONNode.openArray, closed: _JSONNode.array) {
        try writeView($0, &handler)
      }
    case .object(let object):
      guard let view = object._view else { return false }
      try view.withNode(open: _JSONNode.openObject, closed: _JSONNode.object) {
        try writeView($0, &handler)
      }
    }
    return true
  }
}

/// A changed container being replayed: its members, and the position of the next one.
@usableFromInline
enum _ReplayFrame {
  case array([JSONValue], next: Int)
  case object(JSONObject._Members, next: Int)

  /// Starts replaying the changed container `value`.
  @inlinable
  static func start<Handler: JSONEventHandler>(
    _ value: JSONValue, on stack: inout [_ReplayFrame], into handler: inout Handler
  ) throws {
    switch value {
    case .array(let array):
      guard case .values(let values) = array._storage else { return }
      try handler.startArray()
      stack.append(.array(values, next: 0))
    case .object(let object):
      guard case .members(let members) = object._storage else { return }
      try handler.startObject()
      stack.append(.object(members, next: 0))
    default:
      return
    }
  }
}

extension _JSONStorage {
  /// Delivers the events of container `root` and everything in it. The memory must stay alive
  /// meanwhile.
  @inlinable
  static func replay<Handler: JSONEventHandler>(_ root: _Node, into handler: inout Handler) throws {
    // The handler is moved into the visitor and back, not copied: a copy would share its
    // state, and the handler's next change would copy it.
    var visitor = _ReplayVisitor(handler: consume handler)
    defer { handler = visitor.handler }
    try walk(root, into: &visitor)
  }
}

/// Replay as a visitor of the walk: each node becomes the event a parser of its text gives.
@usableFromInline
struct _ReplayVisitor<Handler: JSONEventHandler>: _NodeVisitor {
  @usableFromInline var handler: Handler

  @inlinable init(handler: consuming Handler) { self.handler = handler }

  @inlinable var isDone: Bool { handler.isDone }

  @inlinable @inline(__always)
  mutating func visitNull() throws { try handler.null() }

  @inlinable @inline(__always)
  mutating func visitBool(_ value: Bool) throws { try handler.bool(value) }

  @inlinable @inline(__always)
  mutating func visitNumber(_ number: borrowing JSONNumber) throws { try handler.number(number) }

  @inlinable @inline(__always)
  mutating func visitInteger(_ value: Int64, text: borrowing JSONNumber) throws {
    try handler.number(text)
  }

  @inlinable @inline(__always)
  mutating func visitBinaryNumber(_ number: JSONBinaryNumber) throws {
    try handler.binaryNumber(number)
  }

  @inlinable @inline(__always)
  mutating func visitString(_ value: borrowing JSONString) throws {
    try handler.string(value)
  }

  @inlinable @inline(__always)
  mutating func visitChild(key: consuming JSONString?, isFirst: Bool, of container: inout Void)
    throws
  {
    if let key { try handler.key(key) }
  }

  @inlinable @inline(__always)
  mutating func visitStart(isObject: Bool, isEmpty: Bool, in parent: Void?) throws {
    if isObject { try handler.startObject() } else { try handler.startArray() }
  }

  @inlinable @inline(__always)
  mutating func visitEnd(_ container: Void, isObject: Bool, isEmpty: Bool) throws {
    if isObject { try handler.endObject() } else { try handler.endArray() }
  }
}

extension JSONValue {
  /// Frees `values`, and the containers changed in code within them, level by level with a
  /// stack of its own. Swift frees nested values recursively, a few stack frames per level:
  /// a chain of changed containers as deep as a raised depth limit allows (an edit at the
  /// bottom of a million-level document) would overflow the stack. Parsed containers are
  /// flat in memory and free at once.
  package static func _releaseIteratively(_ values: inout [JSONValue]) {
    var pending: [JSONValue] = []
    swap(&pending, &values)
    while var value = pending.popLast() {
      // Each changed container's children move onto the stack before it is freed, so that
      // freeing it frees no level below.
      if case .array(var array) = value {
        value = .null
        if array._view == nil { pending.append(contentsOf: array._takeValues()) }
      } else if case .object(var object) = value {
        value = .null
        if object._view == nil { pending.append(contentsOf: object._takeMembers().values) }
      }
    }
  }
}
