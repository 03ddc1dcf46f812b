import Foundation
import JSONStreamTestSupport
import Testing

/// Runs the `jsonstream` binary built next to the test bundle.
struct Tool {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let binary: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("jsonstream")

  static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

  /// Whether script(1) is there to give the tool a terminal.
  static var hasTerminal: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

  /// Runs `command`, a shell command line, on a terminal that script(1) provides: its exit
  /// status, and what it wrote to the terminal (standard output and error together).
  static func runOnTerminal(_ command: String) throws -> (status: Int32, output: String) {
    try runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
  }

  /// Runs the tool with `input` on its standard input, or with the file at `pipedPath` piped
  /// in by `cat` (large inputs: written here before the output is read, they would fill both
  /// pipes). `setup` is shell commands run before the tool, for what only a shell sets, such
  /// as `umask 027` or `ulimit -f 1` (not with `pipedPath`).
  static func run(
    _ arguments: [String], input: String = "", pipedPath: String? = nil, setup: String? = nil
  ) throws -> Result {
    let process = Process()
    if let pipedPath {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      let script = #"cat "$0" 2>/dev/null | "$@""#
      process.arguments = ["-c", script, pipedPath, binary.path] + arguments
    } else if let setup {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", setup + #" && exec "$0" "$@""#, binary.path] + arguments
    } else {
      process.executableURL = binary
      process.arguments = arguments
    }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    // A tool that does not read its input (it was given a file) may exit before this write:
    // the write then fails with EPIPE, which must not end the test process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    try process.run()
    if !input.isEmpty { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  /// A temporary file holding `bytes`; the caller removes it.
  static func file(_ bytes: String) throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("jsonstream-test-\(UUID().uuidString).json")
    try Data(bytes.utf8).write(to: url)
    return url.path
  }
}

@Suite(
  "jsonstream validate and events",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct ToolTests {
  @Test("events prints the documented line format")
  func events() throws {
    let result = try Tool.run(
      ["events"], input: #"{"a\"":[1,-2.50e+3,true,false,null,"x\ny\u00e9\u0001"],"b":{}}"#)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        start_object
        key "a\\""
        start_array
        number 1
        number -2.50e+3
        true
        false
        null
        string "x\\nyé\\u0001"
        end_array
        key "b"
        start_object
        end_object
        end_object

        """)
  }

  @Test("events is identical for every chunk size")
  func chunkSizes() throws {
    let document = #"{"k":["é😀\uD83D\uDE00", 123.5e-2, [true, {"z": null}]], "s": "\\\""}"#
    let whole = try Tool.run(["events"], input: document)
    for size in ["1", "2", "3", "7", "64"] {
      #expect(
        try Tool.run(["events", "--chunk-size", size], input: document).stdout == whole.stdout)
    }
  }

  @Test("validate: exit 0 when valid, 1 with FILE:LINE:COLUMN: message when not")
  func validate() throws {
    let good = try Tool.file("[1, 2]")
    defer { try? FileManager.default.removeItem(atPath: good) }
    #expect(try Tool.run(["validate", good]).status == 0)
    let bad = try Tool.file("{\n  \"a\": 1,\n  \"b\": tru\n}")
    defer { try? FileManager.default.removeItem(atPath: bad) }
    let result = try Tool.run(["validate", bad])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "\(bad):3:11: invalid literal: expected 'true', found '\\n'\n    \"b\": tru\n"
        + "            ^\n"
    )
    let stdin = try Tool.run(["validate", "-"], input: "[1,]")
    #expect(stdin.stderr == "<stdin>:1:4: trailing comma before ']'\n  [1,]\n     ^\n")
    #expect(try Tool.run(["validate", "--chunk-size", "1"], input: "[1,]").stderr == stdin.stderr)
  }

  @Test("each parse option has its flag")
  func optionFlags() throws {
    let cases: [(String, String)] = [
      ("--allow-comments", "[1 /* c */] // c"), ("--allow-trailing-commas", "[1,]"),
      ("--allow-trailing-text", "[1] x"), ("--multiple-values", "1 2\n3"),
      ("--allow-nan", "[NaN, -Infinity]"), ("--allow-bom", "\u{FEFF}[]"),
      ("--loose-unicode", #"["\uD800"]"#), ("--replace-unpaired-surrogates", #"["\uDC00"]"#),
      ("--unicode-newlines", "[1,\u{2028}2]"),
    ]
    for (flag, document) in cases {
      #expect(try Tool.run(["validate"], input: document).status == 1, "\(flag)")
      #expect(try Tool.run(["validate", flag], input: document).status == 0, "\(flag)")
    }
    #expect(
      try Tool.run(["validate", "--reject-noncharacters"], input: #"["\u0000"]"#).status == 1)
    #expect(try Tool.run(["validate", "--max-depth", "2"], input: "[[[]]]").status == 1)
    #expect(try Tool.run(["validate", "--max-string-length", "2"], input: #""abc""#).status == 1)
    #expect(try Tool.run(["validate", "--max-number-length", "2"], input: "123").status == 1)
    #expect(try Tool.run(["validate", "--max-input-length", "2"], input: "123").status == 1)
  }

  @Test("usage errors exit 2, I/O errors exit 3, help exits 0")
  func usage() throws {
    #expect(try Tool.run([]).status == 2)
    #expect(try Tool.run(["frobnicate"]).status == 2)
    #expect(try Tool.run(["validate", "--no-such-flag"]).status == 2)
    #expect(try Tool.run(["validate", "--chunk-size"]).status == 2)
    #expect(try Tool.run(["validate", "--chunk-size", "0"]).status == 2)
    // Allocated up front: beyond 1 GiB, a usage error rather than a failed allocation.
    let huge = try Tool.run(["validate", "--chunk-size", "999999999999"], input: "1")
    #expect(huge.status == 2 && huge.stderr.contains("from 1 to 1073741824"), "\(huge.stderr)")
    #expect(try Tool.run(["validate", "a.json", "b.json"]).status == 2)
    let missing = try Tool.run(["validate", "/nonexistent/file.json"])
    #expect(missing.status == 3)
    #expect(missing.stderr.hasPrefix("jsonstream: cannot open /nonexistent/file.json"))
    let help = try Tool.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("validate"))
    let eventsHelp = try Tool.run(["events", "--help"])
    #expect(eventsHelp.status == 0)
    #expect(eventsHelp.stdout.contains("--chunk-size"))
    #expect(eventsHelp.stdout.contains("--allow-comments"))
  }

  @Test("usage with no arguments goes to standard error; help COMMAND is COMMAND --help")
  func helpAndUsage() throws {
    let none = try Tool.run([])
    #expect(none.status == 2)
    #expect(none.stdout.isEmpty)
    #expect(none.stderr.contains("Usage: jsonstream COMMAND"))
    let help = try Tool.run(["help", "fmt"])
    #expect(help.status == 0)
    #expect(help.stdout == (try Tool.run(["fmt", "--help"])).stdout)
    #expect(help.stdout.contains("--indent"))
    for wrong in [["help", "frobnicate"], ["help", "fmt", "select"]] {
      let result = try Tool.run(wrong)
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix("jsonstream: 'help' takes one command: validate, "))
    }
  }

  @Test("--option=value is --option value; after --, arguments starting with - are files")
  func attachedValuesAndEndOfOptions() throws {
    let input = #"{"a":[1,2]}"#
    #expect(
      try Tool.run(["fmt", "--indent=4"], input: input).stdout
        == (try Tool.run(["fmt", "--indent", "4"], input: input)).stdout)
    #expect(try Tool.run(["fmt", "--indent=4"], input: input).stdout.contains("\n    \"a\""))
    #expect(try Tool.run(["validate", "--max-depth=1"], input: input).status == 1)
    #expect(try Tool.run(["validate", "--max-depth=2"], input: input).status == 0)
    // A value where none is taken, and a bad attached value, are usage errors.
    let quiet = try Tool.run(["validate", "--quiet=yes"], input: input)
    #expect(quiet.status == 2)
    #expect(quiet.stderr == "jsonstream: option '--quiet' takes no value\n")
    #expect(try Tool.run(["fmt", "--indent="], input: input).status == 2)
    #expect(try Tool.run(["convert", "--to=xml"], input: input).status == 2)
    // After --, "-x.json" is a file (here, a missing one: an I/O error, not an option).
    let dashed = try Tool.run(["validate", "--", "-x.json"])
    #expect(dashed.status == 3)
    #expect(dashed.stderr.hasPrefix("jsonstream: cannot open -x.json"))
    #expect(try Tool.run(["validate", "-x.json"]).status == 2)
    // select: a path after -- too.
    let selected = try Tool.run(["select", "--", "$.a[0]"], input: input)
    #expect(selected.stdout == "1\n")
    // A file whose name starts with $: after --, names are files.
    let dollarFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dollar-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dollarFolder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dollarFolder) }
    try Data(#"{"a":[7]}"#.utf8).write(to: dollarFolder.appendingPathComponent("$data.json"))
    try Data(#"{"a":[8]}"#.utf8).write(to: dollarFolder.appendingPathComponent("plain.json"))
    func inFolder(_ arguments: [String]) throws -> String {
      try Tool.run(arguments, setup: "cd '\(dollarFolder.path)'").stdout
    }
    #expect(try inFolder(["select", "$.a[0]", "--", "$data.json"]) == "7\n")
    #expect(try inFolder(["select", "--", "$.a[0]", "$data.json"]) == "7\n")
    #expect(try inFolder(["select", "$.a[0]", "plain.json", "--", "$data.json"]) == "8\n7\n")
    // Without --, a $ argument is a path, before or after the files.
    #expect(try inFolder(["select", "$.a[0]", "$.a[1]", "plain.json"]) == "8\n")
    #expect(try inFolder(["select", "$.a[0]", "plain.json", "$.a[1]"]) == "8\n")
    // -o=FILE is not an option; --output=FILE is.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "attached-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("out.json").path
    #expect(try Tool.run(["minify", "--output=\(output)"], input: input).status == 0)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == input + "\n")
  }

  @Test("error excerpts: control characters escaped, the caret under wide characters' column")
  func excerpts() throws {
    // An escape sequence in the input reaches the terminal as text, not as a command.
    let hostile = try Tool.run(["validate"], input: "[\"\u{1B}[2J\u{9B}31m\", 1 2]")
    #expect(hostile.status == 1)
    #expect(!hostile.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
    #expect(hostile.stderr.contains(#"\u{1B}[2J\u{9B}31m"#))
    // The caret: under "x", after three characters two columns wide each.
    let wide = try Tool.run(["validate"], input: "[\"日本語\", x]")
    #expect(wide.stderr.hasSuffix("  [\"日本語\", x]\n  " + String(repeating: " ", count: 11) + "^\n"))
    // A control character before the error counts as its escaped text.
    let control = try Tool.run(["validate", "--allow-comments"], input: "[1, /*\u{7}*/ x]")
    #expect(
      control.stderr.hasSuffix(
        "  [1, /*\\u{7}*/ x]\n  " + String(repeating: " ", count: 14) + "^\n"))
    // A combining accent takes no column.
    let combining = try Tool.run(["validate"], input: "[\"e\u{301}\", x]")
    #expect(combining.stderr.hasSuffix(String(repeating: " ", count: 8) + "^\n"))
  }

  @Test("a second top-level value: a hint to use --multiple-values")
  func multipleValuesHint() throws {
    let lines = try Tool.run(["fmt"], input: "{\"a\":1}\n{\"b\":2}\n")
    #expect(lines.status == 1)
    #expect(lines.stderr.contains("\nhint: a second value follows the first; for NDJSON"))
    #expect(
      (try Tool.run(["validate"], input: "1 2")).stderr.hasSuffix("add --multiple-values\n"))
    // Not for other errors, and not when the flag is on.
    #expect(!(try Tool.run(["fmt"], input: "[1,]")).stderr.contains("hint"))
    #expect(try Tool.run(["fmt", "--multiple-values"], input: "{}\n{}\n").status == 0)
  }

  @Test(
    "binary output is refused on a terminal unless forced",
    .enabled(
      if: Tool.hasTerminal,
      "needs script(1) for a terminal; skipped"))
  func binaryOnTerminal() throws {
    func onTerminal(_ arguments: String) throws -> (status: Int32, text: String) {
      let result = try Tool.runOnTerminal(
        "echo '[1]' | '\(Tool.binary.path)' convert --to binary \(arguments)")
      return (result.status, result.output)
    }
    let refused = try onTerminal("")
    #expect(refused.status == 2)
    #expect(refused.text.contains("binary output is not for a terminal"))
    #expect(try onTerminal("--force").status == 0)
    // Not a terminal: written.
    #expect(try Tool.run(["convert", "--to", "binary"], input: "[1]").status == 0)
  }

  /// Runs `script` with `shell` (`bash -c` / `zsh -c`); its standard output.
  static func shell(_ shell: String, _ script: String) throws -> (status: Int32, stdout: String) {
    let result = try runProgram(shell, ["-c", script], withStandardError: false)
    return (result.status, result.output)
  }

  @Test("completions bash: commands, each command's options, --to's values, files")
  func bashCompletions() throws {
    let script = try Tool.run(["completions", "bash"])
    #expect(script.status == 0)
    let path = try Tool.file(script.stdout)
    defer { try? FileManager.default.removeItem(atPath: path) }
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let result = try Self.shell(
        "/bin/bash",
        "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _jsonstream;"
          + " printf '%s\\n' \"${COMPREPLY[@]}\"")
      #expect(result.status == 0)
      return result.stdout.split(separator: "\n").map(String.init)
    }
    #expect(try complete(["jsonstream", "fm"]) == ["fmt"])
    #expect(try complete(["jsonstream", "co"]) == ["convert", "completions"])
    #expect(
      try complete(["jsonstream", "select", "--c"]) == ["--color", "--chunk-size", "--count"])
    #expect(try complete(["jsonstream", "fmt", "--color", ""]) == ["auto", "always", "never"])
    #expect(try complete(["jsonstream", "convert", "--to", ""]) == ["binary", "json"])
    #expect(try complete(["jsonstream", "fmt", "--ind"]) == ["--indent"])
    // Options of one command only where they apply.
    #expect(try complete(["jsonstream", "validate", "--ind"]) == [])
    #expect(try complete(["jsonstream", "help", "pa"]) == ["patch"])
    #expect(try Tool.run(["completions", "fish"]).status == 2)
    // A file name with spaces is one completion (bash quotes it), in the folder it is run in.
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("[]".utf8).write(to: folder.appendingPathComponent("my orders.json"))
    try Data("[]".utf8).write(to: folder.appendingPathComponent("my list.json"))
    let inFolder = try Self.shell(
      "/bin/bash",
      "cd '\(folder.path)'; source '\(path)'; COMP_WORDS=(jsonstream fmt my); COMP_CWORD=2;"
        + " _jsonstream; printf '%s\\n' \"${COMPREPLY[@]}\"")
    #expect(
      inFolder.stdout.split(separator: "\n").map(String.init).sorted()
        == ["my list.json", "my orders.json"])
  }

  @Test(
    "completions zsh: a script zsh reads",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "needs zsh; skipped"))
  func zshCompletions() throws {
    let script = try Tool.run(["completions", "zsh"])
    #expect(script.status == 0)
    #expect(script.stdout.hasPrefix("#compdef jsonstream\n"))
    let path = try Tool.file(script.stdout)
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try Self.shell("/usr/bin/zsh", "zsh -n '\(path)'").status == 0)
    for command in ["validate", "select", "convert", "patch"] {
      #expect(script.stdout.contains("\n      \(command)) _arguments '--help'"))
    }
    #expect(script.stdout.contains("'--to=[output format]:format:(binary json)'"))
  }

  @Test("--color: JSON output and errors coloured when asked; NO_COLOR; never in a file")
  func colors() throws {
    let input = #"{"a":[1,"x",null,true,NaN,[null]],"b":{"c":"{\",\"d\":"}}"#
    let plain = try Tool.run(["minify", "--allow-nan"], input: input)
    #expect(!plain.stdout.contains("\u{1B}"), "not a terminal: no colour")
    let colored = try Tool.run(["minify", "--allow-nan", "--color=always"], input: input)
    let key = "\u{1B}[34;1m"
    let string = "\u{1B}[32m"
    let null = "\u{1B}[1;30m"
    let reset = "\u{1B}[0m"
    #expect(
      colored.stdout
        == "{\(key)\"a\"\(reset):[1,\(string)\"x\"\(reset),\(null)null\(reset),true,NaN,"
        + "[\(null)null\(reset)]],"
        + "\(key)\"b\"\(reset):{\(key)\"c\"\(reset):\(string)\"{\\\",\\\"d\\\":\"\(reset)}}\n")
    // Without the codes, the same text.
    let stripped = colored.stdout.replacingOccurrences(of: key, with: "")
      .replacingOccurrences(of: string, with: "").replacingOccurrences(of: null, with: "")
      .replacingOccurrences(of: reset, with: "")
    #expect(stripped == plain.stdout)
    // Errors: the place, the message and the caret.
    let error = try Tool.run(["validate", "--color", "always"], input: "[1,x]")
    #expect(error.stderr.hasPrefix("\u{1B}[1m<stdin>:1:4:\u{1B}[0m \u{1B}[31mexpected"))
    // auto: not a terminal here; never: none; a bad choice: a usage error.
    #expect(!(try Tool.run(["fmt", "--color=auto"], input: input)).stdout.contains("\u{1B}"))
    #expect(try Tool.run(["fmt", "--color=sometimes"], input: input).status == 2)
    // select's raw strings and paths are not JSON: never coloured.
    let raw = try Tool.run(
      ["select", "-r", "--allow-nan", "--color=always", "$.b.c"], input: input)
    #expect(raw.stdout == "{\",\"d\":\n")
    // Output that stops right after a coloured token (the input fails there): the colour is
    // reset, so that the message that follows is not grey.
    let cut = try Tool.run(["minify", "--color=always"], input: "[null,x]")
    #expect(cut.status == 1)
    #expect(cut.stdout == "[\(null)null\(reset)")
  }

  @Test(
    "--color=auto on a terminal colours, unless NO_COLOR is set",
    .enabled(
      if: Tool.hasTerminal,
      "needs script(1) for a terminal; skipped"))
  func colorOnTerminal() throws {
    func onTerminal(_ environment: String) throws -> String {
      try Tool.runOnTerminal(
        "echo '{\"a\":null}' | \(environment) '\(Tool.binary.path)' minify"
      ).output
    }
    // The tests may run with NO_COLOR set: unset for the first run.
    #expect(try onTerminal("env -u NO_COLOR").contains("\u{1B}[34;1m\"a\""))
    #expect(!(try onTerminal("env NO_COLOR=1")).contains("\u{1B}"))
  }

  @Test("events on invalid input: the events so far, then the error, exit 1")
  func eventsThenError() throws {
    let result = try Tool.run(["events"], input: "[1, x]")
    #expect(result.status == 1)
    #expect(result.stdout == "start_array\nnumber 1\n")
    #expect(
      result.stderr == "<stdin>:1:5: expected a value after ',', found 'x'\n  [1, x]\n      ^\n")
  }
}

@Suite(
  "jsonstream fmt and minify",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct TranscodeToolTests {
  let document = #"{"b" : [1, -2.50e+3, {"c" : "é\n😀"}], "a" : {}, "d": [], "e": null}"#

  @Test("minify: no whitespace outside strings; same for every chunk size")
  func minify() throws {
    let result = try Tool.run(["minify"], input: document)
    #expect(result.status == 0)
    #expect(result.stdout == #"{"b":[1,-2.50e+3,{"c":"é\n😀"}],"a":{},"d":[],"e":null}"# + "\n")
    for size in ["1", "3", "17"] {
      #expect(
        try Tool.run(["minify", "--chunk-size", size], input: document).stdout == result.stdout)
    }
  }

  @Test("a large file is read ahead in blocks: the same output as from stdin, errors in place")
  func readAhead() throws {
    // Files over four chunks are read a block (about 1 MB of whole chunks) ahead on another
    // thread, and handed to the parser chunk by chunk; stdin is read directly. Odd chunk sizes
    // put chunk and block boundaries inside tokens.
    var records: [String] = []
    for index in 0..<30_000 {
      records.append(#"{"id":\#(index),"name":"Zoë \"\#(index)\"","tags":["a","😀"],"x":-1.5e3}"#)
    }
    let document = "[\n" + records.joined(separator: ",\n") + "\n]\n"
    let path = try Tool.file(document)
    defer { try? FileManager.default.removeItem(atPath: path) }
    for size in ["997", "65536"] {
      let fromFile = try Tool.run(["minify", "--chunk-size", size, path])
      // A pipe is read directly, not ahead.
      let fromStdin = try Tool.run(["minify", "--chunk-size", size], pipedPath: path)
      #expect(fromFile.status == 0)
      #expect(fromFile.stdout.utf8.count > 2_000_000)
      // Compared first: a failure would print megabytes.
      let same = fromFile.stdout == fromStdin.stdout
      #expect(same, "chunk size \(size)")
      #expect(fromStdin.status == 0)
    }
    // An error near the end: its line, column and text, as from stdin.
    var broken = records
    broken[29_000] = #"{"id":29000,"name":"unterminated}"#
    let brokenDocument = "[\n" + broken.joined(separator: ",\n") + "\n]\n"
    let brokenPath = try Tool.file(brokenDocument)
    defer { try? FileManager.default.removeItem(atPath: brokenPath) }
    let result = try Tool.run(["validate", "--chunk-size", "997", brokenPath])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("\(brokenPath):29002:35: control character 0x0A"))
    #expect(result.stderr.contains(#"  {"id":29000,"name":"unterminated},"#))
    let fromStdin = try Tool.run(["validate", "--chunk-size", "997"], pipedPath: brokenPath)
    #expect(
      fromStdin.stderr.replacingOccurrences(of: "<stdin>", with: brokenPath) == result.stderr)
  }

  @Test("fmt: pretty, idempotent, with every writer option")
  func fmt() throws {
    let pretty = try Tool.run(["fmt"], input: document).stdout
    #expect(
      pretty == """
        {
          "b": [
            1,
            -2.50e+3,
            {
              "c": "é\\n😀"
            }
          ],
          "a": {},
          "d": [],
          "e": null
        }

        """)
    #expect(try Tool.run(["fmt"], input: pretty).stdout == pretty)
    #expect(try Tool.run(["fmt", "--chunk-size", "2"], input: document).stdout == pretty)
    let sorted = try Tool.run(["fmt", "--indent", "1", "--sort-keys"], input: document).stdout
    #expect(sorted.hasPrefix("{\n \"a\": {},\n \"b\": [\n  1,"))
    #expect(
      try Tool.run(["minify", "--escape-unicode"], input: #"["é😀"]"#).stdout
        == "[\"\\u00e9\\ud83d\\ude00\"]\n")
    #expect(
      try Tool.run(["minify", "--escape-slash"], input: #"["a/b"]"#).stdout == "[\"a\\/b\"]\n")
    #expect(
      try Tool.run(["minify", "--multiple-values"], input: "{} [1]\n2").stdout == "{}\n[1]\n2\n")
    #expect(try Tool.run(["minify", "--allow-comments"], input: "[1 /* c */]").stdout == "[1]\n")
  }

  @Test("invalid input: exit 1 with the position; usage errors exit 2")
  func errors() throws {
    let result = try Tool.run(["fmt"], input: "[1,\n x]")
    #expect(result.status == 1)
    #expect(
      result.stderr == "<stdin>:2:2: expected a value after ',', found 'x'\n   x]\n   ^\n"
        + "jsonstream: the output stops at this error: what was written (5 bytes) is the start"
        + " of the JSON, cut short\n")
    #expect(try Tool.run(["minify", "--indent", "2"]).status == 2)
    #expect(try Tool.run(["validate", "--sort-keys"]).status == 2)
    #expect(try Tool.run(["fmt", "--indent", "-1"]).status == 2)
    #expect(try Tool.run(["fmt", "--indent", "1025"], input: "[1]").status == 2)
    #expect(try Tool.run(["fmt", "--indent", "1024"], input: "[1]").status == 0)
    #expect(try Tool.run(["validate", "--max-depth", "-1"], input: "1").status == 2)
  }

  @Test("--indent 0: line breaks without indentation; an indent out of 0-1024 is a usage error")
  func indentZero() throws {
    let result = try Tool.run(["fmt", "--indent", "0"], input: #"{"a":[1,{"b":null}],"c":{}}"#)
    #expect(result.status == 0)
    #expect(result.stdout == "{\n\"a\": [\n1,\n{\n\"b\": null\n}\n],\n\"c\": {}\n}\n")
    #expect(
      try Tool.run(["ndjson", "--to-array", "--indent", "0"], input: "1\n2\n").stdout
        == "[\n1,\n2\n]\n")
    for value in ["-1", "-0x1", "1025", "99999999999999999999", "two"] {
      let refused = try Tool.run(["fmt", "--indent", value], input: "[1]")
      #expect(refused.status == 2, "\(value)")
      let message = "jsonstream: --indent needs a whole number from 0 to 1024, not '\(value)'\n"
      #expect(refused.stderr == message)
    }
    #expect(try Tool.run(["fmt", "--help"]).stdout.contains("0: line breaks only"))
  }

  @Test("select: each selected value on its own line, in document order, at any chunk size")
  func select() throws {
    let document = #"{"a":[{"b":1},{"b":[2,3]}],"c":{"b":"x"},"d":[{"e":{"b":null}}]}"#
    for chunk in ["1", "3", "65536"] {
      let result = try Tool.run(["select", "$..b", "--chunk-size", chunk], input: document)
      #expect(result.status == 0)
      #expect(result.stdout == "1\n[2,3]\n\"x\"\nnull\n", "chunk \(chunk)")
    }
    #expect(try Tool.run(["select", "$.a[1]"], input: document).stdout == "{\"b\":[2,3]}\n")
    #expect(try Tool.run(["select", "$.missing"], input: document).stdout == "")
    #expect(
      try Tool.run(["select", "--multiple-values", "$.id"], input: "{\"id\":1}\n{\"id\":2}\n")
        .stdout == "1\n2\n")
    // Bad paths are usage errors; bad input keeps what was printed and reports where.
    let badPath = try Tool.run(["select", "$[01]"], input: "[]")
    #expect(badPath.status == 2)
    #expect(badPath.stderr.contains("leading zeros"))
    // All of RFC 9535 streams: nested matches too, several paths' in document order.
    #expect(try Tool.run(["select", "$[-1]"], input: "[1,2]").stdout == "2\n")
    #expect(
      try Tool.run(["select", "$..b", "$.a[?@.b > 0]"], input: document).stdout
        == "{\"b\":1}\n1\n[2,3]\n\"x\"\nnull\n")
    #expect(
      try Tool.run(["select", "--paths", "$..b"], input: #"{"b":{"b":1}}"#).stdout
        == "$['b']\n$['b']['b']\n")
    #expect(
      try Tool.run(["select", "--with-paths", "--multiple-values", "$[0]"], input: "[1]\n[2]")
        .stdout == "[\"$[0]\",1]\n[\"$[0]\",2]\n")
    #expect(try Tool.run(["select"], input: "[]").status == 2)
    let broken = try Tool.run(["select", "$[*]"], input: "[1,2,\n x]")
    #expect(broken.status == 1)
    #expect(broken.stdout == "1\n2")
    #expect(
      broken.stderr.hasPrefix("<stdin>:2:2: expected a value after ',', found 'x'\n   x]\n   ^\n"))
    #expect(
      broken.stderr.hasSuffix("what was written (3 bytes) is the start of the JSON, cut short\n"))
  }
}
