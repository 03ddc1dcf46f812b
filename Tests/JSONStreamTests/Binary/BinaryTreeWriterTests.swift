import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// `value.write(to:)` and `value.binaryBytes()` write a tree's arrays and objects in one pass,
/// not through the writer's events: these hold them to replaying the same value into a
/// `JSONBinaryWriter`, byte for byte (the tables and key predictions included), wherever in a
/// document the value goes.
@Suite("Binary format: one-pass writing of a tree against its events")
struct BinaryTreeWriterTests {
  /// The binary `value`'s events give, the reference for the one-pass writer.
  func replayed(_ value: JSONValue) throws -> [UInt8] {
    var writer = JSONBinaryWriter()
    try value.replay(into: &writer)
    try writer.finish()
    return writer.bytes
  }

  /// Trees of every kind of node: from JSON text (numbers as text), from binary (numbers as
  /// integers, decimals, doubles), and made in code.
  func trees() throws -> [(String, JSONValue)] {
    var texts = [
      BinaryFormatTests.sample, "0", "\"\"", "[]", "{}", "[[],{},[[]],{\"a\":{}}]",
      #"{"":"","k":[1E2,-0,0.5e-3,-0.0,12345678901234567890,1.50]}"#,
      #"[{"a":1,"b":2},{"a":3,"b":4},{"b":5,"a":6},{"a":{"a":{"b":[]}}}]"#,
      "[\"" + String(repeating: "x", count: 65) + "\",\"short\",\"short\"]",
      // The longest fixed tokens after keys, and a hundred containers closing at once: the
      // one-pass writer makes room for a key and a value at a time, not for each token.
      String(
        repeating: #"[-9223372036854775808,-65.613616999999977,{"key":-2147483648,"next":"#,
        count: 100) + "0" + String(repeating: "}]", count: 100),
    ]
    if SharedData.hasCorpus {
      for name in SharedData.corpusNames {
        texts.append(String(decoding: try SharedData.corpusFile(name), as: UTF8.self))
      }
    }
    var trees: [(String, JSONValue)] = []
    for text in texts {
      let parsed = try JSONValue(parsing: text)
      trees.append((String(text.prefix(40)), parsed))
      trees.append(
        ("binary of " + String(text.prefix(40)), try JSONValue(binary: replayed(parsed))))
    }
    // Doubles from the binary format: exact in binary32, and not.
    var doubles = JSONBinaryWriter()
    try doubles.startArray()
    for number in [0.5, 0.1, -1e300, 3.0] { try doubles.number(number) }
    try doubles.date(secondsSince2001: 12.25)
    try doubles.endArray()
    try doubles.finish()
    trees.append(("doubles", try JSONValue(binary: doubles.bytes)))
    trees.append(("in code", ["a": [1, 2.5, nil, true, false, "s"], "b": ["c": [:]]]))
    return trees
  }

  @Test(
    "binaryBytes() gives the bytes the value's events give, and reads back as the value",
    .hugeInput, .tags(.hugeInput))
  func matchesReplay() throws {
    for (name, value) in try trees() {
      let bytes = try value.binaryBytes()
      #expect(bytes == (try replayed(value)), "\(name)")
      #expect(try JSONValue(binary: bytes) == value, "\(name)")
    }
  }

  @Test("a NaN kept in a tree goes as number text, as its event does")
  func nonFinite() throws {
    var options = JSONParseOptions()
    options.allowNonFiniteNumbers = true
    let value = try JSONValue(parsing: "[1,[NaN,-Infinity],{\"n\":Infinity}]", options: options)
    let bytes = try value.binaryBytes()
    #expect(bytes == (try replayed(value)))
    var writeOptions = JSONWriteOptions()
    writeOptions.allowNonFiniteNumbers = true
    #expect(
      try JSONValue(binary: bytes, options: options).jsonString(options: writeOptions)
        == "[1,[NaN,-Infinity],{\"n\":Infinity}]")
  }

  @Test(
    "trees inside a document: in arrays, as members' values, one after another", .hugeInput,
    .tags(.hugeInput))
  func nested() throws {
    for (name, value) in try trees() {
      for multiple in [false, true] {
        var onePass = JSONBinaryWriter(allowMultipleValues: multiple)
        var events = JSONBinaryWriter(allowMultipleValues: multiple)
        for writer in [0, 1] {
          func write(_ value: JSONValue) throws {
            if writer == 0 {
              try value.write(to: &onePass)
            } else {
              try value.replay(into: &events)
            }
          }
          func event(_ body: (inout JSONBinaryWriter<JSONByteSink>) throws -> Void) rethrows {
            if writer == 0 { try body(&onePass) } else { try body(&events) }
          }
          try event { try $0.startArray() }
          try write(value)
          try event { try $0.startObject() }
          try event { try $0.key("first") }
          try write(value)
          try event { try $0.key("second") }
          try write(value)
          try event { try $0.endObject() }
          try write(value)
          try event { try $0.endArray() }
          if multiple { try write(value) }
          try event { try $0.finish() }
        }
        #expect(onePass.bytes == events.bytes, "\(name), several values: \(multiple)")
      }
    }
  }

  @Test("a tree where the grammar has no room for it is refused, and nothing is written")
  func misplaced() throws {
    let value: JSONValue = ["a": [1, 2]]
    var writer = JSONBinaryWriter()
    try writer.startObject()
    #expect(throws: JSONWriterError.self) { try value.write(to: &writer) }
    try writer.key("k")
    try value.write(to: &writer)
    #expect(throws: JSONWriterError.self) { try value.write(to: &writer) }
    try writer.endObject()
    #expect(throws: JSONWriterError.self) { try value.write(to: &writer) }
    try writer.finish()
    var events = JSONBinaryWriter()
    try events.startObject()
    try events.key("k")
    try value.replay(into: &events)
    try events.endObject()
    try events.finish()
    #expect(writer.bytes == events.bytes)
  }

  @Test(
    "output goes to the sink in chunks of about the chunk size, whatever the tree", .hugeInput,
    .tags(.hugeInput))
  func chunks() throws {
    for (name, value) in try trees() {
      // A byte or seven at a time only for the small trees: the corpus's are 200,000 bytes.
      let small = try value.binaryBytes().count < 10_000
      for chunkSize in small ? [1, 7, 64, 4096] : [64, 4096] {
        var chunks: [[UInt8]] = []
        var writer = JSONBinaryWriter(
          sink: JSONChunkSink { chunks.append(Array($0.bindMemory(to: UInt8.self))) },
          chunkSize: chunkSize)
        try value.write(to: &writer)
        try writer.finish()
        #expect(chunks.joined().elementsEqual(try replayed(value)), "\(name), \(chunkSize)")
        // A chunk is handed on once it reaches the size: it is over by one token at most
        // (these trees' longest token is under 300 bytes, but for the corpus's strings).
        let longest = chunks.map(\.count).max() ?? 0
        #expect(longest < chunkSize + 1024, "\(name), \(chunkSize): a chunk of \(longest)")
      }
    }
  }

  @Test("a sink's error reaches the caller")
  func failingSink() throws {
    struct Refused: Error {}
    let value = try JSONValue(
      parsing: "[" + Array(repeating: "\"abc\"", count: 100).joined(separator: ",") + "]")
    var writer = JSONBinaryWriter(sink: JSONChunkSink { _ in throw Refused() }, chunkSize: 16)
    #expect(throws: Refused.self) { try value.write(to: &writer) }
  }

  @Test("snapshots of an incomplete document: open containers are written as closed")
  func snapshots() throws {
    let text = Array(#"{"a":[1,{"b":"x","c":[true,null]},"y"],"d":{"e":"zz"}}"#.utf8)
    var parser = JSONParser(handler: JSONTreeBuilder())
    for byte in text {
      try parser.feed([byte])
      guard let snapshot = parser.snapshot() else { continue }
      #expect(try snapshot.binaryBytes() == (try replayed(snapshot)), "\(snapshot)")
    }
  }

  @Test("a copy of a writer writes apart from its original")
  func copies() throws {
    let value: JSONValue = ["a": ["b": 1], "c": "d"]
    var original = JSONBinaryWriter()
    try original.startArray()
    try value.write(to: &original)
    var copy = original
    try value.write(to: &copy)
    try copy.endArray()
    try copy.finish()
    try original.endArray()
    try original.finish()
    #expect(copy.bytes == (try replayed([value, value])))
    #expect(original.bytes == (try replayed([value])))
  }
}
