import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

// The conformance matrix for the tool: every command × the written cases × three chunk sizes
// gives the values and the error (line, column) of `JSONParser` with a recording handler.
// The tool's messages carry no byte offset and no error kind, so those are not compared.

/// A command of the tool, and what its output holds.
struct ToolCommand: Sendable, CustomStringConvertible {
  let arguments: [String]
  /// What the output holds, re-read as JSON: nil for output that is not JSON (events, stats,
  /// binary), then only its line count is compared, for events.
  let units: ConformanceUnits?
  /// Whether the command takes the case.
  var takes: @Sendable (ConformanceCase) -> Bool = { _ in true }

  var description: String { arguments.joined(separator: " ") }
  var writesJSON: Bool { units != nil }
}

/// The tool's flags for a case's options; nil when an option has no flag (a negative limit is
/// refused by the flag itself, as a usage error).
func toolFlags(_ options: JSONParseOptions) -> [String] {
  var flags: [String] = []
  let switches: [(Bool, String)] = [
    (options.allowComments, "--allow-comments"),
    (options.allowTrailingCommas, "--allow-trailing-commas"),
    (options.allowTrailingText, "--allow-trailing-text"),
    (options.allowMultipleValues, "--multiple-values"),
    (options.allowNonFiniteNumbers, "--allow-nan"), (options.allowByteOrderMark, "--allow-bom"),
    (options.looseUnicode, "--loose-unicode"),
    (options.replaceUnpairedSurrogates, "--replace-unpaired-surrogates"),
    (options.allowUnicodeNewlines, "--unicode-newlines"),
    (options.rejectNullAndNoncharacters, "--reject-noncharacters"),
  ]
  for (on, flag) in switches where on { flags.append(flag) }
  let defaults = JSONParseLimits()
  let limits = options.limits
  if limits.maxDepth != defaults.maxDepth { flags += ["--max-depth", "\(limits.maxDepth)"] }
  if limits.maxStringLength != defaults.maxStringLength {
    flags += ["--max-string-length", "\(limits.maxStringLength)"]
  }
  if limits.maxNumberLength != defaults.maxNumberLength {
    flags += ["--max-number-length", "\(limits.maxNumberLength)"]
  }
  if limits.maxInputLength != defaults.maxInputLength {
    flags += ["--max-input-length", "\(limits.maxInputLength)"]
  }
  return flags
}

/// A case with a negative limit, which the tool refuses on its command line.
func hasInvalidLimit(_ test: ConformanceCase) -> Bool {
  (try? test.options.validate()) == nil
}

enum ToolMatrix {
  static let commands: [ToolCommand] = [
    ToolCommand(arguments: ["validate"], units: nil),
    ToolCommand(arguments: ["events"], units: nil),
    ToolCommand(arguments: ["stats"], units: nil),
    ToolCommand(arguments: ["convert", "--to", "binary"], units: nil),
    ToolCommand(arguments: ["minify"], units: .topLevelValues),
    ToolCommand(arguments: ["fmt"], units: .topLevelValues),
    ToolCommand(arguments: ["select", "$[*]"], units: .rootElements),
    // A filter holds each candidate until it is complete: the same values, the same errors.
    ToolCommand(arguments: ["select", "$[?@]"], units: .rootElements),
    ToolCommand(arguments: ["select", "--first", "1000000", "$[*]"], units: .rootElements),
    // Output that is not JSON: the same status and error position.
    ToolCommand(arguments: ["select", "--raw", "$[*]"], units: nil),
    ToolCommand(arguments: ["select", "--count", "$[*]"], units: nil),
    ToolCommand(arguments: ["select", "--paths", "$[*]"], units: nil),
    // Values one after another, or a top-level array's elements, in blocks of lines on
    // several threads; or on one.
    ToolCommand(arguments: ["validate", "--threads", "3"], units: nil),
    ToolCommand(arguments: ["minify", "--threads", "3"], units: .topLevelValues) {
      $0.options.allowMultipleValues
    },
    ToolCommand(arguments: ["minify", "--threads", "1"], units: .topLevelValues) {
      $0.options.allowMultipleValues
    },
    ToolCommand(arguments: ["select", "--threads", "3", "$[*]"], units: .rootElements),
    ToolCommand(arguments: ["select", "--threads", "3", "$[?@]"], units: .rootElements),
    // ndjson takes a top-level array (or several) and writes its elements.
    ToolCommand(arguments: ["ndjson"], units: .rootElements) { test in
      let text = String(decoding: test.bytes, as: UTF8.self)
      return text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("[")
        && !test.options.allowMultipleValues
    },
    // A patch that changes nothing: an empty JSON Patch streams (it cannot fail), and so does
    // a merge patch, which changes values that are not objects into objects: it takes objects.
    ToolCommand(arguments: ["patch", patchFile("[]")], units: .topLevelValues),
    ToolCommand(arguments: ["patch", "--merge", patchFile("{}")], units: .topLevelValues) { test in
      let text = String(decoding: test.bytes, as: UTF8.self)
      return text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{")
        && !test.options.allowMultipleValues
    },
  ]

  /// A patch file holding `text`, for the whole test run. Named by its text (as hex), so
  /// that every run reuses the same few files instead of leaving new ones behind; written
  /// atomically, so that runs at the same time see the whole file.
  static func patchFile(_ text: String) -> String {
    let name = text.utf8.map { String($0, radix: 16) }.joined()
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("jsonstream-tool-matrix-patch-\(name).json").path
    try! Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    return path
  }

  /// The tool's commands, as its help lists them.
  static var helpCommands: [String] {
    get throws {
      let help = try Tool.run(["--help"]).stdout
      // Lines of the command list: two spaces, the command, spaces, its summary.
      return help.split(separator: "\n").compactMap { line in
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first,
          first.allSatisfy({ $0.isLetter }), words.count > 2
        else { return nil }
        return String(first)
      }
    }
  }
}

/// Line and column of the first `FILE:LINE:COLUMN: message` of the tool's stderr.
func toolErrorPosition(_ stderr: String) -> (line: Int, column: Int)? {
  let pattern = try! NSRegularExpression(pattern: #"^[^\n]*?:(\d+):(\d+): "#)
  guard
    let match = pattern.firstMatch(in: stderr, range: NSRange(stderr.startIndex..., in: stderr)),
    let line = Range(match.range(at: 1), in: stderr),
    let column = Range(match.range(at: 2), in: stderr)
  else { return nil }
  return (Int(stderr[line])!, Int(stderr[column])!)
}

@Suite(
  "Conformance matrix: the tool",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct ToolConformanceTests {
  @Test(
    "every command gives the reference's values and error, at every chunk size",
    arguments: ToolMatrix.commands)
  func matrix(_ command: ToolCommand) throws {
    var compared = 0
    for test in ConformanceCase.written where !test.rejectsDuplicateKeys && command.takes(test) {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("tool-matrix-\(UUID().uuidString).json").path
      try Data(test.bytes).write(to: URL(fileURLWithPath: path))
      defer { try? FileManager.default.removeItem(atPath: path) }
      for chunkSize in ["65536", "1", "7"] {
        let result = try Tool.run(
          command.arguments + [path, "--chunk-size", chunkSize] + toolFlags(test.options))
        let what = "\(command), \(test), chunks of \(chunkSize)"
        if hasInvalidLimit(test) {
          #expect(result.status == 2, "a negative limit is a usage error: \(what)")
          continue
        }
        let expected = referenceOutcome(test, units: command.units ?? .events, asWritten: true)
        #expect(result.status == (expected.error == nil ? 0 : 1), "\(what): \(result.stderr)")
        let position = toolErrorPosition(result.stderr)
        #expect(position?.line == expected.error?.line, "\(what): \(result.stderr)")
        #expect(position?.column == expected.error?.column, "\(what): \(result.stderr)")
        if let units = command.units {
          #expect(try outputUnits(result.stdout, units, test) == expected.units, "\(what)")
          if expected.error != nil && !result.stdout.isEmpty {
            #expect(result.stderr.contains("the output stops at this error"), "\(what)")
          }
        } else if command.arguments == ["events"] {
          let lines = result.stdout.split(separator: "\n").count
          #expect(lines == expected.units[0].count, "every event before the error: \(what)")
        }
        compared += 1
      }
    }
    #expect(compared > 0)
  }

  /// The values of a writing command's output: its complete values, re-read (the output
  /// before an error is the start of valid JSON, so nothing but its end may be missing).
  func outputUnits(_ output: String, _ units: ConformanceUnits, _ test: ConformanceCase) throws
    -> [[Event]]
  {
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    options.allowNonFiniteNumbers = test.options.allowNonFiniteNumbers
    options.limits.maxNumberLength = .max
    options.limits.maxDepth = .max
    // The values as written, member for member (a tree would fold repeated keys).
    var reader = JSONParser(handler: EventRecorder(), options: options)
    do {
      try reader.feed(output.utf8)
      try reader.finish()
    } catch let cut as JSONParseError {
      #expect(cut.kind == .unexpectedEndOfInput, "the output is not a prefix: \(cut)")
    }
    let recorder = reader.handler
    return cut(recorder.events, units == .rootElements ? .topLevelValues : units)
  }

  @Test("every command of the tool is in its conformance matrix")
  func everyCommandIsInTheMatrix() throws {
    let listed = try ToolMatrix.helpCommands
    #expect(listed.count >= 8, "the help lists \(listed)")
    let inMatrix = Set(ToolMatrix.commands.map { $0.arguments[0] })
    for command in listed {
      #expect(inMatrix.contains(command), "\(command) is a command the matrix lacks")
    }
  }
}
