#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tool's version, for `--version`.
let toolVersion = "0.7.0"

/// Runs the tool and returns its exit status.
func runTool(_ arguments: [String]) -> Int32 {
  if arguments == ["--version"] || arguments == ["version"] {
    let output = ByteOutput(fd: 1)
    output.write("jsonstream \(toolVersion)\n")
    output.flush()
    return 0
  }
  if arguments.isEmpty {
    // A usage error: the usage goes where errors go.
    writeStandardError(generalHelp())
    return 2
  }
  if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
    let output = ByteOutput(fd: 1)
    output.write(generalHelp())
    output.flush()
    return 0
  }
  if arguments.first == "completions" {
    guard arguments.count == 2, let script = completionScript(for: arguments[1]) else {
      writeStandardError("jsonstream: 'completions' takes a shell: bash or zsh\n")
      return 2
    }
    let output = ByteOutput(fd: 1)
    output.write(script)
    output.flush()
    return 0
  }
  if arguments.first == "help" {
    // `help COMMAND` is `COMMAND --help`.
    guard arguments.count == 2, let command = Command(rawValue: arguments[1]) else {
      writeStandardError(
        "jsonstream: 'help' takes one command: \(Command.allCases.map(\.rawValue).joined(separator: ", "))\n"
      )
      return 2
    }
    let output = ByteOutput(fd: 1)
    output.write(commandHelp(command))
    output.flush()
    return 0
  }
  do {
    var parsed = try Arguments.parse(arguments)
    if parsed.wantsHelp {
      let output = ByteOutput(fd: 1)
      output.write(commandHelp(parsed.command))
      output.flush()
      return 0
    }
    if parsed.command == .convert && parsed.convertTo == "binary" && !parsed.force
      && (parsed.outputPath ?? "-") == "-" && isatty(1) == 1
    {
      throw ToolError.usage(
        "binary output is not for a terminal: use -o FILE or a pipe, or --force to write it"
          + " anyway")
    }
    // The input opens before the output is created: a missing input must not cost an
    // existing output file anything.
    let input = try ByteInput(
      path: parsed.inputPath, chunkSize: parsed.chunkSize, showsProgress: !parsed.quiet)
    // select's other files are read later, one after another: each must open now.
    for path in parsed.moreInputPaths { try ByteInput.checkReadable(path) }
    // validate writes nothing, so it creates no output.
    if parsed.command == .validate { return try runValidate(parsed, input: input) }
    // So is the patch read, and checked: a bad one costs the output nothing either.
    if parsed.command == .patch {
      switch try loadPatch(parsed) {
      case .success(let patch): parsed.patch = patch
      case .failure(let failure): return failure.status
      }
    }
    let output = try ByteOutput(path: parsed.outputPath)
    if parsed.colorsOutput && (parsed.outputPath ?? "-") == "-" && parsed.color.colors(1) {
      output.colorizer = JSONColorizer()
    }
    do {
      let status = try runWriting(parsed, input: input, output: output)
      // Any failure, invalid input included, leaves an -o FILE as it was.
      if status == 0 { try output.commit() } else { output.discard() }
      return status
    } catch {
      output.discard()
      throw error
    }
  } catch let error as ToolError {
    writeStandardError("jsonstream: \(error.message)\n")
    return error.exitStatus
  } catch {
    writeStandardError("jsonstream: \(error)\n")
    return 3
  }
}

/// Runs a command that writes to `output`; returns its exit status.
func runWriting(_ parsed: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  switch parsed.command {
  case .validate: return try runValidate(parsed, input: input)
  case .events: return try runEvents(parsed, input: input, output: output)
  case .fmt, .minify: return try runTranscode(parsed, input: input, output: output)
  case .select: return try runSelect(parsed, input: input, output: output)
  case .ndjson: return try runNDJSON(parsed, input: input, output: output)
  case .stats: return try runStats(parsed, input: input, output: output)
  case .convert: return try runConvert(parsed, input: input, output: output)
  case .patch: return try runPatch(parsed, input: input, output: output)
  }
}

// A closed pipe is reported by write() as EPIPE and handled there, not as a fatal signal.
signal(SIGPIPE, SIG_IGN)
// Output beyond the file size limit (`ulimit -f`) is then a write error (EFBIG), reported and
// cleaned up, not a kill that would leave -o FILE's temporary file behind.
signal(SIGXFSZ, SIG_IGN)
exit(runTool(Array(CommandLine.arguments.dropFirst())))
