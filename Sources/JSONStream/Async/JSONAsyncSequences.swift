// Async adapters: any AsyncSequence of bytes or of byte chunks (a socket, an HTTP body, a file
// read in pieces) becomes an AsyncSequence of events, of selected items or of documents.
//
// Pull-driven, so backpressure is built in: the next chunk is read only when every output of
// the previous one has been taken, so nothing is read ahead beyond one chunk plus the value
// being built. A cancelled task stops reading: the next `next()` throws CancellationError.
// A sequence of single bytes (such as `URLSession.AsyncBytes`) is fed byte by byte, so an
// item is delivered as soon as its last byte arrives, never held back to fill a buffer.

import JSONStreamCore
import JSONStreamParser
import JSONStreamPath
import JSONStreamValue

/// Something that turns chunks of input into outputs: the parser with a consumer.
@usableFromInline
protocol _AsyncPump {
  associatedtype Output
  /// Reads `chunk`, appending the outputs it completes; when it throws, `outputs` holds every
  /// output completed before the error.
  mutating func feed(_ chunk: [UInt8], into outputs: inout [Output]) throws
  /// The end of the input, likewise.
  mutating func finish(into outputs: inout [Output]) throws
}

/// Where an async adapter reads from: chunks, or single bytes.
@usableFromInline
enum _AsyncSource<Base: AsyncSequence> {
  case chunks(Base.AsyncIterator, (Base.Element) -> [UInt8])
  case bytes(Base.AsyncIterator, (Base.Element) -> UInt8)
}

/// The iterator all the adapters share.
///
/// Nothing complete is lost to an error: the outputs a chunk completed before its error are
/// returned first, in order, then the error is thrown once, and every later call returns nil
/// (as for any throwing async iterator). The outcome does not depend on how the input was
/// chunked.
@usableFromInline
struct _JSONAsyncIterator<Base: AsyncSequence, Pump: _AsyncPump> {
  @usableFromInline var source: _AsyncSource<Base>
  @usableFromInline var pump: Pump
  @usableFromInline var outputs: [Pump.Output] = []
  @usableFromInline var next = 0
  /// No more input will be read: the end was reached, or an error is pending or was thrown.
  @usableFromInline var finished = false
  /// An error to throw once `outputs` are all returned.
  @usableFromInline var pendingError: (any Error)? = nil
  /// A byte read from a sequence of bytes, as a chunk: one array, reused for every byte.
  @usableFromInline var byte: [UInt8] = [0]

  @usableFromInline
  init(source: _AsyncSource<Base>, pump: Pump) {
    self.source = source
    self.pump = pump
  }

  @usableFromInline
  mutating func next() async throws -> Pump.Output? {
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
        try await readMore()
      } catch {
        finished = true
        pendingError = error
      }
    }
    defer { next += 1 }
    return outputs[next]
  }

  /// Reads the next chunk or byte (or the end) into the pump, appending what it completes.
  @usableFromInline
  mutating func readMore() async throws {
    switch source {
    case .chunks(var iterator, let bytes):
      let element = try await iterator.next()
      source = .chunks(iterator, bytes)
      if let element {
        try pump.feed(bytes(element), into: &outputs)
      } else {
        finished = true
        try pump.finish(into: &outputs)
      }
    case .bytes(var iterator, let byte):
      let element = try await iterator.next()
      source = .bytes(iterator, byte)
      if let element {
        self.byte[0] = byte(element)
        try pump.feed(self.byte, into: &outputs)
      } else {
        finished = true
        try pump.finish(into: &outputs)
      }
    }
  }
}

/// What the three public sequences share: the input and how to make a pump for it.
@usableFromInline
struct _JSONAsyncInput<Base: AsyncSequence, Pump: _AsyncPump> {
  @usableFromInline let base: Base
  @usableFromInline let makePump: () -> Pump
  @usableFromInline let chunkBytes: ((Base.Element) -> [UInt8])?
  @usableFromInline let byte: ((Base.Element) -> UInt8)?

  @usableFromInline
  init(
    base: Base, makePump: @escaping () -> Pump, chunkBytes: ((Base.Element) -> [UInt8])?,
    byte: ((Base.Element) -> UInt8)?
  ) {
    self.base = base
    self.makePump = makePump
    self.chunkBytes = chunkBytes
    self.byte = byte
  }

  @usableFromInline
  func makeIterator() -> _JSONAsyncIterator<Base, Pump> {
    let iterator = base.makeAsyncIterator()
    let source: _AsyncSource<Base> =
      byte != nil ? .bytes(iterator, byte!) : .chunks(iterator, chunkBytes!)
    return _JSONAsyncIterator(source: source, pump: makePump())
  }
}

/// The parser's events, as values, read from an async sequence of bytes or of byte chunks:
/// what `jsonEvents(options:)` returns.
public struct JSONEventSequence<Base: AsyncSequence>: AsyncSequence {
  /// An event, as a value.
  public typealias Element = JSONEvent
  @usableFromInline let input: _JSONAsyncInput<Base, _EventPump>

  @usableFromInline
  init(_ input: _JSONAsyncInput<Base, _EventPump>) { self.input = input }

  /// Reads input only as events are asked for (see `next()`).
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: _JSONAsyncIterator<Base, _EventPump>

    @usableFromInline
    init(_ base: _JSONAsyncIterator<Base, _EventPump>) { self.base = base }

    /// The next event; every event read before an error is returned before the error is
    /// thrown, once; after it, nil.
    public mutating func next() async throws -> JSONEvent? { try await base.next() }
  }

  /// An iterator that reads the input as events are asked for.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input.makeIterator()) }
}

/// The values that paths select, each as soon as it is complete, read from an async sequence
/// of bytes or of byte chunks: what `jsonItems(paths:options:duplicateKeys:)` returns.
public struct JSONItemSequence<Base: AsyncSequence>: AsyncSequence {
  /// A selected value, with its match.
  public typealias Element = JSONItemStreamer.Item
  @usableFromInline let input: _JSONAsyncInput<Base, _ItemPump>

  @usableFromInline
  init(_ input: _JSONAsyncInput<Base, _ItemPump>) { self.input = input }

  /// Reads input only as items are asked for (see `next()`).
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: _JSONAsyncIterator<Base, _ItemPump>

    @usableFromInline
    init(_ base: _JSONAsyncIterator<Base, _ItemPump>) { self.base = base }

    /// The next item; every item completed before an error is returned before the error is
    /// thrown, once; after it, nil.
    public mutating func next() async throws -> JSONItemStreamer.Item? { try await base.next() }
  }

  /// An iterator that reads the input as items are asked for.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input.makeIterator()) }
}

/// The documents of a stream of many (NDJSON, JSON text sequences, concatenated values), read
/// from an async sequence of bytes or of byte chunks: what
/// `jsonDocuments(framing:options:duplicateKeys:skipsInvalidDocuments:)` returns.
public struct JSONDocumentSequence<Base: AsyncSequence>: AsyncSequence {
  /// A document, or the failure of one that was passed over.
  public typealias Element = Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>
  @usableFromInline let input: _JSONAsyncInput<Base, _DocumentPump>

  @usableFromInline
  init(_ input: _JSONAsyncInput<Base, _DocumentPump>) { self.input = input }

  /// Reads input only as documents are asked for (see `next()`).
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: _JSONAsyncIterator<Base, _DocumentPump>

    @usableFromInline
    init(_ base: _JSONAsyncIterator<Base, _DocumentPump>) { self.base = base }

    /// The next document, or the failure of one that is skipped; every document completed
    /// before an error is returned before the error is thrown, once; after it, nil.
    public mutating func next() async throws -> Element? { try await base.next() }
  }

  /// An iterator that reads the input as documents are asked for.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input.makeIterator()) }
}

// MARK: - Pumps

/// Events, as values.
@usableFromInline
struct _EventPump: _AsyncPump {
  @usableFromInline var parser: JSONParser<JSONEventCollector>

  @usableFromInline
  init(options: JSONParseOptions) {
    parser = JSONParser(handler: JSONEventCollector(), options: options)
  }

  @usableFromInline
  mutating func feed(_ chunk: [UInt8], into outputs: inout [JSONEvent]) throws {
    defer { outputs += parser.handler.takeEvents() }
    try parser.feed(chunk)
  }

  @usableFromInline
  mutating func finish(into outputs: inout [JSONEvent]) throws {
    defer { outputs += parser.handler.takeEvents() }
    try parser.finish()
  }
}

/// Selected values.
@usableFromInline
struct _ItemPump: _AsyncPump {
  @usableFromInline var parser: JSONParser<JSONItemStreamer>

  @usableFromInline
  init(paths: [JSONPath], options: JSONParseOptions, duplicateKeys: JSONDuplicateKeyPolicy) {
    parser = JSONParser(
      handler: JSONItemStreamer(paths: paths, duplicateKeys: duplicateKeys), options: options)
  }

  @usableFromInline
  mutating func feed(_ chunk: [UInt8], into outputs: inout [JSONItemStreamer.Item]) throws {
    defer { outputs += parser.handler.takeItems() }
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

  @usableFromInline
  init(reader: JSONDocumentReader) { self.reader = reader }

  @usableFromInline
  mutating func feed(_ chunk: [UInt8], into outputs: inout [Output]) throws {
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
  ) -> () -> _ItemPump {
    { _ItemPump(paths: paths, options: options, duplicateKeys: duplicateKeys) }
  }
}

extension _DocumentPump {
  @usableFromInline
  static func maker(
    _ framing: JSONDocumentReader.Framing, _ options: JSONParseOptions,
    _ duplicateKeys: JSONDuplicateKeyPolicy, _ skipsInvalidDocuments: Bool
  ) -> () -> _DocumentPump {
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
  public func jsonEvents(options: JSONParseOptions = JSONParseOptions())
    -> JSONEventSequence<Self>
  {
    JSONEventSequence(
      _JSONAsyncInput(
        base: self, makePump: { _EventPump(options: options) }, chunkBytes: { Array($0) },
        byte: nil))
  }

  /// Each value `paths` select, as soon as it is complete (see ``JSONItemStreamer``).
  ///
  /// ```swift
  /// for try await item in response.jsonItems(paths: [try JSONPath("$.results[*]")]) {
  ///   handle(item.value)
  /// }
  /// ```
  public func jsonItems(
    paths: [JSONPath], options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) -> JSONItemSequence<Self> {
    JSONItemSequence(
      _JSONAsyncInput(
        base: self, makePump: _ItemPump.maker(paths, options, duplicateKeys),
        chunkBytes: { Array($0) }, byte: nil))
  }

  /// Each document of a stream of many (NDJSON by default; see ``JSONDocumentReader``).
  ///
  /// ```swift
  /// for try await result in socket.jsonDocuments(skipsInvalidDocuments: true) {
  ///   switch result { case .success(let doc): … case .failure(let failure): log(failure) }
  /// }
  /// ```
  public func jsonDocuments(
    framing: JSONDocumentReader.Framing = .lines, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, skipsInvalidDocuments: Bool = false
  ) -> JSONDocumentSequence<Self> {
    JSONDocumentSequence(
      _JSONAsyncInput(
        base: self,
        makePump: _DocumentPump.maker(framing, options, duplicateKeys, skipsInvalidDocuments),
        chunkBytes: { Array($0) }, byte: nil))
  }
}

extension AsyncSequence where Element == UInt8 {
  /// The parser's events, as values, fed byte by byte as the bytes arrive.
  public func jsonEvents(options: JSONParseOptions = JSONParseOptions())
    -> JSONEventSequence<Self>
  {
    JSONEventSequence(
      _JSONAsyncInput(
        base: self, makePump: { _EventPump(options: options) }, chunkBytes: nil, byte: { $0 }))
  }

  /// Each value `paths` select, as soon as its last byte arrives.
  public func jsonItems(
    paths: [JSONPath], options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) -> JSONItemSequence<Self> {
    JSONItemSequence(
      _JSONAsyncInput(
        base: self, makePump: _ItemPump.maker(paths, options, duplicateKeys), chunkBytes: nil,
        byte: { $0 }))
  }

  /// Each document of a stream of many, as soon as its last byte arrives.
  public func jsonDocuments(
    framing: JSONDocumentReader.Framing = .lines, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, skipsInvalidDocuments: Bool = false
  ) -> JSONDocumentSequence<Self> {
    JSONDocumentSequence(
      _JSONAsyncInput(
        base: self,
        makePump: _DocumentPump.maker(framing, options, duplicateKeys, skipsInvalidDocuments),
        chunkBytes: nil, byte: { $0 }))
  }
}
