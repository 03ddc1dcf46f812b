import JSONStream
import JSONStreamTestSupport
import Synchronization
import Testing

/// Chunks served one by one, counting how many were asked for; endless when `repeating`.
struct CountingChunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let chunks: [[UInt8]]
  let repeating: Bool
  let pulled: Counter

  final class Counter: Sendable {
    let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
  }

  init(_ chunks: [[UInt8]], repeating: Bool = false) {
    self.chunks = chunks
    self.repeating = repeating
    self.pulled = Counter()
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    let sequence: CountingChunks
    var position = 0

    mutating func next() async throws -> [UInt8]? {
      if position == sequence.chunks.count {
        guard sequence.repeating else { return nil }
        position = 0
      }
      sequence.pulled.value.withLock { $0 += 1 }
      defer { position += 1 }
      await Task.yield()
      return sequence.chunks[position]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}

/// `text` split into chunks of `size` bytes.
func chunked(_ text: String, _ size: Int) -> [[UInt8]] {
  let bytes = Array(text.utf8)
  return stride(from: 0, to: bytes.count, by: size).map {
    Array(bytes[$0..<min(bytes.count, $0 + size)])
  }
}

@Suite("Async adapters")
struct AsyncTests {
  @Test("items from chunks and from single bytes, the same as parsing synchronously")
  func items() async throws {
    let text = #"{"results":[{"id":1},{"id":2,"tags":["x"]},{"id":3}],"next":null}"#
    let paths = [try JSONPath("$.results[*]")]
    let expected = try streamedItems(paths, Array(text.utf8), chunk: text.utf8.count)
    for size in [1, 5, 1000] {
      var items: [JSONItemStreamer.Item] = []
      for try await item in CountingChunks(chunked(text, size)).jsonItems(paths: paths) {
        items.append(item)
      }
      #expect(items == expected, "chunks of \(size)")
    }
    let bytes = AsyncStream<UInt8> { continuation in
      for byte in text.utf8 { continuation.yield(byte) }
      continuation.finish()
    }
    var items: [JSONItemStreamer.Item] = []
    for try await item in bytes.jsonItems(paths: paths) { items.append(item) }
    #expect(items == expected)
  }

  @Test("events as values: replayed, they rebuild the document")
  func events() async throws {
    let text = #"{"a":[1,-2.50e+3,true,null,"x\n"],"b":{}}"#
    var builder = JSONTreeBuilder()
    var count = 0
    for try await event in CountingChunks(chunked(text, 3)).jsonEvents() {
      try event.send(to: &builder)
      count += 1
    }
    #expect(count == parse(text).events.count)
    #expect(try builder.value?.jsonString() == #"{"a":[1,-2.50e+3,true,null,"x\n"],"b":{}}"#)
  }

  @Test("NDJSON documents, with a bad line reported in order")
  func documents() async throws {
    let text = "{\"n\":1}\n{oops}\n{\"n\":2}\n"
    var values: [JSONValue] = []
    var failedLines: [Int] = []
    for try await result in CountingChunks(chunked(text, 4)).jsonDocuments(
      skipsInvalidDocuments: true)
    {
      switch result {
      case .success(let document): values.append(document.value)
      case .failure(let failure): failedLines.append(failure.line)
      }
    }
    #expect(values == [["n": 1], ["n": 2]])
    #expect(failedLines == [2])
  }

  @Test("backpressure: a chunk is read only when the items of the last one are taken")
  func backpressure() async throws {
    // One item per chunk: after taking k items, at most k + 1 chunks were read.
    let chunks =
      [Array("[".utf8)] + (0..<100).map { Array("\($0 == 0 ? "" : ","){\"i\":\($0)}".utf8) }
      + [Array("]".utf8)]
    let source = CountingChunks(chunks)
    var iterator = source.jsonItems(paths: [try JSONPath("$[*]")]).makeAsyncIterator()
    for taken in 1...10 {
      let item = try await iterator.next()
      #expect(item?.value == ["i": .number(.init(taken - 1))])
      #expect(source.pulled.count <= taken + 2, "after \(taken) items")
    }
  }

  @Test("cancellation stops reading an endless source")
  func cancellation() async throws {
    let source = CountingChunks([Array("{\"i\":1}\n".utf8)], repeating: true)
    let task = Task {
      var count = 0
      for try await _ in source.jsonDocuments() { count += 1 }
      return count
    }
    while source.pulled.count < 100 { await Task.yield() }
    task.cancel()
    let outcome = await task.result
    #expect(throws: CancellationError.self) { try outcome.get() }
    let pulledAtCancel = source.pulled.count
    for _ in 0..<100 { await Task.yield() }
    #expect(source.pulled.count <= pulledAtCancel + 1)
  }
}
