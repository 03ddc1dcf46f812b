import JSONStreamTestSupport
import Testing

@testable import JSONStream

/// The streaming filters against the tree: the same bytes, the same errors.
@Suite("JSON Patch and Merge Patch, streamed")
struct PatchStreamingTests {
  /// The outcome of one route: the output's bytes, or the patch's error.
  enum Outcome: Equatable, CustomStringConvertible {
    case output([UInt8])
    case failure(JSONPatchError)

    var description: String {
      switch self {
      case .output(let bytes): return String(decoding: bytes, as: UTF8.self)
      case .failure(let error): return "error: \(error)"
      }
    }
  }

  /// The tree's: parse, apply, write.
  static func tree(_ text: [UInt8], _ patch: JSONPatch) throws -> Outcome {
    do {
      return .output(try JSONValue(parsing: text).applying(patch).jsonBytes())
    } catch let error as JSONPatchError {
      return .failure(error)
    }
  }

  /// The filter's, fed `chunk` bytes at a time; nil when the patch does not stream.
  static func streamed(_ text: [UInt8], _ patch: JSONPatch, chunk: Int = 1 << 16) throws
    -> Outcome?
  {
    guard let filter = JSONPatchFilter(patch: patch, downstream: JSONWriter()) else {
      return nil
    }
    var parser = JSONParser(handler: filter)
    var start = 0
    while start < text.count {
      try parser.feed(text[start..<min(text.count, start + chunk)])
      start += chunk
    }
    try parser.finish()
    if let error = parser.handler.error { return .failure(error) }
    try parser.handler.downstream.finish()
    return .output(parser.handler.downstream.bytes)
  }

  @Test("every official case that streams: the tree's bytes and errors")
  func officialCases() throws {
    try #require(
      SharedData.hasJSONPatchTests,
      "json-patch-tests not found at ../shared/testdata/json-patch-tests")
    var compared = 0
    for test in try PatchCase.load() {
      guard let patch = try? JSONPatch(test.patch) else { continue }
      let text = try test.document.jsonBytes()
      for chunk in [1, 1 << 16] {
        guard let streamed = try Self.streamed(text, patch, chunk: chunk) else { continue }
        #expect(streamed == (try Self.tree(text, patch)), "\(test)")
        compared += 1
      }
    }
    #expect(compared > 60)
  }

  @Test("random patches that stream: the tree's bytes and errors")
  func randomPatches() throws {
    var generator = PatchGenerator(seed: 0x57_2EA4)
    var compared = 0
    var failures = 0
    for _ in 0..<5000 {
      let document = generator.value(depth: 5)
      let operations = (0..<generator.int(1..<4)).map { _ in
        generator.operation(on: document, streamable: true)
      }
      let patch = JSONPatch(operations)
      let text = try document.jsonBytes()
      guard let streamed = try Self.streamed(text, patch) else { continue }
      let tree = try Self.tree(text, patch)
      #expect(streamed == tree, "\(String(decoding: text, as: UTF8.self)) \(operations)")
      compared += 1
      if case .failure = tree { failures += 1 }
    }
    #expect(
      compared > 1000 && failures > 200 && compared - failures > 200, "\(compared), \(failures)")
  }

  @Test("what streams: independent add, remove, replace and test, not on the root")
  func eligibility() throws {
    func streams(_ text: String) throws -> Bool {
      JSONPatchFilter<JSONWriter<JSONByteSink>>.canStream(try JSONPatch(parsing: text))
    }
    #expect(try streams("[]"))
    #expect(try streams(#"[{"op":"add","path":"/a/b","value":1},{"op":"remove","path":"/a/c"}]"#))
    #expect(try streams(#"[{"op":"remove","path":"/a/0/x"},{"op":"remove","path":"/a/1/y"}]"#))
    #expect(
      try streams(#"[{"op":"add","path":"/a/-","value":1},{"op":"test","path":"/b","value":1}]"#))
    #expect(try !streams(#"[{"op":"add","path":"","value":1}]"#))
    #expect(try !streams(#"[{"op":"move","from":"/a","path":"/b"}]"#))
    #expect(try !streams(#"[{"op":"copy","from":"/a","path":"/b"}]"#))
    #expect(try !streams(#"[{"op":"remove","path":"/a"},{"op":"add","path":"/a/b","value":1}]"#))
    #expect(try !streams(#"[{"op":"test","path":"/a","value":1},{"op":"remove","path":"/a"}]"#))
    // An index moves its followers: alone under its array.
    #expect(
      try !streams(#"[{"op":"remove","path":"/a/0"},{"op":"test","path":"/a/1/x","value":1}]"#))
    #expect(
      try !streams(#"[{"op":"add","path":"/a/-","value":1},{"op":"add","path":"/a/-","value":2}]"#))
  }

  @Test("a repeated key: every occurrence is patched (a tree keeps the last)")
  func repeatedKeys() throws {
    let text = Array(#"{"a":1,"b":2,"a":3}"#.utf8)
    let patch: JSONPatch = [.replace(path: "/a", value: 0)]
    #expect(try Self.streamed(text, patch) == .output(Array(#"{"a":0,"b":2,"a":0}"#.utf8)))
    #expect(try Self.tree(text, patch) == .output(Array(#"{"a":0,"b":2}"#.utf8)))
    var merge = JSONParser(
      handler: JSONMergePatchFilter(patch: ["a": nil], downstream: JSONWriter()))
    try merge.feed(text)
    try merge.finish()
    try merge.handler.downstream.finish()
    #expect(merge.handler.downstream.bytes == Array(#"{"b":2}"#.utf8))
  }

  @Test("several top-level values: each is patched; the error is the first failing one's")
  func severalValues() throws {
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    var writeOptions = JSONWriteOptions()
    writeOptions.allowMultipleValues = true
    let patch: JSONPatch = [.test(path: "/n", value: 1), .add(path: "/ok", value: true)]
    var parser = JSONParser(
      handler: JSONPatchFilter(patch: patch, downstream: JSONWriter(options: writeOptions))!,
      options: options)
    try parser.feed(#"{"n":1} {"n":2} {"m":1}"#.utf8)
    try parser.finish()
    let error = try #require(parser.handler.error)
    #expect(error.kind == .testFailed(found: 2))
    #expect(throws: JSONPatchError.self) { try parser.handler.finish() }
  }

  /// Merge patches of the RFC's appendix A, and more.
  static let mergeCases: [(JSONValue, JSONValue, JSONValue)] = [
    (["a": "b"], ["a": "c"], ["a": "c"]),
    (["a": "b"], ["b": "c"], ["a": "b", "b": "c"]),
    (["a": "b"], ["a": nil], [:]),
    (["a": "b", "b": "c"], ["a": nil], ["b": "c"]),
    (["a": ["b"]], ["a": "c"], ["a": "c"]),
    (["a": "c"], ["a": ["b"]], ["a": ["b"]]),
    (["a": ["b": "c"]], ["a": ["b": "d", "c": nil]], ["a": ["b": "d"]]),
    (["a": [["b": "c"]]], ["a": [1]], ["a": [1]]),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    (["a": "b"], ["c"], ["c"]),
    (["a": "foo"], nil, nil),
    (["a": "foo"], "bar", "bar"),
    (["e": nil], ["a": 1], ["e": nil, "a": 1]),
    ([1, 2], ["a": "b", "c": nil], ["a": "b"]),
    ([:], ["a": ["bb": ["ccc": nil]]], ["a": ["bb": [:]]]),
    (7, ["a": ["b": nil, "c": [nil]]], ["a": ["c": [nil]]]),
    (
      ["x": ["y": 1], "z": 2], ["x": ["w": 3], "z": ["q": nil]], ["x": ["y": 1, "w": 3], "z": [:]]
    ),
  ]

  @Test("merge patch: the RFC's examples, on a tree and streamed, with the same bytes")
  func mergePatch() throws {
    for (target, patch, expected) in Self.mergeCases {
      let merged = target.merging(patch: patch)
      #expect(merged == expected, "\(target) + \(patch)")
      for chunk in [1, 1 << 16] {
        let text = try target.jsonBytes()
        var parser = JSONParser(
          handler: JSONMergePatchFilter(patch: patch, downstream: JSONWriter()))
        var start = 0
        while start < text.count {
          try parser.feed(text[start..<min(text.count, start + chunk)])
          start += chunk
        }
        try parser.finish()
        try parser.handler.downstream.finish()
        #expect(parser.handler.downstream.bytes == (try merged.jsonBytes()), "\(target) + \(patch)")
      }
    }
  }

  @Test("merge patch: random documents and patches, streamed as on a tree")
  func randomMerges() throws {
    var generator = PatchGenerator(seed: 0x7396)
    for _ in 0..<2000 {
      let target = generator.value(depth: 4)
      // A patch shaped like the target, often: it then reaches inside it.
      var patch = generator.value(depth: 3)
      if generator.chance(50), case .object = target {
        patch = target.merging(patch: generator.value(depth: 2))
        if case .object(let object) = patch, !object.isEmpty {
          var members = Array(object)
          members[generator.int(0..<members.count)].value = .null
          patch = .object(JSONObject(members))
        }
      }
      let text = try target.jsonBytes()
      var parser = JSONParser(handler: JSONMergePatchFilter(patch: patch, downstream: JSONWriter()))
      try parser.feed(text)
      try parser.finish()
      try parser.handler.downstream.finish()
      let expected = try target.merging(patch: patch).jsonBytes()
      #expect(parser.handler.downstream.bytes == expected, "\(target) + \(patch)")
    }
  }
}

/// What a review found: number text lost on the way through a patch, and a plan whose memory
/// grew with the square of a path's length.
@Suite("JSON Patch: number text and long paths, on both routes")
struct PatchTextAndLengthTests {
  @Test("a patch's numbers, and the value a failed test found, as they were written")
  func numberText() throws {
    let document = Array(#"{"a":{"x":1E2,"z":-0}}"#.utf8)
    let adds = try JSONPatch(
      parsing: #"[{"op":"add","path":"/b","value":-0},{"op":"add","path":"/c","value":1E2},"#
        + #"{"op":"add","path":"/d","value":[-0,1.50]},{"op":"test","path":"/a/x","value":100}]"#)
    let expected = Array(#"{"a":{"x":1E2,"z":-0},"b":-0,"c":1E2,"d":[-0,1.50]}"#.utf8)
    #expect(try PatchStreamingTests.tree(document, adds) == .output(expected))
    #expect(try PatchStreamingTests.streamed(document, adds) == .output(expected))
    // The value found, as written: the same on both routes, whether or not an earlier
    // operation changed its container.
    for text in [
      #"[{"op":"test","path":"/a/z","value":5}]"#,
      #"[{"op":"add","path":"/a/y","value":1},{"op":"test","path":"/a/z","value":5}]"#,
    ] {
      let patch = try JSONPatch(parsing: text)
      let tree = try PatchStreamingTests.tree(document, patch)
      #expect(try PatchStreamingTests.streamed(document, patch) == tree)
      #expect(tree.description.contains("found -0"), "\(tree)")
    }
    let merge: JSONValue = try JSONValue(parsing: #"{"b":-0,"c":1E2,"a":{"n":2.50}}"#)
    let merged = try JSONValue(parsing: document).merging(patch: merge)
    #expect(try merged.jsonString() == #"{"a":{"x":1E2,"z":-0,"n":2.50},"b":-0,"c":1E2}"#)
    var parser = JSONParser(handler: JSONMergePatchFilter(patch: merge, downstream: JSONWriter()))
    try parser.feed(document)
    try parser.finish()
    try parser.handler.downstream.finish()
    #expect(parser.handler.downstream.bytes == (try merged.jsonBytes()))
  }

  @Test("a path of 20,000 tokens is planned and reported without quadratic memory")
  func longPath() throws {
    let pointer = JSONPointer(tokens: Array(repeating: "a", count: 20_000))
    let patch = JSONPatch([.remove(path: pointer)])
    let document = Array(#"{"a":{"b":1}}"#.utf8)
    let tree = try PatchStreamingTests.tree(document, patch)
    guard case .failure(let error) = tree else {
      Issue.record("removing a missing member succeeded")
      return
    }
    #expect(error.description.contains("/a/a"))
    #expect(try PatchStreamingTests.streamed(document, patch) == tree)
  }
}
