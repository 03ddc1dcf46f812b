// Async adapters: any AsyncSequence of bytes or of byte chunks (a socket, an HTTP body, a file
// read in pieces) becomes an AsyncSequence of events, of selected items or of documents.
//
// Pull-driven, so backpressure is built in: the next chunk is read only when every output of
// the previous one has been taken, so nothing is read ahead beyond one chunk plus the value
// being built. A cancelled task stops reading: the next `next()` throws CancellationError.
// A sequence of single bytes (such as `URLSession.AsyncBytes`) is gathered into short runs,
// each fed to the parser at the first byte that may complete an output (see
// `_AsyncByteRun`): an item is still delivered as soon as its last byte arrives, never held
// back to fill a buffer, while the parser is called once per run instead of once per byte.
//
// The iterators are inlinable, so that they are specialized for the caller's sequence: an
// `AsyncBytes`-like iterator's `next()` then costs a few instructions per byte, where an
// unspecialized call through its witness table cost more than parsing the byte.

import JSONStreamCore
import JSONStreamParser
import JSONStreamPath
import JSONStreamValue

/// Something that turns chunks of input into outputs: the parser with a consumer.
@usableFromInline
protocol _AsyncPump {
  associatedtype Output
  /// The options it parses with (a run of single bytes is cut by them).
  var options: JSONParseOptions { get }
  /// The one byte that can complete an output, when there is one: the separator of NDJSON
  /// lines or of RFC 7464 records, which alone ends a document (nil: any byte may).
  var separator: UInt8? { get }
  /// How many of the open containers must end before an output can be complete (0 when any
  /// byte may complete one), as of the input fed so far.
  var containersBeforeNextOutput: Int { get }
  /// Reads `chunk`, appending the outputs it completes; when it throws, `outputs` holds every
  /// output completed before the error.
  mutating func feed(_ chunk: ArraySlice<UInt8>, into outputs: inout [Output]) throws
  /// The end of the input, likewise.
  mutating func finish(into outputs: inout [Output]) throws
  /// The output at `index`, which is returned once: moved out of `outputs` where a value that
  /// costs nothing to destroy can be left in its place, copied otherwise.
  static func take(_ index: Int, of outputs: inout [Output]) -> Output
}

extension _AsyncPump {
  @inlinable
  static func take(_ index: Int, of outputs: inout [Output]) -> Output { outputs[index] }
}

/// The iterator all the adapters share.
///
/// Nothing complete is lost to an error: the outputs a chunk completed before its error are
/// returned first, in order, then the error is thrown once, and every later call returns nil
/// (as for any throwing async iterator). The outcome does not depend on how the input was
/// chunked.
@usableFromInline
struct _JSONAsyncIterator<Base: AsyncSequence, Pump: _AsyncPump> {
  @usableFromInline var iterator: Base.AsyncIterator
  /// A chunk's bytes; nil when the elements are single bytes (`UInt8`).
  @usableFromInline let chunkBytes: ((Base.Element) -> [UInt8])?
  @usableFromInline var pump: Pump
  @usableFromInline var outputs: [Pump.Output] = []
  @usableFromInline var next = 0
  /// No more input will be read: the end was reached, or an error is pending or was thrown.
  @usableFromInline var finished = false
  /// An error to throw once `outputs` are all returned.
  @usableFromInline var pendingError: (any Error)? = nil
  /// The run of single bytes being read (its first `runLength`): one array of
  /// `_AsyncByteRun.limit` bytes and eight more, reused.
  @usableFromInline var run: [UInt8] = []
  @usableFromInline var runLength = 0
  /// Where runs end.
  @usableFromInline var runCutter: _AsyncByteRun

  @inlinable
  init(
    iterator: Base.AsyncIterator, chunkBytes: ((Base.Element) -> [UInt8])?, pump: Pump
  ) {
    self.iterator = iterator
    self.chunkBytes = chunkBytes
    self.pump = pump
    runCutter = _AsyncByteRun(options: pump.options, separator: pump.separator)
  }

  /// The next output: most calls return one already made, in a few instructions.
  @inlinable @inline(__always)
  mutating func next() async throws -> Pump.Output? {
    if next < outputs.count {
      defer { next &+= 1 }
      return Pump.take(next, of: &outputs)
    }
    return try await readThenNext()
  }

  /// Reads until there is an output, the end or an error. Single bytes are read in its loop
  /// (`readRun` is inlined): a call of an async function per run cost more than the run.
  @inlinable
  mutating func readThenNext() async throws -> Pump.Output? {
    while next == outputs.count {
      if let error = pendingError {
        pendingError = nil
        throw error
      }
      if finished { return nil }
      outputs.removeAll(keepingCapacity: true)
      next = 0
      do {
        try Task.checkCancellation()
        if let chunkBytes {
          try await readChunk(chunkBytes)
        } else {
          try await readRun()
        }
      } catch {
        finished = true
        pendingError = error
      }
    }
    defer { next += 1 }
    return Pump.take(next, of: &outputs)
  }

  /// Reads the next chunk (or the end) into the pump, appending what it completes.
  @inlinable
  mutating func readChunk(_ bytes: (Base.Element) -> [UInt8]) async throws {
    if let element = try await iterator.next() {
      try pump.feed(bytes(element)[...], into: &outputs)
    } else {
      finished = true
      try pump.finish(into: &outputs)
    }
  }

  /// Reads single bytes up to the end of a run (see `_AsyncByteRun`), or the end, into the
  /// pump, appending what they complete.
  @inlinable @inline(__always)
  mutating func readRun() async throws {
    if run.isEmpty { run = Array(repeating: 0, count: _AsyncByteRun.limit &+ 8) }
    runLength = 0
    var ended = false
    // The bytes not yet stored in `run`, the first in the low byte: stored eight at a time,
    // as a store of one byte cost a check that the array is not shared. The last word is
    // stored whole too (the array has room), with zeros after the run's end.
    var word: UInt64 = 0
    var wordLength = 0
    do {
      while true {
        guard let element = try await iterator.next() else {
          ended = true
          break
        }
        // The elements are `UInt8` (only the entry points for bytes make this iterator
        // without `chunkBytes`): specialized, the cast is no code at all.
        let byte = element as! UInt8
        word |= UInt64(byte) &<< UInt64(truncatingIfNeeded: wordLength &* 8)
        wordLength &+= 1
        runLength &+= 1
        if wordLength == 8 {
          run._storeWord(word, at: runLength &- 8)
          word = 0
          wordLength = 0
        }
        if runCutter.cuts(after: byte) || runLength == _AsyncByteRun.limit { break }
      }
    } catch {
      // The bytes before the failure go first: their own error, if any, came first.
      run._storeWord(word, at: runLength &- wordLength)
      try pump.feed(run[..<runLength], into: &outputs)
      throw error
    }
    run._storeWord(word, at: runLength &- wordLength)
    if runLength > 0 {
      try pump.feed(run[..<runLength], into: &outputs)
      runCutter.holdUntilClosed(pump.containersBeforeNextOutput)
    }
    if ended {
      finished = true
      try pump.finish(into: &outputs)
    }
  }
}

/// Where a run of single bytes is cut: at a byte after which the parser may have an output
/// that it did not have before. A string's bytes are held back up to its closing quote, and
/// outside strings the bytes of a number or a literal up to the byte that ends it: a bracket,
/// a comma, a colon, white space, the last letter of `true`, `false`, `null`, `NaN` and
/// `Infinity`, a sign after a number or a literal, or any byte a number cannot go on with (a
/// letter other than its exponent's, a second `.`); where values may follow one another with
/// nothing between, also a letter that begins one. White space after white space, a comma or
/// a bracket completes nothing and is held back too. Documents separated by a byte (NDJSON
/// lines, RFC 7464 records) complete there only: that byte alone cuts.
///
/// Where the pump knows that nothing completes before some of the open containers end (inside
/// an item with nothing selected within it), only the bracket that closes the last of them
/// cuts: the cutter counts brackets outside strings from there.
///
/// A lexer of a few flags and a count, not a parser: on valid input it cuts at least wherever
/// the parser completes something (the tests hold it to that on every byte of their
/// documents); on invalid input it may cut late, so a syntax error is found at the next byte
/// that cuts, or at the end. With comments allowed, a quote may open a comment's text rather
/// than a string: strings are then not followed, every quote cuts, and no brackets are
/// counted.
@usableFromInline
struct _AsyncByteRun {
  /// The most bytes held back: a long string is fed in pieces.
  @inlinable static var limit: Int { 4096 }

  /// Whether strings are followed (not with comments allowed).
  @usableFromInline let followsStrings: Bool
  /// Whether values may follow one another with nothing between (`1-2`, `1true`), so that a
  /// byte that begins a value may end a number.
  @usableFromInline let valuesFollowDirectly: Bool
  /// Whether only `separator` cuts.
  @usableFromInline let cutsOnlyAtSeparator: Bool
  @usableFromInline let separator: UInt8
  @usableFromInline var inString = false
  @usableFromInline var escaped = false
  /// The last byte outside strings was part of a number or a literal, which the next byte
  /// may end.
  @usableFromInline var afterScalar = false
  /// The last byte outside strings was part of a number (or may have been), which a letter
  /// other than an exponent's ends.
  @usableFromInline var inNumber = false
  /// Where the number is: 0 in its integer part, 1 in its fraction, 2 in its exponent. A
  /// `.` ends it past the integer part, an `e` or `E` in the exponent.
  @usableFromInline var numberPart: UInt8 = 0
  /// Open containers to count down before the next cut (0: cut as above). Counted from the
  /// pump's own count, which the parser's events keep: never more than are really open, so
  /// a cut may come early, never late.
  @usableFromInline var containersToClose = 0

  @inlinable
  init(options: JSONParseOptions, separator: UInt8?) {
    followsStrings = !options.allowComments
    valuesFollowDirectly = options.allowMultipleValues
    cutsOnlyAtSeparator = separator != nil
    self.separator = separator ?? 0
  }

  /// Holds bytes back until `containers` of the open ones end (none when 0). Not with
  /// comments allowed: a bracket in a comment would be counted.
  @inlinable
  mutating func holdUntilClosed(_ containers: Int) {
    guard followsStrings else { return }
    containersToClose = containers
    // If the pump's count ends before this one does, whatever scalar was open may end next.
    if containers > 0 {
      afterScalar = true
      inNumber = true
      numberPart = 2
    }
  }

  /// Whether the run ends with `byte`.
  @inlinable @inline(__always)
  mutating func cuts(after byte: UInt8) -> Bool {
    if cutsOnlyAtSeparator { return byte == separator }
    if inString {
      if escaped {
        escaped = false
        return false
      }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        return false
      }
      if byte == UInt8(ascii: "\"") {
        inString = false
        return containersToClose == 0
      }
      if byte < 0x20 {
        // Not in a valid string: the input failed, or a line or record of its own begins.
        inString = false
        return true
      }
      return false
    }
    if containersToClose > 0 { return cutsHeld(after: byte) }
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      if !inNumber { numberPart = 0 }
      afterScalar = true
      inNumber = true
      return false
    case UInt8(ascii: "."):
      // A second `.`, or one in the exponent, ends the number.
      if inNumber && numberPart > 0 { return true }
      afterScalar = true
      inNumber = true
      numberPart = 1
      return false
    case UInt8(ascii: "-"), UInt8(ascii: "+"):
      // After a number or a literal, a sign ends it, unless it is an exponent's (a cut inside
      // `1e-5`: early): the next value may begin, or the input fails here.
      if !inNumber { numberPart = 0 }
      defer {
        afterScalar = true
        inNumber = true
      }
      return afterScalar
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
      defer { afterScalar = true }
      if inNumber {
        if (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")) && numberPart < 2 {
          numberPart = 2
        } else {
          // It ends the number: a literal may begin, or the input fails here.
          inNumber = false
          return true
        }
      }
      switch byte {
      case UInt8(ascii: "e"), UInt8(ascii: "l"), UInt8(ascii: "N"), UInt8(ascii: "y"):
        // The last letters of true, false, null, NaN and Infinity.
        return true
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "I"):
        // After a number, the first letters may begin the next value (also cuts inside
        // `Infinity`: early).
        return afterScalar && valuesFollowDirectly
      case UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "a"), UInt8(ascii: "s"),
        UInt8(ascii: "i"), UInt8(ascii: "E"):
        // Inside a literal, or a number's exponent.
        return false
      default:
        // No value goes on with it: it ends the number or literal before it, and the input
        // fails here.
        return true
      }
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
      UInt8(ascii: ","), UInt8(ascii: ":"):
      defer {
        afterScalar = false
        inNumber = false
      }
      return afterScalar
    case UInt8(ascii: "\""):
      // An opening quote completes nothing, unless it ends a number or a literal.
      defer {
        afterScalar = false
        inNumber = false
      }
      inString = followsStrings
      return afterScalar || !followsStrings
    default:
      // Brackets, and anything else.
      afterScalar = false
      inNumber = false
      return true
    }
  }

  /// `cuts(after:)` outside strings while containers are counted down.
  @inlinable @inline(__always)
  mutating func cutsHeld(after byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      containersToClose &+= 1
      return false
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      containersToClose &-= 1
      afterScalar = false
      inNumber = false
      return containersToClose == 0
    case UInt8(ascii: "\""):
      inString = true
      return false
    default:
      return false
    }
  }
}

/// What the three public sequences share: the input and how to make a pump for it.
@usableFromInline
struct _JSONAsyncInput<Base: AsyncSequence, Pump: _AsyncPump> {
  @usableFromInline let base: Base
  @usableFromInline let makePump: @Sendable () -> Pump
  /// A chunk's bytes (`Array(chunk)`, which holds nothing); nil when the elements are single
  /// bytes (`UInt8`).
  @usableFromInline let chunkBytes: ((Base.Element) -> [UInt8])?

  @inlinable
  init(
    base: Base, makePump: @escaping @Sendable () -> Pump,
    chunkBytes: ((Base.Element) -> [UInt8])?
  ) {
    self.base = base
    self.makePump = makePump
    self.chunkBytes = chunkBytes
  }

  @inlinable
  func makeIterator() -> _JSONAsyncIterator<Base, Pump> {
    _JSONAsyncIterator(
      iterator: base.makeAsyncIterator(), chunkBytes: chunkBytes, pump: makePump())
  }
}

/// The parser's events, as values, read from an async sequence of bytes or of byte chunks:
/// what `jsonEvents(options:)` returns.
public struct JSONEventSequence<Base: AsyncSequence>: AsyncSequence {
  /// An event, as a value.
  public typealias Element = JSONEvent
  @usableFromInline let input: _JSONAsyncInput<Base, _EventPump>

  @inlinable
  init(_ input: _JSONAsyncInput<Base, _EventPump>) { self.input = input }

  /// Reads input only as events are asked for (see `next()`).
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: _JSONAsyncIterator<Base, _EventPump>

    @inlinable
    init(_ base: _JSONAsyncIterator<Base, _EventPump>) { self.base = base }

    /// The next event; every event read before an error is returned before the error is
    /// thrown, once; after it, nil.
    @inlinable
    public mutating func next() async throws -> JSONEvent? { try await base.next() }
  }

  /// An iterator that reads the input as events are asked for.
  @inlinable
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input.makeIterator()) }
}

/// The values that paths select, each as soon as it is complete, read from an async sequence
/// of bytes or of byte chunks: what `jsonItems(paths:options:duplicateKeys:)` returns.
public struct JSONItemSequence<Base: AsyncSequence>: AsyncSequence {
  /// A selected value, with its match.
  public typealias Element = JSONItemStreamer.Item
  @usableFromInline let input: _JSONAsyncInput<Base, _ItemPump>

  @inlinable
  init(_ input: _JSONAsyncInput<Base, _ItemPump>) { self.input = input }

  /// Reads input only as items are asked for (see `next()`).
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: _JSONAsyncIterator<Base, _ItemPump>

    @inlinable
    init(_ base: _JSONAsyncIterator<Base, _ItemPump>) { self.base = base }

    /// The next item; every item completed before an error is returned before the error is
    /// thrown, once; after it, nil.
    @inlinable
    public mutating func next() async throws -> JSONItemStreamer.Item? { try await base.next() }
  }

  /// An iterator that reads the input as items are asked for.
  @inlinable
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input.makeIterator()) }
}

/// The documents of a stream of many (NDJSON, JSON text sequences, concatenated values), read
/// from an async sequence of bytes or of byte chunks: what
/// `jsonDocuments(framing:options:duplicateKeys:skipsInvalidDocuments:)` returns.
public struct JSONDocumentSequence<Base: AsyncSequence>: AsyncSequence {
  /// A document, or the failure of one that was passed over.
  public typealias Element = Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>
  @usableFromInline let input: _JSONAsyncInput<Base, _DocumentPump>

  @inlinable
  init(_ input: _JSONAsyncInput<Base, _DocumentPump>) { self.input = input }

  /// Reads input only as documents are asked for (see `next()`).
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: _JSONAsyncIterator<Base, _DocumentPump>

    @inlinable
    init(_ base: _JSONAsyncIterator<Base, _DocumentPump>) { self.base = base }

    /// The next document, or the failure of one that is skipped; every document completed
    /// before an error is returned before the error is thrown, once; after it, nil.
    @inlinable
    public mutating func next() async throws -> Element? { try await base.next() }
  }

  /// An iterator that reads the input as documents are asked for.
  @inlinable
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input.makeIterator()) }
}

// MARK: - Pumps

/// Events, as values.
@usableFromInline
struct _EventPump: _AsyncPump {
  @usableFromInline var parser: JSONParser<JSONEventCollector>
  @usableFromInline var options: JSONParseOptions { parser.options }
  /// Any byte may complete an event.
  @usableFromInline var separator: UInt8? { nil }
  /// Every token is an event.
  @usableFromInline var containersBeforeNextOutput: Int { 0 }

  @usableFromInline
  init(options: JSONParseOptions) {
    parser = JSONParser(handler: JSONEventCollector(), options: options)
  }

  @usableFromInline
  mutating func feed(_ chunk: ArraySlice<UInt8>, into outputs: inout [JSONEvent]) throws {
    defer { moveEvents(into: &outputs) }
    try parser.feed(chunk)
  }

  @usableFromInline
  mutating func finish(into outputs: inout [JSONEvent]) throws {
    defer { moveEvents(into: &outputs) }
    try parser.finish()
  }

  /// Moves the event out, leaving `null`: a copy cost a retain and a release per event.
  @inlinable
  static func take(_ index: Int, of outputs: inout [JSONEvent]) -> JSONEvent {
    var event = JSONEvent.null
    swap(&event, &outputs[index])
    return event
  }

  /// The collector's events, moved: into empty outputs by swapping the arrays, which keeps
  /// both buffers (a copy retained and released each event's string).
  mutating func moveEvents(into outputs: inout [JSONEvent]) {
    if outputs.isEmpty {
      swap(&outputs, &parser.handler.events)
    } else {
      outputs += parser.handler.events
      parser.handler.events.removeAll(keepingCapacity: true)
    }
  }
}

/// Selected values.
@usableFromInline
struct _ItemPump: _AsyncPump {
  @usableFromInline var parser: JSONParser<JSONItemStreamer>
  @usableFromInline var options: JSONParseOptions { parser.options }
  /// Any byte may complete an item.
  @usableFromInline var separator: UInt8? { nil }
  /// Inside an item, or a value no path reaches, the containers up to its end.
  @usableFromInline var containersBeforeNextOutput: Int {
    parser.handler.containersBeforeNextItem
  }

  @usableFromInline
  init(paths: [JSONPath], options: JSONParseOptions, duplicateKeys: JSONDuplicateKeyPolicy) {
    parser = JSONParser(
      handler: JSONItemStreamer(paths: paths, duplicateKeys: duplicateKeys), options: options)
  }

  @usableFromInline
  mutating func feed(_ chunk: ArraySlice<UInt8>, into outputs: inout [JSONItemStreamer.Item]) throws
  {
    // Most runs of single bytes complete no item: nothing to append.
    defer { if !parser.handler.items.isEmpty { outputs += parser.handler.takeItems() } }
    try parser.feed(chunk)
  }

  @usableFromInline
  mutating func finish(into outputs: inout [JSONItemStreamer.Item]) throws {
    defer { outputs += parser.handler.takeItems() }
    try parser.finish()
  }
}

/// Documents of a stream of many.
@usableFromInline
struct _DocumentPump: _AsyncPump {
  @usableFromInline
  typealias Output = Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>
  @usableFromInline var reader: JSONDocumentReader
  @usableFromInline var options: JSONParseOptions { reader.options }
  /// The separator of lines or records; concatenated documents end where their value does.
  @usableFromInline var separator: UInt8? {
    switch reader.framing {
    case .lines: 0x0A
    case .textSequence: 0x1E
    case .concatenated: nil
    }
  }
  /// Not counted: the separator is the cut, or any byte may end a document.
  @usableFromInline var containersBeforeNextOutput: Int { 0 }

  @usableFromInline
  init(reader: JSONDocumentReader) { self.reader = reader }

  @usableFromInline
  mutating func feed(_ chunk: ArraySlice<UInt8>, into outputs: inout [Output]) throws {
    outputs += try reader.feed(chunk)
    // The reader returns what an error's chunk completed and keeps the error for its next
    // call: take it now, so it follows those documents.
    try reader.throwPendingFailure()
  }

  @usableFromInline
  mutating func finish(into outputs: inout [Output]) throws {
    outputs += try reader.finish()
  }
}

// MARK: - Entry points

extension _ItemPump {
  @usableFromInline
  static func maker(
    _ paths: [JSONPath], _ options: JSONParseOptions, _ duplicateKeys: JSONDuplicateKeyPolicy
  ) -> @Sendable () -> _ItemPump {
    { _ItemPump(paths: paths, options: options, duplicateKeys: duplicateKeys) }
  }
}

extension _DocumentPump {
  @usableFromInline
  static func maker(
    _ framing: JSONDocumentReader.Framing, _ options: JSONParseOptions,
    _ duplicateKeys: JSONDuplicateKeyPolicy, _ skipsInvalidDocuments: Bool
  ) -> @Sendable () -> _DocumentPump {
    {
      _DocumentPump(
        reader: JSONDocumentReader(
          framing: framing, options: options, duplicateKeys: duplicateKeys,
          skipsInvalidDocuments: skipsInvalidDocuments))
    }
  }
}

extension AsyncSequence where Element: Sequence, Element.Element == UInt8 {
  /// The parser's events, as values, while the chunks arrive.
  ///
  /// ```swift
  /// for try await event in chunks.jsonEvents() { print(event) }
  /// ```
  @inlinable
  public func jsonEvents(options: JSONParseOptions = JSONParseOptions())
    -> JSONEventSequence<Self>
  {
    JSONEventSequence(
      _JSONAsyncInput(
        base: self, makePump: { _EventPump(options: options) }, chunkBytes: { Array($0) }))
  }

  /// Each value `paths` select, as soon as it is complete (see ``JSONItemStreamer``).
  ///
  /// ```swift
  /// for try await item in response.jsonItems(paths: [try JSONPath("$.results[*]")]) {
  ///   handle(item.value)
  /// }
  /// ```
  @inlinable
  public func jsonItems(
    paths: [JSONPath], options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) -> JSONItemSequence<Self> {
    JSONItemSequence(
      _JSONAsyncInput(
        base: self, makePump: _ItemPump.maker(paths, options, duplicateKeys),
        chunkBytes: { Array($0) }))
  }

  /// Each document of a stream of many (NDJSON by default; see ``JSONDocumentReader``).
  ///
  /// ```swift
  /// for try await result in socket.jsonDocuments(skipsInvalidDocuments: true) {
  ///   switch result { case .success(let doc): … case .failure(let failure): log(failure) }
  /// }
  /// ```
  @inlinable
  public func jsonDocuments(
    framing: JSONDocumentReader.Framing = .lines, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, skipsInvalidDocuments: Bool = false
  ) -> JSONDocumentSequence<Self> {
    JSONDocumentSequence(
      _JSONAsyncInput(
        base: self,
        makePump: _DocumentPump.maker(framing, options, duplicateKeys, skipsInvalidDocuments),
        chunkBytes: { Array($0) }))
  }
}

extension AsyncSequence where Element == UInt8 {
  /// The parser's events, as values, fed byte by byte as the bytes arrive.
  @inlinable
  public func jsonEvents(options: JSONParseOptions = JSONParseOptions())
    -> JSONEventSequence<Self>
  {
    JSONEventSequence(
      _JSONAsyncInput(
        base: self, makePump: { _EventPump(options: options) }, chunkBytes: nil))
  }

  /// Each value `paths` select, as soon as its last byte arrives.
  @inlinable
  public func jsonItems(
    paths: [JSONPath], options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) -> JSONItemSequence<Self> {
    JSONItemSequence(
      _JSONAsyncInput(
        base: self, makePump: _ItemPump.maker(paths, options, duplicateKeys), chunkBytes: nil))
  }

  /// Each document of a stream of many, as soon as its last byte arrives: for a line, its line
  /// feed; for a record, the separator that starts the next one (or the end of the input). A
  /// bad line or record is reported (or thrown) there too.
  @inlinable
  public func jsonDocuments(
    framing: JSONDocumentReader.Framing = .lines, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, skipsInvalidDocuments: Bool = false
  ) -> JSONDocumentSequence<Self> {
    JSONDocumentSequence(
      _JSONAsyncInput(
        base: self,
        makePump: _DocumentPump.maker(framing, options, duplicateKeys, skipsInvalidDocuments),
        chunkBytes: nil))
  }
}

// Sendable when the input is: `makePump` is, and `chunkBytes` holds nothing. (Declared
// `@Sendable`, `{ Array($0) }` would capture the chunk's metatype, which is not.)
extension _JSONAsyncInput: @unchecked Sendable where Base: Sendable {}

/// Sendable when its input is: made on one task, read on another.
extension JSONEventSequence: Sendable where Base: Sendable {}

/// Sendable when its input is: made on one task, read on another.
extension JSONItemSequence: Sendable where Base: Sendable {}

/// Sendable when its input is: made on one task, read on another.
extension JSONDocumentSequence: Sendable where Base: Sendable {}
