import Foundation
import JSONStreamTestSupport
import Testing

/// A top-level array read in blocks of lines on several threads (validate, and select with
/// paths that take the elements by wildcard or filter) gives what one thread gives: the same
/// output byte for byte, the same status, the same error at the same line and column; for
/// arrays of one element per line, and for every layout where blocks cannot be read apart
/// (read in order from there), at every block size.
@Suite(
  "jsonstream on a top-level array, on every core",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct ParallelArrayTests {
  /// Elements of a few kinds.
  static let elements: [String] = (0..<40).map { index in
    switch index % 4 {
    case 0: return #"{"id":\#(index),"name":"n\#(index)","tags":["a","b"]}"#
    case 1: return #"{"name":"é\#(index)","id":\#(index),"x":{"y":\#(index).5}}"#
    case 2: return #"[\#(index),"s\#(index)",null,true]"#
    default: return #""text \#(index)""#
    }
  }

  static func array(_ elements: [String], separator: String = ",\n", end: String = "\n]\n")
    -> String
  {
    "[\n" + elements.joined(separator: separator) + end
  }

  /// Inputs, by what they test.
  static let inputs: [(String, String)] = {
    var bad = elements
    bad[23] = #"{"id":23,"name":}"#
    var duplicate = elements
    duplicate[30] = #"{"id":30,"id":31}"#
    let pretty = elements.prefix(12).map { $0.replacingOccurrences(of: ",", with: ",\n    ") }
    return [
      ("one element per line", array(elements)),
      ("no final line break", array(elements, end: "\n]")),
      ("CRLF and blank lines", array(elements, separator: ",\r\n\r\n  ", end: "\r\n]\r\n")),
      (
        "two elements per line",
        "[\n"
          + stride(from: 0, to: 40, by: 2).map {
            elements[$0] + ", " + elements[$0 + 1]
          }.joined(separator: ",\n") + "\n]\n"
      ),
      ("an error in element 24", array(bad)),
      ("a key twice in element 31", array(duplicate)),
      ("the array not closed", array(elements, end: ",\n")),
      ("a trailing comma before the end", array(elements, end: ",\n]\n")),
      ("text after the array", array(elements, end: "\n]\n[1]\n")),
      ("commas at the start of lines", array(elements, separator: "\n,")),
      ("elements over several lines", array(elements.prefix(20) + pretty + elements[32...])),
      (
        "a byte order mark after a comma",
        array(elements.prefix(10) + ["\u{FEFF}" + elements[10]] + elements[11...])
      ),
      ("an object, not an array", "{\"a\": " + array(elements, end: "\n]\n}\n")),
      (
        "arrays in the array",
        "[\n" + elements.map { "[" + $0 + ",\n1]" }.joined(separator: ",\n") + "\n]\n"
      ),
      ("empty", ""),
      ("an empty array", "[\n]\n"),
      (
        "a long element",
        array(
          elements.prefix(5) + ["\"" + String(repeating: "z", count: 9000) + "\""]
            + elements[5...])
      ),
    ]
  }()

  static let commands: [[String]] = [
    ["validate"], ["select", "$[?@.id > 10].name"], ["select", "--raw", "$[*].name"],
    ["select", "--count", "$.*"], ["select", "$[*]"],
    // Not read in blocks (an index, a descendant): the same as before, whatever the threads.
    ["select", "$[3]"], ["select", "$..y"],
  ]

  @Test("the same output, status and error as one thread", arguments: commands)
  func sameAsOneThread(_ command: [String]) throws {
    for (name, text) in Self.inputs {
      let flagSets: [[String]] =
        name.contains("trailing comma")
        ? [[], ["--allow-trailing-commas"]]
        : name.contains("byte order") ? [[], ["--allow-bom"]] : [[]]
      try expectSameAsOneThread(command, text, name, flagSets: flagSets)
    }
  }

  @Test("a larger array on several threads, from a file and from standard input")
  func severalThreads() throws {
    let records = (0..<2_000).map { #"{"id":\#($0),"name":"n\#($0)","tags":["a","b"]}"# }
    let text = Self.array(records)
    let path = try Tool.file(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let filter = ["select", "--chunk-size", "512", "$[?@.id >= 1990].name"]
    let one = try Tool.run(filter + ["--threads", "1", path])
    #expect(one.status == 0 && one.stdout.split(separator: "\n").count == 10)
    #expect(try Tool.run(filter + ["--threads", "2", path]).stdout == one.stdout)
    #expect(try Tool.run(filter + ["--threads", "4"], input: text).stdout == one.stdout)
    let validate = try Tool.run(["validate", "--chunk-size", "512", "--threads", "2", path])
    #expect(validate.status == 0)
  }
}
