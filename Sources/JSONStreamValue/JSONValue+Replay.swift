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
    switch self {
    case .null: try handler.null()
    case .bool(let flag): try handler.bool(flag)
    case .number(let number): try number.withJSONNumber { try handler.number($0) }
    case .string(var text): try text.withJSONString { try handler.string($0) }
    case .array(let array):
      try array._withNode { try _JSONStorage.replay($0, into: &handler) }
    case .object(let object):
      try object._withNode { try _JSONStorage.replay($0, into: &handler) }
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
