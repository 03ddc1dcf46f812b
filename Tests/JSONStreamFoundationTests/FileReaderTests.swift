import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("File reader")
struct FileReaderTests {
  /// Calls `body` with the path of a new file of the temporary directory holding `bytes`,
  /// removed after.
  static func withFile(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "jsonstream-reader-\(UUID().uuidString)")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    try body(url.path)
  }

  @Test("a file read in chunks of any size gives the same value, with progress")
  func chunks() throws {
    let text = #"{"items":["# + (0..<2000).map { #"{"i":\#($0)}"# }.joined(separator: ",") + "]}"
    try Self.withFile(Array(text.utf8)) { path in
      let expected = try JSONValue(parsing: text)
      for chunkSize in [1, 7, 4096, 1 << 20] {
        var reports: [Int] = []
        let builder = try JSONFileReader.parse(
          path: path, handler: JSONTreeBuilder(), chunkSize: chunkSize
        ) { read, size in
          #expect(size == text.utf8.count)
          reports.append(read)
        }
        #expect(builder.value == expected, "chunk size \(chunkSize)")
        #expect(reports.last == text.utf8.count)
        #expect(reports == reports.sorted())
        #expect(reports.count == (text.utf8.count + chunkSize - 1) / chunkSize)
      }
    }
  }

  @Test("a missing file is an error naming it")
  func missing() {
    let error = #expect(throws: JSONFoundationError.self) {
      try JSONFileReader(path: "/nonexistent/x.json")
    }
    #expect(error?.kind == .unreadableFile(code: ENOENT))
    #expect(error?.description == "/nonexistent/x.json: No such file or directory")
  }

  /// An NDJSON file with what makes cutting it hard: a blank first line, blank and
  /// whitespace-only lines, a `\r\n` ending, a character of several bytes, a line longer than
  /// the chunks, and a last line with no newline.
  static let ndjson = Array(
    ("\n" + #"{"a":1}"# + "\n\n  \n" + #"[1,2,3]"# + "\r\n" + #""é🙂""# + "\n"
      + #"{"long":""# + String(repeating: "x", count: 40) + #""}"# + "\n7\n" + #"{"end":true}"#)
      .utf8)

  /// What a reader of the lines starting in `range` delivers, and where it says they start.
  static func read(_ path: String, _ range: Range<Int>, chunkSize: Int) throws
    -> (bytes: [UInt8], start: Int)
  {
    let reader = try JSONFileReader(path: path, linesStartingIn: range, chunkSize: chunkSize)
    var bytes: [UInt8] = []
    try reader.forEachChunk { chunk, read in
      bytes += chunk
      #expect(read == bytes.count)
      return true
    }
    return (bytes, reader.startOffset)
  }

  /// The offsets where lines start: 0 and after each newline (not the end of the file).
  static let lineStarts =
    [0]
    + ndjson.indices.filter { ndjson[$0] == 0x0A }.map { $0 + 1 }
    .filter { $0 < ndjson.count }

  @Test("ranges cut at every offset, into 2 and 3, read each line exactly once")
  func lineRanges() throws {
    try Self.withFile(Self.ndjson) { path in
      let size = Self.ndjson.count
      let chunkSizes = [1, 3, 16, 64 * 1024]
      var round = 0
      /// Reads the ranges between `cuts` and checks that together they are the file, each one
      /// the whole lines that start in it.
      func check(_ cuts: [Int]) throws {
        let bounds = [0] + cuts + [size]
        var joined: [UInt8] = []
        for (lower, upper) in zip(bounds, bounds.dropFirst()) {
          round += 1
          let chunkSize = chunkSizes[round % chunkSizes.count]
          let (bytes, start) = try Self.read(path, lower..<upper, chunkSize: chunkSize)
          let starts = Self.lineStarts.filter { (lower..<upper).contains($0) }
          if let first = starts.first {
            let end = Self.lineStarts.first { $0 > starts.last! } ?? size
            #expect(start == first, "cuts \(cuts), \(lower)..<\(upper)")
            #expect(bytes == Array(Self.ndjson[first..<end]), "cuts \(cuts), \(lower)..<\(upper)")
          } else {
            #expect(bytes.isEmpty, "cuts \(cuts), \(lower)..<\(upper)")
          }
          joined += bytes
        }
        #expect(joined == Self.ndjson, "cuts \(cuts)")
      }
      for cut in 0...size { try check([cut]) }
      for first in 0...size {
        for second in first...size { try check([first, second]) }
      }
      // The lines, parsed from the ranges' bytes, are the file's documents in order.
      var documents = JSONDocumentReader()
      var values: [JSONValue] = []
      for (lower, upper) in [(0, 13), (13, 14), (14, 40), (40, size)] {
        let (bytes, _) = try Self.read(path, lower..<upper, chunkSize: 5)
        values += try documents.feed(bytes).map { try $0.get().value }
      }
      values += try documents.finish().map { try $0.get().value }
      var whole = JSONDocumentReader()
      let expected = try (whole.feed(Self.ndjson) + whole.finish()).map { try $0.get().value }
      #expect(values == expected && values.count == 6)
    }
  }

  @Test("ranges past the end, empty and at the end read nothing; a range before 0 is an error")
  func lineRangeEdges() throws {
    try Self.withFile(Self.ndjson) { path in
      let size = Self.ndjson.count
      #expect(try Self.read(path, 0..<Int.max, chunkSize: 7).bytes == Self.ndjson)
      #expect(try Self.read(path, size..<size + 10, chunkSize: 7).bytes.isEmpty)
      #expect(try Self.read(path, 5..<5, chunkSize: 7).bytes.isEmpty)
      #expect(try Self.read(path, 1_000..<2_000, chunkSize: 7).bytes.isEmpty)
      let error = #expect(throws: JSONFoundationError.self) {
        try JSONFileReader(path: path, linesStartingIn: -1..<10)
      }
      #expect(error?.kind == .unreadableFile(code: EINVAL))
      #expect(error?.description.hasSuffix("the byte range -1..<10 starts before the file") == true)
      // Stopping early and reading on gives the rest of the range.
      let reader = try JSONFileReader(path: path, linesStartingIn: 2..<30, chunkSize: 4)
      var first: [UInt8] = []
      try reader.forEachChunk { chunk, _ in
        first += chunk
        return false
      }
      var rest: [UInt8] = []
      try reader.forEachChunk { chunk, _ in
        rest += chunk
        return true
      }
      #expect(first.count == 4)
      let start = Self.lineStarts.first { $0 >= 2 }!
      let end = Self.lineStarts.first { $0 > 29 }!
      #expect(first + rest == Array(Self.ndjson[start..<end]))
    }
  }
}
