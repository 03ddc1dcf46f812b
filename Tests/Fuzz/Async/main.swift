// libFuzzer target for the async sequences: events, items and documents read from an
// `AsyncSequence` of single bytes (the shape of `URLSession.AsyncBytes`) or of chunks, against
// the synchronous readers fed one byte at a time. Build and run it with
// `Tests/Fuzz/run.sh async SECONDS`.
//
// Input layout: two header bytes, then the input.
//
//   byte 0           parse options (see `fuzzParseOptions`)
//   byte 1, bit 0…1  what is read: events, items, documents as lines, documents as
//                    concatenated values (RFC 7464 records instead when bit 7 is set)
//   byte 1, bit 2…4  for items, the paths (one of `pathSets`); for lines and records, bit 2
//                    skips invalid documents
//   byte 1, bit 5…6  the async source: single bytes, or chunks of 1, 7 or 61 bytes
//
// Checked, with `fatalError` on a violation:
// - the sequence yields exactly the outputs the synchronous reader makes, in order, then
//   throws its error (the same text) or ends where it ends; after throwing it returns nil;
// - from single bytes, each output comes before the byte after the one that completes it
//   is asked for: none is held back waiting for input that may never come. Documents of
//   lines or records may wait for the separator that ends theirs (a bad one is found before
//   its end by the synchronous reader, fed byte by byte).

import Dispatch

@testable import JSONStream
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue

let pathSets: [[String]] = [
  ["$[*]"], ["$.a"], ["$..a"], ["$[*].a", "$[0]"], ["$..*"], ["$[?@.b].c"], ["$[1:]"], ["$"],
]

/// What a synchronous reader made, and after how many bytes each output was complete.
struct Reference<Output> {
  var outputs: [Output] = []
  /// `completedAt[k]`: the bytes fed when output `k` came out (the input's count for the ones
  /// that came out of `finish`).
  var completedAt: [Int] = []
  var error: String? = nil

  mutating func record(_ new: [Output], at position: Int) {
    outputs += new
    completedAt += Array(repeating: position, count: new.count)
  }
}

/// Counts the bytes the sequence under test has asked for.
final class PullCount: @unchecked Sendable {
  var value = 0
}

/// The input as single bytes, counting each one asked for.
struct CountedBytes: AsyncSequence, Sendable {
  typealias Element = UInt8
  let bytes: [UInt8]
  let pulled: PullCount

  struct AsyncIterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    let pulled: PullCount
    var index = 0

    mutating func next() async -> UInt8? {
      guard index < bytes.count else { return nil }
      index += 1
      pulled.value = index
      return bytes[index - 1]
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, pulled: pulled) }
}

/// The input in chunks of `size` bytes.
struct Chunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let bytes: [UInt8]
  let size: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    let size: Int
    var start = 0

    mutating func next() async -> [UInt8]? {
      guard start < bytes.count else { return nil }
      let end = Swift.min(start + size, bytes.count)
      defer { start = end }
      return Array(bytes[start..<end])
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, size: size) }
}

/// What a task is to run, and what it returned, for the thread that waits for it.
final class TaskWork<T>: @unchecked Sendable {
  var body: (() async -> T)?
  var value: T?
}

/// Runs `body` to its end on another thread and returns what it returned. The body, with all
/// it holds, is released before this returns: memory it held is not taken for a leak.
func runBlocking<T>(_ body: @escaping () async -> T) -> T {
  let work = TaskWork<T>()
  work.body = body
  let done = DispatchSemaphore(value: 0)
  Task {
    if let body = work.body.take() { work.value = await body() }
    done.signal()
  }
  done.wait()
  return work.value!
}

/// Drains `sequence`, checking each output against `reference` as it comes (with
/// `pulled`, that it was not held back), then the end or the error.
func check<S: AsyncSequence & SendableMetatype, Output>(
  _ sequence: S, against reference: Reference<Output>, pulled: PullCount?,
  same: @escaping @Sendable (S.Element, Output) -> Bool
) {
  // Made here and used only by the task below, which this thread waits for.
  nonisolated(unsafe) let sequence = sequence
  nonisolated(unsafe) let reference = reference
  let failure: String? = runBlocking {
    var iterator = sequence.makeAsyncIterator()
    var count = 0
    do {
      while let output = try await iterator.next() {
        guard count < reference.outputs.count else {
          return "output \(count) past the reference's \(reference.outputs.count)"
        }
        guard same(output, reference.outputs[count]) else {
          return "output \(count) differs: \(output) vs \(reference.outputs[count])"
        }
        if let pulled, pulled.value > reference.completedAt[count] {
          return "output \(count) came after \(pulled.value) bytes, complete at "
            + "\(reference.completedAt[count])"
        }
        count += 1
      }
      if count < reference.outputs.count {
        return "ended after \(count) of \(reference.outputs.count) outputs"
      }
      if let expected = reference.error { return "ended; the reference threw \(expected)" }
      return nil
    } catch {
      if count < reference.outputs.count {
        return "threw \(error) after \(count) of \(reference.outputs.count) outputs"
      }
      guard let expected = reference.error else { return "threw \(error); the reference ended" }
      if "\(error)" != expected { return "threw \(error); the reference threw \(expected)" }
      do {
        if try await iterator.next() != nil { return "an output after the error" }
      } catch {
        return "threw again: \(error)"
      }
      return nil
    }
  }
  if let failure { fatalError(failure) }
}

/// What `parser` makes of `input` fed one byte at a time, the outputs taken from its handler
/// by `take` after each byte.
func parserReference<Handler: JSONEventHandler, Output>(
  _ input: [UInt8], _ parser: JSONParser<Handler>, take: (inout Handler) -> [Output]
) -> Reference<Output> {
  var parser = parser
  var reference = Reference<Output>()
  do {
    for index in input.indices {
      try parser.feed(input[index...index])
      reference.record(take(&parser.handler), at: index + 1)
    }
    try parser.finish()
    reference.record(take(&parser.handler), at: input.count)
  } catch {
    reference.record(take(&parser.handler), at: input.count)
    reference.error = "\(error)"
  }
  return reference
}

typealias DocumentResult = Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>

func documentsReference(
  _ input: [UInt8], _ framing: JSONDocumentReader.Framing, _ options: JSONParseOptions,
  skips: Bool
) -> Reference<DocumentResult> {
  var reference = Reference<DocumentResult>()
  var reader = JSONDocumentReader(
    framing: framing, options: options, skipsInvalidDocuments: skips)
  do {
    for index in input.indices {
      reference.record(try reader.feed(input[index...index]), at: index + 1)
    }
    reference.record(try reader.finish(), at: input.count)
  } catch {
    reference.error = "\(error)"
  }
  if let separator: UInt8 = framing == .lines ? 0x0A : (framing == .textSequence ? 0x1E : nil) {
    // A line or record is read as one piece when its separator arrives.
    reference.completedAt = reference.completedAt.map { position in
      guard position > 0 else { return 0 }
      return (input[(position - 1)...].firstIndex(of: separator) ?? input.count - 1) + 1
    }
  }
  return reference
}

/// Two outputs are the same: equal, or, holding NaN (not equal to itself), with the same
/// description.
func sameOutput<T: Equatable>(_ a: T, _ b: T) -> Bool { a == b || "\(a)" == "\(b)" }

/// Two documents' results are the same: the same value at the same place, or a failure at
/// the same place with the same error.
func sameDocument(_ a: DocumentResult, _ b: DocumentResult) -> Bool {
  switch (a, b) {
  case (.success(let x), .success(let y)):
    return sameOutput(x.value, y.value) && x.line == y.line && x.index == y.index
      && x.offset == y.offset
  case (.failure(let x), .failure(let y)):
    return x.line == y.line && x.column == y.column && x.index == y.index
      && x.offset == y.offset && "\(x.error)" == "\(y.error)"
  default: return false
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAsyncTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let options = fuzzParseOptions(data[0])
  let byte1 = data[1]
  let input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
  // 0: single bytes, counted; else chunks of that many bytes.
  let chunk = [0, 1, 7, 61][Int(byte1 >> 5 & 3)]
  let pulled = PullCount()
  let bytes = CountedBytes(bytes: input, pulled: pulled)
  let chunks = Chunks(bytes: input, size: max(chunk, 1))

  switch byte1 & 3 {
  case 0:
    let reference = parserReference(
      input, JSONParser(handler: JSONEventCollector(), options: options)
    ) { $0.takeEvents() }
    if chunk == 0 {
      check(
        bytes.jsonEvents(options: options), against: reference, pulled: pulled,
        same: sameOutput)
    } else {
      check(chunks.jsonEvents(options: options), against: reference, pulled: nil, same: sameOutput)
    }
  case 1:
    let paths = pathSets[Int(byte1 >> 2 & 7)].map { try! JSONPath($0) }
    let reference = parserReference(
      input, JSONParser(handler: JSONItemStreamer(paths: paths), options: options)
    ) { $0.takeItems() }
    if chunk == 0 {
      check(
        bytes.jsonItems(paths: paths, options: options), against: reference, pulled: pulled,
        same: sameOutput)
    } else {
      check(
        chunks.jsonItems(paths: paths, options: options), against: reference, pulled: nil,
        same: sameOutput)
    }
  default:
    let framing: JSONDocumentReader.Framing =
      byte1 & 3 == 2 ? .lines : (byte1 & 0x80 != 0 ? .textSequence : .concatenated)
    let skips = byte1 & 4 != 0
    let reference = documentsReference(input, framing, options, skips: skips)
    if chunk == 0 {
      check(
        bytes.jsonDocuments(framing: framing, options: options, skipsInvalidDocuments: skips),
        against: reference, pulled: pulled, same: sameDocument)
    } else {
      check(
        chunks.jsonDocuments(framing: framing, options: options, skipsInvalidDocuments: skips),
        against: reference, pulled: nil, same: sameDocument)
    }
  }
  return 0
}
