// A JSONValue as a producer of events: replay into any consumer. Serialization is
// replay → JSONWriter. Nesting is walked with an explicit stack, not recursion.

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
    switch self {
    case .null: try handler.null()
    case .bool(let flag): try handler.bool(flag)
    case .number(let number): try number.withJSONNumber { try handler.number($0) }
    case .string(var text): try text.withUTF8 { try handler.string(JSONString(utf8: $0)) }
    case .array(let array):
      try array._storage.replay(kind: _JSONNode.array, first: array._first, count: array.count, into: &handler)
    case .object(let object):
      try object._storage.replay(kind: _JSONNode.object, first: object._first, count: object.count, into: &handler)
    }
  }

  /// The value as JSON text (UTF-8 bytes).
  ///
  /// - Throws: ``JSONWriterError`` for NaN or infinite numbers (unless the options allow them).
  public func jsonBytes(options: JSONWriteOptions = .compact) throws -> [UInt8] {
    var writer = JSONWriter(options: options)
    try replay(into: &writer)
    try writer.finish()
    return writer.bytes
  }

  /// The value as JSON text.
  public func jsonString(options: JSONWriteOptions = .compact) throws -> String {
    String(decoding: try jsonBytes(options: options), as: UTF8.self)
  }
}

extension _JSONStorage {
  /// Delivers the events of the container whose node would be `kind`, `first`, `count`: a walk
  /// over the nodes, with an explicit stack of the containers open around it.
  @inlinable
  func replay<Handler: JSONEventHandler>(
    kind: UInt64, first: Int, count: Int, into handler: inout Handler
  ) throws {
        // Per open container: the next node, the end node, and whether it is an object.
        var stack: [(next: Int, end: Int, isObject: Bool)] = []
        var head = kind | UInt64(truncatingIfNeeded: count) << 8
        var payload = UInt64(truncatingIfNeeded: first)
        while true {
          // Deliver one value: `head`, `payload`.
          switch _JSONNode.kind(head) {
          case _JSONNode.null: try handler.null()
          case _JSONNode.false: try handler.bool(false)
          case _JSONNode.true: try handler.bool(true)
          case _JSONNode.number:
            let start = Int(truncatingIfNeeded: payload)
            try handler.number(
              JSONNumber(
                _utf8: bytes(start, count: _JSONNode.numberLength(head)),
                flags: _JSONNode.numberFlags(head)))
          case _JSONNode.string:
            let start = Int(truncatingIfNeeded: payload)
            try handler.string(JSONString(utf8: bytes(start, count: _JSONNode.count(head))))
          case _JSONNode.array:
            try handler.startArray()
            let first = Int(truncatingIfNeeded: payload)
            stack.append((first, first &+ _JSONNode.count(head), false))
          default:
            try handler.startObject()
            let first = Int(truncatingIfNeeded: payload)
            stack.append((first, first &+ 2 &* _JSONNode.count(head), true))
          }
          if handler.isDone { return }
          // Find the next value: close finished containers, deliver a key before a member.
          while true {
            guard let top = stack.last else { return }
            if top.next == top.end {
              stack.removeLast()
              if top.isObject { try handler.endObject() } else { try handler.endArray() }
              if handler.isDone { return }
              continue
            }
            var node = top.next
            if top.isObject {
              let keyHead = words[2 &* node]
              let start = Int(truncatingIfNeeded: words[2 &* node &+ 1])
              try handler.key(JSONString(utf8: bytes(start, count: _JSONNode.count(keyHead))))
              if handler.isDone { return }
              node &+= 1
            }
            stack[stack.count &- 1].next = node &+ 1
            head = words[2 &* node]
            payload = words[2 &* node &+ 1]
            break
          }
        }
  }
}

extension JSONValue: CustomStringConvertible {
  /// Compact JSON (non-finite numbers appear as `NaN`/`Infinity`, which JSON lacks).
  public var description: String {
    var options = JSONWriteOptions()
    options.allowNonFiniteNumbers = true
    return (try? jsonString(options: options)) ?? "<invalid>"
  }
}

extension JSONObject: CustomStringConvertible {
  public var description: String { JSONValue.object(self).description }
}
