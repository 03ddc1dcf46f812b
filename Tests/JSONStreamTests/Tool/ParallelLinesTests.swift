import Foundation
import JSONStreamTestSupport
import Testing

/// NDJSON parsed in blocks of lines on several threads gives what one thread gives: the same
/// output byte for byte, the same status, the same error at the same line and column, and the
/// same note about the output; on lines, on values spread over lines (read in order from
/// there), with errors anywhere, at every block size.
@Suite(
  "jsonstream on NDJSON, on every core",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct ParallelLinesTests {
  /// Records of a few kinds, one per line.
  static let records: [String] = (0..<40).map { index in
    switch index % 4 {
    case 0: return #"{"id":\#(index),"name":"n\#(index)","tags":["a","b"]}"#
    case 1: return #"{"name":"","id":\#(index),"x":{"y":\#(index).5}}"#
    case 2: return #"[\#(index),"s\#(index)",null,true]"#
    default: return #""text \#(index)""#
    }
  }

  /// Inputs, by what they test.
  static let inputs: [(String, String)] = {
    let lines = records
    var bad = lines
    bad[23] = #"{"id":23,"name":}"#
    var cut = lines
    cut[39] = #"{"id":39,"name":"x""#
    let pretty = lines.prefix(8).joined(separator: "\n").replacingOccurrences(
      of: ",", with: ",\n  ")
    var blank = lines
    blank.insert("", at: 5)
    blank.insert("   ", at: 20)
    return [
      ("lines", lines.joined(separator: "\n") + "\n"),
      ("no final line break", lines.joined(separator: "\n")),
      ("CRLF and blank lines", blank.joined(separator: "\r\n") + "\r\n\r\n"),
      ("an error in line 24", bad.joined(separator: "\n") + "\n"),
      ("a value cut at the end", cut.joined(separator: "\n") + "\n"),
      (
        "values over several lines", lines.prefix(20).joined(separator: "\n") + "\n" + pretty + "\n"
      ),
      ("an error after values over lines", pretty + "\n{\"a\": tru}\n"),
      (
        "a byte order mark in line 11",
        lines.prefix(10).joined(separator: "\n") + "\n\u{FEFF}"
          + lines[10...].joined(separator: "\n")
      ),
      (
        "a long first line",
        "[\"" + String(repeating: "z", count: 9000) + "\"]\n" + lines.joined(separator: "\n") + "\n"
      ),
      (
        "a long first line with an error",
        "[" + String(repeating: "1,", count: 3000) + " x]\n" + lines.joined(separator: "\n") + "\n"
      ),
      (
        "a long line",
        lines.prefix(5).joined(separator: "\n") + "\n[\"" + String(repeating: "z", count: 9000)
          + "\"]\n" + lines[5...].joined(separator: "\n")
      ),
    ]
  }()

  static let commands: [[String]] = [
    ["validate"], ["minify"], ["fmt", "--sort-keys"], ["select", "$.name"],
    ["select", "--raw", "$.name"], ["select", "--count", "$..y"], ["select", "--paths", "$[*]"],
  ]

  @Test("the same output, status and error as one thread", arguments: commands)
  func sameAsOneThread(_ command: [String]) throws {
    for (name, text) in Self.inputs {
      let flagSets: [[String]] = name.contains("byte order") ? [[], ["--allow-bom"]] : [[]]
      try expectSameAsOneThread(command + ["--multiple-values"], text, name, flagSets: flagSets)
    }
  }

  @Test("select reads its files one after another, an error in the second named in it")
  func severalFiles() throws {
    let good = try Tool.file(Self.records.joined(separator: "\n") + "\n")
    let bad = try Tool.file(Self.records.prefix(7).joined(separator: "\n") + "\n{]\n")
    defer {
      try? FileManager.default.removeItem(atPath: good)
      try? FileManager.default.removeItem(atPath: bad)
    }
    for arguments in [["$.id"], ["--count", "$.id"]] {
      let base = ["select", "--multiple-values", "--chunk-size", "5"] + arguments
      let one = try Tool.run(base + [good, bad, good, "--threads", "1"])
      let many = try Tool.run(base + [good, bad, good, "--threads", "2"])
      #expect(one.status == 1 && many.status == 1)
      #expect(many.stdout == one.stdout)
      #expect(many.stderr.hasPrefix("\(bad):8:2: "), "\(many.stderr)")
      #expect(errorSummary(many.stderr) == errorSummary(one.stderr))
      let valid = try Tool.run(base + [good, good, "--threads", "2"])
      #expect(valid.stdout == (try Tool.run(base + [good, good, "--threads", "1"])).stdout)
    }
  }

  @Test("standard input is read in blocks too, and --threads takes a positive number")
  func standardInput() throws {
    let text = Self.records.joined(separator: "\n") + "\n"
    let one = try Tool.run(["minify", "--multiple-values", "--threads", "1"], input: text)
    let many = try Tool.run(
      ["minify", "--multiple-values", "--threads", "4", "--chunk-size", "2"], input: text)
    #expect(one.status == 0 && many.stdout == one.stdout)
    #expect(try Tool.run(["validate", "--threads", "0"]).status == 2)
    #expect(try Tool.run(["events", "--threads", "2"]).status == 2)
  }
}

/// The first line of an error report (place and message) and its last (what became of the
/// output). The line quoted between them may show more of the input on several threads,
/// which keep whole blocks.
func errorSummary(_ stderr: String) -> [Substring] {
  let lines = stderr.split(separator: "\n")
  return lines.count > 3 ? [lines[0], lines[lines.count - 1]] : Array(lines.prefix(1))
}

/// Runs `command` on `text` with each of `flagSets` and several block sizes, on three threads
/// and on one, and expects the same status, output and error; from a file, and at one block
/// size piped.
func expectSameAsOneThread(
  _ command: [String], _ text: String, _ name: String, flagSets: [[String]]
) throws {
  let path = try Tool.file(text)
  defer { try? FileManager.default.removeItem(atPath: path) }
  for flags in flagSets {
    for chunkSize in ["1", "3", "8", "64"] {
      let base = command + ["--chunk-size", chunkSize] + flags + [path]
      let one = try Tool.run(base + ["--threads", "1"])
      let many = try Tool.run(base + ["--threads", "3"])
      let what = "\(command) \(flags), \(name), chunks of \(chunkSize)"
      #expect(many.status == one.status, "\(what): \(many.stderr)")
      #expect(many.stdout == one.stdout, "\(what)")
      #expect(errorSummary(many.stderr) == errorSummary(one.stderr), "\(what): \(many.stderr)")
      // A file is mapped; a pipe is read, block after block.
      guard chunkSize == "3" else { continue }
      let piped = try Tool.run(
        command + ["--chunk-size", chunkSize, "--threads", "3"] + flags, pipedPath: path)
      #expect(piped.status == one.status, "\(what), piped: \(piped.stderr)")
      #expect(piped.stdout == one.stdout, "\(what), piped")
      #expect(
        errorSummary(piped.stderr)
          == errorSummary(one.stderr).map { $0.replacing(path, with: "<stdin>") },
        "\(what), piped: \(piped.stderr)")
    }
  }
}
