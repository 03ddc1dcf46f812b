import JSONStream

/// A handler that wants nothing: the parser alone decides validity.
struct ValidatingHandler: JSONEventHandler {}

/// `jsonstream validate`: exit 0 when valid, 1 with `FILE:LINE:COLUMN: message` when not.
func runValidate(_ arguments: Arguments) throws -> Int32 {
  let input = try ByteInput(path: arguments.inputPath, chunkSize: arguments.chunkSize)
  var parser = JSONParser(handler: ValidatingHandler(), options: arguments.options)
  do {
    try input.forEachChunk { chunk in
      try parser.feed(chunk) == .needsMoreInput
    }
    try parser.finish()
  } catch let error as JSONParseError {
    writeStandardError("\(input.name):\(error.line):\(error.column): \(error.message)\n")
    return 1
  }
  return 0
}
