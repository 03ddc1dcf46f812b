import Foundation
import JSONStream
import Testing

@testable import JSONStreamFoundation

/// A sink that fails (a full disk, a closed socket) fails the write that reached it, with
/// its own error: never a success, never a partial document reported as whole.
@Suite("A failing sink surfaces as an error")
struct FailingSinkTests {
  struct DiskFull: Error, Equatable {}

  /// Accepts `capacity` bytes, then throws DiskFull.
  struct LimitedSink: JSONOutputSink {
    var capacity: Int
    var written: [UInt8] = []
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
      guard written.count + bytes.count <= capacity else { throw DiskFull() }
      written += bytes
    }
  }

  static let document = Array(
    (#"{"items":["#
      + (0..<2_000).map { #"{"id":\#($0),"name":"item \#($0)"}"# }
      .joined(separator: ",") + "]}").utf8)

  @Test(
    "the parser streaming into a writer: the sink's error from feed or finish",
    arguments: [
      0, 100, 10_000,
    ])
  func streamingWriter(capacity: Int) throws {
    for chunkSize in [1, 64, 64 * 1024] {
      var parser = JSONParser(
        handler: JSONWriter(sink: LimitedSink(capacity: capacity), chunkSize: chunkSize))
      #expect(throws: DiskFull.self, "chunks of \(chunkSize)") {
        try parser.feed(Self.document)
        try parser.finish()
        try parser.handler.finish()
      }
      #expect(parser.handler.sink.written.count <= capacity)
    }
  }

  @Test("the binary writer: the sink's error")
  func binaryWriter() throws {
    var parser = JSONParser(
      handler: JSONBinaryWriter(sink: LimitedSink(capacity: 1_000), chunkSize: 256))
    #expect(throws: DiskFull.self) {
      try parser.feed(Self.document)
      try parser.finish()
      try parser.handler.finish()
    }
  }

  @Test("the encoder's stream writer and sequence encoding: the sink's error")
  func encoder() throws {
    let values = (0..<5_000).map { ["id": $0] }
    for format in [JSONStreamEncoder.StreamWriter<LimitedSink>.Format.array, .lines] {
      #expect(throws: DiskFull.self) {
        _ = try JSONStreamEncoder().encode(values, as: format, to: LimitedSink(capacity: 4_096))
      }
    }
    // Enough room: everything, and a success.
    let sink = try JSONStreamEncoder().encode(
      values, as: .lines, to: LimitedSink(capacity: 1 << 20))
    #expect(sink.written.count == values.map { "{\"id\":\($0["id"]!)}\n".utf8.count }.reduce(0, +))
  }
}
