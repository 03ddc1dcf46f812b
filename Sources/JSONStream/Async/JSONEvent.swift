import JSONStreamCore
import JSONStreamParser
import JSONStreamPath
import JSONStreamValue

/// One parser event as a value of its own, for consumers that keep events or pass them across
/// tasks (``JSONEventHandler`` events are borrowed views, valid only during the call).
public enum JSONEvent: Sendable, Hashable {
  case startObject
  case endObject
  case startArray
  case endArray
  case key(String)
  case string(String)
  /// The number, keeping its text as written (see ``JSONValue/Number``).
  case number(JSONValue.Number)
  case bool(Bool)
  case null

  /// Delivers the event to `handler`.
  public func send<Handler: JSONEventHandler>(to handler: inout Handler) throws {
    switch self {
    case .startObject: try handler.startObject()
    case .endObject: try handler.endObject()
    case .startArray: try handler.startArray()
    case .endArray: try handler.endArray()
    case .key(var key): try key.withUTF8 { try handler.key(JSONString(_wellFormed: $0)) }
    case .string(var value): try value.withUTF8 { try handler.string(JSONString(_wellFormed: $0)) }
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

  public init() {}

  /// Returns the events so far and forgets them.
  public mutating func takeEvents() -> [JSONEvent] {
    defer { events.removeAll(keepingCapacity: true) }
    return events
  }

  public mutating func startObject() { events.append(.startObject) }
  public mutating func endObject() { events.append(.endObject) }
  public mutating func startArray() { events.append(.startArray) }
  public mutating func endArray() { events.append(.endArray) }
  public mutating func key(_ key: JSONString) { events.append(.key(key.string)) }
  public mutating func string(_ value: JSONString) { events.append(.string(value.string)) }
  public mutating func number(_ value: JSONNumber) {
    events.append(.number(JSONValue.Number(keepingText: value)))
  }
  public mutating func bool(_ value: Bool) { events.append(.bool(value)) }
  public mutating func null() { events.append(.null) }
}
