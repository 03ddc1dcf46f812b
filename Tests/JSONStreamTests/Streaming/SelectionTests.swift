import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// The matches of `paths` in `value`, found by walking the tree and matching each location's
/// components against the steps directly: an implementation independent of the streaming one.
/// A value inside a match is not visited (it is part of the match).
func referenceMatches(_ paths: [JSONPath], in value: JSONValue) -> [(
  paths: [Int], value: JSONValue
)] {
  func stepMatches(_ step: JSONPath.Step, _ component: JSONPathComponent) -> Bool {
    switch (step.selector, component) {
    case (.wildcard, _): return true
    case (.name(let name), .key(let key)): return name == Array(key.utf8)
    case (.index(let wanted), .index(let index)): return wanted == index
    default: return false
    }
  }
  func matches(_ steps: ArraySlice<JSONPath.Step>, _ components: ArraySlice<JSONPathComponent>)
    -> Bool
  {
    guard let step = steps.first else { return components.isEmpty }
    if step.isDescendant {
      for k in components.indices where stepMatches(step, components[k]) {
        if matches(steps.dropFirst(), components[(k + 1)...]) { return true }
      }
      return false
    }
    guard let first = components.first, stepMatches(step, first) else { return false }
    return matches(steps.dropFirst(), components.dropFirst())
  }
  var found: [(paths: [Int], value: JSONValue)] = []
  var pending: [(JSONValue, [JSONPathComponent])] = [(value, [])]
  while let (current, location) = pending.popLast() {
    let selecting = paths.indices.filter { matches(paths[$0].steps[...], location[...]) }
    if !selecting.isEmpty {
      found.append((selecting, current))
      continue
    }
    // Children in reverse, so they come off the stack in document order.
    switch current {
    case .array(let array):
      for (index, element) in array.enumerated().reversed() {
        pending.append((element, location + [.index(index)]))
      }
    case .object(let object):
      for (key, member) in object.reversed() { pending.append((member, location + [.key(key)])) }
    default: break
    }
  }
  return found
}

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
    // The rest of RFC 9535 compiles, but does not stream: the refusal names the first segment
    // that cannot.
    for (text, offset) in [
      ("$[-1]", 1), ("$[1:2]", 1), ("$[?(@.a)]", 1), ("$['a','b']", 1), ("$.a..[?@.b]", 3),
    ] {
      let path = try JSONPath(text)
      #expect(!path.isStreamable && path.steps.isEmpty, "\(text)")
      #expect(path.streamingRefusal?.offset == offset, "\(text)")
    }
  }

  @Test("a path that cannot stream is refused by the streaming consumers at the first value")
  func refusal() throws {
    let path = try JSONPath("$.a[?@ > 1]")
    let filter = JSONSelectFilter(paths: [path], downstream: JSONWriter())
    let error = try #require(throws: (any Error).self) {
      try JSONParser.parse(Array(#"{"a":[1,2,3]}"#.utf8), handler: filter)
    }
    let refusal = try #require(path.streamingRefusal)
    #expect("\(error)".contains(refusal.message))
    #expect(throws: (any Error).self) {
      try JSONParser.parse(Array("[1]".utf8), handler: JSONItemStreamer(paths: [path]))
    }
    #expect(path.select(in: ["a": [1, 2, 3]]) == [2, 3])
    // Refused up front, for APIs that take a path's text.
    #expect(throws: refusal) { try JSONPath.streamable("$.a[?@ > 1]") }
    #expect(try JSONPath.streamable("$..a[0]").isStreamable)
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
    let expected = referenceMatches(paths, in: try JSONValue(parsing: bytes))
    #expect(expected.count > 1)
    for chunk in [bytes.count, 4096, 61, 7] {
      let items = try streamedItems(paths, bytes, chunk: chunk)
      #expect(items.count == expected.count, "chunk \(chunk)")
      for (item, reference) in zip(items, expected) {
        #expect(item.match.paths == reference.paths)
        #expect(item.value == reference.value)
      }
    }
  }

  @Test("items know their key or index; a match inside a match is part of it")
  func itemLocations() throws {
    let text = #"{"a":{"a":1,"b":[{"a":2}]},"rates":{"EUR":1.1,"GBP":0.9},"list":[10,20]}"#
    let items = try streamedItems(
      [try JSONPath("$..a"), try JSONPath("$.rates.*"), try JSONPath("$.list[*]")],
      Array(text.utf8), chunk: 5)
    #expect(items.map(\.value) == [["a": 1, "b": [["a": 2]]], 1.1, 0.9, 10, 20])
    #expect(items.map(\.match.key) == ["a", "EUR", "GBP", nil, nil])
    #expect(items.map(\.match.index) == [nil, nil, nil, 0, 1])
    #expect(items.map(\.match.paths) == [[0], [1], [1], [2], [2]])
    // The root, and a value two paths select.
    let root = try streamedItems(
      [try JSONPath("$"), try JSONPath("$.x")], Array("[1]".utf8), chunk: 1)
    #expect(root.map(\.value) == [[1]])
    let both = try streamedItems(
      [try JSONPath("$.x"), try JSONPath("$.*")], Array(#"{"x":1,"y":2}"#.utf8), chunk: 3)
    #expect(both.map(\.match.paths) == [[0, 1], [1]])
  }

  @Test("the select filter forwards each selected value whole, and only those")
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
        == "{\"name\":\"a\",\"tags\":[\"x\"]}\n{\"name\":\"b\"}\n\"top\"")
    #expect(matches.map(\.paths) == [[0], [0], [1]])
    #expect(filter.matchCount == 3)
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
