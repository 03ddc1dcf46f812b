import JSONStream

/// An event with its payload copied out, so event streams can be compared.
public enum Event: Equatable, Sendable, CustomStringConvertible {
  case startObject, endObject, startArray, endArray
  case key(String)
  case string(String)
  case number(String)
  case bool(Bool)
  case null

  public var description: String {
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

/// Records every event, and stops after `limit` events when given. The bytes of strings and
/// keys are kept too, to compare with their `String` form (equal only for well-formed UTF-8).
public struct EventRecorder: JSONEventHandler {
  public var events: [Event] = []
  public var stringBytes: [[UInt8]] = []
  public var limit: Int

  public init(limit: Int = .max) {
    self.limit = limit
  }

  public var isDone: Bool { events.count >= limit }

  public mutating func startObject() { events.append(.startObject) }
  public mutating func endObject() { events.append(.endObject) }
  public mutating func startArray() { events.append(.startArray) }
  public mutating func endArray() { events.append(.endArray) }
  public mutating func key(_ key: borrowing JSONString) {
    events.append(.key(key.string))
    stringBytes.append(key.bytes)
  }
  public mutating func string(_ value: borrowing JSONString) {
    events.append(.string(value.string))
    stringBytes.append(value.bytes)
  }
  public mutating func number(_ value: borrowing JSONNumber) { events.append(.number(value.text)) }
  public mutating func bool(_ value: Bool) { events.append(.bool(value)) }
  public mutating func null() { events.append(.null) }
}

/// The events the parser delivers for `text`.
public func parsedEvents(_ text: String) throws -> [Event] {
  try JSONParser.parse(Array(text.utf8), handler: EventRecorder()).events
}

/// A small deterministic generator (SplitMix64), so generated tests are reproducible.
public struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
