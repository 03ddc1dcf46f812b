import JSONStream
import JSONStreamTestSupport
import Testing

/// The real-world documents of ../shared/corpus, fed at random chunkings: the events must be
/// those of the whole-buffer parse.
@Suite(
  "Corpus at random splits",
  .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"))
struct CorpusTests {
  /// Counts events and hashes their payloads, so comparing big documents stays cheap.
  struct Digest: JSONEventHandler, Equatable {
    var count = 0
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func mix(
      _ tag: UInt8, _ bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    ) {
      count += 1
      hash = (hash ^ UInt64(tag)) &* 0x100_0000_01B3
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
      hash = (hash ^ 0xFF) &* 0x100_0000_01B3
    }
    mutating func startObject() { mix(1) }
    mutating func endObject() { mix(2) }
    mutating func startArray() { mix(3) }
    mutating func endArray() { mix(4) }
    mutating func key(_ key: borrowing JSONString) { mix(5, key.utf8) }
    mutating func string(_ value: borrowing JSONString) { mix(6, value.utf8) }
    mutating func number(_ value: borrowing JSONNumber) { mix(7, value.utf8) }
    mutating func bool(_ value: Bool) { mix(value ? 8 : 9) }
    mutating func null() { mix(10) }
  }

  func digest(_ bytes: [UInt8], chunks: [Int]) throws -> Digest {
    var parser = JSONParser(handler: Digest())
    var start = 0
    var index = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunks[index % chunks.count])
      try parser.feed(bytes[start..<end])
      start = end
      index += 1
    }
    try parser.finish()
    return parser.handler
  }

  @Test(
    "random chunkings give the whole-buffer events",
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func randomSplits(name: String) throws {
    let bytes = try SharedData.corpusFile(name)
    let whole = try digest(bytes, chunks: [bytes.count])
    #expect(whole.count > 1000)
    var generator = SplitMix(seed: UInt64(bytes.count))
    for round in 0..<6 {
      let limit = [2, 7, 64, 1000, 4096, 65536][round]
      let chunks = (0..<257).map { _ in Int(generator.next() % UInt64(limit)) + 1 }
      #expect(try digest(bytes, chunks: chunks) == whole, "\(name) round \(round)")
    }
    #expect(try digest(bytes, chunks: [1]) == whole)
  }
}

/// parse → write → parse on the corpus: the same events, compact and pretty.
@Suite(
  "Corpus round trips through the writer",
  .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"))
struct CorpusWriterTests {
  @Test(
    "write then parse gives the same events",
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func roundTrip(name: String) throws {
    let bytes = try SharedData.corpusFile(name)
    let original = try JSONParser.parse(bytes, handler: CorpusTests.Digest())
    for options in [JSONWriteOptions.compact, .pretty] {
      let written = try JSONParser.parse(bytes, handler: JSONWriter(options: options))
      var writer = written
      try writer.finish()
      #expect(try JSONParser.parse(writer.bytes, handler: CorpusTests.Digest()) == original)
      if options.indent == nil {
        #expect(whitespaceOutsideStrings(writer.bytes) == 0)
      }
    }
  }

  @Test(
    "tree → replay → writer equals parser → writer",
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func treeRoundTrip(name: String) throws {
    let bytes = try SharedData.corpusFile(name)
    let value = try JSONValue(parsing: bytes)
    var direct = try JSONParser.parse(bytes, handler: JSONWriter())
    try direct.finish()
    #expect(try value.jsonBytes() == direct.bytes)
    #expect(try JSONValue(parsing: value.jsonBytes()) == value)
  }

  /// Counts whitespace bytes that are not inside a string literal.
  func whitespaceOutsideStrings(_ bytes: [UInt8]) -> Int {
    var inString = false
    var escaped = false
    var count = 0
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == 0x5C {
          escaped = true
        } else if byte == 0x22 {
          inString = false
        }
      } else if byte == 0x22 {
        inString = true
      } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        count += 1
      }
    }
    return count
  }
}
