import JSONStream

/// Feeds `input` to `parser` chunk by chunk (stopping early if the parser stops or finishes),
/// then declares the end of input. Returns the parse error, if the input was not valid; other
/// errors (I/O, a handler's) are thrown.
func parseInput<Handler>(_ input: ByteInput, into parser: inout JSONParser<Handler>) throws
  -> JSONParseError?
{
  do {
    try input.forEachChunk { chunk in
      try parser.feed(chunk) == .needsMoreInput
    }
    try parser.finish()
    return nil
  } catch let error as JSONParseError {
    return error
  }
}

/// Reports a parse error the way every command does: `FILE:LINE:COLUMN: message` on stderr.
func report(_ error: JSONParseError, in input: ByteInput) {
  writeStandardError("\(input.name):\(error.line):\(error.column): \(error.message)\n")
}
