import JSONStream
import Testing

/// RFC 6901 JSON Pointer: its text, its tokens, and reading and changing a tree through it.
@Suite("JSON Pointer")
struct PointerTests {
  @Test("text to tokens and back, with ~0 and ~1")
  func syntax() throws {
    let cases: [(String, [String])] = [
      ("", []), ("/", [""]), ("/a", ["a"]), ("/a/0", ["a", "0"]), ("//", ["", ""]),
      ("/a~1b", ["a/b"]), ("/m~0n", ["m~n"]), ("/~01", ["~1"]), ("/~10", ["/0"]),
      ("/ ", [" "]), ("/é/ü", ["é", "ü"]),
    ]
    for (text, tokens) in cases {
      let pointer = try JSONPointer(text)
      #expect(pointer.tokens == tokens, "\(text)")
      #expect(pointer.description == text, "\(text)")
      #expect(JSONPointer(tokens: tokens) == pointer)
    }
    for (text, offset) in [("a", 0), ("/a~", 2), ("/a~2", 2), ("/~/", 1), ("/x/~a", 3)] {
      #expect(throws: JSONPatchError.self) { try JSONPointer(text) }
      do {
        _ = try JSONPointer(text)
      } catch {
        #expect(error.kind == .invalidPointer(offset: offset), "\(text)")
        #expect(error.description.contains("offset \(offset)"))
      }
    }
    let literal: JSONPointer = "/a/b"
    #expect(literal.parent == "/a")
    #expect(literal.parent?.parent == .root)
    #expect(JSONPointer.root.parent == nil)
    #expect(literal.lastToken == "b")
    #expect(literal.appending("c/d").description == "/a/b/c~1d")
    #expect(literal.appending(3) == "/a/b/3")
    #expect(literal.hasPrefix("/a") && literal.hasPrefix(.root) && !literal.hasPrefix("/a/bc"))
  }

  @Test("tokens compare by their UTF-8 bytes: composed and decomposed é differ")
  func bytewiseKeys() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    #expect(composed == decomposed)  // Swift's String equality
    #expect(JSONPointer(tokens: [composed]) != JSONPointer(tokens: [decomposed]))
    let object = JSONValue.object(JSONObject([(composed, 1 as JSONValue)]))
    #expect(object.value(at: JSONPointer(tokens: [composed])) == 1)
    #expect(object.value(at: JSONPointer(tokens: [decomposed])) == nil)
    var changed = object
    try changed.set(2, at: JSONPointer(tokens: [decomposed]))
    #expect(changed.objectValue?.count == 2)
  }

  @Test("reading: members, indexes, and what is not there")
  func reading() throws {
    let doc = try JSONValue(parsing: #"{"a": [10, {"b~/": true}], "": 0, "n": null}"#)
    #expect(doc[pointer: ""] == doc)
    #expect(doc[pointer: "/a/0"] == 10)
    #expect(doc[pointer: "/a/1/b~0~1"] == true)
    #expect(doc[pointer: "/"] == 0)
    #expect(doc[pointer: "/n"] == .null)
    for missing: JSONPointer in [
      "/x", "/a/2", "/a/-", "/a/01", "/a/1e0", "/a/0/x", "/n/x", "/a/-1",
    ] {
      #expect(doc[pointer: missing] == nil, "\(missing)")
    }
  }

  @Test("set and remove, at any depth; a failure changes nothing")
  func changing() throws {
    var doc: JSONValue = ["a": [1, ["b": 2]]]
    try doc.set(3, at: "/a/1/b")
    try doc.set("x", at: "/a/1/c")
    try doc.set(4, at: "/a/-")
    try doc.set(5, at: "/a/0")
    #expect(doc == ["a": [5, ["b": 3, "c": "x"], 4]])
    #expect(try doc.removeValue(at: "/a/1/b") == 3)
    #expect(try doc.removeValue(at: "/a/0") == 5)
    #expect(doc == ["a": [["c": "x"], 4]])
    let before = doc
    for pointer: JSONPointer in ["/x/y", "/a/5", "/a/x", "/a/1/z"] {
      #expect(throws: JSONPatchError.self) { try doc.set(0, at: pointer) }
      #expect(doc == before)
    }
    for pointer: JSONPointer in ["", "/x", "/a/2", "/a/-", "/a/0/c/d"] {
      #expect(throws: JSONPatchError.self) { try doc.removeValue(at: pointer) }
      #expect(doc == before)
    }
    try doc.set(["new": true], at: "")
    #expect(doc == ["new": true])
  }

  @Test("a pointer as deep as the document, walked without recursion")
  func deep() throws {
    func nested(_ depth: Int) throws -> JSONValue {
      var options = JSONParseOptions()
      options.limits.maxDepth = depth + 1
      return try JSONValue(
        parsing: String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
        options: options)
    }
    // Reading walks down without recursing, at any depth.
    var depth = 100_000
    var doc = try nested(depth)
    var pointer = JSONPointer(tokens: Array(repeating: "0", count: depth - 1))
    #expect(doc[pointer: pointer] == [])
    #expect(doc[pointer: pointer.appending(0)] == nil)
    // A change turns each container on its path into values, which Swift frees recursively:
    // a changed chain stays within a few thousand levels (see the Trees article).
    depth = 2_000
    doc = try nested(depth)
    pointer = JSONPointer(tokens: Array(repeating: "0", count: depth - 1))
    try doc.set(1, at: pointer.appending("-"))
    #expect(doc[pointer: pointer.appending(0)] == 1)
  }
}
