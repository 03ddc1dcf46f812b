import JSONStream

/// The command line, parsed: a command, its settings and at most one input path.
struct Arguments {
  var command: Command
  var inputPath: String?
  /// `-o FILE`: where output goes (standard output when nil or `-`).
  var outputPath: String?
  /// `select`'s JSONPaths, compiled while parsing so that a bad one is a usage error before
  /// any file is opened.
  var paths: [JSONPath] = []
  /// `select --paths`, `--with-paths`: what is printed for each match.
  var selectOutput = SelectOutput.values
  /// `select -r` / `--raw`: a selected string is printed as its text, without quotes.
  var raw = false
  /// `select --count`: only the number of matches is printed.
  var count = false
  /// `select --rfc-order`: each top-level value is read into a tree and the paths evaluated
  /// on it, for RFC 9535's order of nested descendant matches.
  var rfcOrder = false
  /// `select --first N`: reading stops once N matches are out.
  var first: Int?
  /// `select`'s files after the first, read one after another.
  var moreInputPaths: [String] = []
  /// `--quiet`: no message about the input on standard error (exit status only).
  var quiet = false
  /// `ndjson --to-array`: lines to one array.
  var toArray = false
  /// `stats --json` and `--top N`.
  var json = false
  var top = 10
  /// `convert --to binary|json`, and `--force` to write binary to a terminal.
  var convertTo: String?
  var force = false
  /// `patch PATCH`: the patch file, `--merge` for a merge patch, and the patch once read
  /// (before the output is created).
  var patchPath: String?
  var merge = false
  var patch: LoadedPatch?
  var chunkSize = 64 * 1024
  /// `--threads N`: NDJSON, or a top-level array's elements, are parsed on N threads (see
  /// `parseLinesInParallel`).
  var threads = processorCount()
  var options = JSONParseOptions()
  var writeOptions = JSONWriteOptions()
  var wantsHelp = false
  /// `--color=auto|always|never`.
  var color = ColorChoice.auto

  /// Whether the output is JSON text, to be coloured on a terminal.
  var colorsOutput: Bool {
    switch command {
    case .fmt, .minify, .ndjson, .patch: return true
    case .convert: return convertTo == "json"
    case .select: return selectOutput == .values && !raw && !count
    case .validate, .events, .stats: return false
    }
  }
}

enum Command: String, CaseIterable {
  case validate
  case events
  case fmt
  case minify
  case select
  case ndjson
  case stats
  case convert
  case patch

  var summary: String {
    switch self {
    case .validate: return "check that the input is JSON; report where it is not"
    case .events: return "print the parser's events, one per line"
    case .fmt: return "pretty-print JSON (2-space indent by default)"
    case .minify: return "remove all whitespace outside strings"
    case .select: return "print the values a JSONPath selects, one per line"
    case .ndjson: return "a top-level array to one value per line, or back (--to-array)"
    case .stats: return "count values by type, depth, sizes and the most frequent keys"
    case .convert: return "JSON to the binary format (--to binary) or back (--to json)"
    case .patch: return "apply a JSON Patch (RFC 6902) or, with --merge, a merge patch (RFC 7396)"
    }
  }

  /// Whether the command writes JSON (and so takes the writer's flags).
  var writesJSON: Bool {
    self == .fmt || self == .minify || self == .select || self == .ndjson || self == .convert
      || self == .patch
  }
}

/// A flag without a value that switches on a parse option.
struct OptionFlag: Sendable {
  let name: String
  let help: String
  let apply: @Sendable (inout JSONParseOptions) -> Void
}

/// A flag that takes a whole number in `accepted`.
struct NumberFlag: Sendable {
  let name: String
  let help: String
  /// The values the flag takes: most are counts or sizes, at least 1; the limits take 0, as
  /// the library does; a bound keeps a value such as an indent from making the output
  /// absurdly large.
  var accepted: ClosedRange<Int> = 1...Int.max
  let apply: @Sendable (inout Arguments, Int) -> Void

  /// `--indent` is fmt's, `--top` stats'; the others are every command's.
  func appliesTo(_ command: Command) -> Bool {
    switch name {
    case "--indent":
      return command == .fmt || command == .ndjson || command == .convert || command == .patch
    case "--top": return command == .stats
    case "--first": return command == .select
    case "--threads":
      return command == .validate || command == .fmt || command == .minify || command == .select
    default: return true
    }
  }
}

let optionFlags: [OptionFlag] = [
  OptionFlag(name: "--allow-comments", help: "accept // and /* */ comments") {
    $0.allowComments = true
  },
  OptionFlag(name: "--allow-trailing-commas", help: "accept a comma before ] or }") {
    $0.allowTrailingCommas = true
  },
  OptionFlag(name: "--allow-trailing-text", help: "stop after the first value; ignore the rest") {
    $0.allowTrailingText = true
  },
  OptionFlag(
    name: "--multiple-values", help: "accept many top-level values (NDJSON, concatenated, RFC 7464)"
  ) { $0.allowMultipleValues = true },
  OptionFlag(name: "--allow-nan", help: "accept NaN, Infinity and -Infinity") {
    $0.allowNonFiniteNumbers = true
  },
  OptionFlag(name: "--allow-bom", help: "skip a UTF-8 byte order mark at the start") {
    $0.allowByteOrderMark = true
  },
  OptionFlag(
    name: "--loose-unicode", help: "replace ill-formed UTF-8 and lone surrogates by U+FFFD"
  ) { $0.looseUnicode = true },
  OptionFlag(
    name: "--replace-unpaired-surrogates", help: "replace lone \\uD800-style escapes by U+FFFD"
  ) { $0.replaceUnpairedSurrogates = true },
  OptionFlag(
    name: "--unicode-newlines", help: "treat U+2028, U+2029, U+0085, \\v, \\f as whitespace"
  ) {
    $0.allowUnicodeNewlines = true
  },
  OptionFlag(name: "--reject-noncharacters", help: "reject U+0000 and noncharacters in strings") {
    $0.rejectNullAndNoncharacters = true
  },
]

/// A flag without a value that sets a writer option (fmt, minify).
struct WriterFlag: Sendable {
  let name: String
  let help: String
  let apply: @Sendable (inout JSONWriteOptions) -> Void
}

let writerFlags: [WriterFlag] = [
  WriterFlag(name: "--sort-keys", help: "write object members sorted by key") {
    $0.sortKeys = true
  },
  WriterFlag(name: "--escape-unicode", help: "write non-ASCII characters as \\uXXXX") {
    $0.escapeUnicode = true
  },
  WriterFlag(name: "--escape-slash", help: "write / as \\/") { $0.escapeSlash = true },
]

let numberFlags: [NumberFlag] = [
  // At most 1 GiB: the chunk is allocated up front, and a larger one would end the tool.
  NumberFlag(
    name: "--chunk-size", help: "feed the parser N bytes at a time (default 65536)",
    accepted: 1...(1 << 30)
  ) {
    $0.chunkSize = $1
  },
  // 0 is line breaks without indentation: the writer's `indent` is the spaces per level. The
  // writer refuses more than its maximum; refused here, it is a usage error before any input.
  NumberFlag(
    name: "--indent", help: "spaces per level (0: line breaks only; fmt: default 2)",
    accepted: 0...JSONWriteOptions.maxIndent
  ) { $0.writeOptions.indent = $1 },
  NumberFlag(
    name: "--threads",
    help: "parse NDJSON, or an array's elements, on N threads (default: one per core)"
  ) {
    $0.threads = $1
  },
  NumberFlag(name: "--top", help: "stats: how many of the most frequent keys (default 10)") {
    $0.top = $1
  },
  NumberFlag(name: "--first", help: "select: stop reading once N values are printed") {
    $0.first = $1
  },
  NumberFlag(
    name: "--max-depth", help: "deepest nesting allowed (default 1000)",
    accepted: 0...Int.max
  ) {
    $0.options.limits.maxDepth = $1
  },
  NumberFlag(
    name: "--max-string-length", help: "longest string in bytes (default 128 MiB)",
    accepted: 0...Int.max
  ) {
    $0.options.limits.maxStringLength = $1
  },
  NumberFlag(
    name: "--max-number-length", help: "longest number in characters (default 1000)",
    accepted: 0...Int.max
  ) {
    $0.options.limits.maxNumberLength = $1
  },
  NumberFlag(
    name: "--max-input-length", help: "longest input in bytes (default unlimited)",
    accepted: 0...Int.max
  ) {
    $0.options.limits.maxInputLength = $1
  },
]

extension Arguments {
  /// Parses `arguments` (without the program name). `--help` anywhere asks for help.
  /// A path (select's JSONPaths first), the patch (patch's first file) or an input file.
  /// `afterDoubleDash`: the argument came after `--`.
  mutating func addPositional(
    _ argument: String, command: Command, pathTexts: inout [String], afterDoubleDash: Bool
  ) throws(ToolError) {
    if command == .select && (pathTexts.isEmpty || (argument.hasPrefix("$") && !afterDoubleDash)) {
      // The first argument is always a JSONPath, and so is any other that starts with `$`,
      // before or after the files, but not after `--`: there, it is a file.
      pathTexts.append(argument)
    } else if command == .patch && patchPath == nil {
      // The first file is the patch.
      patchPath = argument
    } else if inputPath == nil {
      inputPath = argument
    } else if command == .select {
      moreInputPaths.append(argument)
    } else {
      throw ToolError.usage(
        "'\(command.rawValue)' reads one file; got '\(inputPath!)' and '\(argument)'")
    }
  }

  static func parse(_ arguments: [String]) throws(ToolError) -> Arguments {
    guard let first = arguments.first else {
      throw ToolError.usage("missing command (try 'jsonstream --help')")
    }
    guard let command = Command(rawValue: first) else {
      throw ToolError.usage("unknown command '\(first)' (try 'jsonstream --help')")
    }
    var result = Arguments(command: command)
    if command == .fmt { result.writeOptions.indent = 2 }
    var pathTexts: [String] = []
    var index = 1
    /// After `--`, every argument is a path or file, even one that starts with `-`.
    var optionsEnded = false
    while index < arguments.count {
      var argument = arguments[index]
      index += 1
      // `--name=value` is `--name value`.
      var attachedValue: String?
      if !optionsEnded, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        attachedValue = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      /// The option's value: attached with `=`, or the next argument.
      func value() -> String? {
        if let attachedValue { return attachedValue }
        guard index < arguments.count else { return nil }
        index += 1
        return arguments[index - 1]
      }
      let takesValue =
        argument == "--to" || argument == "-o" || argument == "--output" || argument == "--color"
        || numberFlags.contains { $0.name == argument }
      if attachedValue != nil && !takesValue {
        throw ToolError.usage("option '\(argument)' takes no value")
      }
      if !optionsEnded && argument == "--" {
        optionsEnded = true
        continue
      }
      if optionsEnded {
        try result.addPositional(
          argument, command: command, pathTexts: &pathTexts, afterDoubleDash: true)
      } else if argument == "--help" || argument == "-h" {
        result.wantsHelp = true
      } else if argument == "--quiet" || argument == "-q" {
        result.quiet = true
      } else if argument == "--to-array" && command == .ndjson {
        result.toArray = true
      } else if argument == "--merge" && command == .patch {
        result.merge = true
      } else if argument == "--json" && command == .stats {
        result.json = true
      } else if argument == "--paths" && command == .select {
        result.selectOutput = .paths
      } else if argument == "--with-paths" && command == .select {
        result.selectOutput = .pathsAndValues
      } else if (argument == "-r" || argument == "--raw") && command == .select {
        result.raw = true
      } else if argument == "--count" && command == .select {
        result.count = true
      } else if argument == "--rfc-order" && command == .select {
        result.rfcOrder = true
      } else if argument == "--color" {
        guard let text = value(), let choice = ColorChoice(rawValue: text) else {
          throw ToolError.usage("--color needs auto, always or never")
        }
        result.color = choice
      } else if argument == "--force" && command == .convert {
        result.force = true
      } else if argument == "--to" && command == .convert {
        guard let to = value(), ["binary", "json"].contains(to) else {
          throw ToolError.usage("--to needs 'binary' or 'json'")
        }
        result.convertTo = to
      } else if (argument == "-o" || argument == "--output") && command != .validate {
        // validate writes nothing: an output file would only be emptied.
        guard let path = value() else { throw ToolError.usage("\(argument) needs a file") }
        result.outputPath = path
      } else if let flag = optionFlags.first(where: { $0.name == argument }) {
        flag.apply(&result.options)
      } else if command.writesJSON, let flag = writerFlags.first(where: { $0.name == argument }) {
        flag.apply(&result.writeOptions)
      } else if let flag = numberFlags.first(where: { $0.name == argument }),
        flag.appliesTo(command)
      {
        guard let text = value() else {
          throw ToolError.usage("\(argument) needs a number")
        }
        guard let number = Int(text), flag.accepted.contains(number) else {
          let wanted =
            flag.accepted == 1...Int.max
            ? "a positive whole number"
            : flag.accepted.upperBound == Int.max
              ? "a whole number, 0 or more"
              : "a whole number from \(flag.accepted.lowerBound) to \(flag.accepted.upperBound)"
          throw ToolError.usage("\(argument) needs \(wanted), not '\(text)'")
        }
        flag.apply(&result, number)
      } else if argument.hasPrefix("-") && argument != "-" {
        throw ToolError.usage("unknown option '\(argument)' for '\(command.rawValue)'")
      } else {
        try result.addPositional(
          argument, command: command, pathTexts: &pathTexts, afterDoubleDash: false)
      }
    }
    if command == .convert && result.convertTo == nil && !result.wantsHelp {
      throw ToolError.usage("'convert' needs --to binary or --to json")
    }
    if command == .patch && !result.wantsHelp {
      guard let patchPath = result.patchPath else {
        throw ToolError.usage("'patch' needs a patch file, e.g. jsonstream patch fix.json FILE")
      }
      if patchPath == "-" && (result.inputPath ?? "-") == "-" {
        throw ToolError.usage("the patch and the input cannot both be standard input")
      }
    }
    if command == .select
      && ([result.inputPath ?? "-"] + result.moreInputPaths).filter({ $0 == "-" }).count > 1
    {
      throw ToolError.usage("standard input ('-') can be read only once")
    }
    if command == .select && pathTexts.isEmpty && !result.wantsHelp {
      throw ToolError.usage("'select' needs a JSONPath, e.g. jsonstream select '$.items[*]' FILE")
    }
    if !result.wantsHelp {
      for text in pathTexts {
        do {
          result.paths.append(try JSONPath(text))
        } catch let error as JSONPathError {
          throw ToolError.usage(
            "invalid path '\(text)': \(error.message) (offset \(error.offset))")
        } catch {
          throw ToolError.usage("invalid path '\(text)': \(error)")
        }
      }
    }
    return result
  }
}

/// `jsonstream --help`.
func generalHelp() -> String {
  var text = """
    jsonstream: streaming JSON for files of any size

    Usage: jsonstream COMMAND [OPTIONS] [FILE]
           jsonstream select PATH [PATH...] [OPTIONS] [FILE...]
           jsonstream patch [--merge] PATCH [OPTIONS] [FILE]

    Reads FILE, or standard input when FILE is '-' or absent; writes standard
    output, or FILE with -o FILE, which is replaced only when the command
    succeeds (so -o may name the input: it is rewritten in place).

    Commands:

    """
  for command in Command.allCases {
    text += "  " + command.rawValue.padding(12) + command.summary + "\n"
  }
  text += """

    Run 'jsonstream help COMMAND' (or 'jsonstream COMMAND --help') for a command's
    options; 'jsonstream --version' for the version. An option's value may follow
    it or be attached ('--indent=4'); after '--', every argument is a file (or
    select's first, its path), even one that starts with '-' or '$'.
    'jsonstream completions bash' (or zsh) prints a shell completion script.
    Exit status: 0 success, 1 invalid JSON (or an invalid or failing patch),
    2 usage error, 3 I/O error.

    """
  return text
}

/// `jsonstream COMMAND --help`.
func commandHelp(_ command: Command) -> String {
  let usage =
    command == .select
    ? "select PATH [PATH...]" : command == .patch ? "patch [--merge] PATCH" : command.rawValue
  let files = command == .select ? "[FILE...]" : "[FILE]"
  var text = "Usage: jsonstream \(usage) [OPTIONS] \(files)\n\n\(command.summary).\n"
  switch command {
  case .validate:
    text += """

      Exits 0 when FILE is valid JSON. Otherwise prints FILE:LINE:COLUMN: message
      to standard error, then the line with a caret under the column, and exits 1.

      Example:
        jsonstream validate --allow-comments settings.json

      """
  case .fmt:
    text += """

      Streams the input through the parser and a pretty writer: files of any size
      are reformatted in constant memory (with --sort-keys, memory grows with the
      largest object). The output ends with a newline.

      Example:
        jsonstream fmt --indent 4 --sort-keys data.json > pretty.json

      """
  case .minify:
    text += """

      Streams the input through the parser and a compact writer: no whitespace
      outside strings; numbers and strings keep their exact content. The output
      ends with a newline.

      Example:
        jsonstream minify big.json > big.min.json

      """
  case .select:
    text += """

      Prints each value PATH selects as compact JSON on a line of its own.
      PATH is any JSONPath (RFC 9535): $ (the root), .name or ['name'] (a
      member), [3] or [-1] (an element), [1:5:2] (a slice), [*] or .* (every
      element or member), ['a','b'] (a union), [?@.price < 10] (a filter, with
      ==, !=, <, <=, >, >=, &&, ||, !, and length, count, match, search,
      value), and ..name, ..*, ..[…] (the same at any depth).

      Every path streams: a value is printed as soon as it is decided, and
      memory holds at most what a path needs to decide (a filter's candidate,
      the last N elements for [-N]), never the whole input. Several paths
      select in one pass, in document order (a value two paths select is
      printed once). A value inside a selected value that a path selects too
      is printed after it (document order, as jq's .. gives them); RFC 9535
      orders those level by level, which needs the whole value: --rfc-order
      reads each top-level value into memory and gives the RFC's order. So
      does a filter that reads the root ($ inside [?…]).

      With --multiple-values, the paths apply to each top-level value (each
      line of NDJSON). Several FILEs are read one after another. --first N
      stops reading once N values are printed. Arguments after the first that
      start with $ are paths; the others are FILEs.

      Examples:
        jsonstream select '$.statuses[*].user.screen_name' twitter.json
        jsonstream select '$..id' '$..name' -o ids.ndjson data.json
        jsonstream select --multiple-values '$.id' events.ndjson
        jsonstream select --with-paths '$.items[?@.price < 10].name' shop.json
        jsonstream select -r --first 10 '$.orders[?@.total > 100].id' orders.json
        jsonstream select --count '$[?match(@.email, ".*@example[.]com")]' a.json b.json

      """
  case .ndjson:
    text += """

      Streams a top-level array and prints each element as compact JSON on a line
      of its own (NDJSON); memory does not grow with the input. With --to-array,
      reads NDJSON (or any top-level values one after another) and writes one
      array, compact, or indented with --indent N.

      Examples:
        jsonstream ndjson export.json > export.ndjson
        jsonstream ndjson --to-array --indent 2 export.ndjson > export.json

      """
  case .stats:
    text += """

      Streams the input and reports: values by type, keys, the deepest nesting,
      the longest string, the largest array and object (with where they are, as
      JSON Pointers), the most frequent keys, and bytes and time. Memory stays
      bounded: key frequencies are counted exactly for up to 65,536 distinct keys,
      approximately beyond (and then marked so). --json prints the same as JSON.

      Examples:
        jsonstream stats --top 20 big.json
        jsonstream stats --json --multiple-values events.ndjson

      """
  case .convert:
    text += """

      --to binary reads JSON and writes the binary format (see the package's
      documentation: a header, a tag per value, keys and short strings written once);
      --to json reads the binary format and writes JSON, compact or with --indent N.
      Both stream: files of any size convert in constant memory. Numbers keep their
      exact text both ways. Errors in binary input give the byte offset. Binary
      output is refused on a terminal: use -o FILE or a pipe, or --force.

      Examples:
        jsonstream convert --to binary data.json -o data.jsb
        jsonstream convert --to json data.jsb | jsonstream fmt

      """
  case .patch:
    text += """

      Applies the JSON Patch in the file PATCH (an array of add, remove, replace,
      move, copy and test operations) to FILE, all or nothing; with --merge, PATCH
      is a JSON Merge Patch (an object of members to set, null to remove). The
      patch is read and checked before any output is made. A failing operation is
      reported with its index, op and pointer (for test, the value found) and the
      exit status is 1; -o FILE is then left as it was.
      A merge patch streams: files of any size in constant memory. A JSON Patch
      streams too, with -o FILE, when its operations are independent (add, remove,
      replace and test only, none at the root, no path inside another's, an
      index alone under its array); otherwise the document is read into memory.
      Streamed, an object that repeats a key has every occurrence patched.
      Output is compact, or indented with --indent N; each top-level value is
      patched with --multiple-values.

      Examples:
        jsonstream patch fix.json data.json -o data.json
        jsonstream patch --merge settings-override.json settings.json

      """
  case .events:
    text += """

      One event per line: start_object, end_object, start_array, end_array,
      key <s>, string <s>, number <n>, true, false, null. <s> is the decoded
      string written as a JSON string literal; <n> is the number's text exactly
      as it appears in the input.

      Example:
        echo '{"a":[1,true]}' | jsonstream events

      """
  }
  text += "\nOptions:\n"
  if command != .validate {
    text +=
      "  " + "-o FILE, --output FILE".padding(32) + "write to FILE (replaced only on success)\n"
  }
  text += "  " + "-q, --quiet".padding(32) + "no message about invalid input (exit status only)\n"
  text +=
    "  " + "--color WHEN".padding(32)
    + "auto (on a terminal, unless NO_COLOR is set), always or never\n"
  if command == .ndjson {
    text += "  " + "--to-array".padding(32) + "NDJSON lines to one array\n"
  }
  if command == .stats {
    text += "  " + "--json".padding(32) + "print the report as JSON\n"
  }
  if command == .select {
    text += "  " + "--paths".padding(32) + "print the normalized path of each match\n"
    text += "  " + "--with-paths".padding(32) + "print [path, value] for each match\n"
    text += "  " + "-r, --raw".padding(32) + "print a selected string's text, without quotes\n"
    text += "  " + "--count".padding(32) + "print only the number of matches\n"
    text += "  " + "--rfc-order".padding(32) + "nested .. matches in RFC 9535's order (in memory)\n"
  }
  if command == .convert {
    text += "  " + "--to binary|json".padding(32) + "the format to write\n"
  }
  if command == .patch {
    text += "  " + "--merge".padding(32) + "PATCH is a JSON Merge Patch (RFC 7396)\n"
  }
  for flag in numberFlags where flag.appliesTo(command) {
    text += "  " + (flag.name + " N").padding(32) + flag.help + "\n"
  }
  if command.writesJSON {
    for flag in writerFlags {
      text += "  " + flag.name.padding(32) + flag.help + "\n"
    }
  }
  for flag in optionFlags {
    text += "  " + flag.name.padding(32) + flag.help + "\n"
  }
  return text
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
