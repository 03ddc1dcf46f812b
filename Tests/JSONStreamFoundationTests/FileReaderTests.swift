import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("File reader")
struct FileReaderTests {
  @Test("a file read in chunks of any size gives the same value, with progress")
  func chunks() throws {
    let text = #"{"items":["# + (0..<2000).map { #"{"i":\#($0)}"# }.joined(separator: ",") + "]}"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "jsonstream-reader-\(UUID().uuidString).json")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let expected = try JSONValue(parsing: text)
    for chunkSize in [1, 7, 4096, 1 << 20] {
      var reports: [Int] = []
      let builder = try JSONFileReader.parse(
        path: url.path, handler: JSONTreeBuilder(), chunkSize: chunkSize
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

  @Test("a missing file is an error naming it")
  func missing() {
    let error = #expect(throws: JSONFoundationError.self) {
      try JSONFileReader(path: "/nonexistent/x.json")
    }
    #expect(error?.kind == .unreadableFile(code: ENOENT))
    #expect(error?.description == "/nonexistent/x.json: No such file or directory")
  }
}
