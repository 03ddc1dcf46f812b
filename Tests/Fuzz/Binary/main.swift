// libFuzzer target for the binary format's reader (and, on what it accepts, its writer). Build
// and run it with `Tests/Fuzz/run.sh binary SECONDS`.
//
// Built against the library's modules, imported `@testable` for their internal API, with
// `-parse-as-library` so that this file defines no `main` of its own: libFuzzer supplies it.
//
// Input layout: two header bytes, then the binary document.
//
//   byte 0, bit 0…7  parse options, as fuzzParseOptions reads them (the binary reader uses
//                    allowMultipleValues, allowNonFiniteNumbers and the limits)
//   byte 1, bit 0…1  chunking: whole, 1 byte, 7 bytes, 61 bytes (each chunk its own allocation)
//           bit 2    tight limits: depth 8, strings 64 bytes, numbers 16 characters
//
// Checked, with `fatalError` on a violation:
// - chunked and whole reads give equal values, or both fail, at the same offset;
// - a failure is a JSONParseError whose offset is within the input;
// - JSONValue(binary:) reads what the reader reads (with allowMultipleValues off), or fails
//   with the same error at the same offset; so does the tree reader that keeps a shared value
//   once, its references pushing its node again (what the Codable decoder reads through);
// - what reads is valid: written as JSON it parses back to an equal value (without NaN), and
//   written as binary again it reads back to an equal value, and writing it in one pass
//   (`binaryBytes()`) gives the bytes its events give;
// - streamed from the binary straight into a JSONWriter (in chunks), a single value's JSON
//   parses back to the value (the writer copies strings the reader found need no escaping).

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  var options = fuzzParseOptions(data[0])
  if data[1] >> 2 & 1 == 1 {
    options.limits.maxDepth = 8
    options.limits.maxStringLength = 64
    options.limits.maxNumberLength = 16
  }
  let chunk = [0, 1, 7, 61][Int(data[1] & 3)]
  let input = UnsafeBufferPointer(start: data + 2, count: size - 2)

  let whole = binaryRead(input, options, chunk: 0)
  let chunked = binaryRead(input, options, chunk: chunk)
  checkWholeTreeReader(input, options, whole)
  switch (whole, chunked) {
  case (.success(let a), .success(let b)):
    fuzzCheck(a == b || options.allowNonFiniteNumbers, "chunked read differs")
  case (.failure(let a), .failure(let b)):
    fuzzCheck(a.offset == b.offset, "chunked read fails elsewhere: \(a) vs \(b)")
    fuzzCheck(a.offset >= 0 && a.offset <= input.count, "error offset outside the input: \(a)")
    return 0
  default:
    fatalError("whole and chunked reads disagree on failing: \(whole) vs \(chunked)")
  }
  guard case .success(let values) = whole, !options.allowNonFiniteNumbers else { return 0 }
  if values.count == 1 { checkStreamedJSON(input, options, chunk: chunk, values[0]) }
  for value in values {
    guard let text = try? value.jsonBytes() else { fatalError("a value read does not write") }
    guard let back = try? JSONValue(parsing: text) else {
      fatalError("written JSON does not parse")
    }
    fuzzCheck(back == value, "JSON written reads back different")
    var writer = JSONBinaryWriter()
    guard (try? value.replay(into: &writer)) != nil, (try? writer.finish()) != nil else {
      fatalError("a value read does not write as binary")
    }
    var reader = JSONBinaryReader(handler: JSONTreeBuilder())
    guard (try? reader.feed(writer.bytes)) != nil, (try? reader.finish()) != nil else {
      fatalError("binary written does not read")
    }
    fuzzCheck(reader.handler.value == value, "binary written reads back different")
    fuzzCheck(
      (try? value.binaryBytes()) == writer.bytes, "one-pass binary writing differs from replay")
  }
  return 0
}

/// `JSONValue(binary:)` against the streaming reader (`whole`, read with `options`).
private func checkWholeTreeReader(
  _ input: UnsafeBufferPointer<UInt8>, _ options: JSONParseOptions,
  _ whole: Result<[JSONValue], JSONParseError>
) {
  var single = options
  single.allowMultipleValues = false
  let streamed = options.allowMultipleValues ? binaryRead(input, single, chunk: 0) : whole
  let direct: Result<JSONValue, JSONParseError>
  do {
    direct = .success(try JSONValue(binary: input, options: single))
  } catch let error as JSONParseError {
    direct = .failure(error)
  } catch {
    fatalError("JSONValue(binary:) threw a non-JSONParseError: \(error)")
  }
  let sharing: Result<JSONValue, JSONParseError>
  do {
    sharing = .success(
      try JSONValue.readingSharedValues(binary: input, options: single, duplicateKeys: .lastWins)
        .value)
  } catch let error as JSONParseError {
    sharing = .failure(error)
  } catch {
    fatalError("readingSharedValues threw a non-JSONParseError: \(error)")
  }
  switch (direct, sharing) {
  case (.success(let a), .success(let b)):
    fuzzCheck(a == b || options.allowNonFiniteNumbers, "shared nodes read another value")
  case (.failure(let a), .failure(let b)):
    fuzzCheck(a == b, "shared nodes fail otherwise: \(a) vs \(b)")
  default:
    fatalError("shared nodes and copies disagree on failing: \(direct) vs \(sharing)")
  }
  switch (streamed, direct) {
  case (.success(let values), .success(let value)):
    fuzzCheck(
      values.count == 1 && (values[0] == value || options.allowNonFiniteNumbers),
      "JSONValue(binary:) reads another value")
  case (.failure(let a), .failure(let b)):
    fuzzCheck(
      a.kind == b.kind && a.offset == b.offset && a.message == b.message,
      "JSONValue(binary:) fails otherwise: \(a) vs \(b)")
  default:
    fatalError("JSONValue(binary:) and the reader disagree on failing: \(streamed) vs \(direct)")
  }
}

/// Streams `input`, which reads as `value`, into a JSONWriter: its text must parse back to it.
private func checkStreamedJSON(
  _ input: UnsafeBufferPointer<UInt8>, _ options: JSONParseOptions, chunk: Int,
  _ value: JSONValue
) {
  var reader = JSONBinaryReader(handler: JSONWriter(), options: options)
  guard (try? fuzzFeed(input, chunk: chunk) { _ = try reader.feed($0) }) != nil,
    (try? reader.finish()) != nil, (try? reader.handler.finish()) != nil
  else {
    fatalError("binary that reads into a tree does not stream into a writer")
  }
  guard let back = try? JSONValue(parsing: reader.handler.bytes) else {
    fatalError("JSON streamed from binary does not parse")
  }
  fuzzCheck(back == value, "JSON streamed from binary reads back different")
}

/// Reads `input` into values, whole or in chunks each copied into its own allocation.
private func binaryRead(
  _ input: UnsafeBufferPointer<UInt8>, _ options: JSONParseOptions, chunk: Int
) -> Result<[JSONValue], JSONParseError> {
  var reader = JSONBinaryReader(handler: JSONTreeBuilder(), options: options)
  do {
    try fuzzFeed(input, chunk: chunk) { _ = try reader.feed($0) }
    try reader.finish()
  } catch let error as JSONParseError {
    return .failure(error)
  } catch {
    fatalError("not a JSONParseError: \(error)")
  }
  return .success(reader.handler.values)
}
