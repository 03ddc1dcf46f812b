import JSONStream
import JSONStreamCore

/// `jsonstream fmt` and `jsonstream minify`: parser → writer, chunk by chunk, so memory stays
/// bounded whatever the input size.
func runTranscode(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws
  -> Int32
{
  var writeOptions = arguments.writeOptions
  if arguments.command == .minify { writeOptions.indent = nil }
  writeOptions.allowMultipleValues = arguments.options.allowMultipleValues
  if arguments.parsesLinesInParallel {
    writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
    let (options, segmentWriteOptions) = (arguments.options, writeOptions)
    var state = LineOutput()
    if let failure = try parseLinesInParallel(
      arguments, input: input, output: output, into: &state,
      makeSegment: {
        TranscodeSegment(options: options, writeOptions: segmentWriteOptions, storage: &$0)
      })
    {
      return endInvalid(failure, in: input, arguments, output: output)
    }
    if state.printed { output.buffer.append(0x0A) }
    output.flush()
    return 0
  }
  return try writeThrough(
    arguments, input: input, output: output, writeOptions: writeOptions, writer: \.self
  ) { $0 }
}

/// Streams the input through the handler `makeHandler` builds around a writer to `output`
/// (reached through `writer`). On invalid input, what was written so far stays written (a
/// prefix of valid JSON; `-o FILE` is left as it was instead), the error goes to stderr as for
/// `validate`, and the status is 1.
/// The output ends with a newline.
func writeThrough<Handler: JSONEventHandler>(
  _ arguments: Arguments, input: ByteInput, output: ByteOutput, writeOptions: JSONWriteOptions,
  writer: WritableKeyPath<Handler, JSONWriter<ByteOutputSink>>,
  _ makeHandler: (JSONWriter<ByteOutputSink>) -> Handler
) throws -> Int32 {
  var writeOptions = writeOptions
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  var parser = JSONParser(
    handler: makeHandler(JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions)),
    options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    return endInvalid(error, in: input, arguments, output: output) {
      try parser.handler[keyPath: writer].flush()
    }
  }
  try parser.handler[keyPath: writer].finish()
  if parser.handler[keyPath: writer].valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}

/// fmt's and minify's parse of a block of lines: parser → writer, into the block's own output.
struct TranscodeSegment: LineSegment {
  let output: ByteOutput
  var parser: JSONParser<JSONWriter<ByteOutputSink>>

  init(options: JSONParseOptions, writeOptions: JSONWriteOptions, storage: inout [UInt8]) {
    output = ByteOutput(collectingInto: &storage)
    parser = JSONParser(
      handler: JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions),
      options: options)
  }

  mutating func feed(_ input: _ScanInput?) throws { try parser.feed(input) }

  mutating func finish() throws {
    try parser.finish()
    try parser.handler.finish()
  }

  mutating func takeOutput(flushing: Bool) throws -> [UInt8] {
    if flushing { try parser.handler.flush() }
    return output.takeCollected()
  }

  var printed: Bool { parser.handler.valueCount > 0 }
  var isInsideValue: Bool { parser.handler.depth > 0 }
  var count: Int { 0 }
  var line: Int { parser.line }
  mutating func resumeInsideArray() throws { try parser._resumeInsideTopLevelArrayAfterComma() }
  var isInsideArrayAfterComma: Bool { parser._isInsideTopLevelArrayAfterComma }
}
