import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

@testable import JSONStreamFoundation

@Suite("Streaming Codable: items, lines, sequences")
struct StreamingCodableTests {
  struct Order: Codable, Equatable, Sendable {
    var id: Int
    var customer: String
    var total: Double
    var tags: [String]
  }

  static func order(_ id: Int) -> Order {
    Order(id: id, customer: "customer \(id)", total: Double(id) / 4, tags: id % 2 == 0 ? ["a"] : [])
  }

  static func text(_ orders: [Order]) throws -> [UInt8] {
    try JSONStreamEncoder().encodeToBytes(["header": ["count": orders.count]])
      .dropLast() + Array(#","orders":"#.utf8) + JSONStreamEncoder().encodeToBytes(orders)
      + Array("}".utf8)
  }

  @Test("items of a nested array, in chunks of any size, as Foundation decodes the whole")
  func items() throws {
    let orders = (0..<300).map(Self.order)
    let bytes = try Self.text(orders)
    struct Whole: Decodable { var orders: [Order] }
    #expect(try JSONDecoder().decode(Whole.self, from: Data(bytes)).orders == orders)
    for size in [1, 7, 100, 4096, bytes.count] {
      var decoder = try JSONStreamDecoder.ItemDecoder(Order.self, at: "$.orders[*]")
      var decoded: [Order] = []
      for start in stride(from: 0, to: bytes.count, by: size) {
        decoded += try decoder.feed(bytes[start..<min(start + size, bytes.count)])
      }
      decoded += try decoder.finish()
      #expect(decoded == orders, "chunks of \(size)")
      #expect(decoder.count == orders.count)
    }
    #expect(
      try JSONStreamDecoder().decodeItems(Order.self, at: "$.orders[*]", from: bytes) == orders)
    #expect(
      try JSONStreamDecoder().decodeItems(Int.self, at: "$.header.count", from: bytes) == [300])
    // Any JSONPath: a filter, a negative index, a slice.
    #expect(
      try JSONStreamDecoder().decodeItems(Order.self, at: "$.orders[?@.total >= 70]", from: bytes)
        == Array(orders[280...]))
    #expect(
      try JSONStreamDecoder().decodeItems(Order.self, at: "$.orders[-2:]", from: bytes)
        == Array(orders[298...]))
    #expect(
      try JSONStreamDecoder().decodeItems(
        String.self, at: "$.orders[?@.tags[0] == 'a' && @.id < 5].customer", from: bytes)
        == ["customer 0", "customer 2", "customer 4"])
  }

  @Test("a large array decodes item by item: the tree memory held is one item's")
  func boundedMemory() throws {
    // 50,000 orders (about 3.5 MB) in 4 KiB chunks.
    var decoder = try JSONStreamDecoder.ItemDecoder(Order.self)
    var chunk: [UInt8] = Array("[".utf8)
    var decoded = 0
    var largest = 0
    var lagging = 0
    // Where each order's text ends in the input, and how much input went in.
    var ends: [Int] = []
    var fed = 0
    for id in 0..<50_000 {
      if id > 0 { chunk.append(UInt8(ascii: ",")) }
      chunk += try JSONStreamEncoder().encodeToBytes(Self.order(id))
      ends.append(fed + chunk.count)
      if chunk.count >= 4096 {
        fed += chunk.count
        for order in try decoder.feed(chunk) {
          #expect(order.id == decoded)
          decoded += 1
        }
        chunk.removeAll(keepingCapacity: true)
        largest = max(largest, decoder.heldBytes)
        // Every order whose last byte went in has come out.
        lagging = max(lagging, ends.count - decoded)
      }
    }
    decoded += try decoder.feed(chunk + Array("]".utf8)).count
    decoded += try decoder.finish().count
    #expect(decoded == 50_000)
    #expect(largest <= 2048, "held \(largest) bytes of tree")
    #expect(lagging == 0, "\(lagging) complete items were held back")
  }

  @Test("an item's decoding error names the item and its path within it")
  func itemErrors() throws {
    let text = #"{"orders":[{"id":1,"customer":"a","total":1,"tags":[]},{"id":"x"}]}"#
    let error = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decodeItems(Order.self, at: "$.orders[*]", from: Array(text.utf8))
    }
    guard case .typeMismatch(_, let context) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["1", "id"])
    #expect(context.debugDescription.hasSuffix("(item 1)"))
    // Not JSON: dataCorrupted with the parse error's position.
    let broken = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decodeItems(Order.self, from: Array("[{\"id\":1,]".utf8))
    }
    guard case .dataCorrupted(let corrupted) = broken else { return }
    #expect(corrupted.debugDescription.contains("line 1, column 10"))
  }

  @Test("NDJSON lines, blank lines skipped, errors at their line in the whole input")
  func lines() throws {
    let orders = (0..<20).map(Self.order)
    var text = ""
    for order in orders {
      text += String(decoding: try JSONStreamEncoder().encode(order), as: UTF8.self) + "\n"
      if order.id % 5 == 0 { text += "   \r\n\n" }
    }
    #expect(try JSONStreamDecoder().decodeLines(Order.self, from: Data(text.utf8)) == orders)
    #expect(
      try JSONStreamDecoder().decodeLinesInParallel(Order.self, from: Data(text.utf8)) == orders)
    // A value of the wrong type on line 3, a broken line on line 4.
    let bad = """
      {"id":1,"customer":"a","total":1,"tags":[]}

        {"id":2,"customer":"b","total":"x","tags":[]}
      """
    let error = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decodeLines(Order.self, from: Array(bad.utf8))
    }
    guard case .typeMismatch(_, let context) = error else { return }
    let offset = bad.utf8.count - #""x","tags":[]}"#.utf8.count
    #expect(context.debugDescription.hasSuffix("(line 3, column 34, offset \(offset))"))
    let broken = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decodeLines(Order.self, from: Array((bad + "\n{\"id\":").utf8))
    }
    guard case .typeMismatch = broken else {
      Issue.record("the earlier line's error comes first: \(broken)")
      return
    }
    let onlyBroken = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decodeLines(Order.self, from: Array("{}\n\n{\"id\":".utf8))
    }
    guard case .dataCorrupted(let corrupted) = onlyBroken else { return }
    let parseError = try #require(corrupted.underlyingError as? JSONParseError)
    #expect(parseError.line == 3 && parseError.offset == 9)
  }

  @Test("parallel decoding keeps the order and throws the first failing line")
  func parallel() throws {
    let orders = (0..<5_000).map(Self.order)
    var bytes: [UInt8] = []
    for order in orders { bytes += try JSONStreamEncoder().encodeToBytes(order) + [0x0A] }
    let decoder = JSONStreamDecoder()
    #expect(try decoder.decodeLinesInParallel(Order.self, from: bytes) == orders)
    #expect(
      try decoder.decodeLinesInParallel(Order.self, from: bytes)
        == decoder.decodeLines(Order.self, from: bytes))
    // Two bad lines far apart: the first one is reported.
    var broken = bytes
    let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
    broken[lineStarts[1000]] = UInt8(ascii: "]")  // line 1001
    broken[lineStarts[4000]] = UInt8(ascii: "]")  // line 4001
    let error = try #require(throws: DecodingError.self) {
      try decoder.decodeLinesInParallel(Order.self, from: broken)
    }
    guard case .dataCorrupted(let context) = error,
      let parseError = context.underlyingError as? JSONParseError
    else {
      Issue.record("\(error)")
      return
    }
    #expect(parseError.line == 1001)
  }

  @Test("async: items and lines of a byte-chunk stream, decoded as they arrive")
  func async() async throws {
    let orders = (0..<100).map(Self.order)
    let bytes = try Self.text(orders)
    let chunks = AsyncStream<[UInt8]> { continuation in
      for start in stride(from: 0, to: bytes.count, by: 333) {
        continuation.yield(Array(bytes[start..<min(start + 333, bytes.count)]))
      }
      continuation.finish()
    }
    var decoded: [Order] = []
    for try await order in try chunks.decodeItems(Order.self, at: "$.orders[*]") {
      decoded.append(order)
    }
    #expect(decoded == orders)

    var lines: [UInt8] = []
    for order in orders { lines += try JSONStreamEncoder().encodeToBytes(order) + [0x0A] }
    lines += Array(#"{"id":"bad"}"#.utf8)
    let lineChunks = AsyncStream<[UInt8]> { continuation in
      continuation.yield(lines)
      continuation.finish()
    }
    var fromLines: [Order] = []
    do {
      for try await order in lineChunks.decodeLines(Order.self) { fromLines.append(order) }
      Issue.record("the bad line did not fail")
    } catch let failure as JSONDocumentReader.Failure {
      #expect(failure.line == 101)
      #expect(failure.error is DecodingError)
    }
    #expect(fromLines == orders)
  }

  @Test("a sequence encodes to a sink as an array or as NDJSON, one value at a time")
  func streamWriter() throws {
    let orders = (0..<3_000).map(Self.order)
    nonisolated(unsafe) var chunks = 0
    nonisolated(unsafe) var received: [UInt8] = []
    let sink = JSONChunkSink {
      chunks += 1
      received += $0
    }
    _ = try JSONStreamEncoder().encode(orders, as: .array, to: sink)
    #expect(chunks > 1)
    #expect(try JSONStreamDecoder().decode([Order].self, from: received) == orders)
    #expect(received == (try JSONStreamEncoder().encodeToBytes(orders)))

    let lines = try JSONStreamEncoder().encode(orders, as: .lines, to: JSONByteSink()).bytes
    #expect(lines.last == 0x0A)
    #expect(try JSONStreamDecoder().decodeLines(Order.self, from: lines) == orders)
    #expect(lines.filter { $0 == 0x0A }.count == orders.count)

    let pretty = JSONStreamEncoder()
    pretty.outputFormatting = .prettyPrinted
    var writer = JSONStreamEncoder.StreamWriter(encoder: pretty, sink: JSONByteSink())
    for order in orders.prefix(2) { try writer.write(order) }
    try writer.finish()
    #expect(writer.writer.sink.bytes == (try pretty.encodeToBytes(Array(orders.prefix(2)))))
    // NDJSON is compact whatever the encoder's formatting.
    let prettyLines = try pretty.encode(orders.prefix(3), as: .lines, to: JSONByteSink()).bytes
    #expect(prettyLines.filter { $0 == 0x0A }.count == 3)
    // Nothing written: an empty array, or no lines.
    #expect(try JSONStreamEncoder().encode([Order](), to: JSONByteSink()).bytes == Array("[]".utf8))
    #expect(try JSONStreamEncoder().encode([Order](), as: .lines, to: JSONByteSink()).bytes.isEmpty)
  }

  @Test("nothing lost: 500 lines with line 301 bad, in 64 KiB chunks, give the 300 first")
  func nothingLostBeforeABadLine() async throws {
    struct Line: Decodable, Equatable { var id: Int }
    var text = ""
    for id in 1...500 {
      text +=
        id == 301
        ? "{\"id\":301,oops}\n"
        : "{\"id\":\(id),\"pad\":\"\(String(repeating: "x", count: 200))\"}\n"
    }
    let bytes = Array(text.utf8)
    let chunks = stride(from: 0, to: bytes.count, by: 65_536).map {
      Array(bytes[$0..<min(bytes.count, $0 + 65_536)])
    }
    #expect(chunks.count > 1 && chunks[0].count == 65_536)
    let expected = (1...300).map(Line.init)

    var lines: [Line] = []
    var iterator = AsyncChunks(chunks: chunks).decodeLines(Line.self).makeAsyncIterator()
    do {
      while let line = try await iterator.next() { lines.append(line) }
      Issue.record("no error for line 301")
    } catch let failure as JSONDocumentReader.Failure {
      #expect(failure.line == 301)
    }
    #expect(lines == expected)
    #expect(try await iterator.next() == nil)

    var synchronous: [Line] = []
    let error = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decodeLines(Line.self, from: bytes) { synchronous.append($0) }
    }
    #expect(synchronous == expected)
    #expect("\(error)".contains("line 301, column"))

    // An item that does not decode keeps its neighbours before it and ends the input with its
    // error, from the next call and every one after.
    var items = try JSONStreamDecoder.ItemDecoder(Line.self)
    let decoded = try items.feed(Array(#"[{"id":1},{"id":"two"},{"id":3}]"#.utf8))
    #expect(decoded == [Line(id: 1)])
    for _ in 0..<2 {
      let itemError = try #require(throws: DecodingError.self) { _ = try items.finish() }
      guard case .typeMismatch(_, let context) = itemError else {
        Issue.record("\(itemError)")
        return
      }
      #expect(
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["1", "id"])
    }
  }
}
