import JSONStream
import JSONStreamTestSupport
import Testing

@testable import JSONStreamPath

/// What a streaming consumer selected: each value with its normalized path.
typealias Selected = [(path: String, value: JSONValue)]

/// The matches of `paths` through a select filter, the input fed `chunkSize` bytes at a time.
func selectStreaming(_ paths: [JSONPath], _ bytes: [UInt8], chunkSize: Int) throws -> Selected {
  final class Paths { var list: [String] = [] }
  let found = Paths()
  var parser = JSONParser(
    handler: JSONSelectFilter(paths: paths, downstream: JSONTreeBuilder(), reportsPaths: true) {
      found.list.append($0.normalizedPath ?? "?")
    })
  try feed(&parser, bytes, chunkSize: chunkSize)
  let values = parser.handler.downstream.values
  #expect(values.count == found.list.count, "one onMatch per value forwarded")
  return Array(zip(found.list, values))
}

/// The matches of `paths` through an item streamer, fed `chunkSize` bytes at a time.
func itemsStreaming(_ paths: [JSONPath], _ bytes: [UInt8], chunkSize: Int) throws -> Selected {
  var parser = JSONParser(handler: JSONItemStreamer(paths: paths, reportsPaths: true))
  try feed(&parser, bytes, chunkSize: chunkSize)
  return parser.handler.takeItems().map { ($0.match.normalizedPath ?? "?", $0.value) }
}

func feed<Handler: JSONEventHandler>(
  _ parser: inout JSONParser<Handler>, _ bytes: [UInt8], chunkSize: Int
) throws {
  var start = 0
  while start < bytes.count {
    let end = min(start + chunkSize, bytes.count)
    try parser.feed(bytes[start..<end])
    start = end
  }
  try parser.finish()
}

/// The same matches, whatever their order.
func sameMatches(_ lhs: Selected, _ rhs: Selected) -> Bool {
  let order: ((path: String, value: JSONValue), (path: String, value: JSONValue)) -> Bool = {
    $0.path < $1.path
  }
  let left = lhs.sorted(by: order)
  let right = rhs.sorted(by: order)
  return left.map(\.path) == right.map(\.path) && left.map(\.value) == right.map(\.value)
}

@Suite(
  "JSONPath compliance (RFC 9535), streamed",
  .enabled(
    if: SharedData.hasJSONPathComplianceSuite,
    "jsonpath-compliance-test-suite not found at ../shared/testdata; skipped"))
struct JSONPathStreamingComplianceTests {
  @Test("every valid selector streams the RFC's results through both consumers, at any chunking")
  func suite() throws {
    var streamed = 0
    var refused = 0
    for test in ComplianceCase.all where !test.isInvalid {
      let path = try JSONPath(test.selector)
      guard path.isStreamable else {
        refused += 1
        continue
      }
      let document = test.document ?? .null
      let bytes = Array(try document.jsonString().utf8)
      let tree = path.selectWithPaths(in: document)
      let hasDescendant = path.query.segments.contains(where: \.isDescendant)
      for chunkSize in [1, 7, max(bytes.count, 1)] {
        for (consumer, selected) in [
          ("select filter", try selectStreaming([path], bytes, chunkSize: chunkSize)),
          ("item streamer", try itemsStreaming([path], bytes, chunkSize: chunkSize)),
        ] {
          // With a descendant segment, a value comes before those inside it, in document
          // order: the RFC's results, in another order. Without, the RFC's order.
          let ok =
            hasDescendant
            ? sameMatches(selected, tree)
            : test.accepts(selected.map(\.value), paths: selected.map(\.path))
          #expect(
            ok, "\(test.name): \(test.selector), \(consumer), chunks of \(chunkSize): \(selected)")
        }
      }
      streamed += 1
    }
    // Only filters that read the root ($) need the whole document.
    #expect(streamed > 400 && refused < 20, "\(streamed) streamed, \(refused) refused")
    print("JSONPath compliance, streamed: \(streamed) valid selectors; \(refused) read the root")
  }
}

@Suite("JSONPath streaming: what is held, and when results come")
struct JSONPathStreamingMemoryTests {
  /// `[{"id":0,"total":0,"items":[…]}, …]`: `count` orders, totals 0 to 199 in turn.
  static func orders(_ count: Int) -> [UInt8] {
    var text = "["
    for index in 0..<count {
      if index > 0 { text += "," }
      text += #"{"id":\#(index),"total":\#(index % 200),"items":["a","b","c"],"note":null}"#
    }
    return Array((text + "]").utf8)
  }

  /// Streams `bytes` through a select filter 4 KB at a time; returns the values and the most
  /// the tracker held at once: tree bytes of the value being decided, and values waiting.
  static func measure(_ text: String, _ bytes: [UInt8]) throws -> (
    values: [JSONValue], heldBytes: Int, heldValues: Int
  ) {
    var parser = JSONParser(
      handler: JSONSelectFilter(paths: [try JSONPath(text)], downstream: JSONTreeBuilder()))
    var most = (bytes: 0, values: 0)
    var start = 0
    while start < bytes.count {
      let end = min(start + 4096, bytes.count)
      try parser.feed(bytes[start..<end])
      let tracker = parser.handler._tracker
      most.bytes = max(most.bytes, tracker.heldBuilder.allocatedBytes)
      let waiting = tracker.engines.reduce(0) {
        $0 + $1.held.reduce(0) { $0 + $1.count } + $1.queues.reduce(0) { $0 + $1.count }
      }
      most.values = max(most.values, waiting)
      start = end
    }
    try parser.finish()
    return (parser.handler.downstream.values, most.bytes, most.values)
  }

  @Test("memory is bounded by the candidate, never by the document", .hugeInput, .tags(.hugeInput))
  func bounded() throws {
    let bytes = Self.orders(20_000)  // about 1.4 MB
    let document = try JSONValue(parsing: bytes)
    for (text, mostValues) in [
      ("$[?@.total > 190].id", 0), ("$[-3]", 3), ("$[-3:]", 3), ("$[1:-2]", 2),
      ("$[?@.total == 5, -1]", 1), ("$..[?@ == 'c']", 0), ("$[*].items[-1]", 1),
    ] {
      let (values, heldBytes, heldValues) = try Self.measure(text, bytes)
      #expect(values == (try JSONPath(text)).select(in: document), "\(text)")
      #expect(heldBytes < 16 * 1024, "\(text): \(heldBytes) bytes held")
      #expect(heldValues <= mostValues, "\(text): \(heldValues) values held")
    }
  }

  @Test("a match that may hold matches streams; only the matches inside it are held")
  func nestedMatches() throws {
    let bytes = Array(#"{"data":"#.utf8) + Self.orders(20_000) + Array(#","x":{"data":[1]}}"#.utf8)
    let document = try JSONValue(parsing: bytes)
    for text in ["$..data", "$.data[0:3]..*"] {
      let (values, heldBytes, _) = try Self.measure(text, bytes)
      let expected = try JSONPath(text).select(in: document)
      #expect(sameMatches(values.map { ("", $0) }, expected.map { ("", $0) }), "\(text)")
      #expect(heldBytes < 16 * 1024, "\(text): \(heldBytes) bytes held")
    }
    // The inner match comes right after the outer one: document order.
    let nested = try selectStreaming(
      [try JSONPath("$..a")], Array(#"{"a":{"b":{"a":1},"a":[{"a":2}]},"c":{"a":3}}"#.utf8),
      chunkSize: 2)
    #expect(
      nested.map(\.path) == [
        "$['a']", "$['a']['b']['a']", "$['a']['a']", "$['a']['a'][0]['a']", "$['c']['a']",
      ])
  }

  @Test("a result is delivered as soon as it is decided, before the input ends or fails")
  func prompt() throws {
    var parser = JSONParser(
      handler: JSONSelectFilter(
        paths: [try JSONPath("$.orders[?@.total > 100]")], downstream: JSONTreeBuilder()))
    try parser.feed(Array(#"{"orders":[{"total":150},{"total":5},{"total":"#.utf8))
    #expect(parser.handler.downstream.values == [["total": 150]])
    try parser.feed(Array("101}".utf8))
    #expect(parser.handler.downstream.values == [["total": 150], ["total": 101]])
    #expect(throws: JSONParseError.self) { try parser.feed(Array("}".utf8)) }
    #expect(parser.handler.downstream.values.count == 2)
    // A negative index is decided at its array's end.
    var last = JSONParser(
      handler: JSONSelectFilter(paths: [try JSONPath("$.a[-1]")], downstream: JSONTreeBuilder()))
    try last.feed(Array(#"{"a":[1,2,3"#.utf8))
    #expect(last.handler.downstream.values.isEmpty)
    try last.feed(Array("]".utf8))
    #expect(last.handler.downstream.values == [3])
  }

  @Test("a filter that reads members by name, then a path: only what they read is kept")
  func projected() throws {
    let text = #"""
      [{"a":1,"b":{"c":[1,2]},"n":"x"},{"a":5,"n":"y","b":{"c":[3]}},[{"a":9}],7,
       {"n":"z","a":{"d":2},"b":{"c":4}},{"a":3,"a":0,"n":"dup"},{"b":{"c":[5]},"a":6}]
      """#
    let bytes = Array(text.utf8)
    let document = try JSONValue(parsing: bytes)
    for query in [
      "$[?@.a > 2].n", "$[?@.a > 2].b.c[*]", "$[?@.a.d == 2 || @.a == 1].b", "$[?!@.a].*",
      "$[?@.n == 'y' && @.a == 5]['n','a']", "$[?length(@.n) == 1].b.c[0]",
      "$[?match(@.n, '[xz]')].a", "$[?@.a == 0].n", "$[?@.b.c > 3].n",
    ] {
      let path = try JSONPath(query)
      for chunkSize in [1, 5, bytes.count] {
        let streamed = try selectStreaming([path], bytes, chunkSize: chunkSize)
        let tree = path.selectWithPaths(in: document)
        #expect(streamed.map(\.path) == tree.map(\.path), "\(query), chunks of \(chunkSize)")
        #expect(streamed.map(\.value) == tree.map(\.value), "\(query), chunks of \(chunkSize)")
      }
    }
    // The candidate is not built: its other members are skipped, whatever their size.
    var big = "["
    for index in 0..<2000 {
      big +=
        (index > 0 ? "," : "") + #"{"a":\#(index),"skip":["# + String(repeating: "1,", count: 200)
        + #"1],"n":\#(index)}"#
    }
    let (values, heldBytes, _) = try Self.measure("$[?@.a >= 1998].n", Array((big + "]").utf8))
    #expect(values == [1998, 1999])
    #expect(heldBytes < 1024, "\(heldBytes) bytes held")
  }

  @Test("a projected filter compares its member with a number as the tree's filter does")
  func projectedNumberComparisons() throws {
    // Members of every kind, numbers written several ways, and no member at all.
    let text = #"""
      [{"a":2,"i":0},{"a":2.0,"i":1},{"a":2.5,"i":2},{"a":-1,"i":3},{"a":1e2,"i":4},
       {"a":"2","i":5},{"a":null,"i":6},{"a":true,"i":7},{"a":[2],"i":8},{"a":{"b":2},"i":9},
       {"i":10},{"a":18446744073709551617,"i":11},{"a":1.0000000000000000001,"i":12},
       {"a":-0,"i":13}]
      """#
    let bytes = Array(text.utf8)
    let document = try JSONValue(parsing: bytes)
    for op in ["==", "!=", "<", "<=", ">", ">="] {
      for literal in ["2", "2.0", "2.5", "-1", "1e2", "0", "-0", "18446744073709551617", "1"] {
        let query = "$[?@.a \(op) \(literal)].i"
        let path = try JSONPath(query)
        let expected = path.select(in: document)
        for chunkSize in [3, bytes.count] {
          let streamed = try selectStreaming([path], bytes, chunkSize: chunkSize)
          #expect(streamed.map(\.value) == expected, "\(query), chunks of \(chunkSize)")
        }
      }
    }
  }

  @Test("a member the filter reads and the path selects is written as it was")
  func probeAndResultKeepText() throws {
    // A probe that only the filter reads is made by value; one the path also selects keeps
    // its text, whichever of the two the candidate's members give first.
    let text = #"[{"a":1.50,"b":1E2},{"b":-0,"a":0.5},{"a":2.0e0,"b":"x"}]"#
    var options = JSONWriteOptions()
    options.allowMultipleValues = true
    for (query, expected) in [
      ("$[?@.a > 1].a", "1.50\n2.0e0"), ("$[?@.a > 1].b", "1E2\n\"x\""),
      ("$[?@.a < 1]", #"{"b":-0,"a":0.5}"#), ("$[?@.b == 100].a", "1.50"),
    ] {
      let filter = JSONSelectFilter(
        paths: [try JSONPath(query)], downstream: JSONWriter(options: options))
      var done = try JSONParser.parse(Array(text.utf8), handler: filter)
      try done.downstream.finish()
      #expect(String(decoding: done.downstream.bytes, as: UTF8.self) == expected, "\(query)")
    }
  }

  @Test("a member no path continues into is passed over, and still forwarded inside a match")
  func deadMembers() throws {
    // Members before, between and after the wanted ones: scalars and containers that no path
    // reads, at the top, inside a match that holds matches, and inside a filter's candidate.
    let text = #"""
      {"x":1,"a":{"c":true,"b":2,"d":{"e":[1,{"b":9}]},"f":"s","g":null},"h":[1],
       "l":[{"i":0,"m":{"n":1},"k":3,"o":"p"},{"k":1,"i":{"k":5}},{"q":[],"k":4,"r":false}]}
      """#
    let bytes = Array(text.utf8)
    let document = try JSONValue(parsing: bytes)
    for queries in [
      ["$.a.b"], ["$.a", "$.a.b"], ["$.a", "$.a.d.e[1].b"], ["$.l[?@.k > 2].i"],
      ["$.l[?@.k > 2]", "$.l[*].m.n"], ["$.l", "$.l[?@.k == 1].i.k"], ["$.l[*].o"],
    ] {
      let paths = try queries.map { try JSONPath($0) }
      var expected: Selected = []
      for path in paths { expected += path.selectWithPaths(in: document) }
      for chunkSize in [1, 4, bytes.count] {
        let streamed = try selectStreaming(paths, bytes, chunkSize: chunkSize)
        #expect(sameMatches(streamed, expected), "\(queries), chunks of \(chunkSize)")
      }
    }
  }

  @Test("unions give each selector's results in turn; duplicates are kept")
  func unions() throws {
    let bytes = Array(#"{"a":[10,11,12,13],"b":{"x":1,"y":2}}"#.utf8)
    for (text, expected) in [
      ("$.a[2,0]", [12, 10]), ("$.a[0,0]", [10, 10]), ("$.a[-1,0:2]", [13, 10, 11]),
      ("$.b['y','x']", [2, 1]), ("$.a[::-1]", [13, 12, 11, 10]), ("$.a[?@ > 11, 0]", [12, 13, 10]),
    ] as [(String, [JSONValue])] {
      for chunkSize in [1, bytes.count] {
        let selected = try selectStreaming([try JSONPath(text)], bytes, chunkSize: chunkSize)
        #expect(selected.map(\.value) == expected, "\(text)")
      }
    }
  }

  @Test("several paths in one pass, with their normalized paths")
  func severalPaths() throws {
    let bytes = Array(#"{"a":[{"b":1},{"b":2}],"c":{"b":3}}"#.utf8)
    let selected = try selectStreaming(
      [try JSONPath("$.a[-1]"), try JSONPath("$..b"), try JSONPath("$.a[?@.b == 1]")], bytes,
      chunkSize: 3)
    #expect(
      selected.map(\.path) == [
        "$['a'][0]", "$['a'][0]['b']", "$['a'][1]['b']", "$['a'][1]", "$['c']['b']",
      ])
    #expect(selected.map(\.value) == [["b": 1], 1, 2, ["b": 2], 3])
  }

  @Test("objects with one state set share its key table; past the tables' limit, the same results")
  func keyTables() throws {
    // 80 paths, each with its own set for the objects under `$.rN` (more than the 64 tables
    // the tracker makes), and paths that share sets: a repeated name, a wildcard, a
    // descendant, a projected filter; records repeat each set many times.
    var document: [String: JSONValue] = [:]
    var paths: [String] = []
    for index in 0..<80 {
      let records: [JSONValue] = (0..<5).map { value in
        ["a": .number(.init(value)), "b": ["a": .string("x\(value)"), "c": 1], "a\(index % 3)": 2]
      }
      document["r\(index)"] = .array(.init(records))
      paths.append("$.r\(index)[*].a\(index % 3)")
    }
    paths += [
      "$.r1[*].b.a", "$.r1[*].b.a", "$.r2[*].*", "$..b.c", "$.r3[?@.a > 2].b.a", "$.r4[*]['a','b']",
    ]
    let compiled = try paths.map { try JSONPath($0) }
    let bytes = try JSONValue.object(.init(document)).jsonBytes()
    // A value several paths select is forwarded once.
    var expected: Selected = []
    var seen: Set<String> = []
    for path in compiled {
      for found in path.selectWithPaths(in: .object(.init(document)))
      where seen.insert(found.path).inserted {
        expected.append(found)
      }
    }
    for chunkSize in [bytes.count, 7] {
      let selected = try selectStreaming(compiled, bytes, chunkSize: chunkSize)
      #expect(sameMatches(selected, expected), "chunks of \(chunkSize)")
      let items = try itemsStreaming(compiled, bytes, chunkSize: chunkSize)
      #expect(sameMatches(items, expected), "chunks of \(chunkSize)")
    }
  }
}
