import JSONStream

/// Sends the writer's chunks to the tool's buffered output.
struct ByteOutputSink: JSONOutputSink {
  let output: ByteOutput

  mutating func write(_ bytes: UnsafeRawBufferPointer) {
    output.buffer.append(contentsOf: bytes)
    output.didAppend()
  }
}

/// `jsonstream fmt` and `jsonstream minify`: parser → writer, chunk by chunk, so memory stays
/// bounded whatever the input size. On invalid input, what was written so far stays written
/// (a prefix of valid JSON), the error goes to stderr as for `validate`, and the status is 1.
func runTranscode(_ arguments: Arguments, output: ByteOutput) throws -> Int32 {
  let input = try ByteInput(path: arguments.inputPath, chunkSize: arguments.chunkSize)
  var writeOptions = arguments.writeOptions
  if arguments.command == .minify { writeOptions.indent = nil }
  writeOptions.allowMultipleValues = arguments.options.allowMultipleValues
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  let writer = JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions)
  var parser = JSONParser(handler: writer, options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    try? parser.handler.flush()  // keep the valid prefix already written
    output.flush()
    report(error, in: input)
    return 1
  }
  try parser.handler.finish()
  if parser.handler.valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}

/// `jsonstream select PATH`: parser → select filter → compact writer, one value per line.
/// Like `minify`, what was written before an error in the input stays written.
func runSelect(_ arguments: Arguments, output: ByteOutput) throws -> Int32 {
  let path: JSONPath
  do {
    path = try JSONPath(arguments.path ?? "$")
  } catch let error as JSONPathError {
    throw ToolError.usage(
      "invalid path '\(arguments.path ?? "")': \(error.message) (offset \(error.offset))")
  }
  let input = try ByteInput(path: arguments.inputPath, chunkSize: arguments.chunkSize)
  var writeOptions = arguments.writeOptions
  writeOptions.indent = nil
  writeOptions.allowMultipleValues = true
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  let writer = JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions)
  var parser = JSONParser(
    handler: JSONSelectFilter(paths: [path], downstream: writer), options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    try? parser.handler.downstream.flush()
    output.flush()
    report(error, in: input)
    return 1
  }
  try parser.handler.downstream.finish()
  if parser.handler.downstream.valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}
