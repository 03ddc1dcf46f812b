import JSONStream

/// `jsonstream ndjson`: the elements of a top-level array, one compact value per line; with
/// `--to-array`, the values of NDJSON lines (or any top-level values) as one array.
func runNDJSON(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  var writeOptions = arguments.writeOptions
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  let writer = JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions)
  if arguments.toArray {
    var options = arguments.options
    options.allowMultipleValues = true
    var parser = JSONParser(
      handler: Reframer(writer: writer, mode: .valuesToArray), options: options)
    if let error = try parseInput(input, into: &parser) {
      return endInvalid(error, in: input, arguments, output: output) {
        try parser.handler.writer.flush()
      }
    }
    try parser.handler.finish()
    output.buffer.append(0x0A)
    output.flush()
    return 0
  }
  writeOptions.indent = nil
  writeOptions.allowMultipleValues = true
  var parser = JSONParser(
    handler: Reframer(
      writer: JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions),
      mode: .elementsToValues),
    options: arguments.options)
  do {
    if let error = try parseInput(input, into: &parser) {
      return endInvalid(error, in: input, arguments, output: output) {
        try parser.handler.writer.flush()
      }
    }
  } catch is NotAnArray {
    try? parser.handler.writer.flush()
    output.flush()
    if !arguments.quiet {
      writeStandardError(
        "\(input.name):\(parser.line):\(parser.column): the top-level value is not an array"
          + " (ndjson --to-array turns lines into an array)\n")
    }
    return 1
  }
  try parser.handler.writer.finish()
  if parser.handler.writer.valueCount > 0 { output.buffer.append(0x0A) }
  output.flush()
  return 0
}

struct NotAnArray: Error {}

/// Forwards events to a writer, changing only the top level: the elements of each top-level
/// array become top-level values (anything else at the top is refused), or every top-level
/// value becomes an element of one array.
struct Reframer: JSONEventHandler {
  enum Mode {
    case elementsToValues
    case valuesToArray
  }

  var writer: JSONWriter<ByteOutputSink>
  let mode: Mode
  /// Open containers in the input.
  var depth = 0
  /// `valuesToArray`: the array has been opened.
  var started = false

  /// A value is starting at the current depth.
  mutating func begin() throws {
    guard depth == 0 else { return }
    switch mode {
    case .elementsToValues:
      throw NotAnArray()
    case .valuesToArray:
      if !started {
        started = true
        try writer.startArray()
      }
    }
  }

  /// Whether a container event at the current depth is the top-level array being unwrapped.
  var unwrapping: Bool { mode == .elementsToValues && depth == 0 }

  mutating func startArray() throws {
    if unwrapping {
      depth += 1
      return
    }
    try begin()
    depth += 1
    try writer.startArray()
  }
  mutating func endArray() throws {
    depth -= 1
    if !unwrapping { try writer.endArray() }
  }
  mutating func startObject() throws {
    try begin()
    depth += 1
    try writer.startObject()
  }
  mutating func endObject() throws {
    depth -= 1
    try writer.endObject()
  }
  mutating func key(_ key: borrowing JSONString) throws { try writer.key(key) }
  mutating func string(_ value: borrowing JSONString) throws {
    try begin()
    try writer.string(value)
  }
  mutating func number(_ value: borrowing JSONNumber) throws {
    try begin()
    try writer.number(value)
  }
  mutating func bool(_ value: Bool) throws {
    try begin()
    try writer.bool(value)
  }
  mutating func null() throws {
    try begin()
    try writer.null()
  }

  /// `valuesToArray`: closes the array (an empty one when there were no values) and flushes.
  mutating func finish() throws {
    if !started { try writer.startArray() }
    try writer.endArray()
    try writer.finish()
  }
}
