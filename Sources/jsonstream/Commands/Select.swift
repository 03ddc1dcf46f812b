import JSONStream
import JSONStreamCore

/// `jsonstream select PATH... [FILE...]`: parser → select filter → printer, file after file.
/// Every path streams (memory holds at most a filter's candidate, see `JSONSelectFilter`),
/// except with `--rfc-order` or a filter that reads the root (`$`): then each top-level value
/// is read into a tree, one at a time, and the paths are evaluated on it.
func runSelect(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  if arguments.parsesLinesInParallel {
    return try selectLinesInParallel(arguments, input: input, output: output)
  }
  if arguments.parsesArrayInParallel && arguments.selectsArrayElementwise {
    return try selectLinesInParallel(arguments, input: input, output: output, arrayElements: true)
  }
  var writeOptions = arguments.writeOptions
  writeOptions.indent = nil
  writeOptions.allowMultipleValues = true
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  var writer = JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions)
  let streams = !arguments.rfcOrder && arguments.paths.allSatisfy(\.isStreamable)
  if streams && arguments.selectOutput == .values && !arguments.raw && !arguments.count
    && arguments.first == nil
  {
    // The common case: the matches go straight to the writer.
    let failed = try eachInput(
      arguments, input, output, isDone: { false }, flush: { try writer.flush() },
      parse: { input in
        var parser = JSONParser(
          handler: JSONSelectFilter(paths: arguments.paths, downstream: writer),
          options: arguments.options)
        defer { writer = parser.handler.downstream }
        return try parseInput(input, into: &parser)
      })
    if let failed { return failed }
    try writer.finish()
    if writer.valueCount > 0 { output.buffer.append(0x0A) }
    output.flush()
    return 0
  }
  let state = SelectState()
  var printer = SelectPrinter(writer: writer, output: output, arguments: arguments, state: state)
  let failed = try eachInput(
    arguments, input, output, isDone: { printer.isDone }, flush: { try printer.flush() },
    parse: { input in
      guard streams else { return try selectOnTrees(arguments, input: input, into: &printer) }
      var parser = JSONParser(
        handler: JSONSelectFilter(
          paths: arguments.paths, downstream: printer,
          reportsPaths: arguments.selectOutput != .values,
          onMatch: arguments.selectOutput == .values ? nil : { state.path = $0.normalizedPath }),
        options: arguments.options)
      defer { printer = parser.handler.downstream }
      return try parseInput(input, into: &parser)
    })
  if let failed { return failed }
  try printer.finish()
  output.flush()
  return 0
}

extension Arguments {
  /// Whether select's output from a top-level array is the same wherever each element is:
  /// every path streams and takes the elements by wildcard or filter (no index, slice or
  /// descendant first), and no path is printed.
  var selectsArrayElementwise: Bool {
    !rfcOrder && selectOutput == .values
      && paths.allSatisfy { path in
        guard path.isStreamable, let first = path.query.segments.first, !first.isDescendant
        else { return false }
        return first.selectors.allSatisfy { selector in
          switch selector {
          case .wildcard, .filter: return true
          case .name, .index, .slice: return false
          }
        }
      }
  }
}

/// `select` on NDJSON (or any values one after another), or on a top-level array's elements
/// (`arrayElements`), in blocks of lines on several threads, file after file (see
/// `parseLinesInParallel`).
func selectLinesInParallel(
  _ arguments: Arguments, input: ByteInput, output: ByteOutput, arrayElements: Bool = false
) throws -> Int32 {
  let streams = !arguments.rfcOrder && arguments.paths.allSatisfy(\.isStreamable)
  var state = LineOutput()
  var input = input
  var remaining = arguments.moreInputPaths[...]
  while true {
    if let failure = try parseLinesInParallel(
      arguments, input: input, output: output, into: &state, arrayElements: arrayElements,
      makeSegment: { makeSelectSegment(arguments, streams: streams, storage: &$0) })
    {
      return endInvalid(failure, in: input, arguments, output: output)
    }
    guard let next = remaining.popFirst() else { break }
    input = try ByteInput(
      path: next, chunkSize: arguments.chunkSize, showsProgress: !arguments.quiet)
  }
  if arguments.count {
    output.write("\(state.count)\n")
  } else if state.printed {
    output.buffer.append(0x0A)
  }
  output.flush()
  return 0
}

/// select's parse of a block of lines, as `runSelect` would parse the whole input: matches
/// straight to a writer, through a printer, or by evaluation on each value's tree; its
/// output goes into `storage`'s room.
func makeSelectSegment(_ arguments: Arguments, streams: Bool, storage: inout [UInt8])
  -> any LineSegment
{
  let output = ByteOutput(collectingInto: &storage)
  var writeOptions = arguments.writeOptions
  writeOptions.indent = nil
  writeOptions.allowMultipleValues = true
  writeOptions.allowNonFiniteNumbers = arguments.options.allowNonFiniteNumbers
  let writer = JSONWriter(sink: ByteOutputSink(output: output), options: writeOptions)
  if streams && arguments.selectOutput == .values && !arguments.raw && !arguments.count {
    return SelectSegment(
      output: output,
      parser: JSONParser(
        handler: JSONSelectFilter(paths: arguments.paths, downstream: writer),
        options: arguments.options),
      feed: { try $0.feed($1) }, flush: { try $0.downstream.flush() },
      status: { ($0.downstream.valueCount > 0, $0.downstream.depth > 0, 0) })
  }
  let state = SelectState()
  let printer = SelectPrinter(writer: writer, output: output, arguments: arguments, state: state)
  guard streams else {
    let box = PrinterBox(printer)
    return SelectSegment(
      output: output,
      parser: JSONParser(
        handler: treeSelector(arguments.paths, printingTo: box), options: arguments.options),
      feed: { try $0.feed($1) }, flush: { _ in try box.printer.flush() },
      status: { _ in (box.printer.printed, box.printer.writer.depth > 0, box.printer.matches) })
  }
  return SelectSegment(
    output: output,
    parser: JSONParser(
      handler: JSONSelectFilter(
        paths: arguments.paths, downstream: printer,
        reportsPaths: arguments.selectOutput != .values,
        onMatch: arguments.selectOutput == .values ? nil : { state.path = $0.normalizedPath }),
      options: arguments.options),
    feed: { try $0.feed($1) }, flush: { try $0.downstream.flush() },
    status: { ($0.downstream.printed, $0.downstream.writer.depth > 0, $0.downstream.matches) })
}

/// A select parse over a block of lines, whatever its handler: `feed` feeds the parser (a
/// closure made where the handler's type is known, so that the parse is specialized for it,
/// not run through the generic code this type's methods would call), `flush` hands over what
/// the handler's writer holds, `status` says whether it printed anything, whether it is inside
/// a value, and what it counted.
struct SelectSegment<Handler: JSONEventHandler>: LineSegment {
  let output: ByteOutput
  var parser: JSONParser<Handler>
  let feed: (inout JSONParser<Handler>, _ScanInput?) throws -> Void
  let flush: (inout Handler) throws -> Void
  let status: (Handler) -> (printed: Bool, isInsideValue: Bool, count: Int)

  mutating func feed(_ input: _ScanInput?) throws { try feed(&parser, input) }

  mutating func finish() throws {
    try parser.finish()
    try flush(&parser.handler)
  }

  mutating func takeOutput(flushing: Bool) throws -> [UInt8] {
    if flushing { try flush(&parser.handler) }
    return output.takeCollected()
  }

  var printed: Bool { status(parser.handler).printed }
  var isInsideValue: Bool { status(parser.handler).isInsideValue }
  var count: Int { status(parser.handler).count }
  var line: Int { parser.line }
  mutating func resumeInsideArray() throws { try parser._resumeInsideTopLevelArrayAfterComma() }
  var isInsideArrayAfterComma: Bool { parser._isInsideTopLevelArrayAfterComma }
}

/// Runs `parse` on `first`, then on each of select's other files in turn until `isDone`.
/// Returns the exit status of the first input that is not valid (reported as every command
/// reports it, after `flush`), or nil when all were.
func eachInput(
  _ arguments: Arguments, _ first: ByteInput, _ output: ByteOutput, isDone: () -> Bool,
  flush: () throws -> Void, parse: (ByteInput) throws -> JSONParseError?
) throws -> Int32? {
  var input = first
  var remaining = arguments.moreInputPaths[...]
  while true {
    if let error = try parse(input) {
      return endInvalid(error, in: input, arguments, output: output, flushWriter: flush)
    }
    guard !isDone(), let next = remaining.popFirst() else { return nil }
    input = try ByteInput(
      path: next, chunkSize: arguments.chunkSize, showsProgress: !arguments.quiet)
  }
}

/// `select` by evaluation, for paths whose filters read the root: each top-level value as it
/// completes, every path in turn, each path's results in RFC 9535's order.
func selectOnTrees(_ arguments: Arguments, input: ByteInput, into printer: inout SelectPrinter)
  throws -> JSONParseError?
{
  let box = PrinterBox(printer)
  defer { printer = box.printer }
  var parser = JSONParser(
    handler: treeSelector(arguments.paths, printingTo: box), options: arguments.options)
  return try parseInput(input, into: &parser)
}

/// An item streamer that evaluates `paths` on each top-level value and prints the results
/// through `box`'s printer.
func treeSelector(_ paths: [JSONPath], printingTo box: PrinterBox) -> JSONItemStreamer {
  // "$" is a valid path: it cannot fail.
  JSONItemStreamer(paths: [try! JSONPath("$")]) { item in
    for path in paths {
      for (normalized, value) in path.selectWithPaths(in: item.value) {
        guard !box.printer.isDone else { return }
        box.printer.state.path = normalized
        try value.replay(into: &box.printer)
      }
    }
  }
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

/// The normalized path of the match the select filter is about to forward (set by its
/// `onMatch`, read by the printer at the match's first event).
final class SelectState {
  var path: String?
}

/// The item closure of ``selectOnTrees`` prints through this.
final class PrinterBox {
  var printer: SelectPrinter
  init(_ printer: SelectPrinter) { self.printer = printer }
}

/// Prints each top-level value it receives (each match) on a line of its own, as `select`'s
/// flags say: compact JSON; a string's text alone (`--raw`); the match's path (`--paths`);
/// `[path, value]` (`--with-paths`); or nothing, counting (`--count`). Done after `--first N`
/// matches, which stops the parser.
struct SelectPrinter: JSONEventHandler {
  var writer: JSONWriter<ByteOutputSink>
  let output: ByteOutput
  let mode: SelectOutput
  let raw: Bool
  let counts: Bool
  let limit: Int
  let state: SelectState
  /// Open containers of the value being printed.
  var depth = 0
  /// Matches printed (or counted) whole.
  var matches = 0
  /// Whether a line was printed outside the writer (a raw string, a path): the writer's next
  /// value then needs the line break the writer puts only between values of its own.
  var printedText = false

  init(
    writer: JSONWriter<ByteOutputSink>, output: ByteOutput, arguments: Arguments,
    state: SelectState
  ) {
    self.writer = writer
    self.output = output
    mode = arguments.selectOutput
    raw = arguments.raw
    counts = arguments.count
    limit = arguments.first ?? .max
    self.state = state
  }

  /// Whether the printer writes the values' JSON (not for `--paths` or `--count`).
  var printsValues: Bool { !counts && mode != .paths }

  /// `true` once `--first N` matches are out: the parser stops reading.
  var isDone: Bool { matches >= limit }
  /// The contents of a match are skipped (checked, not decoded) when only its path or its
  /// number is printed.
  var skipsContainerContents: Bool { !printsValues }
  static var canSkipContainers: Bool { true }

  // MARK: Lines

  /// A line of text: a raw string or a path.
  mutating func printLine(_ bytes: [UInt8]) throws {
    try writer.flush()
    if printedText || writer.valueCount > 0 { output.buffer.append(0x0A) }
    output.buffer.append(contentsOf: bytes)
    output.didAppend()
    printedText = true
  }

  /// Before a match's first event.
  mutating func beginMatch() throws {
    if counts { return }
    switch mode {
    case .values: break
    case .paths: try printLine(Array((state.path ?? "").utf8))
    case .pathsAndValues:
      try separateFromText()
      try writer.startArray()
      try writer.string(state.path ?? "")
    }
  }

  /// After a match's last event.
  mutating func endMatch() throws {
    matches += 1
    if printsValues && mode == .pathsAndValues { try writer.endArray() }
  }

  /// The writer's value comes after a line printed outside it: the line break goes first,
  /// unless the writer puts one there itself (after a value of its own).
  mutating func separateFromText() throws {
    guard printedText else { return }
    printedText = false
    if writer.valueCount == 0 {
      try writer.flush()
      output.buffer.append(0x0A)
    }
  }

  /// Runs `write` for an event of the value, with the match's start and end around it.
  mutating func event(
    opens: Bool = false, closes: Bool = false,
    _ write: (inout JSONWriter<ByteOutputSink>) throws -> Void
  ) throws {
    if depth == 0 && !closes {
      try beginMatch()
      if printsValues && mode == .values { try separateFromText() }
    }
    if printsValues { try write(&writer) }
    if opens { depth += 1 }
    if closes { depth -= 1 }
    if depth == 0 { try endMatch() }
  }

  // MARK: Events

  mutating func startObject() throws { try event(opens: true) { try $0.startObject() } }
  mutating func endObject() throws { try event(closes: true) { try $0.endObject() } }
  mutating func startArray() throws { try event(opens: true) { try $0.startArray() } }
  mutating func endArray() throws { try event(closes: true) { try $0.endArray() } }
  mutating func key(_ key: borrowing JSONString) throws {
    if printsValues { try writer.key(key) }
  }
  mutating func number(_ value: borrowing JSONNumber) throws {
    try event { try $0.number(value) }
  }
  mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    try event { try $0.binaryNumber(value) }
  }
  mutating func bool(_ value: Bool) throws { try event { try $0.bool(value) } }
  mutating func null() throws { try event { try $0.null() } }

  mutating func string(_ value: borrowing JSONString) throws {
    if raw && depth == 0 && printsValues && mode == .values {
      try printLine(value.bytes)
      matches += 1
      return
    }
    try event { try $0.string(value) }
  }

  // MARK: End

  /// Hands what the writer holds to the output (before an error is reported).
  mutating func flush() throws { try writer.flush() }

  /// Whether anything was printed whole: a value, or a line outside the writer.
  var printed: Bool { writer.valueCount > 0 || printedText }

  /// Ends the output: the count for `--count`; a final line break after anything printed.
  mutating func finish() throws {
    if counts {
      output.write("\(matches)\n")
      return
    }
    try writer.finish()
    if printed { output.buffer.append(0x0A) }
  }
}
