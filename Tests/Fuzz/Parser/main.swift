// libFuzzer target for JSONParser. Build and run it with `Tests/Fuzz/run.sh parser SECONDS`.
//
// Built against the library's modules, imported `@testable` for their internal API, with
// `-parse-as-library` so that this file defines no `main` of its own: libFuzzer supplies it.
//
// Input layout: two header bytes, then the JSON text.
//
//   byte 0, bit 0…7  allowComments, allowTrailingText, allowMultipleValues, looseUnicode,
//                    replaceUnpairedSurrogates, allowUnicodeNewlines, allowTrailingCommas,
//                    allowNonFiniteNumbers
//   byte 1, bit 0…1  allowByteOrderMark, rejectNullAndNoncharacters
//           bit 2…3  limits: default, maxDepth 8, small depth/string/number, tiny + input 48
//           bit 4…5  chunking: whole (generic `feed`), 1 byte, random 0…8, random 1…97 bytes
//           bit 6…7  handler: plain, skips the contents of containers at depth 1…3 (from
//                    the header), stops after N events, throws at event N
//
// Each input is parsed twice: fed whole as one raw buffer (the reference), and fed as the
// chosen chunks, each copied into its own exactly-sized allocation that is freed right after
// its `feed`, so AddressSanitizer catches reads past a chunk or of an earlier chunk. Both runs
// must give the same events and the same outcome, and each is checked against the invariants
// below; a violation stops the fuzzer with `fatalError`. A skipping handler's run must also
// equal a run without skipping, with the skipped contents taken out: skipped input is checked
// all the same, length limits included.

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParserTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let config = FuzzConfig(data[0], data[1])
  // libFuzzer's copy of the input is an exactly-sized allocation: the reference run reads it
  // in place, so reading past its end is caught too.
  let input = UnsafeBufferPointer(start: data + 2, count: size - 2)

  let reference = fuzzRun(config, input: input) { parser in
    try parser.feed(UnsafeRawBufferPointer(input))
  }
  let chunked = fuzzRun(config, input: input) { parser in
    try fuzzFeedChunks(&parser, input, config)
  }
  fuzzCheckSameRun(reference, chunked, config)
  fuzzCheckStructure(reference, config)
  if let skipAt = config.skipAt {
    var unskippedConfig = config
    unskippedConfig.skipAt = nil
    let unskipped = fuzzRun(unskippedConfig, input: input) { parser in
      try parser.feed(UnsafeRawBufferPointer(input))
    }
    fuzzCheck(
      reference.outcome == unskipped.outcome,
      "skipping changed the outcome: \(reference.outcome) vs \(unskipped.outcome), \(config)")
    fuzzCheck(
      reference.events == fuzzWithoutContents(unskipped.events, at: skipAt),
      "skipping delivered other events, \(config)")
  }
  return 0
}

// MARK: - Configuration

private struct FuzzConfig: CustomStringConvertible {
  var options = JSONParseOptions()
  /// 0: whole via the generic `feed`; 1: 1-byte chunks; 2 and 3: random sizes.
  var chunking: Int
  var seed: UInt64
  /// The handler's `isDone` turns true once it has this many events.
  var stopAfter: Int?
  /// The handler throws instead of recording its event with this index.
  var throwAt: Int?
  /// The handler skips the contents of containers opened at this depth (the root is 1).
  var skipAt: Int?
  let header: (UInt8, UInt8)

  init(_ byte0: UInt8, _ byte1: UInt8) {
    header = (byte0, byte1)
    func bit(_ byte: UInt8, _ n: UInt8) -> Bool { byte >> n & 1 == 1 }
    options = fuzzParseOptions(byte0)
    options.allowByteOrderMark = bit(byte1, 0)
    options.rejectNullAndNoncharacters = bit(byte1, 1)
    switch byte1 >> 2 & 3 {
    case 0: break
    case 1:
      options.limits.maxDepth = 8
    case 2:
      options.limits.maxDepth = 8
      options.limits.maxStringLength = 16
      options.limits.maxNumberLength = 8
    default:
      options.limits.maxDepth = 3
      options.limits.maxStringLength = 4
      options.limits.maxNumberLength = 3
      options.limits.maxInputLength = 48
    }
    chunking = Int(byte1 >> 4 & 3)
    seed = UInt64(byte0) << 8 | UInt64(byte1)
    var random = FuzzRandom(seed: seed)
    switch byte1 >> 6 {
    case 1: skipAt = 1 + Int(random.next() % 3)
    case 2: stopAfter = 1 + Int(random.next() % 16)
    case 3: throwAt = Int(random.next() % 16)
    default: break
    }
  }

  var description: String {
    "header \(header.0) \(header.1), chunking \(chunking), stopAfter \(stopAfter as Any), "
      + "throwAt \(throwAt as Any), skipAt \(skipAt as Any), \(options)"
  }
}

/// SplitMix64: chunk sizes from the header, reproducible for every run of the same input.
private struct FuzzRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

// MARK: - Recording handler

private struct FuzzNumber: Equatable {
  var text: [UInt8]
  var int64: Int64?
  var uint64: UInt64?
  var int: Int?
  var doubleBits: UInt64
  var exactDoubleBits: UInt64?
  var isIntegerLiteral: Bool
  var isNonFinite: Bool
  var isNegative: Bool
  var isExactDouble: Bool

  /// Reads every accessor of `number` (the conversions are what a fuzzer should exercise).
  init(_ number: borrowing JSONNumber) {
    text = Array(number.utf8)
    int64 = number.int64
    uint64 = number.uint64
    int = number.int
    doubleBits = number.double.bitPattern
    exactDoubleBits = number.exactDouble?.bitPattern
    isIntegerLiteral = number.isIntegerLiteral
    isNonFinite = number.isNonFinite
    isNegative = number.isNegative
    isExactDouble = number.isExactDouble
    let string = number.text
    fuzzCheck(Array(string.utf8) == text, "JSONNumber.text differs from its bytes")
    var appended: [UInt8] = []
    number.appendText(to: &appended)
    fuzzCheck(appended == text, "JSONNumber.appendText differs from text")
  }
}

private enum FuzzEvent: Equatable {
  case startObject, endObject, startArray, endArray
  case key([UInt8])
  case string([UInt8])
  case number(FuzzNumber)
  case bool(Bool)
  case null
}

private struct FuzzHandlerError: Error, Equatable {}

private struct FuzzRecorder: JSONEventHandler {
  var events: [FuzzEvent] = []
  let config: FuzzConfig
  var depth = 0

  init(_ config: FuzzConfig) { self.config = config }

  var skipsContainerContents: Bool { config.skipAt == depth }
  static var canSkipContainers: Bool { true }

  var isDone: Bool {
    guard let stopAfter = config.stopAfter else { return false }
    return events.count >= stopAfter
  }

  mutating func record(_ event: FuzzEvent) throws {
    fuzzCheck(!isDone, "an event after the handler said it was done")
    if let throwAt = config.throwAt, events.count == throwAt { throw FuzzHandlerError() }
    events.append(event)
  }

  mutating func startObject() throws {
    try record(.startObject)
    depth += 1
  }
  mutating func endObject() throws {
    try record(.endObject)
    depth -= 1
  }
  mutating func startArray() throws {
    try record(.startArray)
    depth += 1
  }
  mutating func endArray() throws {
    try record(.endArray)
    depth -= 1
  }
  mutating func key(_ key: borrowing JSONString) throws {
    try record(.key(fuzzCheckString(key, config)))
  }
  mutating func string(_ value: borrowing JSONString) throws {
    try record(.string(fuzzCheckString(value, config)))
  }
  mutating func number(_ value: borrowing JSONNumber) throws {
    let number = FuzzNumber(value)
    fuzzCheckNumber(number, config)
    var reparsed: FuzzNumber? = nil
    if let again = JSONNumber(text: value.utf8) { reparsed = FuzzNumber(again) }
    fuzzCheck(reparsed == number, "JSONNumber(text:) differs from the parser's number")
    try record(.number(number))
  }
  mutating func bool(_ value: Bool) throws { try record(.bool(value)) }
  mutating func null() throws { try record(.null) }
}

/// Copies a string or key after checking it is well-formed UTF-8 (decoding would repair it
/// otherwise), that every accessor agrees, and that `appendQuoted` parses back to it.
private func fuzzCheckString(_ value: borrowing JSONString, _ config: FuzzConfig) -> [UInt8] {
  let bytes = value.bytes
  let string = value.string
  fuzzCheck(Array(string.utf8) == bytes, "string bytes are not well-formed UTF-8: \(bytes)")
  fuzzCheck(value.count == bytes.count && value.isEmpty == bytes.isEmpty, "count/isEmpty")
  fuzzCheck(value.equals(string) && value == string, "JSONString.equals(String)")
  fuzzCheck((value == "") == bytes.isEmpty, "JSONString == StaticString")
  fuzzCheck(
    bytes.count <= config.options.limits.maxStringLength, "string longer than maxStringLength")
  if config.options.rejectNullAndNoncharacters {
    for scalar in string.unicodeScalars {
      let v = scalar.value
      fuzzCheck(
        v != 0 && !(v >= 0xFDD0 && v <= 0xFDEF) && v & 0xFFFE != 0xFFFE,
        "U+\(String(v, radix: 16)) delivered under rejectNullAndNoncharacters")
    }
  }
  var quoted: [UInt8] = []
  value.appendQuoted(to: &quoted)
  var parser = JSONParser(handler: FuzzStringCollector())
  do {
    try parser.feed(quoted)
    try parser.finish()
  } catch {
    fatalError("appendQuoted output \(quoted) does not parse: \(error)")
  }
  fuzzCheck(
    parser.handler.strings == [bytes] && parser.handler.otherEvents == 0,
    "appendQuoted output \(quoted) does not parse back to \(bytes)")
  return bytes
}

/// Collects the strings of a parse, for the `appendQuoted` round trip.
private struct FuzzStringCollector: JSONEventHandler {
  var strings: [[UInt8]] = []
  var otherEvents = 0

  mutating func string(_ value: borrowing JSONString) { strings.append(value.bytes) }
  mutating func startObject() { otherEvents += 1 }
  mutating func startArray() { otherEvents += 1 }
  mutating func key(_ key: borrowing JSONString) { otherEvents += 1 }
  mutating func number(_ value: borrowing JSONNumber) { otherEvents += 1 }
  mutating func bool(_ value: Bool) { otherEvents += 1 }
  mutating func null() { otherEvents += 1 }
}

/// Checks a number's text against the grammar and its conversions against each other and
/// against the standard library's parsing.
private func fuzzCheckNumber(_ n: FuzzNumber, _ config: FuzzConfig) {
  let text = String(decoding: n.text, as: UTF8.self)
  let nonFinite = text == "NaN" || text == "Infinity" || text == "-Infinity"
  fuzzCheck(n.isNonFinite == nonFinite, "isNonFinite is wrong for \(text)")
  fuzzCheck(n.isNegative == (n.text.first == UInt8(ascii: "-")), "isNegative for \(text)")
  let double = Double(bitPattern: n.doubleBits)
  if nonFinite {
    fuzzCheck(config.options.allowNonFiniteNumbers, "\(text) without allowNonFiniteNumbers")
    fuzzCheck(!n.isIntegerLiteral && n.int64 == nil && n.uint64 == nil && n.int == nil, text)
    fuzzCheck(n.exactDoubleBits == nil && !n.isExactDouble, "exactDouble of \(text)")
    fuzzCheck(
      text == "NaN" ? double.isNaN : double == (n.isNegative ? -.infinity : .infinity),
      "double of \(text) is \(double)")
    return
  }
  fuzzCheck(fuzzIsJSONNumber(n.text), "number text breaks the grammar: \(text)")
  fuzzCheck(
    n.text.count <= config.options.limits.maxNumberLength, "number longer than maxNumberLength")
  let hasFractionOrExponent = n.text.contains { $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }
  fuzzCheck(n.isIntegerLiteral == !hasFractionOrExponent, "isIntegerLiteral is wrong for \(text)")

  guard let expected = Double(text) else { fatalError("Double(\"\(text)\") is nil") }
  fuzzCheck(
    n.doubleBits == expected.bitPattern, "double of \(text) is \(double), strtod says \(expected)")
  if let exact = n.exactDoubleBits {
    fuzzCheck(exact == n.doubleBits && double.isFinite, "exactDouble of \(text)")
  }
  fuzzCheck(n.isExactDouble == (n.exactDoubleBits != nil), "isExactDouble of \(text)")

  if n.isIntegerLiteral {
    fuzzCheck(n.int64 == Int64(text), "int64 of \(text) is \(n.int64 as Any)")
    fuzzCheck(n.uint64 == UInt64(text), "uint64 of \(text) is \(n.uint64 as Any)")
  }
  fuzzCheck(n.int == n.int64.flatMap { Int(exactly: $0) }, "int of \(text)")
  if let i = n.int64 {
    fuzzCheck(Double(i) == double, "int64 \(i) and double \(double) of \(text) disagree")
    fuzzCheck(
      i < 0 ? n.uint64 == nil : n.uint64 == UInt64(i), "int64 and uint64 of \(text) disagree")
    if i.magnitude <= 1 << 53 {
      fuzzCheck(n.exactDoubleBits != nil, "an integer below 2^53 is not exact: \(text)")
    }
  }
  if let u = n.uint64 {
    fuzzCheck(Double(u) == double, "uint64 \(u) and double \(double) of \(text) disagree")
    if n.int64 == nil { fuzzCheck(u > UInt64(Int64.max), "uint64 fits, int64 is nil: \(text)") }
  }
}

/// RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
private func fuzzIsJSONNumber(_ t: [UInt8]) -> Bool {
  var i = 0
  func isDigit(_ i: Int) -> Bool { i < t.count && t[i] >= 0x30 && t[i] <= 0x39 }
  func skipDigits() { while isDigit(i) { i += 1 } }
  if i < t.count && t[i] == UInt8(ascii: "-") { i += 1 }
  guard isDigit(i) else { return false }
  if t[i] == UInt8(ascii: "0") { i += 1 } else { skipDigits() }
  if i < t.count && t[i] == UInt8(ascii: ".") {
    i += 1
    guard isDigit(i) else { return false }
    skipDigits()
  }
  if i < t.count && (t[i] == UInt8(ascii: "e") || t[i] == UInt8(ascii: "E")) {
    i += 1
    if i < t.count && (t[i] == UInt8(ascii: "+") || t[i] == UInt8(ascii: "-")) { i += 1 }
    guard isDigit(i) else { return false }
    skipDigits()
  }
  return i == t.count
}

/// `events` without what lies inside the containers opened at depth `skipAt` (their start and
/// end stay).
private func fuzzWithoutContents(_ events: [FuzzEvent], at skipAt: Int) -> [FuzzEvent] {
  var result: [FuzzEvent] = []
  var depth = 0
  for event in events {
    switch event {
    case .startObject, .startArray:
      if depth < skipAt { result.append(event) }
      depth += 1
    case .endObject, .endArray:
      depth -= 1
      if depth < skipAt { result.append(event) }
    default:
      if depth < skipAt { result.append(event) }
    }
  }
  return result
}

// MARK: - Runs

private enum FuzzOutcome: Equatable {
  /// `finish()` succeeded; the last status `feed` returned, and the parser's position after.
  case success(JSONParseStatus, offset: Int, line: Int, column: Int)
  case parseError(JSONParseError.Kind, offset: Int, line: Int, column: Int)
  case handlerError(offset: Int, line: Int, column: Int)
}

private struct FuzzRun {
  var events: [FuzzEvent]
  var outcome: FuzzOutcome
}

/// Parses with `feedAll`, then checks what the parser does with calls after the end.
private func fuzzRun(
  _ config: FuzzConfig, input: UnsafeBufferPointer<UInt8>,
  feedAll: (inout JSONParser<FuzzRecorder>) throws -> JSONParseStatus
) -> FuzzRun {
  var parser = JSONParser(handler: FuzzRecorder(config), options: config.options)
  let outcome: FuzzOutcome
  do {
    let status = try feedAll(&parser)
    try parser.finish()
    outcome = .success(status, offset: parser.offset, line: parser.line, column: parser.column)
  } catch let error as JSONParseError {
    outcome = .parseError(
      error.kind, offset: error.offset, line: error.line, column: error.column)
    fuzzCheck(
      error.offset >= 0 && error.offset <= input.count && error.line >= 1 && error.column >= 1,
      "error position out of range: \(error)")
    fuzzCheck(error.offset <= config.options.limits.maxInputLength, "offset past maxInput")
    fuzzCheck(parser.offset == error.offset, "offset \(parser.offset) after \(error)")
    fuzzCheckSticky(&parser, error)
  } catch let error as FuzzHandlerError {
    fuzzCheck(
      config.throwAt == parser.handler.events.count, "handler error at the wrong event")
    outcome = .handlerError(offset: parser.offset, line: parser.line, column: parser.column)
    fuzzCheckSticky(&parser, error)
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  if case .success(let status, _, _, _) = outcome {
    do {
      try fuzzCheckAfterEnd(&parser, status, input: input, config)
    } catch {
      fatalError("unexpected error after a successful parse: \(error)")
    }
  }
  return FuzzRun(events: parser.handler.events, outcome: outcome)
}

/// After a successful `finish()`: a stopped or finished parser ignores input; an ended one
/// throws `inputAfterFinish` for non-empty input, and from then on.
private func fuzzCheckAfterEnd(
  _ parser: inout JSONParser<FuzzRecorder>, _ status: JSONParseStatus,
  input: UnsafeBufferPointer<UInt8>, _ config: FuzzConfig
) throws {
  let more: [UInt8] = Array("[1,\"x\"] {".utf8)
  let events = parser.handler.events.count
  if parser.handler.isDone {
    let after = try parser.feed(more)
    fuzzCheck(after == .stopped, "feed after stopping returned \(after)")
  } else if status == .finished {
    let after = try parser.feed(more)
    fuzzCheck(after == .finished, "feed after the value finished returned \(after)")
  } else {
    fuzzCheck(status == .needsMoreInput, "status \(status) without a reason")
    fuzzCheck(
      parser.offset == min(input.count, config.options.limits.maxInputLength),
      "offset \(parser.offset) after consuming all \(input.count) bytes")
    // A top-level number that `finish()` completed finishes the parse under
    // allowTrailingText; otherwise the parser has ended and rejects more input.
    let after = try parser.feed([UInt8]())
    if after == .finished && config.options.allowTrailingText {
      let afterMore = try parser.feed(more)
      fuzzCheck(afterMore == .finished, "feed after finishing returned \(afterMore)")
    } else {
      fuzzCheck(after == .needsMoreInput, "empty feed after finish() returned \(after)")
      do {
        try parser.feed(more)
        fatalError("feed after finish() did not throw")
      } catch let error as JSONParseError {
        fuzzCheck(error.kind == .inputAfterFinish, "feed after finish(): \(error)")
        fuzzCheckSticky(&parser, error)
        fuzzCheck(parser.handler.events.count == events, "events after the end")
        return
      }
    }
  }
  try parser.finish()
  fuzzCheck(parser.handler.events.count == events, "events after the end")
}

/// After an error, every later call throws that same error and delivers nothing.
private func fuzzCheckSticky<E: Error & Equatable>(
  _ parser: inout JSONParser<FuzzRecorder>, _ first: E
) {
  let events = parser.handler.events.count
  let offset = parser.offset
  let calls: [(String, (inout JSONParser<FuzzRecorder>) throws -> Void)] = [
    ("feed", { try $0.feed(Array("[1,\"x\"] {".utf8)) }),
    ("empty feed", { try $0.feed(UnsafeRawBufferPointer(start: nil, count: 0)) }),
    ("finish", { try $0.finish() }),
  ]
  for (name, call) in calls {
    do {
      try call(&parser)
      fatalError("\(name) after \(first) did not throw")
    } catch let error as E {
      fuzzCheck(error == first, "\(name) after \(first) threw \(error)")
    } catch {
      fatalError("\(name) after \(first) threw \(error)")
    }
  }
  fuzzCheck(parser.handler.events.count == events, "events after an error")
  fuzzCheck(parser.offset == offset, "offset moved after an error")
}

/// Feeds `input` in the chunks the configuration asks for. Each chunk is an exact-size copy,
/// freed right after its `feed`.
private func fuzzFeedChunks(
  _ parser: inout JSONParser<FuzzRecorder>, _ input: UnsafeBufferPointer<UInt8>,
  _ config: FuzzConfig
) throws -> JSONParseStatus {
  if config.chunking == 0 {
    return try parser.feed(Array(input))  // the generic `feed`, whole
  }
  var random = FuzzRandom(seed: config.seed)
  var status = JSONParseStatus.needsMoreInput
  var start = 0
  while start < input.count {
    let size: Int
    switch config.chunking {
    case 1: size = 1
    case 2: size = Int(random.next() % 9)
    default: size = 1 + Int(random.next() % 97)
    }
    let count = min(size, input.count - start)
    let previous = status
    // An empty chunk also comes as a nil base address, the other form of empty.
    let nilEmpty = count == 0 && random.next() & 1 == 0
    status = try fuzzWithCopy(input, start: start, count: count) { chunk in
      try parser.feed(nilEmpty ? UnsafeRawBufferPointer(start: nil, count: 0) : chunk)
    }
    fuzzCheck(previous == .needsMoreInput || status == previous, "status changed: \(status)")
    start += count
  }
  return status
}

// MARK: - Invariants

private func fuzzCheckSameRun(_ a: FuzzRun, _ b: FuzzRun, _ config: FuzzConfig) {
  if a.events != b.events {
    let common = min(a.events.count, b.events.count)
    let i = (0..<common).first { a.events[$0] != b.events[$0] } ?? common
    fatalError(
      """
      events differ between whole and chunked feeding at event \(i) \
      (\(a.events.count) vs \(b.events.count) events): \
      whole \(a.events[i...].prefix(3)), chunked \(b.events[i...].prefix(3)); \(config)
      """)
  }
  if a.outcome != b.outcome {
    fatalError(
      """
      outcome differs between whole and chunked feeding: whole \(a.outcome), \
      chunked \(b.outcome); \(config)
      """)
  }
}

/// The events form a valid prefix of a JSON event stream, a complete one when the parse
/// succeeded, within the depth limit.
private func fuzzCheckStructure(_ run: FuzzRun, _ config: FuzzConfig) {
  // Open containers, innermost last: for an object, whether a key is due (true) or its value.
  var stack: [(isObject: Bool, keyDue: Bool)] = []
  var values = 0
  func valueStarts(_ event: FuzzEvent) {
    if let top = stack.last {
      fuzzCheck(!top.isObject || !top.keyDue, "a value where a key is due: \(event)")
    } else {
      values += 1
      fuzzCheck(
        values == 1 || config.options.allowMultipleValues, "a second top-level value")
    }
  }
  func valueEnded() {
    if !stack.isEmpty && stack[stack.count - 1].isObject { stack[stack.count - 1].keyDue = true }
  }
  for event in run.events {
    switch event {
    case .key:
      fuzzCheck(stack.last?.isObject == true && stack.last?.keyDue == true, "a stray key")
      stack[stack.count - 1].keyDue = false
    case .startObject, .startArray:
      valueStarts(event)
      stack.append((isObject: event == .startObject, keyDue: true))
      fuzzCheck(stack.count <= config.options.limits.maxDepth, "deeper than maxDepth")
    case .endObject:
      fuzzCheck(stack.last?.isObject == true && stack.last?.keyDue == true, "a stray '}'")
      stack.removeLast()
      valueEnded()
    case .endArray:
      fuzzCheck(stack.last?.isObject == false, "a stray ']'")
      stack.removeLast()
      valueEnded()
    case .string, .number, .bool, .null:
      valueStarts(event)
      valueEnded()
    }
  }
  guard case .success(let status, _, _, _) = run.outcome,
    run.events.count < config.stopAfter ?? Int.max
  else { return }
  fuzzCheck(stack.isEmpty, "parse succeeded with \(stack.count) open containers")
  fuzzCheck(
    values >= 1 || config.options.allowMultipleValues, "parse succeeded without a value")
  fuzzCheck(status != .stopped, "stopped without a stopping handler")
  if status == .finished { fuzzCheck(config.options.allowTrailingText, "finished early") }
}
