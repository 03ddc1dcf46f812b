// libFuzzer target for parse → write → parse: the events of the input, streamed through a
// writer (JSON or binary) and read back, must be the same events. Build and run it with
// `Tests/Fuzz/run.sh roundtrip SECONDS`.
//
// Built against the library's modules, imported `@testable` for their internal API, with
// `-parse-as-library` so that this file defines no `main` of its own: libFuzzer supplies it.
//
// Input layout: two header bytes, then the JSON text.
//
//   byte 0, bit 0…7  parse options, as fuzzParseOptions reads them
//   byte 1, bit 0…1  layout: compact, indent 2, indent 1, indent 0
//           bit 2    escapeUnicode
//           bit 3    escapeSlash
//           bit 4…5  input chunking: whole, 1 byte, 7 bytes, 61 bytes (each its own allocation)
//           bit 6…7  writer sink: in memory, chunks of 1, 13 and 4096 bytes to a sink
//
// Checked, with `fatalError` on a violation:
// - the writer streaming the parse fails exactly when the parse fails, and what it wrote
//   before failing is a valid prefix of JSON (a strict parser accepts it so far);
// - what it writes on success is strict JSON (only non-finite numbers and several values
//   when the parse allowed them) whose events are the input's events, byte for byte;
// - writing those events again gives the same bytes (writing is a fixed point);
// - the sink gets the same bytes, whatever its chunk size;
// - the binary writer and reader give the input's events back too.

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoundTripTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let options = fuzzParseOptions(data[0])
  let byte1 = data[1]
  var writeOptions = JSONWriteOptions()
  writeOptions.indent = [nil, 2, 1, 0][Int(byte1 & 3)]
  writeOptions.escapeUnicode = byte1 >> 2 & 1 == 1
  writeOptions.escapeSlash = byte1 >> 3 & 1 == 1
  writeOptions.allowMultipleValues = options.allowMultipleValues
  writeOptions.allowNonFiniteNumbers = options.allowNonFiniteNumbers
  let chunk = [0, 1, 7, 61][Int(byte1 >> 4 & 3)]
  let sinkChunk = [0, 1, 13, 4096][Int(byte1 >> 6)]
  let input = UnsafeBufferPointer(start: data + 2, count: size - 2)

  // The strict options that read back what a writer wrote.
  var strict = JSONParseOptions()
  strict.allowMultipleValues = options.allowMultipleValues
  strict.allowNonFiniteNumbers = options.allowNonFiniteNumbers

  let events = roundTripEvents(options) { try $0.feed(UnsafeRawBufferPointer(input)) }

  // The input streamed through a writer, as `jsonstream fmt` does.
  var parser = JSONParser(handler: JSONWriter(options: writeOptions), options: options)
  let streamed = Result {
    try fuzzFeed(input, chunk: chunk) { _ = try parser.feed($0) }
    try parser.finish()
    try parser.handler.finish()
  }
  let written = parser.handler.bytes
  guard case .success(let events) = events else {
    guard case .failure = streamed else { fatalError("the writer took what does not parse") }
    // What was written before the error is a valid beginning of JSON.
    var prefix = JSONParser(handler: JSONEventCounter(), options: strict)
    fuzzCheck(
      (try? prefix.feed(written)) != nil,
      "written before the error is not a valid prefix: \(String(decoding: written, as: UTF8.self))"
    )
    return 0
  }
  guard case .success = streamed else {
    fatalError("the writer failed on what parses: \(streamed)")
  }

  // Strict JSON, with the input's events.
  guard case .success(let back) = roundTripEvents(strict, { try $0.feed(written) }) else {
    fatalError("written text does not parse: \(String(decoding: written, as: UTF8.self))")
  }
  fuzzCheck(back == events, "written text has other events")

  // A fixed point: the written text written again is itself.
  var again = JSONParser(handler: JSONWriter(options: writeOptions), options: strict)
  fuzzCheck(
    (try? again.feed(written)) != nil && (try? again.finish()) != nil
      && (try? again.handler.finish()) != nil && again.handler.bytes == written,
    "writing the written text again differs")

  // A sink gets the same bytes in its chunks.
  if sinkChunk > 0 {
    var collected: [UInt8] = []
    var sinkParser = JSONParser(
      handler: JSONWriter(
        sink: JSONChunkSink { collected.append(contentsOf: $0) }, options: writeOptions,
        chunkSize: sinkChunk),
      options: options)
    fuzzCheck(
      (try? sinkParser.feed(UnsafeRawBufferPointer(input))) != nil
        && (try? sinkParser.finish()) != nil && (try? sinkParser.handler.finish()) != nil,
      "the sink writer fails")
    fuzzCheck(collected == written, "the sink got other bytes")
  }

  // Binary: the same events back.
  var binaryParser = JSONParser(
    handler: JSONBinaryWriter(allowMultipleValues: options.allowMultipleValues), options: options)
  guard (try? binaryParser.feed(UnsafeRawBufferPointer(input))) != nil,
    (try? binaryParser.finish()) != nil, (try? binaryParser.handler.finish()) != nil
  else {
    fatalError("the binary writer fails on what parses")
  }
  let binary = binaryParser.handler.bytes
  var readOptions = JSONParseOptions()
  readOptions.allowMultipleValues = true
  readOptions.allowNonFiniteNumbers = true
  var reader = JSONBinaryReader(handler: RoundTripRecorder(), options: readOptions)
  guard (try? reader.feed(binary)) != nil, (try? reader.finish()) != nil else {
    fatalError("written binary does not read")
  }
  fuzzCheck(reader.handler.events == events, "binary has other events")
  return 0
}

/// The events of a parse with `options`, fed by `feed`.
private func roundTripEvents(
  _ options: JSONParseOptions, _ feed: (inout JSONParser<RoundTripRecorder>) throws -> Void
) -> Result<[RoundTripEvent], any Error> {
  var parser = JSONParser(handler: RoundTripRecorder(), options: options)
  return Result {
    try feed(&parser)
    try parser.finish()
    return parser.handler.events
  }
}

private enum RoundTripEvent: Equatable {
  case startObject, endObject, startArray, endArray
  case key([UInt8])
  case string([UInt8])
  case number([UInt8])
  case bool(Bool)
  case null
}

private struct RoundTripRecorder: JSONEventHandler {
  var events: [RoundTripEvent] = []

  mutating func startObject() { events.append(.startObject) }
  mutating func endObject() { events.append(.endObject) }
  mutating func startArray() { events.append(.startArray) }
  mutating func endArray() { events.append(.endArray) }
  mutating func key(_ key: borrowing JSONString) { events.append(.key(Array(key.utf8))) }
  mutating func string(_ value: borrowing JSONString) { events.append(.string(Array(value.utf8))) }
  mutating func number(_ value: borrowing JSONNumber) { events.append(.number(Array(value.utf8))) }
  mutating func bool(_ value: Bool) { events.append(.bool(value)) }
  mutating func null() { events.append(.null) }
}

/// A handler that only counts: for checking that bytes parse (so far).
private struct JSONEventCounter: JSONEventHandler {
  var count = 0

  mutating func startObject() { count += 1 }
  mutating func endObject() { count += 1 }
  mutating func startArray() { count += 1 }
  mutating func endArray() { count += 1 }
  mutating func key(_ key: borrowing JSONString) { count += 1 }
  mutating func string(_ value: borrowing JSONString) { count += 1 }
  mutating func number(_ value: borrowing JSONNumber) { count += 1 }
  mutating func bool(_ value: Bool) { count += 1 }
  mutating func null() { count += 1 }
}
