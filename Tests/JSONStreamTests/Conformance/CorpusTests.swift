import JSONStream
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
    mutating func key(_ key: JSONString) { mix(5, key.utf8) }
    mutating func string(_ value: JSONString) { mix(6, value.utf8) }
    mutating func number(_ value: JSONNumber) { mix(7, value.utf8) }
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
