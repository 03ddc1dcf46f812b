import Foundation
import JSONStreamTestSupport
import Testing

/// `jsonstream patch`: both routes (streamed, tree), what a failure leaves, and the memory the
/// streamed route does without.
@Suite(
  "jsonstream patch",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct PatchCommandTests {
  /// A directory of its own for one test.
  final class Scratch {
    let path: String

    init() throws {
      path =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("jsonstream-patch-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
      return path + "/" + name
    }

    func read(_ name: String) throws -> String {
      String(decoding: try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)), as: UTF8.self)
    }

    func names() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
  }

  let document = #"{"a": [1, 2], "b": {"c": 1.50}, "d": "x"}"#

  @Test("a JSON Patch, streamed to -o FILE or applied to a tree: the same bytes")
  func bothRoutes() throws {
    let scratch = try Scratch()
    let input = try scratch.write("doc.json", document)
    // Streams with -o FILE; to standard output it goes through a tree.
    let patch = try scratch.write(
      "patch.json",
      #"[{"op":"add","path":"/a/-","value":3},{"op":"remove","path":"/d"},"#
        + #"{"op":"test","path":"/b/c","value":1.5},{"op":"add","path":"/e","value":{"f":null}}]"#)
    let expected = #"{"a":[1,2,3],"b":{"c":1.50},"e":{"f":null}}"# + "\n"
    let tree = try Tool.run(["patch", patch, input])
    #expect(tree.status == 0, "\(tree.stderr)")
    #expect(tree.stdout == expected)
    let out = scratch.path + "/out.json"
    let streamed = try Tool.run(["patch", patch, input, "-o", out])
    #expect(streamed.status == 0, "\(streamed.stderr)")
    #expect(try scratch.read("out.json") == expected)
    // Not streamable (a move): through a tree, to -o FILE as well.
    let move = try scratch.write("move.json", #"[{"op":"move","from":"/d","path":"/a/0"}]"#)
    let moved = try Tool.run(["patch", move, input, "-o", out, "--indent", "1"])
    #expect(moved.status == 0, "\(moved.stderr)")
    #expect(
      try scratch.read("out.json")
        == "{\n \"a\": [\n  \"x\",\n  1,\n  2\n ],\n \"b\": {\n  \"c\": 1.50\n }\n}\n")
  }

  @Test("a failing operation: its index, op, pointer and value found; -o FILE as it was")
  func failure() throws {
    let scratch = try Scratch()
    let input = try scratch.write("doc.json", document)
    let out = try scratch.write("out.json", "precious\n")
    let failing = try scratch.write(
      "fail.json",
      #"[{"op":"remove","path":"/d"},{"op":"test","path":"/a/1","value":3}]"#)
    for arguments in [["patch", failing, input], ["patch", failing, input, "-o", out]] {
      let result = try Tool.run(arguments)
      #expect(result.status == 1)
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr.hasPrefix(
          "\(input): patch failed: operation 1 (test) at /a/1: found 2, not the expected 3\n"),
        "\(result.stderr)")
    }
    #expect(try scratch.read("out.json") == "precious\n")
    let missing = try scratch.write("missing.json", #"[{"op":"add","path":"/x/y","value":1}]"#)
    let result = try Tool.run(["patch", missing, input, "-o", out])
    #expect(result.status == 1)
    #expect(result.stderr.contains("operation 0 (add) at /x/y: /x does not exist"))
    #expect(try scratch.read("out.json") == "precious\n")
    #expect(try scratch.names() == ["doc.json", "fail.json", "missing.json", "out.json"])
  }

  @Test("the patch is read and checked before the output is made")
  func patchFirst() throws {
    let scratch = try Scratch()
    let input = try scratch.write("doc.json", document)
    let out = scratch.path + "/new.json"
    let notJSON = try scratch.write("bad.json", "[{\"op\": \"add\",\n \"path\": /a}]")
    var result = try Tool.run(["patch", notJSON, input, "-o", out])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("\(notJSON):2:10: "), "\(result.stderr)")
    let notPatch = try scratch.write("np.json", #"[{"op":"copy","path":"/a"}]"#)
    result = try Tool.run(["patch", notPatch, input, "-o", out])
    #expect(result.status == 1)
    #expect(
      result.stderr == "\(notPatch): not a JSON Patch: operation 0 (copy): missing \"from\"\n")
    result = try Tool.run(["patch", scratch.path + "/none.json", input, "-o", out])
    #expect(result.status == 3)
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(try Tool.run(["patch"]).status == 2)
    #expect(try Tool.run(["patch", "-", "-"]).status == 2)
    // Invalid input: located, as for every command, on both routes.
    let broken = try scratch.write("broken.json", "{\"a\": [1,\n 2,]}")
    let empty = try scratch.write("empty.json", "[]")
    let remove = try scratch.write("remove.json", #"[{"op":"remove","path":"/a"}]"#)
    for patch in [empty, remove] {
      result = try Tool.run(["patch", patch, broken])
      #expect(result.status == 1)
      #expect(result.stderr.hasPrefix("\(broken):2:4: "), "\(result.stderr)")
    }
  }

  @Test("a merge patch streams, to standard output too")
  func merge() throws {
    let scratch = try Scratch()
    let patch = try scratch.write(
      "merge.json", #"{"b": {"c": null, "n": [1]}, "d": null, "z": true}"#)
    let result = try Tool.run(["patch", "--merge", patch], input: document)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == #"{"a":[1,2],"b":{"n":[1]},"z":true}"# + "\n")
    let lines = try Tool.run(
      ["patch", "--merge", patch, "--multiple-values"], input: "{\"d\":1}\n{\"e\":2}\n")
    #expect(
      lines.stdout == "{\"b\":{\"n\":[1]},\"z\":true}\n{\"e\":2,\"b\":{\"n\":[1]},\"z\":true}\n")
  }

  @Test("an edit at the bottom of a 100,000-level document, on a 1 MB stack")
  func deepEdit() throws {
    // The edit turns every level on its path into Swift values, which Swift would free
    // recursively, a few stack frames per level.
    let scratch = try Scratch()
    let depth = 100_000
    let input = try scratch.write(
      "deep.json", String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
    let patch = try scratch.write(
      "patch.json",
      #"[{"op":"replace","path":""# + String(repeating: "/0", count: depth - 1)
        + #"","value":[1E2]}]"#)
    let out = scratch.path + "/out.json"
    let result = try Tool.run(
      ["patch", patch, input, "--max-depth", "200000", "-o", out], setup: "ulimit -s 1024")
    #expect(result.status == 0, "\(result.stderr)")
    let written = try scratch.read("out.json")
    #expect(written.utf8.count == 2 * depth + 4)
    #expect(written.contains("[1E2]"))
  }

  @Test(
    "streamed, a 20 MB document fits in a data limit that the tree does not", .hugeInput,
    .tags(.hugeInput))
  func memory() throws {
    let scratch = try Scratch()
    let record = #"{"id":1234567,"name":"an item of the list","tags":["a","b","c"],"price":12.5}"#
    let body = Array(repeating: record, count: 260_000).joined(separator: ",")
    let input = try scratch.write("big.json", #"{"items":["# + body + #"],"meta":{"v":1}}"#)
    let replace = try scratch.write(
      "replace.json", #"[{"op":"replace","path":"/meta/v","value":2}]"#)
    let copy = try scratch.write("copy.json", #"[{"op":"copy","from":"/meta/v","path":"/meta/w"}]"#)
    let merge = try scratch.write("merge.json", #"{"meta":{"v":2}}"#)
    let out = scratch.path + "/out.json"
    let limit = "ulimit -d 40000"  // 40 MB of data: twice the input, less than its tree
    var result = try Tool.run(["patch", replace, input, "-o", out], setup: limit)
    #expect(result.status == 0, "\(result.stderr.prefix(300))")
    #expect(try scratch.read("out.json").hasSuffix(#"],"meta":{"v":2}}"# + "\n"))
    result = try Tool.run(["patch", "--merge", merge, input, "-o", out], setup: limit)
    #expect(result.status == 0, "\(result.stderr.prefix(300))")
    result = try Tool.run(["patch", copy, input, "-o", out], setup: limit)
    #expect(result.status != 0, "the tree fits the limit: it proves nothing")
    result = try Tool.run(["patch", copy, input, "-o", out])
    #expect(result.status == 0, "\(result.stderr.prefix(300))")
  }
}
