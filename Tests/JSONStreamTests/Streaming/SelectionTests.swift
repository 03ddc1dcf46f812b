import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// Streams `bytes` through an item streamer in chunks of `chunk` bytes.
func streamedItems(_ paths: [JSONPath], _ bytes: [UInt8], chunk: Int) throws
  -> [JSONItemStreamer.Item]
{
  var parser = JSONParser(handler: JSONItemStreamer(paths: paths))
  var items: [JSONItemStreamer.Item] = []
  var start = 0
  repeat {
    let end = min(bytes.count, start + chunk)
    try parser.feed(bytes[start..<end])
    items += parser.handler.takeItems()
    start = end
  } while start < bytes.count
  try parser.finish()
  return items + parser.handler.takeItems()
}

@Suite("Selections")
struct SelectionTests {
  @Test("the supported JSONPath syntax compiles; the rest is refused with its offset")
  func syntax() throws {
    let path = try JSONPath(#"$.a['b c'][3][*].*..d..*..[0]..["e\"f"]"#)
    #expect(
      path.steps == [
        .init(.name(Array("a".utf8))), .init(.name(Array("b c".utf8))), .init(.index(3)),
        .init(.wildcard), .init(.wildcard), .init(.name(Array("d".utf8)), isDescendant: true),
        .init(.wildcard, isDescendant: true), .init(.index(0), isDescendant: true),
        .init(.name(Array("e\"f".utf8)), isDescendant: true),
      ])
    #expect(try JSONPath("$").steps.isEmpty)
    #expect(try JSONPath(#"$['\u00e9\ud83d\ude00']"#).steps == [.init(.name(Array("é😀".utf8)))])
    for (bad, offset) in [
      ("a", 0), ("$.", 2), ("$['a'", 5), ("$[01]", 2), ("$.1a", 2), ("$..", 3), ("$[-0]", 2),
      ("$[?@.a==01]", 8), ("$ ", 1),
    ] {
      let error = try #require(throws: JSONPathError.self, "\(bad)") { try JSONPath(bad) }
      #expect(error.offset == offset, "\(bad): \(error)")
    }
    // The rest of RFC 9535 compiles and streams through the select filter and the item
    // streamer; the exclude filter and the transform take only `steps`.
    for text in ["$[-1]", "$[1:2]", "$[?(@.a)]", "$['a','b']", "$.a..[?@.b]"] {
      let path = try JSONPath(text)
      #expect(path.isStreamable && path.steps.isEmpty, "\(text)")
    }
    // A filter that reads the root needs the whole document: the refusal names its segment.
    for (text, offset) in [
      ("$.a[?@.b == $.c]", 3), ("$[?@[?$.x]]", 1), ("$..[?count($.*) > 1]", 1),
    ] {
      let path = try JSONPath(text)
      #expect(!path.isStreamable, "\(text)")
      #expect(path.streamingRefusal?.offset == offset, "\(text)")
    }
  }

  @Test("a path that cannot stream is refused by the streaming consumers at the first value")
  func refusal() throws {
    let path = try JSONPath("$.a[?@ > $.limit]")
    let filter = JSONSelectFilter(paths: [path], downstream: JSONWriter())
    let error = try #require(throws: (any Error).self) {
      try JSONParser.parse(Array(#"{"a":[1,2,3],"limit":1}"#.utf8), handler: filter)
    }
    let refusal = try #require(path.streamingRefusal)
    #expect("\(error)".contains(refusal.message))
    #expect(throws: (any Error).self) {
      try JSONParser.parse(Array("[1]".utf8), handler: JSONItemStreamer(paths: [path]))
    }
    #expect(path.select(in: ["a": [1, 2, 3], "limit": 1]) == [2, 3])
    // Refused up front, for APIs that take a path's text.
    #expect(throws: refusal) { try JSONPath.streamable("$.a[?@ > $.limit]") }
    #expect(try JSONPath.streamable("$..a[-1]").isStreamable)
    // The exclude filter and the transform, which rewrite the stream in place, take only
    // names, indexes from 0 and wildcards.
    let exclude = JSONExcludeFilter(paths: [try JSONPath("$[-1]")], downstream: JSONWriter())
    let excludeError = try #require(throws: JSONPathError.self) {
      try JSONParser.parse(Array("[1,2]".utf8), handler: exclude)
    }
    #expect(excludeError.message.contains("excluded or transformed"))
  }

  static let corpusPaths: [(String, [String])] = [
    (
      "twitter.json",
      ["$.statuses[*].user.screen_name", "$..id_str", "$.statuses[3]", "$.search_metadata.*"]
    ),
    (
      "citm_catalog.json",
      ["$.events.*.name", "$..seatCategoryId", "$.performances[0].seatCategories[*]"]
    ),
    ("canada.json", ["$.features[*].geometry.type", "$..coordinates[0][0]"]),
  ]

  @Test(
    "on the corpus, several paths in one pass: the values a tree walk finds, at any chunking",
    .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"),
    arguments: corpusPaths)
  func corpus(name: String, texts: [String]) throws {
    let bytes = try SharedData.corpusFile(name)
    let paths = try texts.map(JSONPath.init)
    let document = try JSONValue(parsing: bytes)
    // Each path's values, where they are: a value inside another match is reported too.
    var expected: [(path: String, value: JSONValue)] = []
    for (index, path) in paths.enumerated() {
      expected += path.selectWithPaths(in: document).map { ("\(index) \($0.path)", $0.value) }
    }
    #expect(expected.count > 1)
    for chunk in [bytes.count, 4096, 61, 7] {
      var parser = JSONParser(handler: JSONItemStreamer(paths: paths, reportsPaths: true))
      try feed(&parser, bytes, chunkSize: chunk)
      var found: [(path: String, value: JSONValue)] = []
      for item in parser.handler.takeItems() {
        for index in item.match.paths {
          found.append(("\(index) \(item.match.normalizedPath ?? "?")", item.value))
        }
      }
      #expect(sameMatches(found, expected), "chunk \(chunk)")
    }
  }

  @Test("items know their key or index; a match inside a match comes after it")
  func itemLocations() throws {
    let text = #"{"a":{"a":1,"b":[{"a":2}]},"rates":{"EUR":1.1,"GBP":0.9},"list":[10,20]}"#
    let items = try streamedItems(
      [try JSONPath("$..a"), try JSONPath("$.rates.*"), try JSONPath("$.list[*]")],
      Array(text.utf8), chunk: 5)
    #expect(items.map(\.value) == [["a": 1, "b": [["a": 2]]], 1, 2, 1.1, 0.9, 10, 20])
    #expect(items.map(\.match.key) == ["a", "a", "a", "EUR", "GBP", nil, nil])
    #expect(items.map(\.match.index) == [nil, nil, nil, nil, nil, 0, 1])
    #expect(items.map(\.match.paths) == [[0], [0], [0], [1], [1], [2], [2]])
    // The root, and a value two paths select.
    let root = try streamedItems(
      [try JSONPath("$"), try JSONPath("$.x")], Array("[1]".utf8), chunk: 1)
    #expect(root.map(\.value) == [[1]])
    let both = try streamedItems(
      [try JSONPath("$.x"), try JSONPath("$.*")], Array(#"{"x":1,"y":2}"#.utf8), chunk: 3)
    #expect(both.map(\.match.paths) == [[0, 1], [1]])
  }

  @Test("the select filter forwards each selected value whole, then those inside it")
  func selectFilter() throws {
    let text = #"{"users":[{"name":"a","tags":["x"]},{"name":"b"}],"name":"top"}"#
    var options = JSONWriteOptions()
    options.allowMultipleValues = true
    var matches: [JSONPathMatch] = []
    var filter = JSONSelectFilter(
      paths: [try JSONPath("$.users[*]"), try JSONPath("$..name")],
      downstream: JSONWriter(options: options)
    ) { matches.append($0) }
    filter = try JSONParser.parse(Array(text.utf8), handler: filter)
    try filter.downstream.finish()
    #expect(
      String(decoding: filter.downstream.bytes, as: UTF8.self)
        == "{\"name\":\"a\",\"tags\":[\"x\"]}\n\"a\"\n{\"name\":\"b\"}\n\"b\"\n\"top\"")
    #expect(matches.map(\.paths) == [[0], [1], [0], [1], [1]])
    #expect(matches.map(\.key) == [nil, "name", nil, "name", "name"])
    #expect(filter.matchCount == 5)
  }

  @Test("the exclude filter drops selected members with their keys, and elements")
  func excludeFilter() throws {
    let text = #"{"a":1,"password":"x","b":{"password":"y","c":[1,{"password":2},3]},"d":[4,5,6]}"#
    var filter = JSONExcludeFilter(
      paths: [try JSONPath("$..password"), try JSONPath("$.d[1]")], downstream: JSONWriter())
    for chunk in [1, 4, 100] {
      var parser = JSONParser(handler: filter)
      let bytes = Array(text.utf8)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        try parser.feed(bytes[start..<min(bytes.count, start + chunk)])
      }
      try parser.finish()
      try parser.handler.downstream.finish()
      #expect(
        String(decoding: parser.handler.downstream.bytes, as: UTF8.self)
          == #"{"a":1,"b":{"c":[1,{},3]},"d":[4,6]}"#)
      #expect(parser.handler.matchCount == 4)
    }
    filter = JSONExcludeFilter(paths: [try JSONPath("$")], downstream: JSONWriter())
    filter = try JSONParser.parse(Array("[1]".utf8), handler: filter)
    #expect(filter.downstream.bytes.isEmpty)
  }

  @Test("item streaming holds one item at a time: memory is bounded by the largest item")
  func boundedMemory() throws {
    // 20,000 items of ~100 bytes (2 MB) fed in 4 KiB chunks: after every chunk, the memory the
    // streamer holds is that of the item in progress, whatever has gone before.
    let item = #"{"id":123456,"name":"a name of some length","tags":["x","y","z"],"ok":true}"#
    var parser = JSONParser(handler: JSONItemStreamer(paths: [try JSONPath("$[*]")]))
    try parser.feed(Array("[".utf8))
    var taken = 0
    var largestArena = 0
    var largestStack = 0
    var chunk: [UInt8] = []
    for i in 0..<20_000 {
      chunk += Array((i == 0 ? item : "," + item).utf8)
      if chunk.count >= 4096 {
        try parser.feed(chunk)
        chunk.removeAll(keepingCapacity: true)
        taken += parser.handler.takeItems().count
        let state = parser.handler.builder._memory.state.pointee
        largestArena = max(largestArena, state.arena.allocated)
        largestStack = max(largestStack, state.stack.count)
      }
    }
    try parser.feed(chunk + Array("]".utf8))
    try parser.finish()
    taken += parser.handler.takeItems().count
    #expect(taken == 20_000)
    #expect(parser.handler.items.isEmpty)
    // One item's nodes and bytes: a few hundred bytes in the arena, a dozen nodes on the stack.
    #expect(largestArena <= 2048, "arena held \(largestArena) bytes")
    #expect(largestStack <= 16, "stack held \(largestStack) nodes")
  }
}
