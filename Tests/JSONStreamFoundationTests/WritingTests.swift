import Foundation
import JSONStream
import JSONStreamFoundation
import JSONStreamTestSupport
import Testing

@Suite("Serializing Foundation trees")
struct WritingTests {
  @Test("compact, pretty and sorted output; round trip through the builder")
  func output() throws {
    let tree: [String: Any] = [
      "name": "Zoë", "n": 1.5, "count": 3, "ok": true, "none": NSNull(),
      "list": [1, "two", false, ["x": [] as [Any]]] as [Any],
    ]
    var sorted = JSONWriteOptions()
    sorted.sortKeys = true
    let compact = String(
      decoding: try JSONFoundation.data(withJSONObject: tree, options: sorted), as: UTF8.self)
    #expect(
      compact
        == #"{"count":3,"list":[1,"two",false,{"x":[]}],"n":1.5,"name":"Zoë","none":null,"ok":true}"#
    )
    sorted.indent = 2
    let pretty = String(
      decoding: try JSONFoundation.data(withJSONObject: tree, options: sorted), as: UTF8.self)
    #expect(pretty.hasPrefix("{\n  \"count\": 3,\n  \"list\": [\n    1,"))
    let back = try JSONFoundation.object(with: Data(compact.utf8))
    expectSameTree(back, try JSONFoundation.object(with: Data(pretty.utf8)))
    #expect(try JSONValue(parsing: compact) == JSONValue(parsing: pretty))
  }

  @Test("booleans stay booleans; escaping options apply")
  func booleansAndEscaping() throws {
    let tree: [Any] = [true, false, NSNumber(value: 1), NSNumber(value: 0), "é/"]
    var options = JSONWriteOptions()
    options.escapeUnicode = true
    options.escapeSlash = true
    let text = String(
      decoding: try JSONFoundation.data(withJSONObject: tree, options: options), as: UTF8.self)
    #expect(text == #"[true,false,1,0,"\u00e9\/"]"#)
  }

  @Test("errors, not crashes, on bad trees")
  func errors() throws {
    let cases: [(Any, JSONFoundationError.Kind)] = [
      ([1: "x"] as [Int: Any], .nonStringKey),
      (["d": Date()] as [String: Any], .unsupportedType),
      ([Double.nan] as [Any], .nonFiniteNumber),
      ([Double.infinity] as [Any], .nonFiniteNumber),
      (["x": -Double.infinity] as [String: Any], .nonFiniteNumber),
      ([Data([1, 2])] as [Any], .unsupportedType),
    ]
    for (tree, kind) in cases {
      #expect(throws: JSONFoundationError.self) { try JSONFoundation.data(withJSONObject: tree) }
      do {
        _ = try JSONFoundation.data(withJSONObject: tree)
      } catch let error as JSONFoundationError {
        #expect(error.kind == kind, "\(tree)")
      }
    }
    let array = NSMutableArray()
    array.add(array)
    #expect(throws: JSONFoundationError.self) { try JSONFoundation.data(withJSONObject: array) }
    // Break the cycle, or the array outlives the test (a leak the address sanitizer reports).
    array.removeAllObjects()
  }

  @Test(
    "corpus: our bytes from JSONSerialization's tree parse back to an equal tree",
    .enabled(
      if: FileManager.default.fileExists(atPath: corpusPath("twitter.json")),
      "corpus not found; skipped"),
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func corpus(name: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: corpusPath(name)))
    let ours = try JSONFoundation.object(with: data)
    let written = try JSONFoundation.data(withJSONObject: ours)
    let again = try JSONFoundation.object(with: written)
    #expect((ours as! NSObject).isEqual(again))
    #expect(try JSONValue(parsing: [UInt8](written)) == JSONValue(parsing: [UInt8](data)))
  }
}

func corpusPath(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/\(name)").path
}
