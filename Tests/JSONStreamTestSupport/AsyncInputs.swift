// Async inputs for the adapters' tests: chunks, or single bytes (the shape of
// `URLSession.AsyncBytes`), and a way to take everything an async sequence gives.

/// Chunks as an async sequence.
public struct AsyncChunks: AsyncSequence, Sendable {
  public let chunks: [[UInt8]]
  public init(chunks: [[UInt8]]) { self.chunks = chunks }

  public struct AsyncIterator: AsyncIteratorProtocol {
    var chunks: IndexingIterator<[[UInt8]]>
    public mutating func next() async -> [UInt8]? { chunks.next() }
  }
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(chunks: chunks.makeIterator())
  }
}

/// Single bytes as an async sequence.
public struct AsyncBytes: AsyncSequence, Sendable {
  public let bytes: [UInt8]
  public init(bytes: [UInt8]) { self.bytes = bytes }

  public struct AsyncIterator: AsyncIteratorProtocol {
    var bytes: IndexingIterator<[UInt8]>
    public mutating func next() async -> UInt8? { bytes.next() }
  }
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes.makeIterator()) }
}

/// What an async sequence gave before it ended or threw, its error, and whether its iterator
/// returned nil when asked again after the error (as a throwing iterator must).
public struct Drained<Element> {
  public var outputs: [Element]
  public var error: (any Error)?
  public var endsAfterError: Bool
}

/// Takes every output of `sequence` until it ends or throws.
public func drain<S: AsyncSequence>(_ sequence: S) async throws -> Drained<S.Element> {
  var iterator = sequence.makeAsyncIterator()
  var outputs: [S.Element] = []
  do {
    while let output = try await iterator.next() { outputs.append(output) }
    return Drained(outputs: outputs, error: nil, endsAfterError: true)
  } catch {
    let after = try? await iterator.next()
    return Drained(outputs: outputs, error: error, endsAfterError: after == nil)
  }
}
