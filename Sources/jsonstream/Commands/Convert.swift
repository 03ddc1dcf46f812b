import JSONStream

/// `jsonstream convert --to binary|json`: a streaming transcode either way.
func runConvert(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  if arguments.convertTo == "binary" {
    var parser = JSONParser(
      handler: JSONBinaryWriter(
        sink: ByteOutputSink(output: output),
        allowMultipleValues: arguments.options.allowMultipleValues),
      options: arguments.options)
    if let error = try parseInput(input, into: &parser) {
      return endInvalid(error, in: input, arguments, output: output) {
        try parser.handler.flush()
      }
    }
    try parser.handler.finish()
    output.flush()
    return 0
  }
  var writeOptions = arguments.writeOptions
  writeOptions.allowMultipleValues = arguments.options.allowMultipleValues
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  var reader = JSONBinaryReader(
    handler: JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions),
    options: arguments.options)
  do {
    try input.feed(&reader)
    try reader.finish()
  } catch let error as JSONParseError {
    return endInvalid(error, in: input, arguments, output: output) {
      try reader.handler.flush()
    }
  }
  try reader.handler.finish()
  output.buffer.append(0x0A)
  output.flush()
  return 0
}
