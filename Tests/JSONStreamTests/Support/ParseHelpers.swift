import JSONStream
import JSONStreamTestSupport

/// What a parse gave: the events delivered, and the error if it failed.
struct Outcome: Equatable, CustomStringConvertible {
  var events: [Event]
  var error: JSONParseError?

  var succeeded: Bool { error == nil }

  var description: String {
    "\(events)" + (error.map { " error: \($0.description) @\($0.offset)" } ?? "")
  }
}

/// Feeds `bytes` in chunks of the given sizes (the last chunk takes the rest), then finishes.
func feed<Handler: JSONEventHandler>(
  _ parser: inout JSONParser<Handler>, _ bytes: [UInt8], chunkSizes: [Int]
) throws {
  var start = 0
  for size in chunkSizes where start < bytes.count {
    let end = min(bytes.count, start + size)
    try parser.feed(bytes[start..<end])
    start = end
  }
  if start < bytes.count { try parser.feed(bytes[start...]) }
  try parser.finish()
}

/// Parses `bytes` fed in chunks of the given sizes (the last chunk takes the rest).
func parse(
  _ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions(), chunkSizes: [Int] = []
) -> Outcome {
  var parser = JSONParser(handler: EventRecorder(), options: options)
  var error: JSONParseError?
  do {
    try feed(&parser, bytes, chunkSizes: chunkSizes)
  } catch let e as JSONParseError {
    error = e
  } catch {
    fatalError("unexpected error \(error)")
  }
  return Outcome(events: parser.handler.events, error: error)
}

func parse(_ text: String, options: JSONParseOptions = JSONParseOptions(), chunkSizes: [Int] = [])
  -> Outcome
{
  parse(Array(text.utf8), options: options, chunkSizes: chunkSizes)
}

/// Parses fed in 1-byte chunks.
func parseBytewise(_ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions()) -> Outcome {
  parse(bytes, options: options, chunkSizes: Array(repeating: 1, count: bytes.count))
}

/// Every way of cutting `bytes` into two chunks, and 1-byte chunks: each outcome must equal the
/// whole-buffer outcome. Returns the splits (as descriptions) that differ.
func splitMismatches(_ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions()) -> [String] {
  let whole = parse(bytes, options: options)
  var mismatches: [String] = []
  for cut in 0...bytes.count {
    let outcome = parse(bytes, options: options, chunkSizes: [cut])
    if outcome != whole { mismatches.append("cut at \(cut): \(outcome) vs \(whole)") }
  }
  let bytewise = parseBytewise(bytes, options: options)
  if bytewise != whole { mismatches.append("1-byte chunks: \(bytewise) vs \(whole)") }
  return mismatches
}

func splitMismatches(_ text: String, options: JSONParseOptions = JSONParseOptions()) -> [String] {
  splitMismatches(Array(text.utf8), options: options)
}

extension JSONParseOptions {
  /// Options with one change, for concise tests: `.with { $0.allowComments = true }`.
  static func with(_ change: (inout JSONParseOptions) -> Void) -> JSONParseOptions {
    var options = JSONParseOptions()
    change(&options)
    return options
  }
}
