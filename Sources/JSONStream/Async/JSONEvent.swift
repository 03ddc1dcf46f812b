import JSONStreamCore
import JSONStreamParser
import JSONStreamPath
import JSONStreamValue

/// One parser event as a value of its own, for consumers that keep events or pass them across
/// tasks (``JSONEventHandler`` events are borrowed views, valid only during the call).
public enum JSONEvent: Sendable, Hashable {
  /// `{`: an object starts.
  case startObject
  /// `}`: the innermost open object ends.
  case endObject
  /// `[`: an array starts.
  case startArray
  /// `]`: the innermost open array ends.
  case endArray
  /// An object member's key.
  case key(String)
  /// A string value.
  case string(String)
  /// The number, keeping its text as written (see ``JSONValue/Number``).
  case number(JSONValue.Number)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// Delivers the event to `handler`.
  public func send<Handler: JSONEventHandler>(to handler: inout Handler) throws {
    switch self {
    case .startObject: try handler.startObject()
    case .endObject: try handler.endObject()
    case .startArray: try handler.startArray()
    case .endArray: try handler.endArray()
    case .key(var key): try key.withJSONString { try handler.key($0) }
    case .string(var value): try value.withJSONString { try handler.string($0) }
    case .number(let number): try number.withJSONNumber { try handler.number($0) }
    case .bool(let value): try handler.bool(value)
    case .null: try handler.null()
    }
  }
}

/// Collects events as ``JSONEvent`` values.
public struct JSONEventCollector: JSONEventHandler {
  /// The events so far.
  public var events: [JSONEvent] = []

  /// An empty collector.
  public init() {}

  /// Returns the events so far and forgets them.
  public mutating func takeEvents() -> [JSONEvent] {
    defer { events.removeAll(keepingCapacity: true) }
    return events
  }

  /// Appends ``JSONEvent/startObject``.
  public mutating func startObject() { events.append(.startObject) }
  /// Appends ``JSONEvent/endObject``.
  public mutating func endObject() { events.append(.endObject) }
  /// Appends ``JSONEvent/startArray``.
  public mutating func startArray() { events.append(.startArray) }
  /// Appends ``JSONEvent/endArray``.
  public mutating func endArray() { events.append(.endArray) }
  /// Appends the key, as ``JSONEvent/key(_:)``.
  public mutating func key(_ key: borrowing JSONString) { events.append(.key(key.string)) }
  /// Appends the string, as ``JSONEvent/string(_:)``.
  public mutating func string(_ value: borrowing JSONString) {
    events.append(.string(value.string))
  }
  /// Appends the number, keeping its text, as ``JSONEvent/number(_:)``.
  public mutating func number(_ value: borrowing JSONNumber) {
    events.append(.number(JSONValue.Number(keepingText: value)))
  }
  /// Appends the Boolean, as ``JSONEvent/bool(_:)``.
  public mutating func bool(_ value: Bool) { events.append(.bool(value)) }
  /// Appends ``JSONEvent/null``.
  public mutating func null() { events.append(.null) }
}
