import Testing

@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamValue

/// The Codable decoder's cursor over a document's nodes (`JSONNodeCursor`, on `_NodeAddress`):
/// every node reads as the value it stands for, in parsed documents, binary-read ones,
/// containers changed in code and snapshots' open containers; members are found by key from
/// any hint; a child past the end traps instead of reading memory that is not the document's.
@Suite("Node cursor")
struct NodeCursorTests {
  /// The value `cursor` reads, rebuilt from what the cursor says alone, checking each object's
  /// member lookups on the way.
  func rebuilt(_ cursor: JSONNodeCursor) -> JSONValue {
    switch cursor.kind {
    case .null:
      #expect(cursor.isNull)
      return .null
    case .bool: return .bool(cursor.bool!)
    case .number:
      let number = cursor.withNumber { JSONValue.Number(exactly: $0) }!
      if let int = cursor.int64 { #expect(number == JSONValue.Number(int)) }
      return .number(number)
    case .string: return .string(cursor.string!)
    case .array:
      return .array(JSONArray((0..<cursor.count).map { rebuilt(cursor.element($0)) }))
    case .object:
      var members: [(String, JSONValue)] = []
      for position in 0..<cursor.count {
        var key = cursor.keyString(position)
        // Found from its own position, from the start and from past the end alike.
        for hint in [position, 0, cursor.count - 1 - position, cursor.count + 3, -1, Int.min] {
          let found = cursor.member(named: &key, hint: hint)
          #expect(found?.0 == position)
          #expect(found?.1.nodeIdentity == cursor.value(position).nodeIdentity)
          #expect(cursor.position(ofKey: &key, hint: hint) == position)
        }
        members.append((key, rebuilt(cursor.value(position))))
      }
      var absent = "no such key \u{1F511}"
      #expect(cursor.member(named: &absent, hint: 0) == nil)
      #expect(cursor.position(ofKey: &absent, hint: 1) == nil)
      return .object(JSONObject(members))
    }
  }

  /// `value` read back through a cursor on it, its root kept alive meanwhile (a cursor is
  /// valid as long as its root).
  func readBack(_ value: JSONValue) -> JSONValue {
    let root = JSONNodeCursorRoot(value)
    return withExtendedLifetime(root) { rebuilt(root.cursor) }
  }

  static let documents = [
    #"{"a":1,"b":[true,false,null],"c":{"d":"e\u00e9","f":-0.5e3},"g":[],"h":{}}"#,
    #"[1,2.5,-3,18446744073709551616,"x",[[[]]],{"k":[{"":0}]}]"#,
    #""just a string""#,
    "42",
    "null",
    // Past the index threshold: found through the key index.
    "{" + (0..<150).map { #""key\#($0)":\#($0)"# }.joined(separator: ",") + "}",
  ]

  @Test("a parsed document reads back through the cursor", arguments: documents)
  func parsedDocument(_ text: String) throws {
    let value = try JSONValue(parsing: text)
    let root = JSONNodeCursorRoot(value)
    #expect(rebuilt(root.cursor) == value)
    #expect(root.value(at: root.cursor) == value)
  }

  @Test("a document read from the binary format reads back, binary numbers too")
  func binaryDocument() throws {
    for text in Self.documents {
      let value = try JSONValue(parsing: text)
      var writer = JSONBinaryWriter()
      try value.replay(into: &writer)
      try writer.finish()
      let copy = try JSONValue(binary: writer.bytes)
      #expect(readBack(copy) == value)
    }
  }

  @Test("a container changed in code reads back as it now is")
  func changedContainer() throws {
    guard case .object(var object) = try JSONValue(parsing: #"{"a":[1,2],"b":"c"}"#) else {
      Issue.record("not an object")
      return
    }
    object["d"] = .array([.number(JSONValue.Number(7)), "eight"])
    object["a"] = nil
    let value = JSONValue.object(object)
    #expect(readBack(value) == value)
  }

  @Test("every snapshot of a document fed byte by byte reads back, open containers too")
  func snapshots() throws {
    let text = #"{"list":[1,{"x":"yz","w":[true,null]},"tail"],"more":{"k":-2.5,"s":"str"}}"#
    var parser = JSONParser(handler: JSONTreeBuilder())
    var seen = 0
    for byte in text.utf8 {
      try parser.feed([byte])
      guard let snapshot = parser.snapshot() else { continue }
      #expect(readBack(snapshot) == snapshot)
      seen += 1
    }
    #expect(seen > 50)
  }

  @Test("the root keeps the document alive after the value is gone")
  func rootOutlivesValue() throws {
    func makeRoot() throws -> JSONNodeCursorRoot {
      JSONNodeCursorRoot(try JSONValue(parsing: #"{"a":["bc",{"d":4}]}"#))
    }
    let root = try makeRoot()
    // Memory freed and taken by other values would read differently.
    let noise = (0..<200).map { try? JSONValue(parsing: #"["zzzz\#($0)",{"q":\#($0)}]"#) }
    #expect(noise.count == 200)
    withExtendedLifetime(root) {
      #expect(rebuilt(root.cursor) == ["a": ["bc", ["d": 4]]])
    }
  }

  @Test("nodes are the same node only when they are")
  func identity() throws {
    let root = JSONNodeCursorRoot(try JSONValue(parsing: "[[1],[1]]"))
    withExtendedLifetime(root) {
      #expect(root.cursor.element(0).nodeIdentity == root.cursor.element(0).nodeIdentity)
      #expect(root.cursor.element(0).nodeIdentity != root.cursor.element(1).nodeIdentity)
    }
    #expect(JSONNodeCursor.null.isNull && JSONNodeCursor.null.count == 0)
  }

  @Test("a child past the end traps, in a complete container and an open one")
  func childPastTheEndTraps() async {
    await #expect(processExitsWith: .failure) {
      let root = JSONNodeCursorRoot(try! JSONValue(parsing: "[1,2]"))
      withExtendedLifetime(root) { _ = root.cursor.element(2) }
    }
    await #expect(processExitsWith: .failure) {
      let root = JSONNodeCursorRoot(try! JSONValue(parsing: #"{"a":1}"#))
      withExtendedLifetime(root) { _ = root.cursor.value(1) }
    }
    await #expect(processExitsWith: .failure) {
      var parser = JSONParser(handler: JSONTreeBuilder())
      try! parser.feed(Array(#"[1,[2,"#.utf8))
      let root = JSONNodeCursorRoot(parser.snapshot()!)
      withExtendedLifetime(root) { _ = root.cursor.element(2) }
    }
    await #expect(processExitsWith: .failure) {
      _ = JSONNodeCursor.null.element(0)
    }
  }

  @Test("a child asked of another kind of node traps: no string's bytes read as nodes")
  func childOfAnotherKindTraps() async {
    await #expect(processExitsWith: .failure) {
      let root = JSONNodeCursorRoot(try! JSONValue(parsing: #"["a string of some length"]"#))
      withExtendedLifetime(root) { _ = root.cursor.element(0).element(0) }
    }
    await #expect(processExitsWith: .failure) {
      let root = JSONNodeCursorRoot(try! JSONValue(parsing: #"[1,2,3,4]"#))
      withExtendedLifetime(root) { _ = root.cursor.keyString(0) }
    }
    await #expect(processExitsWith: .failure) {
      let root = JSONNodeCursorRoot(try! JSONValue(parsing: #"{"a":1,"b":2}"#))
      withExtendedLifetime(root) { _ = root.cursor.element(0) }
    }
  }

  @Test("a key looked up in a node that is no object is not found")
  func keyInAnotherKind() throws {
    let root = JSONNodeCursorRoot(try JSONValue(parsing: #"["abcdefghijklmnop",[1,2]]"#))
    var key = "abcdefghijklmnop"
    withExtendedLifetime(root) {
      for cursor in [root.cursor, root.cursor.element(0), root.cursor.element(1)] {
        #expect(cursor.member(named: &key, hint: 0) == nil)
        #expect(cursor.position(ofKey: &key, hint: 0) == nil)
      }
    }
  }
}
