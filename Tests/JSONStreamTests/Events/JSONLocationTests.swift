import JSONStream
import Testing

@Suite("JSONLocation: one location for every error about input")
struct JSONLocationTests {
  @Test("a parse error's location is its offset, line and column, with no path")
  func parseError() {
    let error = #expect(throws: JSONParseError.self) {
      _ = try JSONParser.parse(Array("[1,\n x]".utf8), handler: JSONTreeBuilder())
    }
    #expect(error?.location == JSONLocation(offset: 5, line: 2, column: 2))
    #expect(error?.offset == 5 && error?.line == 2 && error?.column == 2 && error?.path == nil)
    #expect(error?.description.hasPrefix("line 2, column 2: ") == true)
  }

  @Test("a handler's error under a path tracker: the location has the path")
  func trackedPath() {
    let error = #expect(throws: JSONParseError.self) {
      _ = try JSONParser.parse(
        Array(#"{"a":{"b":1,"b":2}}"#.utf8),
        handler: JSONPathTracker(downstream: JSONTreeBuilder(duplicateKeyPolicy: .error)))
    }
    #expect(error?.kind == .duplicateKey)
    #expect(error?.location.path == [.key("a"), .key("b")])
    #expect(error?.location.description.hasSuffix("(at /a/b)") == true)
  }

  @Test("binary input has no lines: the location reads as a byte offset")
  func binary() throws {
    var writer = JSONBinaryWriter()
    try JSONValue.array([1, 2]).replay(into: &writer)
    try writer.finish()
    let cut = Array(writer.bytes.dropLast())
    let error = #expect(throws: JSONParseError.self) { _ = try JSONValue(binary: cut) }
    #expect(error?.location.line == 0 && error?.location.column == 0)
    #expect(error?.location.offset == cut.count)
    #expect(error?.description.hasPrefix("byte \(cut.count): ") == true)
  }

  @Test("a document reader's failure: the error's location in the stream")
  func documentStream() throws {
    var reader = JSONDocumentReader(framing: .lines)
    let values = try reader.feed(Array("[1]\n[2]\n[3,\n".utf8)).map { try $0.get().value }
    #expect(values == [[1], [2]])
    let failure = try #require(throws: JSONDocumentReader.Failure.self) { _ = try reader.finish() }
    let inDocument = try #require(failure.error as? JSONParseError)
    #expect(inDocument.location.line == 1)
    #expect(failure.location == JSONLocation(offset: 11, line: 3, column: 4))
    #expect(failure.description.hasPrefix("line 3, column 4: "))
  }
}
