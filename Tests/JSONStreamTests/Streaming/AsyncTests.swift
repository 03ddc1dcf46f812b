import JSONStream
import JSONStreamTestSupport
import Synchronization
import Testing

@testable import JSONStream

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

/// String content longer than a run of single bytes (4 KiB), with brackets and escaped quotes.
private let long = String(repeating: "ab\\\"[{", count: 900)

@Suite("Async adapters")
struct AsyncTests {
  @Test("items from chunks and from single bytes, the same as parsing synchronously")
  func items() async throws {
    // Small items, and items longer than a run of single bytes (4 KiB), with long strings.
    let texts = [
      #"{"results":[{"id":1},{"id":2,"tags":["x"]},{"id":3}],"next":null}"#,
      #"{"results":[{"id":1,"s":"\#(long)","n":[[1,2],[3,{"x":"\#(long)"}]]},{"id":2},3],"n":1}"#,
    ]
    let paths = [try JSONPath("$.results[*]")]
    for text in texts {
      let expected = try streamedItems(paths, Array(text.utf8), chunk: text.utf8.count)
      #expect(expected.count == 3)
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

  @Test("single bytes are fed in runs cut at every byte that completes an output")
  func byteRuns() throws {
    var lenient = JSONParseOptions()
    lenient.allowComments = true
    lenient.allowNonFiniteNumbers = true
    lenient.allowTrailingCommas = true
    var several = JSONParseOptions()
    several.allowMultipleValues = true
    var cases: [(name: String, bytes: [UInt8], options: JSONParseOptions)] = [
      #"{"a" : [1, -2.5e+3 ,true,false ,null,"x\"y\\",{}],"b":{"c":[]} , "d":0}"#,
      "[ 1 , 2 ]", "[\n  12,\n  \"ab\",\n  [ ]\n]\n", #"{"é":"ü\u00e9\ud83d\ude00"}"#, "7",
    ].map { ($0, Array($0.utf8), JSONParseOptions()) }
    // Values that follow a number with nothing between: each number ends at the next byte.
    cases += [
      "1 2 [3]\n\"x\" true\nnull\t4", "{}{}[]\"a\"\"b\"", "1-2 1true 1false 1null 3",
      "-0-1 1e5-2 1.5e-3true 2.5E+1null [1]-1 0 01",
    ].map { ($0, Array($0.utf8), several) }
    var severalLenient = lenient
    severalLenient.allowMultipleValues = true
    let nonFinite = "1Infinity 1NaN 1-Infinity"
    cases.append((nonFinite, Array(nonFinite.utf8), severalLenient))
    // A byte no number goes on with ends it, and the input fails there: the number first.
    for failing in ["[1x", "[420.1i", "[1+", "[1.5.", "[1e5.", "[1e5e", "[2E3E", "1-x"] {
      cases.append((failing, Array(failing.utf8), JSONParseOptions()))
      cases.append((failing + " (several)", Array(failing.dropFirst().utf8), several))
    }
    // NDJSON lines and RFC 7464 records (one value each, for the other pumps).
    let separated = [
      "{\"a\":1}\n{\"b\":[2, \"}\"]}\r\n3\n\n4", "\u{1E}{\"a\":1}\n\u{1E}[2]\u{1E}\"x\"\n",
    ]
    cases += separated.map { ($0, Array($0.utf8), JSONParseOptions()) }
    // Items longer than a run (4 KiB), with brackets and escaped quotes in long strings.
    let longItems = #"[{"a":"\#(long)","b":[1,{"c":"\#(long)"}]},{"d":[3]},7]"#
    cases.append(("long items", Array(longItems.utf8), JSONParseOptions()))
    cases += [
      "[NaN, -Infinity, Infinity,1]", "/* \" */ [1, // \"\n 2, /*x*/ 3,]",
      #"{"a":1, /* } */ "b" : [true, ], }"#,
    ].map { ($0, Array($0.utf8), lenient) }
    if SharedData.hasJSONTestSuite {
      for (name, bytes) in try SharedData.files(in: SharedData.jsonTestSuite, prefix: "y_") {
        cases.append((name, bytes, JSONParseOptions()))
      }
    }
    if SharedData.hasCorpus {
      for name in SharedData.corpusNames {
        cases.append(
          (name, Array(try SharedData.corpusFile(name).prefix(16_384)), JSONParseOptions()))
      }
    }
    // Every value; items with nothing selected inside them (held back up to their last
    // bracket); values no path reaches (likewise); filters and descendants, which hold values.
    let pathSets = try [
      ["$..*"], ["$[*]"], ["$.*[*]"], ["$.a", "$[1]"], ["$..c"], ["$[?@.b]"], ["$[?@.b].c"],
      ["$.*.*[1:]"],
    ].map { try $0.map(JSONPath.init) }
    var heldCuts = 0
    for (name, bytes, options) in cases {
      var events = _EventPump(options: options)
      expectCutsComplete(name + ", events", bytes, &events)
      for paths in pathSets {
        var items = _ItemPump(paths: paths, options: options, duplicateKeys: .lastWins)
        heldCuts += expectCutsComplete("\(name), items \(paths)", bytes, &items)
      }
      // A line that fails is a syntax error, which may be found at the next cut: only the
      // documents count.
      for framing in [JSONDocumentReader.Framing.lines, .textSequence, .concatenated] {
        var documents = _DocumentPump(
          reader: JSONDocumentReader(
            framing: framing, options: options, skipsInvalidDocuments: true))
        expectCutsComplete("\(name), documents \(framing)", bytes, &documents) {
          (try? $0.get()) != nil
        }
      }
    }
    // Items were waited for, not only cut at every token.
    #expect(heldCuts > 5)
  }

  @Test("single bytes: what came before the source's error is read first, its own error first")
  func byteRunsBeforeAnError() async throws {
    struct SourceFailed: Error {}
    func failing(after text: String) -> AsyncThrowingStream<UInt8, any Error> {
      AsyncThrowingStream { continuation in
        for byte in text.utf8 { continuation.yield(byte) }
        continuation.finish(throwing: SourceFailed())
      }
    }
    // The values complete before the failure come out, then the source's error.
    // The object is held back to its closing bracket, which is fed.
    var values: [JSONValue] = []
    do {
      for try await item in failing(after: "[1, \"a\", {\"b\": [2, 3, 4]}, tru").jsonItems(
        paths: [try JSONPath("$[*]")])
      {
        values.append(item.value)
      }
      Issue.record("no error")
    } catch is SourceFailed {
      #expect(values == [1, "a", ["b": [2, 3, 4]]])
    }
    // `x` is held back in a run when the source fails: fed first, it fails the parse, which
    // came first in the input.
    var events = 0
    do {
      for try await _ in failing(after: "[1,x").jsonEvents() { events += 1 }
      Issue.record("no error")
    } catch let error as JSONParseError {
      #expect(events == 2)
      #expect(error.offset == 3)
    }
  }

  /// Feeds `bytes` one at a time to `pump` and expects the byte-run cutter to cut at each byte
  /// that completed an output (one that `counts`), up to the first error and at it. After each
  /// cut the cutter hears from the pump what it would after a run: how many containers it may
  /// wait for. Returns how many cuts began such a wait.
  @discardableResult
  func expectCutsComplete<Pump: _AsyncPump>(
    _ name: String, _ bytes: [UInt8], _ pump: inout Pump,
    counts: (Pump.Output) -> Bool = { _ in true }
  ) -> Int {
    var cutter = _AsyncByteRun(options: pump.options, separator: pump.separator)
    var held = 0
    var runLength = 0
    for (offset, byte) in bytes.enumerated() {
      // As the iterator does: a run ends where the cutter says, or at its length limit.
      runLength += 1
      let cuts = cutter.cuts(after: byte) || runLength == _AsyncByteRun.limit
      var outputs: [Pump.Output] = []
      // Outputs the failing byte completes count too: they come before its error.
      let failed = (try? pump.feed([byte][...], into: &outputs)) == nil
      if outputs.contains(where: counts) && !cuts {
        Issue.record("\(name): byte \(offset) (\(byte)) completes an output but is held back")
        return held
      }
      if failed { return held }
      if cuts {
        runLength = 0
        cutter.holdUntilClosed(pump.containersBeforeNextOutput)
        if pump.containersBeforeNextOutput > 0 { held += 1 }
      }
    }
    return held
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

  @Test("the sequences are Sendable when their input is: made on one task, read on another")
  func sendableSequences() async throws {
    let text = "{\"a\":[1,2]}\n{\"a\":[3]}\n"
    var several = JSONParseOptions()
    several.allowMultipleValues = true
    let events = AsyncBytes(bytes: Array(text.utf8)).jsonEvents(options: several)
    let items = AsyncChunks(chunks: [Array(text.utf8)]).jsonItems(
      paths: [try JSONPath("$.a[*]")], options: several)
    let documents = AsyncBytes(bytes: Array(text.utf8)).jsonDocuments()
    let counts = try await Task.detached {
      var counts = (events: 0, items: 0, documents: 0)
      for try await _ in events { counts.events += 1 }
      for try await _ in items { counts.items += 1 }
      for try await _ in documents { counts.documents += 1 }
      return [counts.events, counts.items, counts.documents]
    }.value
    #expect(counts == [13, 3, 2])
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
