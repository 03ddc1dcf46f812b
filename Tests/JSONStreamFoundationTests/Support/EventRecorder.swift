import JSONStream

/// An event with its payload copied out, so event streams can be compared.
enum Event: Equatable, CustomStringConvertible {
  case startObject, endObject, startArray, endArray
  case key(String)
  case string(String)
  case number(String)
  case bool(Bool)
  case null

  var description: String {
    switch self {
    case .startObject: return "{"
    case .endObject: return "}"
    case .startArray: return "["
    case .endArray: return "]"
    case .key(let s): return "key(\(s.debugDescription))"
    case .string(let s): return "string(\(s.debugDescription))"
    case .number(let s): return "number(\(s))"
    case .bool(let b): return "\(b)"
    case .null: return "null"
    }
  }
}

/// Records every event; stops after `limit` events when given.
struct EventRecorder: JSONEventHandler {
  var events: [Event] = []
  var limit = Int.max

  init(limit: Int = .max) {
    self.limit = limit
  }

  var isDone: Bool { events.count >= limit }

  mutating func startObject() { events.append(.startObject) }
  mutating func endObject() { events.append(.endObject) }
  mutating func startArray() { events.append(.startArray) }
  mutating func endArray() { events.append(.endArray) }
  mutating func key(_ key: JSONString) { events.append(.key(key.string)) }
  mutating func string(_ value: JSONString) { events.append(.string(value.string)) }
  mutating func number(_ value: JSONNumber) { events.append(.number(value.text)) }
  mutating func bool(_ value: Bool) { events.append(.bool(value)) }
  mutating func null() { events.append(.null) }
}

/// The events the parser delivers for `text`.
func parsedEvents(_ text: String) throws -> [Event] {
  try JSONParser.parse(Array(text.utf8), handler: EventRecorder()).events
}
