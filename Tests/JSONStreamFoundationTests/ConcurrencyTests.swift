import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

@testable import JSONStreamFoundation

/// Many parsers, writers, decoders and encoders at once, in parallel tasks, sharing what
/// they may share (parsed trees, decoders, encoders, snapshots). Every task must get the
/// answer a lone run gets. Run under `swift test --sanitize=thread` (CI does) to check that
/// nothing races.
@Suite("Concurrency: parallel tasks give what a lone run gives")
struct ConcurrencyTests {
  static let tasks = 16

  struct Line: Codable, Equatable, Sendable {
    var sku: String
    var quantity: Int
    var price: Double
  }

  struct Order: Codable, Equatable, Sendable {
    var id: Int
    var customer: String
    var paid: Bool
    var note: String?
    var lines: [Line]
    var attributes: [String: Int]
  }

  static let orders: [Order] = (0..<400).map { id in
    Order(
      id: id, customer: "customer \(id) «é😀»", paid: id % 3 == 0,
      note: id % 5 == 0 ? nil : "n\(id)",
      lines: (0..<(id % 7)).map { Line(sku: "S\($0)", quantity: $0 + 1, price: Double(id) / 8) },
      attributes: Dictionary(uniqueKeysWithValues: (0..<(id % 20)).map { ("k\($0)", $0) }))
  }

  static let document: [UInt8] = {
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    return try! encoder.encodeToBytes(orders)
  }()

  /// Runs `body(task)` in `tasks` parallel tasks; returns the results in task order.
  static func inParallel<T: Sendable>(
    _ body: @escaping @Sendable (Int) throws -> T
  ) async throws -> [T] {
    try await withThrowingTaskGroup(of: (Int, T).self) { group in
      for task in 0..<tasks {
        group.addTask { (task, try body(task)) }
      }
      var results = [T?](repeating: nil, count: tasks)
      for try await (task, result) in group { results[task] = result }
      return results.map { $0! }
    }
  }

  @Test("parsers: events at a different chunking in each task")
  func parsers() async throws {
    let expected = try JSONParser.parse(Self.document, handler: EventRecorder()).events
    let results = try await Self.inParallel { task in
      var parser = JSONParser(handler: EventRecorder())
      let chunk = 1 + task * 97
      for start in stride(from: 0, to: Self.document.count, by: chunk) {
        try parser.feed(Self.document[start..<min(start + chunk, Self.document.count)])
      }
      try parser.finish()
      return parser.handler.events
    }
    for events in results { #expect(events == expected) }
  }

  @Test("one parsed tree, read by every task: lookups, equality, hashing, writing")
  func sharedTree() async throws {
    let tree = try JSONValue(parsing: Self.document)
    let text = try tree.jsonBytes()
    let hash = tree.hashValue
    let results = try await Self.inParallel { task in
      let order = tree[task * 20]
      let found = order?["attributes"]?["k\(task % 19)"]?.int64Value
      let copy = try JSONValue(parsing: text)
      return (found, copy == tree, tree.hashValue, try tree.jsonBytes() == text)
    }
    for (task, (found, equal, taskHash, written)) in results.enumerated() {
      let attributes = Self.orders[task * 20].attributes
      #expect(found == attributes["k\(task % 19)"].map(Int64.init))
      #expect(equal && taskHash == hash && written)
    }
  }

  @Test("writers: each task writes the same tree, pretty and compact, as text and binary")
  func writers() async throws {
    let tree = try JSONValue(parsing: Self.document)
    let results = try await Self.inParallel { task in
      var writer = JSONWriter(options: task % 2 == 0 ? .compact : .pretty)
      try tree.replay(into: &writer)
      try writer.finish()
      var binary = JSONBinaryWriter()
      try tree.replay(into: &binary)
      try binary.finish()
      var reader = JSONBinaryReader(handler: JSONTreeBuilder())
      try reader.feed(binary.bytes)
      try reader.finish()
      return (try JSONValue(parsing: writer.bytes) == tree, reader.handler.value == tree)
    }
    for (text, binary) in results { #expect(text && binary) }
  }

  @Test("one decoder and one encoder, shared by every task")
  func codable() async throws {
    let decoder = JSONStreamDecoder()
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    let results = try await Self.inParallel { [encoder] task in
      let orders = try decoder.decode([Order].self, from: Self.document)
      let items = try decoder.decodeItems(Order.self, from: Self.document)
      let binary = try decoder.decode([Order].self, fromBinary: encoder.encodeBinaryToBytes(orders))
      return (
        orders == Self.orders, items == Self.orders, binary == Self.orders,
        try encoder.encodeToBytes(orders) == Self.document
      )
    }
    for (whole, items, binary, encoded) in results { #expect(whole && items && binary && encoded) }
  }

  @Test("snapshots handed to other tasks while the parser goes on")
  func snapshots() async throws {
    let (stream, continuation) = AsyncStream.makeStream(of: JSONValue?.self)
    let consumer = Task {
      var texts: [[UInt8]] = []
      for await snapshot in stream {
        // Read while the parser keeps building in the same document memory.
        texts.append(try snapshot?.jsonBytes() ?? [])
      }
      return texts
    }
    var parser = JSONParser(handler: JSONTreeBuilder())
    var expected: [[UInt8]] = []
    let chunk = 4_099
    for start in stride(from: 0, to: Self.document.count, by: chunk) {
      try parser.feed(Self.document[start..<min(start + chunk, Self.document.count)])
      let snapshot = parser.snapshot()
      expected.append(try snapshot?.jsonBytes() ?? [])
      continuation.yield(snapshot)
    }
    continuation.finish()
    try parser.finish()
    #expect(try await consumer.value == expected)
    #expect(parser.handler.value == (try JSONValue(parsing: Self.document)))
  }

  @Test("NDJSON decoded across cores by many callers at once")
  func parallelLines() async throws {
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    var lines: [UInt8] = []
    for order in Self.orders {
      lines += try encoder.encodeToBytes(order) + [0x0A]
    }
    let results = try await Self.inParallel { [lines] _ in
      try JSONStreamDecoder().decodeLinesInParallel(Order.self, from: lines)
    }
    for orders in results { #expect(orders == Self.orders) }
  }

  @Test("a shared decoder and encoder configured while other tasks use them, as Foundation's")
  func configuredWhileInUse() async throws {
    let decoder = JSONStreamDecoder()
    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    let results = try await Self.inParallel { task in
      if task % 4 == 0 {
        // Settings change under the others' feet: each call reads them once, at its start.
        decoder.userInfo = [CodingUserInfoKey(rawValue: "task")!: task]
        encoder.userInfo = [CodingUserInfoKey(rawValue: "task")!: task]
        decoder.keyDecodingStrategy = .useDefaultKeys
        encoder.outputFormatting = [.sortedKeys]
      }
      let orders = try decoder.decode([Order].self, from: Self.document)
      return try encoder.encodeToBytes(orders) == Self.document
    }
    #expect(results.allSatisfy { $0 })
  }
}
