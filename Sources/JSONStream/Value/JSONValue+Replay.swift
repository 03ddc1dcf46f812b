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
    var stack: [_ReplayFrame] = []
    var next: JSONValue? = self
    while true {
      if let value = next {
        next = nil
        switch value {
        case .null: try handler.null()
        case .bool(let flag): try handler.bool(flag)
        case .number(let number): try number.withJSONNumber { try handler.number($0) }
        case .string(var text): try text.withUTF8 { try handler.string(JSONString(utf8: $0)) }
        case .array(let array):
          try handler.startArray()
          stack.append(.array(array, 0))
        case .object(let object):
          try handler.startObject()
          stack.append(.object(object, 0))
        }
        if handler.isDone { return }
      }
      guard let frame = stack.popLast() else { return }
      switch frame {
      case .array(let array, let index):
        if index < array.count {
          stack.append(.array(array, index + 1))
          next = array[index]
        } else {
          try handler.endArray()
        }
      case .object(let object, let index):
        if index < object.count {
          stack.append(.object(object, index + 1))
          var key = object._keys[index]
          try key.withUTF8 { try handler.key(JSONString(utf8: $0)) }
          next = object._values[index]
        } else {
          try handler.endObject()
        }
      }
      if handler.isDone { return }
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

@usableFromInline
enum _ReplayFrame {
  case array([JSONValue], Int)
  case object(JSONObject, Int)
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
