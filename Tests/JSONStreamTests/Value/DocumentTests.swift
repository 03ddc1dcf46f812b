import JSONStream
import JSONStreamTestSupport
import Testing

/// Parsed arrays and objects live in a document's chunked memory and are written in one pass:
/// these tests hold that to the event-by-event path, at the sizes where its layout changes.
@Suite("JSONValue documents")
struct DocumentTests {
  /// Writes `value` event by event, the reference for the one-pass writer.
  func replayed(_ value: JSONValue, _ options: JSONWriteOptions) throws -> [UInt8] {
    var writer = JSONWriter(options: options)
    try value.replay(into: &writer)
    try writer.finish()
    return writer.bytes
  }

  static let writeOptions: [JSONWriteOptions] = {
    var escaping = JSONWriteOptions.pretty
    escaping.escapeUnicode = true
    escaping.escapeSlash = true
    var wide = JSONWriteOptions.compact
    wide.indent = 4
    return [.compact, .pretty, escaping, wide]
  }()

  @Test("one-pass writing gives the bytes replay into a writer gives", arguments: writeOptions)
  func writeMatchesReplay(options: JSONWriteOptions) throws {
    var texts = [
      awkwardText, "[]", "{}", "[[],{},[[]],{\"a\":{}}]", #"["\u0000\u001f\"\\/é😀"]"#,
      #"{"":"","k":[1E2,-0,0.5e-3]}"#,
    ]
    for name in SharedData.corpusNames where SharedData.hasCorpus {
      texts.append(String(decoding: try SharedData.corpusFile(name), as: UTF8.self))
    }
    for text in texts {
      let value = try JSONValue(parsing: text)
      let written = try value.jsonBytes(options: options)
      #expect(written == (try replayed(value, options)))
      // And what streaming the text through a writer gives, with no tree between (these
      // documents repeat no key).
      #expect(written == Array(try transcode(text, options).utf8))
    }
  }

  @Test("parsed numbers are written back as they were written")
  func numberText() throws {
    let text = "[1E2,-0,0.50,1e400,123456789012345678901234567890,2.5e-3]"
    #expect(try JSONValue(parsing: text).jsonString() == text)
    // Their values are still numbers.
    #expect(try JSONValue(parsing: text)[0]?.numberValue == JSONValue.Number(100))
  }

  @Test("integers keep their text and value, at the edges of the value kept beside the text")
  func integerNodes() throws {
    // 2^47 - 1 and -2^47 are the last kept with their value; past them, and any text not in
    // canonical form, stay text only. Each must read, write and convert the same either way.
    let texts = [
      "0", "-1", "7", "1234567", "12345678", "123456789", "-123456789", "99999999999999",
      "-99999999999999", "140737488355327", "-140737488355328", "140737488355328",
      "-140737488355329", "999999999999999", "-999999999999999", "1000000000000000",
      "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-0", "1.0",
      "1e3", "-0.0",
    ]
    for text in texts {
      let array = try JSONValue(parsing: "[\(text),{\"k\":\(text)}]")
      let value = try #require(array[0])
      #expect(try array.jsonString() == "[\(text),{\"k\":\(text)}]", "\(text)")
      // Integral numbers written otherwise read as integers too.
      let integral: [String: Int64] = ["1.0": 1, "1e3": 1000, "-0.0": 0]
      #expect(value.int64Value == Int64(text) ?? integral[text], "\(text)")
      #expect(value.numberValue == (try JSONValue(parsing: text)).numberValue, "\(text)")
      #expect(array[1]?["k"] == value, "\(text)")
      // Binary: the one-pass writer and replay agree, and the text comes back.
      let binary = try array.binaryBytes()
      var writer = JSONBinaryWriter()
      try array.replay(into: &writer)
      try writer.finish()
      #expect(binary == writer.bytes, "\(text)")
      // Replay hands the binary writer an integer node's value (`_integer`): the bytes are
      // those of its text, parsed; a handler without `_integer` gets the text.
      let source = Array("[\(text),{\"k\":\(text)}]".utf8)
      var transcoded = try JSONParser.parse(source, handler: JSONBinaryWriter())
      try transcoded.finish()
      #expect(writer.bytes == transcoded.bytes, "\(text)")
      var recorder = EventRecorder()
      try array.replay(into: &recorder)
      let numbers = recorder.events.filter { if case .number = $0 { true } else { false } }
      #expect(numbers == [.number(text), .number(text)], "\(text)")
      #expect(try JSONValue(binary: binary).jsonString() == "[\(text),{\"k\":\(text)}]")
      // A top-level number, too.
      #expect(try JSONValue(parsing: text).jsonString() == text)
    }
  }

  @Test("a NaN the options refuse writes nothing and leaves the writer usable")
  func nonFiniteInTree() throws {
    var parseOptions = JSONParseOptions()
    parseOptions.allowNonFiniteNumbers = true
    let value = try JSONValue(parsing: "[1,[NaN]]", options: parseOptions)
    var writer = JSONWriter()
    try writer.startArray()
    try writer.number(7)
    #expect(throws: JSONWriterError.self) { try value.write(to: &writer) }
    try writer.number(8)
    try writer.endArray()
    try writer.finish()
    #expect(writer.bytes == Array("[7,8]".utf8))
    var allowing = JSONWriteOptions()
    allowing.allowNonFiniteNumbers = true
    #expect(try value.jsonString(options: allowing) == "[1,[NaN]]")
  }

  @Test("strings of every size, including larger than a chunk, and many chunks")
  func sizes() throws {
    var elements: [String] = []
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 255, 4096, 16_383, 16_384, 16_385, 70_000, 300_000] {
      elements.append(
        String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2))
    }
    let array = try JSONValue(
      parsing: JSONValue.array(JSONArray(elements.map { JSONValue.string($0) })).jsonString())
    #expect(array.arrayValue?.map { $0.stringValue } == elements)
    // 200,000 small values: many chunks, and one array block far larger than a chunk.
    let many = "[" + (0..<200_000).map { "\"v\($0)\"" }.joined(separator: ",") + "]"
    let value = try JSONValue(parsing: many)
    #expect(value.arrayValue?.count == 200_000)
    #expect(value[123_456]?.stringValue == "v123456")
    #expect(try value.jsonString() == many)
  }

  @Test("objects around the key-index size: lookup, duplicates under each policy")
  func keyIndex() throws {
    for size in [1, 31, 32, 33, 64, 65, 1000] {
      let members = (0..<size).map { "\"k\($0)\":\($0)" }
      // The repeated key is the first, then one in the middle.
      let text =
        "{" + (members + ["\"k0\":\"again\"", "\"k\(size / 2)\":[\"x\"]"]).joined(separator: ",")
        + "}"
      let last = try JSONValue(parsing: text).objectValue!
      #expect(last.count == size)
      #expect(last.keys == (0..<size).map { "k\($0)" })
      for i in 0..<size where i != 0 && i != size / 2 { #expect(last["k\(i)"] == JSONValue(i)) }
      #expect(last["k0"] == (size / 2 == 0 ? ["x"] : "again"))
      #expect(last["k\(size / 2)"] == ["x"])
      #expect(last["absent"] == nil && last["k\(size)"] == nil)
      let first = try JSONValue(parsing: text, duplicateKeys: .firstWins).objectValue!
      #expect(first.count == size)
      for i in 0..<size { #expect(first["k\(i)"] == JSONValue(i)) }
      #expect(throws: JSONParseError.self) { try JSONValue(parsing: text, duplicateKeys: .error) }
    }
  }

  /// Calls `body` with `text` as a producer would hand it over.
  func key(_ text: String, _ body: (borrowing JSONString) throws -> Void) rethrows {
    var text = text
    try text.withUTF8 { try body(JSONString(utf8: $0)) }
  }

  @Test("a copied builder and its original build separately")
  func builderCopies() throws {
    var original = JSONTreeBuilder()
    original.startObject()
    try key("a") { try original.key($0) }
    original.startArray()
    key("shared part") { original.string($0) }
    var copy = original
    key("original") { original.string($0) }
    original.endArray()
    original.endObject()
    Array("2".utf8).withUnsafeBufferPointer { copy.number(JSONNumber(text: $0)!) }
    copy.endArray()
    try key("b") { try copy.key($0) }
    copy.null()
    copy.endObject()
    #expect(original.value == ["a": ["shared part", "original"]])
    #expect(copy.value == ["a": ["shared part", 2], "b": nil])
  }

  @Test("a copied builder keeps its own complete values: taking or resetting one leaves the other")
  func builderCopiesValues() throws {
    var original = JSONTreeBuilder()
    original.null()
    original.bool(true)
    var copy = original
    #expect(copy.values == [nil, true])
    #expect(original.takeValues() == [nil, true])
    #expect(original.values.isEmpty && original.value == nil)
    #expect(copy.values == [nil, true])
    copy.bool(false)
    original.startArray()
    original.endArray()
    #expect(copy.values == [nil, true, false])
    #expect(original.values == [[]])
    copy.reset()
    #expect(copy.values.isEmpty)
    #expect(original.value == [])
  }

  @Test("ill-formed UTF-8 from a producer is stored repaired, as a String would hold it")
  func repairsIllFormed() throws {
    var builder = JSONTreeBuilder()
    let bad: [UInt8] = [0x61, 0xFF, 0x62]
    builder.startArray()
    bad.withUnsafeBufferPointer { builder.string(JSONString(utf8: $0)) }
    builder.endArray()
    #expect(builder.value?[0]?.stringValue == "a\u{FFFD}b")
    #expect(try builder.value?.jsonString() == "[\"a\u{FFFD}b\"]")
  }

  @Test("views keep their document alive; literals and parsed values compare equal")
  func lifetimes() throws {
    var inner: JSONValue?
    do {
      let document = try JSONValue(parsing: #"{"a":{"b":[1,"two",{"c":null}]}}"#)
      inner = document["a"]?["b"]
    }
    #expect(inner == [1, "two", ["c": nil]])
    #expect(inner?.hashValue == ([1, "two", ["c": nil]] as JSONValue).hashValue)
    #expect(try inner?.jsonString() == #"[1,"two",{"c":null}]"#)
  }
}
