import Dispatch
import JSONStream
import JSONStreamCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// NDJSON on every core: the input is cut into blocks of whole lines, each block is parsed on
// a thread of its own by a fresh parser, and the blocks' outputs are written in input order.
//
// Why a block can be parsed alone: the first block starts at the start of the input. A block
// whose parse ends between two values (every value complete) ends where the sequential parse
// of the whole input would be between the same two values, so the next block starts there too.
// A fresh parser is then in the state the sequential one would be in (offsets and lines aside,
// which are added back), so the block gives the same events, the same output and the same
// first error. A block whose last value is not complete (a value spread over several lines,
// as in pretty-printed concatenated JSON, or a line longer than the longest block) is where
// this stops: from there on, one parser reads the rest in order, as the sequential command
// does.
//
// A top-level array whose elements come one or more per line (`[` on its own line, then
// `{...},` lines) is read the same way, in blocks of lines, when the command's output does not
// depend on where an element is in the array (validate; select with paths that take the
// elements by wildcard or filter). A block after the first is parsed by a parser that resumes
// inside the array right after a comma; that is the state the one-pass parse is in at the
// block's start when the block before ended right after a comma of the array, which its
// parser checks. A block that ends anywhere else is where parsing in blocks stops.

/// A command's parse of part of an NDJSON input, writing into its own output.
protocol LineSegment {
  /// Feeds the next bytes; throws the parse error (or the handler's).
  mutating func feed(_ input: _ScanInput?) throws
  /// Ends the input: every value must be complete.
  mutating func finish() throws
  /// Takes what has been written so far; `flushing` first hands over what the writer holds
  /// (at the end, or before an error is reported).
  mutating func takeOutput(flushing: Bool) throws -> [UInt8]
  /// Whether anything was printed whole (a value, a line): any output after it then starts
  /// with a line break, and the command's output ends with one.
  var printed: Bool { get }
  /// Whether a value is begun and not complete: its line break is out, though the value may
  /// be held (an object being sorted).
  var isInsideValue: Bool { get }
  /// Matches counted (`select --count`).
  var count: Int { get }
  /// The parser's line.
  var line: Int { get }
  /// Puts the fresh parser inside a top-level array, right after a comma (for a block of an
  /// array's elements after the first).
  mutating func resumeInsideArray() throws
  /// Whether the parse is right after a comma of the top-level array.
  var isInsideArrayAfterComma: Bool { get }
}

extension LineSegment {
  /// Feeds `bytes`.
  mutating func feed(_ bytes: [UInt8]) throws {
    try _ScanInput.with(contentsOf: bytes) { try feed($0) }
  }

  /// Feeds a block's bytes.
  mutating func feed(_ block: LineBlock) throws {
    try block.withInput { try feed($0) }
  }
}

/// The output of the segments so far, across select's files: whether any printed something,
/// and their count.
struct LineOutput {
  var printed = false
  var count = 0
}

/// A parse error in NDJSON read in blocks, located in the whole input, with its line's text.
struct LineFailure {
  let error: JSONParseError
  let line: (text: String, before: String)?
}

/// The number of threads that run at once here: one per core.
func processorCount() -> Int {
  Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

extension Arguments {
  /// Whether the input may be read in blocks on several threads at all: more than one
  /// thread, and nothing that needs the input whole (a limit on its length, text after the
  /// value, a stop after select's `--first` matches).
  var readsInBlocks: Bool {
    !options.allowTrailingText && options.limits.maxInputLength == .max && threads > 1
      && first == nil
  }

  /// Whether the input is parsed in blocks of lines on several threads: NDJSON (or any values
  /// one after another).
  var parsesLinesInParallel: Bool { readsInBlocks && options.allowMultipleValues }

  /// Whether a top-level array may be parsed in blocks of lines on several threads (if the
  /// command's output does not depend on where an element is): one value, and no comments (a
  /// block must not end inside one).
  var parsesArrayInParallel: Bool {
    readsInBlocks && !options.allowMultipleValues && !options.allowComments
  }

  /// The input read for each block: sixteen chunks (1 MiB by default), but no more than
  /// 16 MiB unless a chunk is larger.
  var lineBlockSize: Int { Swift.max(chunkSize, Swift.min(chunkSize * 16, 16 << 20)) }

  /// The longest block, for a long line: 64 blocks, but no more than 64 MiB unless a block is
  /// larger.
  var maxLineBlockSize: Int { Swift.max(lineBlockSize, Swift.min(lineBlockSize * 64, 64 << 20)) }
}

/// One block's parse on a worker thread, and what it came to.
final class BlockJob: @unchecked Sendable {
  // @unchecked: `block` is set before the job is queued and read only after `done`; `result`
  // is written by the worker before it signals `done` and read by the caller after waiting.
  var block: LineBlock
  /// An output array of an earlier block, for the room it has.
  var storage: [UInt8]
  var result: BlockResult?
  let done = DispatchSemaphore(value: 0)

  init(block: LineBlock, storage: [UInt8]) {
    self.block = block
    self.storage = storage
  }
}

/// What a block's parse came to.
struct BlockResult: Sendable {
  var output: [UInt8] = []
  var printed = false
  var isInsideValue = false
  var count = 0
  /// Line breaks in the block.
  var lines = 0
  /// The first parse error, located in the block (its offset from the block's start).
  var error: JSONParseError?
  /// Another error (a handler's, the output's): thrown as the sequential command would.
  var otherError: (any Error)?
  /// The block's last value is not complete: it cannot be parsed alone.
  var needsSequential = false
}

/// Parses `input` in blocks of whole lines on `arguments.threads` threads, each with a segment
/// from `makeSegment` (given an array whose room its output may use), and writes their
/// outputs to `output` in input order. Returns nil when
/// the input was valid, else its first error, located in the whole input, after writing what
/// came before it (as the sequential command does).
func parseLinesInParallel(
  _ arguments: Arguments, input: ByteInput, output: ByteOutput, into state: inout LineOutput,
  arrayElements: Bool = false,
  makeSegment: @escaping @Sendable (inout [UInt8]) -> any LineSegment
) throws -> LineFailure? {
  // A line longer than the longest block is read by one parser, with what follows it.
  var blocks = LineBlocks(
    input: input, blockSize: arguments.lineBlockSize, maxBlockSize: arguments.maxLineBlockSize)
  // Dispatch runs at most one job per core at once: more in flight would only hold memory.
  let workers = Swift.min(arguments.threads, processorCount())
  // The jobs in flight, oldest first, and output arrays written out, to be filled again.
  var pending: [BlockJob] = []
  var spareOutputs: [[UInt8]] = []
  // Where the next block to be written starts: offset and line.
  var offset = 0
  var line = 1
  var sequentialFrom: LineBlock?
  defer {
    // Jobs still running read their blocks: they finish before this returns.
    for job in pending { job.done.wait() }
  }
  while true {
    // Blocks in flight: one per worker, and two more ready for them.
    while sequentialFrom == nil && pending.count < workers + 2,
      let block = try blocks.next()
    {
      if block.endsInsideLine {
        sequentialFrom = block
        break
      }
      let job = BlockJob(block: block, storage: spareOutputs.popLast() ?? [])
      pending.append(job)
      DispatchQueue.global().async {
        job.result = parseBlock(job.block, arrayElements: arrayElements) {
          makeSegment(&job.storage)
        }
        job.done.signal()
      }
    }
    guard !pending.isEmpty else {
      // The first block, or the one after the last job, ends inside its line; or the input
      // was empty, which is no array (nor value) at all.
      if arrayElements && offset == 0 && sequentialFrom == nil {
        sequentialFrom = LineBlock(
          storage: [], mapped: nil, count: 0, offset: 0, isLast: true, endsInsideLine: false)
      }
      guard let block = sequentialFrom else { break }
      return try parseSequentially(
        from: block, then: [], blocks: &blocks, at: (offset, line), arrayElements: arrayElements,
        output: output, into: &state, makeSegment)
    }
    let job = pending.removeFirst()
    job.done.wait()
    var result = job.result!
    job.result = nil
    if result.needsSequential {
      // This block and everything after it, in order, by one parser.
      for later in pending { later.done.wait() }
      var rest = pending.map(\.block)
      pending.removeAll()
      if let sequentialFrom { rest.append(sequentialFrom) }
      return try parseSequentially(
        from: job.block, then: rest, blocks: &blocks, at: (offset, line),
        arrayElements: arrayElements, output: output, into: &state, makeSegment)
    }
    if let otherError = result.otherError { throw otherError }
    write(
      result.output, printed: result.printed || result.isInsideValue, started: false,
      to: output, after: state)
    state.printed = state.printed || result.printed
    state.count += result.count
    if let error = result.error {
      return LineFailure(
        error: located(error, at: (offset, line)),
        line: lineAround(error.offset, in: job.block.bytes))
    }
    offset += job.block.count
    line += result.lines
    blocks.recycle(&job.block)
    // Emptied here, where it is the only reference, so that it keeps its room.
    result.output.removeAll(keepingCapacity: true)
    spareOutputs.append(result.output)
  }
  return nil
}

/// Parses one block with a fresh segment, primed (see `primeLength`); of an array's elements
/// (`arrayElements`), resumed inside the array after the first block.
func parseBlock(_ block: LineBlock, arrayElements: Bool, _ makeSegment: () -> any LineSegment)
  -> BlockResult
{
  var segment = makeSegment()
  var result = BlockResult()
  let prime = primeLength(at: block.offset)
  do {
    if arrayElements && block.offset > 0 { try segment.resumeInsideArray() }
    if prime > 0 { try segment.feed([0x0A]) }
    try segment.feed(block)
    if arrayElements && !block.isLast {
      // The next block starts right after a comma of the array, or this is where reading in
      // blocks stops.
      guard segment.isInsideArrayAfterComma else {
        result.needsSequential = true
        return result
      }
    } else {
      do {
        try segment.finish()
      } catch is JSONParseError where !block.isLast {
        // A value goes on in the next block.
        result.needsSequential = true
        return result
      }
    }
    result.output = try segment.takeOutput(flushing: true)
    result.lines = segment.line - 1 - prime
  } catch let error as JSONParseError {
    // Located in the block: the primed line break taken off.
    result.error = located(error, at: (-prime, 1 - prime))
    do {
      result.output = try segment.takeOutput(flushing: true)
    } catch {
      result.otherError = error
    }
  } catch {
    result.otherError = error
  }
  result.printed = segment.printed
  result.isInsideValue = segment.isInsideValue
  result.count = segment.count
  return result
}

/// Bytes fed to a parser before a block at `offset`: for every block but the first, a line
/// break, so that a byte order mark at the block's start is what it is after the input's
/// start (a character out of place, not one to skip or report as a byte order mark).
func primeLength(at offset: Int) -> Int { offset > 0 ? 1 : 0 }

/// `error`, found by a parser that started at `start` of the input, located in the input.
func located(_ error: JSONParseError, at start: (offset: Int, line: Int)) -> JSONParseError {
  JSONParseError(
    kind: error.kind, offset: error.offset + start.offset, line: error.line + start.line - 1,
    column: error.column, message: error.message, path: error.path)
}

/// Writes a segment's `bytes`: after a line break when they are its first (or it `printed` a
/// value, or began one) and something was printed before it, as the writer of a sequential
/// command puts one before each value but the first.
func write(
  _ bytes: [UInt8], printed: Bool, started: Bool, to output: ByteOutput, after state: LineOutput
) {
  if !started && (printed || !bytes.isEmpty) && state.printed {
    // Handed on at once, so that a large block goes out without a copy into the buffer.
    output.buffer.append(0x0A)
    output.flush()
  }
  output.write(bytes)
}

/// The rest of the input from `first` on, read by one parser: `first`, then `rest`, then the
/// blocks still to be read. `start` is where `first` starts in the input.
func parseSequentially(
  from first: LineBlock, then rest: [LineBlock], blocks: inout LineBlocks,
  at start: (offset: Int, line: Int), arrayElements: Bool, output: ByteOutput,
  into state: inout LineOutput, _ makeSegment: (inout [UInt8]) -> any LineSegment
) throws -> LineFailure? {
  var storage: [UInt8] = []
  var segment = makeSegment(&storage)
  let prime = primeLength(at: first.offset)
  var started = false
  // The block before the one being read, and that one: an error's line is in them.
  var previous: LineBlock?
  var current: LineBlock?
  var currentOffset = first.offset
  func fail(_ error: JSONParseError) throws -> LineFailure {
    let bytes = try segment.takeOutput(flushing: true)
    write(
      bytes, printed: segment.printed || segment.isInsideValue, started: started, to: output,
      after: state)
    state.printed = state.printed || segment.printed
    state.count += segment.count
    let inInput = located(error, at: (start.offset - prime, start.line - prime))
    let window = (previous?.bytes ?? []) + (current?.bytes ?? [])
    let windowStart = currentOffset - (previous?.count ?? 0)
    return LineFailure(error: inInput, line: lineAround(inInput.offset - windowStart, in: window))
  }
  do {
    if arrayElements && first.offset > 0 { try segment.resumeInsideArray() }
    if prime > 0 { try segment.feed([0x0A]) }
    var queue = rest[...]
    var block: LineBlock? = first
    while let this = block {
      if var done = previous { blocks.recycle(&done) }
      previous = current
      current = this
      currentOffset = this.offset
      try segment.feed(this)
      let bytes = try segment.takeOutput(flushing: false)
      write(bytes, printed: segment.printed, started: started, to: output, after: state)
      started = started || segment.printed || !bytes.isEmpty
      block = queue.popFirst()
      if block == nil { block = try blocks.next() }
    }
    try segment.finish()
    let bytes = try segment.takeOutput(flushing: true)
    write(bytes, printed: segment.printed, started: started, to: output, after: state)
  } catch let error as JSONParseError {
    return try fail(error)
  }
  state.printed = state.printed || segment.printed
  state.count += segment.count
  return nil
}
