import Foundation
import JSONStream

// The async adapters against the synchronous parser with the same consumer, on the same
// chunks: over 64 KiB chunks (a file or a socket read in pieces), the target is 0.8× the
// parser's speed; over single bytes from a buffered sequence (the shape of
// `URLSession.AsyncBytes`), 100 MB/s.

/// Chunks in memory, as an async sequence: what a socket or a file read in pieces gives.
struct AsyncChunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let chunks: [[UInt8]]

  struct AsyncIterator: AsyncIteratorProtocol {
    let chunks: [[UInt8]]
    var next = 0

    mutating func next() async throws -> [UInt8]? {
      guard next < chunks.count else { return nil }
      defer { next += 1 }
      return chunks[next]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks) }
}

/// Single bytes served from a buffer that an async read refills, as `URLSession.AsyncBytes`
/// and `FileHandle.AsyncBytes` do: here each refill takes the next chunk in memory.
struct BufferedAsyncBytes: AsyncSequence, Sendable {
  typealias Element = UInt8
  let chunks: [[UInt8]]

  struct AsyncIterator: AsyncIteratorProtocol {
    let chunks: [[UInt8]]
    var loaded = 0
    var buffer: [UInt8] = []
    var position = 0

    @inline(__always)
    mutating func next() async throws -> UInt8? {
      if position < buffer.count {
        defer { position &+= 1 }
        return buffer[position]
      }
      return try await refill()
    }

    @inline(never)
    mutating func refill() async throws -> UInt8? {
      guard loaded < chunks.count else { return nil }
      buffer = chunks[loaded]
      loaded += 1
      position = 1
      return buffer[0]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks) }
}

enum AsyncBenchmarks {
  /// Every async row, on each input.
  static func run(harness: Harness, inputs: [(name: String, bytes: [UInt8])], only: String?)
    async throws -> [Row]
  {
    var rows: [Row] = []
    func measure(
      _ operation: String, _ input: String, _ size: Int, target: Double? = nil,
      rateTarget: Double? = nil, ours: () async throws -> Int, peer peerName: String,
      _ peer: () throws -> Int
    ) async throws {
      if let only, !operation.contains(only) && !"async".contains(only) { return }
      // Both sides must see the same outputs.
      let expected = try peer()
      let found = try await ours()
      try require(found == expected, "\(operation) on \(input): \(found) outputs, not \(expected)")
      let (oursTime, peerTime) = try await harness.compareAsync(ours, peer)
      let row = Row(
        operation: operation, input: input, bytes: size, ours: oursTime, peerName: peerName,
        peer: peerTime, target: target, rateTarget: rateTarget)
      print(row.line)
      rows.append(row)
    }
    let items = [try JSONPath("$.*[*]")]
    for (name, bytes) in inputs {
      let chunks = chunks(bytes)
      try await measure(
        "async events, 64 KiB chunks", name, bytes.count, target: 0.8,
        ours: { try await count(AsyncChunks(chunks: chunks).jsonEvents()) },
        peer: "the parser, same handler", { try syncEvents(chunks) })
      try await measure(
        "async items, 64 KiB chunks", name, bytes.count, target: 0.8,
        ours: { try await count(AsyncChunks(chunks: chunks).jsonItems(paths: items)) },
        peer: "the parser, same handler", { try syncItems(chunks, items) })
      try await measure(
        "async events, single bytes", name, bytes.count, rateTarget: 100,
        ours: { try await count(BufferedAsyncBytes(chunks: chunks).jsonEvents()) },
        peer: "the parser, 64 KiB chunks", { try syncEvents(chunks) })
      try await measure(
        "async items, single bytes", name, bytes.count, rateTarget: 100,
        ours: { try await count(BufferedAsyncBytes(chunks: chunks).jsonItems(paths: items)) },
        peer: "the parser, 64 KiB chunks", { try syncItems(chunks, items) })
    }
    return rows
  }

  /// `bytes` in 64 KiB chunks.
  static func chunks(_ bytes: [UInt8]) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: 65_536).map {
      Array(bytes[$0..<min($0 + 65_536, bytes.count)])
    }
  }

  /// For a profiler: `operation` (asyncchunks, asyncbytes, asyncdocumentbytes (NDJSON),
  /// asyncitembytes) on `bytes`.
  static func profile(_ operation: String, _ bytes: [UInt8]) throws -> Int {
    let chunks = chunks(bytes)
    let items = [try JSONPath("$.*[*]")]
    return try runBlocking {
      switch operation {
      case "asyncchunks": return try await count(AsyncChunks(chunks: chunks).jsonEvents())
      case "asyncbytes": return try await count(BufferedAsyncBytes(chunks: chunks).jsonEvents())
      case "asyncdocumentbytes":
        return try await count(BufferedAsyncBytes(chunks: chunks).jsonDocuments())
      default:
        return try await count(BufferedAsyncBytes(chunks: chunks).jsonItems(paths: items))
      }
    }
  }

  /// The outputs of `sequence`, counted one by one.
  static func count<Outputs: AsyncSequence>(_ sequence: Outputs) async throws -> Int {
    var count = 0
    for try await _ in sequence { count &+= 1 }
    return count
  }

  /// The events of `chunks`, taken from the collector after each chunk, counted one by one.
  static func syncEvents(_ chunks: [[UInt8]]) throws -> Int {
    var parser = JSONParser(handler: JSONEventCollector())
    var count = 0
    for chunk in chunks {
      try parser.feed(chunk)
      for _ in parser.handler.takeEvents() { count &+= 1 }
    }
    try parser.finish()
    for _ in parser.handler.takeEvents() { count &+= 1 }
    return count
  }

  /// The items `paths` select in `chunks`, taken after each chunk, counted one by one.
  static func syncItems(_ chunks: [[UInt8]], _ paths: [JSONPath]) throws -> Int {
    var parser = JSONParser(handler: JSONItemStreamer(paths: paths))
    var count = 0
    for chunk in chunks {
      try parser.feed(chunk)
      for _ in parser.handler.takeItems() { count &+= 1 }
    }
    try parser.finish()
    for _ in parser.handler.takeItems() { count &+= 1 }
    return count
  }
}

/// Runs `body` on a task of its own and waits for it: the async rows from the synchronous
/// top level.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
    done.signal()
  }
  done.wait()
  return try box.result!.get()
}

/// A task's result, handed to the thread that waits for it (the semaphore orders the two).
final class ResultBox<T>: @unchecked Sendable {
  var result: Result<T, any Error>?
}
