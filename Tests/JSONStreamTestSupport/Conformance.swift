import JSONStream

// The conformance matrix's shared half: the cases, the chunkings, what an entry point's outcome
// is, and the reference outcome every entry point must reproduce (JSONParser with a recording
// handler). The entry points themselves are listed in each test target's matrix test.

/// One input of the matrix: bytes, the options to read them with, and the duplicate-key policy
/// for consumers that have one.
public struct ConformanceCase: Sendable, CustomStringConvertible {
  public var name: String
  public var bytes: [UInt8]
  public var options: JSONParseOptions
  /// `.error` makes a repeated key an error; consumers without a policy do not take such cases.
  public var rejectsDuplicateKeys: Bool

  public init(
    _ name: String, _ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions(),
    rejectsDuplicateKeys: Bool = false
  ) {
    self.name = name
    self.bytes = bytes
    self.options = options
    self.rejectsDuplicateKeys = rejectsDuplicateKeys
  }

  public init(
    _ name: String, _ text: String, options: JSONParseOptions = JSONParseOptions(),
    rejectsDuplicateKeys: Bool = false
  ) {
    self.init(
      name, Array(text.utf8), options: options, rejectsDuplicateKeys: rejectsDuplicateKeys)
  }

  public var description: String { name }

  /// The case with other options.
  public func with(_ change: (inout JSONParseOptions) -> Void) -> ConformanceCase {
    var copy = self
    change(&copy.options)
    return copy
  }
}

/// How input is cut into chunks.
public enum Chunking: Sendable, CustomStringConvertible, CaseIterable {
  case whole, oneByte, sevenBytes, random

  public var description: String {
    switch self {
    case .whole: return "whole"
    case .oneByte: return "1-byte chunks"
    case .sevenBytes: return "7-byte chunks"
    case .random: return "random chunks"
    }
  }

  /// `bytes` cut this way (random cuts are seeded by the input, so a failure reproduces).
  public func chunks(_ bytes: [UInt8]) -> [[UInt8]] {
    switch self {
    case .whole: return [bytes]
    case .oneByte: return bytes.map { [$0] }
    case .sevenBytes:
      return stride(from: 0, to: bytes.count, by: 7).map {
        Array(bytes[$0..<min(bytes.count, $0 + 7)])
      }
    case .random:
      var random = SplitMix(seed: UInt64(bytes.count) &* 0x9E37 &+ UInt64(bytes.first ?? 0))
      var chunks: [[UInt8]] = []
      var start = 0
      while start < bytes.count {
        let size = Int(random.next() % 13)  // empty chunks too
        let end = min(bytes.count, start + size)
        chunks.append(Array(bytes[start..<end]))
        start = end
      }
      return chunks
    }
  }
}

/// Where an error is, and what kind: all that entry points must agree on (messages may say
/// more or less).
public struct ErrorPlace: Equatable, Sendable, CustomStringConvertible {
  public var kind: JSONParseError.Kind
  public var offset: Int
  public var line: Int
  public var column: Int

  public init(kind: JSONParseError.Kind, offset: Int, line: Int, column: Int) {
    self.kind = kind
    self.offset = offset
    self.line = line
    self.column = column
  }

  public init(_ error: JSONParseError) {
    self.init(kind: error.kind, offset: error.offset, line: error.line, column: error.column)
  }

  public var description: String { "\(kind) at \(offset) (\(line):\(column))" }
}

/// What an entry point made of an input: what it delivered (each unit — a value, a document,
/// an item, or for event consumers the whole event stream — as its events), then its error.
public struct ConformanceOutcome: Equatable, CustomStringConvertible {
  public var units: [[Event]]
  public var error: ErrorPlace?

  public init(units: [[Event]], error: ErrorPlace?) {
    self.units = units
    self.error = error
  }

  public var description: String {
    "\(units.count) unit(s) \(units.map { $0.map(\.description).joined(separator: " ") })"
      + (error.map { ", then \($0)" } ?? "")
  }

  /// The outcome with every unit in canonical form (``canonicalUnit(_:firstKeyWins:)``), for
  /// consumers that keep values but not number text or key order (Foundation objects, Codable).
  public func canonical(firstKeyWins: Bool = false) -> ConformanceOutcome {
    ConformanceOutcome(
      units: units.map { [.string(canonicalUnit($0, firstKeyWins: firstKeyWins))] }, error: error)
  }
}

/// What an entry point delivers, as units of the reference event stream.
public enum ConformanceUnits: Sendable {
  /// Every event, as one unit: parsers, filters, event sequences.
  case events
  /// Each complete top-level value: trees, documents, decoders.
  case topLevelValues
  /// Each complete element of a top-level array (`$[*]`): item streamers.
  case rootElements
}

/// Records events and, when asked, rejects a repeated key in an object as the tree builder
/// does (a ``JSONContentError``, which the parser locates): the reference handler.
public struct ReferenceRecorder: JSONEventHandler {
  public var recorder = EventRecorder()
  let rejectsDuplicateKeys: Bool
  /// Objects opened at this depth or deeper are checked (1: inside the root's children, as
  /// an item streamer builds only its items).
  let checkedDepth: Int
  var keys: [Set<String>?] = []

  public init(rejectsDuplicateKeys: Bool, checkedDepth: Int = 0) {
    self.rejectsDuplicateKeys = rejectsDuplicateKeys
    self.checkedDepth = checkedDepth
  }

  public mutating func startObject() {
    keys.append([])
    recorder.startObject()
  }
  public mutating func endObject() {
    keys.removeLast()
    recorder.endObject()
  }
  public mutating func startArray() {
    keys.append(nil)
    recorder.startArray()
  }
  public mutating func endArray() {
    keys.removeLast()
    recorder.endArray()
  }
  public mutating func key(_ key: borrowing JSONString) throws {
    if rejectsDuplicateKeys && keys.count > checkedDepth {
      let text = key.string
      if keys[keys.count - 1]!.insert(text).inserted == false {
        throw JSONValueError.duplicateKey(text)
      }
    }
    recorder.key(key)
  }
  public mutating func string(_ value: borrowing JSONString) { recorder.string(value) }
  public mutating func number(_ value: borrowing JSONNumber) { recorder.number(value) }
  public mutating func bool(_ value: Bool) { recorder.bool(value) }
  public mutating func null() { recorder.null() }
}

/// The reference: `JSONParser` with a recording handler, fed the whole input at once, its
/// events cut into `units`; each value as a tree holds it (``lastKeyWins(_:)``) unless
/// `asWritten`.
public func referenceOutcome(
  _ test: ConformanceCase, units: ConformanceUnits, asWritten: Bool = false
) -> ConformanceOutcome {
  var parser = JSONParser(
    handler: ReferenceRecorder(
      rejectsDuplicateKeys: test.rejectsDuplicateKeys,
      checkedDepth: units == .rootElements ? 1 : 0),
    options: test.options)
  var error: ErrorPlace? = nil
  do {
    try parser.feed(test.bytes)
    try parser.finish()
  } catch let caught as JSONParseError {
    error = ErrorPlace(caught)
  } catch {
    fatalError("the reference threw \(error)")
  }
  let values = cut(parser.handler.recorder.events, units)
  return ConformanceOutcome(
    units: asWritten || units == .events ? values : values.map(lastKeyWins), error: error)
}

/// The reference for NDJSON: each line that is not blank is one document, read by `JSONParser`
/// alone with its position counted from the line's start; the first error ends the stream. As
/// for one parser, `maxInputLength` bounds the stream: what lies before it is read, then the
/// limit is the error, where the bytes run out. With `skipping`, a line that is not valid JSON
/// is a unit of its own, `skipped` and its error's place, and the lines after it are read; only
/// the limit ends the stream.
public func referenceLinesOutcome(
  _ test: ConformanceCase, asWritten: Bool = false, skipping: Bool = false
)
  -> ConformanceOutcome
{
  do {
    try test.options.validate()
  } catch let error as JSONParseError {
    return ConformanceOutcome(units: [], error: ErrorPlace(error))
  } catch {
    fatalError("validate() threw \(error)")
  }
  let limit = test.options.limits.maxInputLength
  let readable = Array(test.bytes.prefix(limit))
  var units: [[Event]] = []
  var start = 0
  var line = 1
  var options = test.options
  options.allowMultipleValues = false
  options.limits.maxInputLength = .max
  func located(_ error: JSONParseError) -> ErrorPlace {
    ErrorPlace(
      kind: error.kind, offset: start + error.offset, line: line + error.line - 1,
      column: error.column)
  }
  while start <= readable.count {
    let newline = readable[start...].firstIndex(of: 0x0A)
    let end = newline ?? readable.count
    let text = Array(readable[start..<end])
    var parser = JSONParser(
      handler: ReferenceRecorder(rejectsDuplicateKeys: test.rejectsDuplicateKeys),
      options: options)
    do {
      try parser.feed(text)
      if newline == nil && readable.count < test.bytes.count {
        // The limit falls in this line (or just before its newline).
        let error = JSONParseError(
          kind: .limitExceeded(.inputLength), offset: parser.offset, line: parser.line,
          column: parser.column, message: "")
        return ConformanceOutcome(units: units, error: located(error))
      }
      if text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
        try parser.finish()
        let events = parser.handler.recorder.events
        units.append(asWritten ? events : lastKeyWins(events))
      }
    } catch let error as JSONParseError {
      guard skipping, newline != nil || readable.count == test.bytes.count else {
        return ConformanceOutcome(units: units, error: located(error))
      }
      units.append(skippedUnit(located(error)))
    } catch {
      fatalError("the reference threw \(error)")
    }
    start = end + 1
    line += 1
  }
  return ConformanceOutcome(units: units, error: nil)
}

/// `events` cut into units: all of them, each complete top-level value, or each complete
/// element of a top-level array. What is left incomplete at the end (before an error) is no
/// unit, except in `.events`.
public func cut(_ events: [Event], _ units: ConformanceUnits) -> [[Event]] {
  switch units {
  case .events: return [events]
  case .topLevelValues: return completeValues(events, at: 0)
  case .rootElements:
    // The children of each top-level container: an array's elements, an object's members'
    // values (`$[*]` is RFC 9535's wildcard).
    var result: [[Event]] = []
    for value in completeValues(events, at: 0, keepIncomplete: true)
    where value.first == .startArray || value.first == .startObject {
      result += completeValues(Array(value.dropFirst()), at: 0)
    }
    return result
  }
}

/// A value's events as a tree holds it: a repeated key keeps its first place and its last
/// value.
public func lastKeyWins(_ events: [Event]) -> [Event] {
  var index = 0
  return lastKeyWins(events, &index)
}

private func lastKeyWins(_ events: [Event], _ index: inout Int) -> [Event] {
  guard index < events.count else { return [] }
  let event = events[index]
  index += 1
  switch event {
  case .startArray:
    var result: [Event] = [.startArray]
    while index < events.count && events[index] != .endArray {
      result += lastKeyWins(events, &index)
    }
    if index < events.count { result.append(.endArray) }
    index += 1
    return result
  case .startObject:
    var members: [(key: String, value: [Event])] = []
    while index < events.count, case .key(let key) = events[index] {
      index += 1
      let value = lastKeyWins(events, &index)
      if let place = members.firstIndex(where: { $0.key == key }) {
        members[place].value = value
      } else {
        members.append((key, value))
      }
    }
    var result: [Event] = [.startObject]
    for member in members { result += [.key(member.key)] + member.value }
    if index < events.count { result.append(.endObject) }
    index += 1
    return result
  default:
    return [event]
  }
}

/// The complete values that start at `depth` 0 of `events` (a value ends when its depth comes
/// back to 0), and with `keepIncomplete` the incomplete last one too.
func completeValues(_ events: [Event], at depth: Int, keepIncomplete: Bool = false) -> [[Event]] {
  var values: [[Event]] = []
  var current: [Event] = []
  var level = depth
  for event in events {
    switch event {
    case .endArray, .endObject:
      if level == 0 { return values }  // the end of the enclosing container
      level -= 1
    default: break
    }
    if case .key = event, level == 0 { continue }
    current.append(event)
    switch event {
    case .startArray, .startObject: level += 1
    default: break
    }
    if level == 0 {
      values.append(current)
      current = []
    }
  }
  if keepIncomplete && !current.isEmpty { values.append(current) }
  return values
}

/// A unit's value in a form that ignores what lossy consumers lose: object members sorted by
/// key (the last of a repeated key kept, as a dictionary does, or the first, as Codable
/// does), numbers as their `Double`.
public func canonicalUnit(_ events: [Event], firstKeyWins: Bool = false) -> String {
  var index = 0
  return canonicalValue(events, &index, firstKeyWins)
}

private func canonicalValue(_ events: [Event], _ index: inout Int, _ firstKeyWins: Bool)
  -> String
{
  guard index < events.count else { return "…" }
  let event = events[index]
  index += 1
  switch event {
  case .startArray:
    var elements: [String] = []
    while index < events.count && events[index] != .endArray {
      elements.append(canonicalValue(events, &index, firstKeyWins))
    }
    index += 1
    return "[" + elements.joined(separator: ",") + "]"
  case .startObject:
    var members: [String: String] = [:]
    while index < events.count, case .key(let key) = events[index] {
      index += 1
      let value = canonicalValue(events, &index, firstKeyWins)
      if !firstKeyWins || members[key] == nil { members[key] = value }
    }
    index += 1
    return "{"
      + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }
      .joined(separator: ",") + "}"
  // Zero's sign too: a Foundation tree holds `-0` as the integer 0, as JSONSerialization does.
  case .number(let text): return Double(text).map { $0 == 0 ? "0.0" : "\($0)" } ?? text
  case .string(let text): return text.debugDescription
  default: return event.description
  }
}

/// The unit that stands for a line passed over, in the outcome of a stream that skips bad
/// lines: its error's place.
public func skippedUnit(_ place: ErrorPlace) -> [Event] { [.string("skipped: \(place)")] }
