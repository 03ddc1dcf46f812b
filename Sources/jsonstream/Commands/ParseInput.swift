import JSONStream

/// Feeds `input` to `parser` chunk by chunk (stopping early if the parser stops or finishes),
/// then declares the end of input. Returns the parse error, if the input was not valid; other
/// errors (I/O, a handler's) are thrown.
func parseInput<Handler>(_ input: ByteInput, into parser: inout JSONParser<Handler>) throws
  -> JSONParseError?
{
  do {
    try input.feed(&parser)
    try parser.finish()
    return nil
  } catch let error as JSONParseError {
    return error
  }
}

/// Reports a parse error the way every command does: `FILE:LINE:COLUMN: message` on stderr,
/// then the line with a caret under the column (unless `--quiet`).
func report(_ error: JSONParseError, in input: ByteInput, _ arguments: Arguments) {
  report(error, name: input.name, line: { input.line(around: error.offset) }, arguments)
}

/// Reports a parse error of NDJSON read in blocks of lines (see `parseLinesInParallel`).
func report(_ failure: LineFailure, in input: ByteInput, _ arguments: Arguments) {
  report(failure.error, name: input.name, line: { failure.line }, arguments)
}

/// Reports `error` in the input named `name`; `line` gives the text of its line, when known.
func report(
  _ error: JSONParseError, name: String, line: () -> (text: String, before: String)?,
  _ arguments: Arguments
) {
  guard !arguments.quiet else { return }
  if error.line == 0 {
    // Binary input: no lines, the byte offset.
    writeStandardError("\(name): byte \(error.offset): \(error.message)\n")
    return
  }
  // On a terminal: the place bold, the message red, the caret green.
  let colors = arguments.color.colors(2)
  let (bold, red, green, reset) =
    colors ? ("\u{1B}[1m", "\u{1B}[31m", "\u{1B}[32m", "\u{1B}[0m") : ("", "", "", "")
  var message =
    "\(bold)\(name):\(error.line):\(error.column):\(reset) "
    + "\(red)\(TerminalText.escaped(error.message))\(reset)\n"
  if let line = line() {
    // Control characters shown escaped, and the caret under the column however wide the
    // characters before it.
    message +=
      "  \(TerminalText.escaped(line.text))\n"
      + "  \(TerminalText.caretIndent(line.before))\(green)^\(reset)\n"
  }
  if case .trailingText = error.kind, !arguments.options.allowMultipleValues {
    message +=
      "hint: a second value follows the first; for NDJSON or other streams of values, add"
      + " --multiple-values\n"
  }
  writeStandardError(message)
}

/// Ends a command that was writing when the input turned out invalid: what was written stays
/// (`flushWriter` hands the writer's buffered part to the output), then the error is reported,
/// saying what became of the output. Returns the exit status, 1, on which `runTool` drops the
/// output to an `-o FILE`.
func endInvalid(
  _ error: JSONParseError, in input: ByteInput, _ arguments: Arguments, output: ByteOutput,
  flushWriter: () throws -> Void
) -> Int32 {
  try? flushWriter()
  return endInvalid(output, arguments) { report(error, in: input, arguments) }
}

/// `endInvalid` for NDJSON read in blocks of lines, whose output is written already.
func endInvalid(
  _ failure: LineFailure, in input: ByteInput, _ arguments: Arguments, output: ByteOutput
) -> Int32 {
  endInvalid(output, arguments) { report(failure, in: input, arguments) }
}

/// Flushes `output`, runs `report`, and says what became of the output.
func endInvalid(_ output: ByteOutput, _ arguments: Arguments, report: () -> Void) -> Int32 {
  output.flush()
  report()
  guard !arguments.quiet else { return 1 }
  if output.replacesFile, let path = arguments.outputPath {
    writeStandardError("jsonstream: nothing written to \(path), which is as it was\n")
  } else if output.bytesWritten > 0 {
    // The writer closed nothing it had opened: its output is the start of valid JSON.
    writeStandardError(
      "jsonstream: the output stops at this error: what was written (\(output.bytesWritten)"
        + " bytes) is the start of the JSON, cut short\n")
  }
  return 1
}
