import JSONStream
import JSONStreamTestSupport
import Testing

/// The JSON Patch test suite (RFC 6902's examples and the community cases), read from
/// `../shared/testdata/json-patch-tests` at test time.
@Suite(
  "JSON Patch test suite",
  .enabled(
    if: SharedData.hasJSONPatchTests,
    "json-patch-tests not found at ../shared/testdata/json-patch-tests; skipped"))
struct PatchSuiteTests {
  @Test("every enabled case: the expected document, or an error that changes nothing")
  func suite() throws {
    let cases = try PatchCase.load()
    #expect(cases.count > 100)
    var failing = 0
    for test in cases {
      var document = test.document
      do {
        let patch = try JSONPatch(test.patch)
        try document.apply(patch)
        #expect(test.error == nil, "\(test): applied, but expected to fail: \(test.error ?? "")")
        if let expected = test.expected {
          #expect(document == expected, "\(test): \(document), expected \(expected)")
        }
        // The patch writes back as it reads.
        #expect(try JSONPatch(patch.jsonValue) == patch, "\(test)")
      } catch {
        failing += 1
        #expect(test.error != nil, "\(test): \(error)")
        #expect(document == test.document, "\(test): a failure changed the document")
        #expect(!error.description.isEmpty)
      }
    }
    #expect(failing == cases.filter { $0.error != nil }.count)
  }

  @Test("the errors say what and where")
  func errorKinds() throws {
    func failure(_ document: JSONValue, _ patch: String) throws -> JSONPatchError? {
      do {
        _ = try document.applying(try JSONPatch(parsing: patch))
        return nil
      } catch let error as JSONPatchError {
        return error
      }
    }
    let doc: JSONValue = ["a": ["b": [1, 2]], "s": "x"]
    var error = try failure(
      doc, #"[{"op":"test","path":"/a/b/0","value":1},{"op":"test","path":"/a/b/1","value":3}]"#)
    #expect(error?.kind == .testFailed(found: 2))
    #expect(error?.operationIndex == 1)
    #expect(error?.operation == "test")
    #expect(error?.pointer == "/a/b/1")
    #expect(error?.description == "operation 1 (test) at /a/b/1: found 2, not the expected 3")
    error = try failure(doc, #"[{"op":"remove","path":"/a/x/y"}]"#)
    #expect(error?.kind == .pathNotFound)
    #expect(error?.description == "operation 0 (remove) at /a/x/y: /a/x does not exist")
    error = try failure(doc, #"[{"op":"add","path":"/s/t","value":1}]"#)
    #expect(error?.kind == .notAContainer)
    #expect(
      error?.description == "operation 0 (add) at /s/t: /s is a string, not an object or an array")
    error = try failure(doc, #"[{"op":"add","path":"/a/b/01","value":1}]"#)
    #expect(error?.kind == .invalidArrayIndex)
    error = try failure(doc, #"[{"op":"add","path":"/a/b/3","value":1}]"#)
    #expect(error?.kind == .pathNotFound)
    #expect(error?.message == "/a/b/3 is past the end of the array, which has 2 elements")
    error = try failure(doc, #"[{"op":"remove","path":"/a/b/-"}]"#)
    #expect(error?.kind == .pathNotFound)
    error = try failure(doc, #"[{"op":"move","from":"/a","path":"/a/b/c"}]"#)
    #expect(error?.kind == .moveIntoDescendant)
    error = try failure(doc, #"[{"op":"copy","from":"/nothing","path":"/c"}]"#)
    #expect(error?.kind == .pathNotFound)
    #expect(error?.member == "from")
    #expect(error?.description == "operation 0 (copy) from /nothing: /nothing does not exist")
    error = try failure(doc, #"[{"op":"remove","path":""}]"#)
    #expect(error?.kind == .cannotRemoveRoot)
    error = try failure(doc, #"[{"op":"add","path":"a","value":1}]"#)
    #expect(error?.kind == .invalidPointer(offset: 0))
    #expect(error?.operationIndex == 0)
    error = try failure(doc, #"[{"op":"add","path":"/a~2","value":1}]"#)
    #expect(error?.kind == .invalidPointer(offset: 2))
    for (patch, message) in [
      (#"{"op":"add"}"#, "a JSON Patch is an array of operations, not an object"),
      (#"[1]"#, "an operation is an object, not a number"),
      (#"[{"path":"/a"}]"#, "missing \"op\""),
      (
        #"[{"op":"spam","path":"/a"}]"#,
        "unknown op \"spam\": add, remove, replace, move, copy or test"
      ),
      (#"[{"op":"add","value":1}]"#, "missing \"path\""),
      (#"[{"op":"add","path":null,"value":1}]"#, "\"path\" is a JSON Pointer string, not null"),
      (#"[{"op":"move","path":"/a"}]"#, "missing \"from\""),
      (#"[{"op":"test","path":"/a"}]"#, "missing \"value\" (test sets or compares one)"),
    ] {
      error = try failure(doc, patch)
      #expect(error?.kind == .invalidPatch, "\(patch)")
      #expect(error?.message == message, "\(patch)")
    }
  }

  @Test("a move applies as a remove then an add; a failing add takes the remove back")
  func moves() throws {
    var doc: JSONValue = ["a": [1, 2, 3], "b": 1]
    try doc.apply([.move(from: "/a/0", path: "/a/2")])
    #expect(doc == ["a": [2, 3, 1], "b": 1])
    try doc.apply([.move(from: "/a", path: "/a")])
    #expect(doc == ["a": [2, 3, 1], "b": 1])
    #expect(throws: JSONPatchError.self) { try doc.apply([.move(from: "/b", path: "/a/9")]) }
    #expect(doc == ["a": [2, 3, 1], "b": 1])
    try doc.apply([.copy(from: "/a", path: "/c"), .remove(path: "/c/0")])
    #expect(doc == ["a": [2, 3, 1], "b": 1, "c": [3, 1]])
  }
}
