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

/// `jsonstream select PATH`: parser → select filter → compact writer, one value per line,
/// when every path streams and no paths are asked for; otherwise each top-level value is
/// built as a tree (one at a time) and each path evaluated on it (RFC 9535's results).
func runSelect(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  var writeOptions = arguments.writeOptions
  writeOptions.indent = nil
  writeOptions.allowMultipleValues = true
  if arguments.selectOutput != .values || !arguments.paths.allSatisfy(\.isStreamable) {
    return try selectOnTrees(arguments, input: input, output: output, writeOptions: writeOptions)
  }
  return try writeThrough(
    arguments, input: input, output: output, writeOptions: writeOptions, writer: \.downstream
  ) { JSONSelectFilter(paths: arguments.paths, downstream: $0) }
}

/// What `select` prints for each value a path selects.
enum SelectOutput {
  /// The value (the default).
  case values
  /// `--paths`: its normalized path, such as `$['items'][0]`, as text.
  case paths
  /// `--with-paths`: `[path, value]`.
  case pathsAndValues
}

/// `select` by evaluation: each top-level value as it completes, every path in turn, each
/// path's results in RFC 9535's order.
func selectOnTrees(
  _ arguments: Arguments, input: ByteInput, output: ByteOutput, writeOptions: JSONWriteOptions
) throws -> Int32 {
  var writeOptions = writeOptions
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  let writer = WriterBox(
    JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions))
  let paths = arguments.paths
  let mode = arguments.selectOutput
  let streamer = JSONItemStreamer(paths: [try JSONPath("$")]) { item in
    for path in paths {
      switch mode {
      case .values:
        for value in path.select(in: item.value) { try value.write(to: &writer.writer) }
      case .paths:
        for (normalized, _) in path.selectWithPaths(in: item.value) {
          try writer.writer.flush()
          output.write(normalized + "\n")
        }
      case .pathsAndValues:
        for (normalized, value) in path.selectWithPaths(in: item.value) {
          try JSONValue.array([.string(normalized), value]).write(to: &writer.writer)
        }
      }
    }
  }
  var parser = JSONParser(handler: streamer, options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    return endInvalid(error, in: input, arguments, output: output) { try writer.writer.flush() }
  }
  try writer.writer.finish()
  if writer.writer.valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}

/// The writer the item closure of ``selectOnTrees`` writes through.
final class WriterBox {
  var writer: JSONWriter<ByteOutputSink>
  init(_ writer: JSONWriter<ByteOutputSink>) { self.writer = writer }
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
