import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

@Suite(
  "jsonstream ndjson, stats, output and common flags",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct CommandTests {
  @Test("ndjson: a top-level array to lines and back, at any chunk size")
  func ndjson() throws {
    let array = #"[{"a":1}, [2, 3], "x\ny", null, 1.50]"#
    let lines = "{\"a\":1}\n[2,3]\n\"x\\ny\"\nnull\n1.50\n"
    for chunk in ["1", "5", "65536"] {
      let result = try Tool.run(["ndjson", "--chunk-size", chunk], input: array)
      #expect(result.status == 0)
      #expect(result.stdout == lines, "chunk \(chunk)")
      let back = try Tool.run(["ndjson", "--to-array", "--chunk-size", chunk], input: lines)
      #expect(back.stdout == #"[{"a":1},[2,3],"x\ny",null,1.50]"# + "\n")
    }
    #expect(try Tool.run(["ndjson"], input: "[]").stdout == "")
    #expect(try Tool.run(["ndjson", "--to-array"], input: "").stdout == "[]\n")
    #expect(try Tool.run(["ndjson", "--to-array"], input: "\n\n").stdout == "[]\n")
    #expect(
      try Tool.run(["ndjson", "--to-array", "--indent", "2"], input: "1\n{\"a\":2}\n").stdout
        == "[\n  1,\n  {\n    \"a\": 2\n  }\n]\n")
    // Not an array: exit 1, the position and a hint.
    let object = try Tool.run(["ndjson"], input: "\n {\"a\":1}")
    #expect(object.status == 1)
    #expect(object.stdout == "")
    #expect(object.stderr.hasPrefix("<stdin>:2:2: the top-level value is not an array"))
    // Broken lines: what came before stays, then the error.
    let broken = try Tool.run(["ndjson", "--to-array"], input: "1\n2\n{\n")
    #expect(broken.status == 1)
    #expect(broken.stdout == "[1,2,{")
    #expect(broken.stderr.hasPrefix("<stdin>:4:1: "))
  }

  @Test("stats: counts, depth, the largest values and where they are, the most frequent keys")
  func stats() throws {
    let document = """
      {"users":[{"id":1,"name":"Ada","tags":["a","b"]},{"id":2,"name":"Grace Hopper","tags":[]}],
       "meta":{"count":2,"ok":true,"next":null,"ratio":0.5,"a/b":{"~":[1,2,3]}}}
      """
    let result = try Tool.run(["stats"], input: document)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0] == "<stdin>")
    #expect(lines[1].hasPrefix("  bytes           \(document.utf8.count) in "))
    #expect(
      Array(lines[2...]).joined(separator: "\n") == """
          values          22
            objects       5
            arrays        4
            strings       4
            numbers       7 (6 integers)
            booleans      1
            nulls         1
          keys            14 (11 distinct)
          max depth       4
          longest string  12 bytes at /users/1/name
          largest array   3 elements at /meta/a~1b/~0
          largest object  5 members at /meta
          most frequent keys:
            2         "id"
            2         "name"
            2         "tags"
            1         "a/b"
            1         "count"
            1         "meta"
            1         "next"
            1         "ok"
            1         "ratio"
            1         "users"

        """)
    let top = try Tool.run(["stats", "--top", "2"], input: document).stdout
    #expect(top.hasSuffix("  most frequent keys:\n    2         \"id\"\n    2         \"name\"\n"))
    // --json: the same, as JSON.
    let json = try JSONValue(
      parsing: try Tool.run(["stats", "--json", "--top", "1"], input: document).stdout)
    #expect(json["values"]?["numbers"] == 7)
    #expect(json["values"]?["integers"] == 6)
    #expect(json["keys"] == 14)
    #expect(json["distinctKeys"] == 11)
    #expect(json["maxDepth"] == 4)
    #expect(json["largestArray"] == ["size": 3, "pointer": "/meta/a~1b/~0"])
    #expect(json["topKeys"] == [["key": "id", "count": 2]])
    #expect(json["keyCountsApproximate"] == false)
    // Several top-level values; nothing at all; invalid input.
    #expect(
      try Tool.run(["stats", "--multiple-values"], input: "1\n[2]\n").stdout.contains(
        "values          3 in 2 top-level values"))
    let empty = try Tool.run(["stats", "--json", "--allow-trailing-text"], input: "[]")
    #expect(try JSONValue(parsing: empty.stdout)["largestObject"] == .null)
    let bad = try Tool.run(["stats"], input: "[1,")
    #expect(bad.status == 1)
    #expect(bad.stdout == "")
  }

  @Test("stats counts keys in bounded memory: exact below the limit, marked approximate above")
  func statsManyKeys() throws {
    // 70,000 distinct keys, one of them 5,000 times.
    var text = "["
    for i in 0..<70_000 { text += "{\"k\(i)\":0,\"hot\":1}," }
    text += "{}]"
    let file = try Tool.file(text)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let json = try JSONValue(parsing: try Tool.run(["stats", "--json", "--top", "1", file]).stdout)
    #expect(json["keyCountsApproximate"] == true)
    #expect(json["distinctKeys"] == .null)
    #expect(json["keys"] == 140_000)
    #expect(json["topKeys"]?[0]?["key"] == "hot")
  }

  @Test("-o FILE, several select paths, --quiet, --version, every command's help")
  func commonFlags() throws {
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("jsonstream-out-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let written = try Tool.run(["minify", "-o", out], input: "[ 1 , 2 ]")
    #expect(written.status == 0)
    #expect(written.stdout == "")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "[1,2]\n")
    #expect(try Tool.run(["fmt", "--output", "-"], input: "[1]").stdout == "[\n  1\n]\n")
    let unwritable = try Tool.run(["minify", "-o", "/nonexistent/dir/x.json"], input: "1")
    #expect(unwritable.status == 3)
    #expect(unwritable.stderr.hasPrefix("jsonstream: cannot write /nonexistent/dir/x.json"))
    #expect(try Tool.run(["minify", "-o"], input: "1").status == 2)

    let document = #"{"a":{"id":1,"name":"x"},"b":[{"id":2}]}"#
    #expect(
      try Tool.run(["select", "$..id", "$..name"], input: document).stdout == "1\n\"x\"\n2\n")
    let input = try Tool.file(document)
    defer { try? FileManager.default.removeItem(atPath: input) }
    #expect(try Tool.run(["select", "$..id", input, "$.a.name"]).stdout == "1\n\"x\"\n2\n")

    let quiet = try Tool.run(["validate", "--quiet"], input: "[1,")
    #expect(quiet.status == 1)
    #expect(quiet.stderr == "")
    #expect(try Tool.run(["minify", "-q"], input: "[1,").stderr == "")

    let version = try Tool.run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("jsonstream ") && version.stdout.hasSuffix("\n"))

    for command in ["validate", "events", "fmt", "minify", "select", "ndjson", "stats", "convert"] {
      let help = try Tool.run([command, "--help"])
      #expect(help.status == 0, "\(command)")
      #expect(help.stdout.hasPrefix("Usage: jsonstream \(command)"), "\(command)")
      #expect(help.stdout.contains("Example"), "\(command)")
      #expect(help.stdout.contains("--chunk-size"), "\(command)")
      let unknown = try Tool.run([command, "--frobnicate"])
      #expect(unknown.status == 2, "\(command)")
      #expect(unknown.stderr == "jsonstream: unknown option '--frobnicate' for '\(command)'\n")
    }
    // Flags of one command are unknown to the others.
    #expect(try Tool.run(["validate", "--to-array"]).status == 2)
    #expect(try Tool.run(["minify", "--json"]).status == 2)
    #expect(try Tool.run(["fmt", "--top", "3"]).status == 2)
  }

  @Test("a closed output pipe ends the tool quietly, but not as a success: status 3")
  func closedPipe() throws {
    let big = try Tool.file(
      "["
        + Array(repeating: #"{"id":12345,"name":"a name"}"#, count: 200_000).joined(separator: ",")
        + "]")
    defer { try? FileManager.default.removeItem(atPath: big) }
    for command in [["ndjson"], ["fmt"], ["events"], ["select", "$[*].id"]] {
      let process = Process()
      process.executableURL = Tool.binary
      process.arguments = command + [big]
      let stdout = Pipe()
      let stderr = Pipe()
      process.standardOutput = stdout
      process.standardError = stderr
      try process.run()
      // Read a little, then close the pipe as `| head -1` does.
      _ = stdout.fileHandleForReading.readData(ofLength: 100)
      try stdout.fileHandleForReading.close()
      let errors = stderr.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 3, "\(command)")
      #expect(errors.isEmpty, "\(command): \(String(decoding: errors, as: UTF8.self))")
    }
  }

  @Test("a full disk is an I/O error: a message and exit 3")
  func fullDisk() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
    let result = try Tool.run(["minify", "-o", "/dev/full"], input: "[1,2,3]")
    #expect(result.status == 3)
    #expect(result.stderr == "jsonstream: write error: No space left on device\n")
  }

  @Test(
    "progress: a line on a terminal for a large input, erased at the end; none otherwise",
    .hugeInput, .tags(.hugeInput),
    .enabled(
      if: Tool.hasTerminal,
      "needs script(1) for a terminal; skipped"))
  func progress() throws {
    // 52 MB: over the 50 MB threshold (the tool here is a debug build: a few seconds).
    let record = #"{"id":12345,"name":"a name of some length","tags":["x","y"]},"#
    let big = try Tool.file(
      "[" + String(repeating: record, count: 52_000_000 / record.utf8.count) + "1]")
    defer { try? FileManager.default.removeItem(atPath: big) }
    // Not a terminal: nothing on standard error.
    let plain = try Tool.run(["validate", big])
    #expect(plain.status == 0 && plain.stderr.isEmpty)
    // A terminal (script(1) gives the tool one): progress lines, then the line erased.
    let (status, text) = try Tool.runOnTerminal(
      "'\(Tool.binary.path)' validate --chunk-size 4096 '\(big)'")
    #expect(status == 0)
    #expect(text.hasSuffix("\r\u{1B}[K"), "the progress line is erased at the end")
    // Drawn at most four times a second: a fast machine may finish before the first one.
    if text.count > 4 {
      #expect(text.contains(" MB  "))
      #expect(text.contains("%"))
    }
  }

  @Test("convert: JSON to binary and back gives the minified JSON; bad binary names the byte")
  func convert() throws {
    let document = #"{"a": [1, 1.50, -0, "x", "x", {"a": null}], "b": true, "c": "\u00e9"}"#
    let json = try Tool.file(document)
    let binary = json + ".jsb"
    defer {
      try? FileManager.default.removeItem(atPath: json)
      try? FileManager.default.removeItem(atPath: binary)
    }
    let toBinary = try Tool.run(["convert", "--to", "binary", json, "-o", binary])
    #expect(toBinary.status == 0 && toBinary.stderr.isEmpty)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: binary))
    #expect(bytes.prefix(4) == Data([0x4A, 0x53, 0x42, 0x1A]))
    let minified = try Tool.run(["minify", json]).stdout
    for chunk in ["1", "7", "65536"] {
      let back = try Tool.run(["convert", "--to", "json", "--chunk-size", chunk, binary])
      #expect(back.status == 0)
      #expect(back.stdout == minified, "chunk \(chunk)")
    }
    #expect(
      try Tool.run(["convert", "--to", "json", "--indent", "2", binary]).stdout
        == (try Tool.run(["fmt", json]).stdout))
    // Truncated binary: what was written stays, then the byte where it ends.
    let truncated = binary + ".cut"
    try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: truncated))
    defer { try? FileManager.default.removeItem(atPath: truncated) }
    let cut = try Tool.run(["convert", "--to", "json", truncated])
    #expect(cut.status == 1)
    #expect(cut.stderr.hasPrefix("\(truncated): byte "))
    // JSON given where binary is expected.
    let wrong = try Tool.run(["convert", "--to", "json", json])
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("no JSB header"))
    #expect(try Tool.run(["convert"], input: "1").status == 2)
    #expect(try Tool.run(["convert", "--to", "yaml"], input: "1").status == 2)
  }

  @Test("a truncated or corrupted file: the error with its position, exit 1, a valid prefix")
  func nothingLost() throws {
    let document =
      #"{"orders":[{"id":1,"name":"Zoë","tags":["a","b"],"total":12.5},"#
      + #"{"id":2,"name":"x\"y","tags":[],"total":-3e2,"ok":true,"none":null}],"n":2}"#
    var strict = JSONParseOptions()
    strict.allowMultipleValues = true
    /// Output that a strict parser accepts as far as it goes.
    func isValidPrefix(_ text: String) -> Bool {
      var parser = JSONParser(handler: JSONWriter(), options: strict)
      return (try? parser.feed(Array(text.utf8))) != nil
    }
    for command in ["fmt", "minify"] {
      let full = try Tool.run([command], input: document)
      #expect(full.status == 0)
      let bytes = Array(document.utf8)
      for cut in stride(from: 1, to: bytes.count, by: 5) {
        let truncated = String(decoding: bytes[..<cut], as: UTF8.self)
        guard !truncated.unicodeScalars.contains("\u{FFFD}") else { continue }
        let result = try Tool.run([command, "--chunk-size", "7"], input: truncated)
        #expect(result.status == 1, "\(command) cut at \(cut)")
        #expect(result.stderr.hasPrefix("<stdin>:1:"), "\(command) cut at \(cut): \(result.stderr)")
        // What was written is the start of what the whole document gives.
        #expect(full.stdout.hasPrefix(result.stdout), "\(command) cut at \(cut): \(result.stdout)")
        #expect(isValidPrefix(result.stdout), "\(command) cut at \(cut)")
      }
      for position in stride(from: 3, to: bytes.count, by: 9) {
        var corrupted = bytes
        corrupted[position] = UInt8(ascii: "#")
        let result = try Tool.run([command], input: String(decoding: corrupted, as: UTF8.self))
        // A '#' inside a string is still JSON; anywhere else it is an error, at its column
        // (in characters: 'ë' is one), or later when it ended a string early.
        if result.status == 0 { continue }
        #expect(result.status == 1, "\(command) # at \(position)")
        let column = String(decoding: bytes[..<position], as: UTF8.self).count + 1
        let reported = result.stderr.split(separator: ":").dropFirst(2).first.flatMap { Int($0) }
        #expect(
          result.stderr.hasPrefix("<stdin>:1:") && reported.map { $0 >= column } == true,
          "\(command) # at \(position): \(result.stderr)")
        #expect(isValidPrefix(result.stdout), "\(command) # at \(position): \(result.stdout)")
      }
    }
  }
}
