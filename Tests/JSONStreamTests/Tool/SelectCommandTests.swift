import Foundation
import Testing

/// `jsonstream select`'s flags: what a jq user reaches for (`-r`, `--count`, `--first`,
/// paths, several files), on both routes (streamed, and a tree per value for a filter that
/// reads the root).
@Suite(
  "jsonstream select",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct SelectCommandTests {
  let orders = #"""
    {"orders":[{"id":"a","total":150},{"id":"b","total":5},{"id":"c","total":300,"tags":["x"]}],
     "name":"shop \"A\"\n"}
    """#

  @Test("a filter streams; -r prints strings as text and other values as JSON, a line each")
  func raw() throws {
    let filtered = try Tool.run(["select", "$.orders[?@.total > 100].id"], input: orders)
    #expect(filtered.stdout == "\"a\"\n\"c\"\n")
    let raw = try Tool.run(["select", "-r", "$.orders[?@.total > 100].id"], input: orders)
    #expect(raw.stdout == "a\nc\n")
    // Text and JSON lines mixed, in document order; a string's escapes are decoded.
    let mixed = try Tool.run(["select", "--raw", "$.orders[0,2].*", "$.name"], input: orders)
    #expect(mixed.stdout == "a\n150\nc\n300\n[\"x\"]\nshop \"A\"\n\n")
    // The same on the tree route (a filter that reads the root).
    let tree = try Tool.run(
      ["select", "-r", "$.orders[?@.total > $.orders[0].total].id"], input: orders)
    #expect(tree.stdout == "c\n")
  }

  @Test("--count prints the number of matches; --first N stops reading after N")
  func countAndFirst() throws {
    #expect(try Tool.run(["select", "--count", "$.orders[*]"], input: orders).stdout == "3\n")
    #expect(try Tool.run(["select", "--count", "$.none"], input: orders).stdout == "0\n")
    #expect(
      try Tool.run(["select", "--count", "--first", "2", "$..*"], input: orders).stdout == "2\n")
    let first = try Tool.run(["select", "--first", "2", "$.orders[*].id"], input: orders)
    #expect(first.stdout == "\"a\"\n\"b\"\n" && first.status == 0)
    // What follows the Nth match is not read: not even an error there.
    let stopped = try Tool.run(["select", "--first", "1", "-r", "$[*]"], input: #"["x", oops"#)
    #expect(stopped.status == 0 && stopped.stdout == "x\n", "\(stopped.stderr)")
    let tree = try Tool.run(
      ["select", "--first", "1", "$.orders[?@.total >= $.orders[0].total].id"], input: orders)
    #expect(tree.stdout == "\"a\"\n")
    #expect(try Tool.run(["select", "--first", "0", "$"], input: "1").status == 2)
  }

  @Test("--paths and --with-paths stream, with normalized paths")
  func paths() throws {
    let paths = try Tool.run(["select", "--paths", "$.orders[-1]..*"], input: orders)
    #expect(
      paths.stdout
        == "$['orders'][2]['id']\n$['orders'][2]['total']\n$['orders'][2]['tags']\n"
        + "$['orders'][2]['tags'][0]\n")
    let both = try Tool.run(["select", "--with-paths", "$.orders[?@.total < 10]"], input: orders)
    #expect(both.stdout == #"["$['orders'][1]",{"id":"b","total":5}]"# + "\n")
  }

  @Test("several files, one after another; an error names its file; NDJSON line by line")
  func files() throws {
    let scratch = try PatchCommandTests.Scratch()
    let one = try scratch.write("one.json", #"[{"id":1},{"id":2}]"#)
    let two = try scratch.write("two.json", #"[{"id":3}]"#)
    let bad = try scratch.write("bad.json", "[{\"id\":4},\n{\"id\" 5}]")
    let all = try Tool.run(["select", "-r", "$[*].id", one, two])
    #expect(all.stdout == "1\n2\n3\n")
    #expect(try Tool.run(["select", "--count", "$[*]", one, two, one]).stdout == "5\n")
    // --first counts across files.
    #expect(
      try Tool.run(["select", "--first", "3", "$[*].id", one, two, bad]).stdout == "1\n2\n3\n")
    let failed = try Tool.run(["select", "$[*].id", one, bad, two])
    #expect(failed.status == 1)
    #expect(failed.stdout == "1\n2\n4")
    #expect(failed.stderr.hasPrefix(bad + ":2:7: "), "\(failed.stderr)")
    // A file that cannot be opened is found before anything is printed.
    let missing = try Tool.run(["select", "$[*]", one, scratch.path + "/none.json"])
    #expect(missing.status == 3 && missing.stdout.isEmpty)
    #expect(try Tool.run(["select", "$", "-", "-"], input: "1").status == 2)
    // NDJSON: the path applies to each line.
    let lines = try Tool.run(
      ["select", "-r", "--multiple-values", "$[?@.level == 'error'].msg"],
      input: """
        [{"level":"info","msg":"up"}]
        [{"level":"error","msg":"disk full"},{"level":"error","msg":"retry"}]

        """)
    #expect(lines.stdout == "disk full\nretry\n")
  }
}
