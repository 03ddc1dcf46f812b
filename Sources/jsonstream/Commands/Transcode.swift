import JSONStream

/// `jsonstream fmt` and `jsonstream minify`: parser → writer, chunk by chunk, so memory stays
/// bounded whatever the input size.
func runTranscode(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws
  -> Int32
{
  var writeOptions = arguments.writeOptions
  if arguments.command == .minify { writeOptions.indent = nil }
  writeOptions.allowMultipleValues = arguments.options.allowMultipleValues
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
