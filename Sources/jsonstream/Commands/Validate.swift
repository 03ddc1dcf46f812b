import JSONStream

/// A handler that wants nothing: the parser alone decides validity. It asks the parser to skip
/// every container's contents, which the parser still checks in full but without decoding
/// strings or delivering events.
struct ValidatingHandler: JSONEventHandler {
  static var canSkipContainers: Bool { true }
  var skipsContainerContents: Bool { true }
}

/// `jsonstream validate`: exit 0 when valid, 1 with `FILE:LINE:COLUMN: message` when not.
func runValidate(_ arguments: Arguments, input: ByteInput) throws -> Int32 {
  var parser = JSONParser(handler: ValidatingHandler(), options: arguments.options)
  guard let error = try parseInput(input, into: &parser) else { return 0 }
  report(error, in: input, arguments)
  return 1
}
