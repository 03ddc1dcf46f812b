import JSONStream
import JSONStreamCore

/// A handler that wants nothing: the parser alone decides validity. It asks the parser to skip
/// every container's contents, which the parser still checks in full but without decoding
/// strings or delivering events.
struct ValidatingHandler: JSONEventHandler {
  static var canSkipContainers: Bool { true }
  var skipsContainerContents: Bool { true }
}

/// `jsonstream validate`: exit 0 when valid, 1 with `FILE:LINE:COLUMN: message` when not.
func runValidate(_ arguments: Arguments, input: ByteInput) throws -> Int32 {
  if arguments.parsesLinesInParallel || arguments.parsesArrayInParallel {
    let options = arguments.options
    var state = LineOutput()
    var nothing: [UInt8] = []
    guard
      let failure = try parseLinesInParallel(
        arguments, input: input, output: ByteOutput(collectingInto: &nothing), into: &state,
        arrayElements: !arguments.parsesLinesInParallel,
        makeSegment: { _ in ValidateSegment(options: options) })
    else { return 0 }
    report(failure, in: input, arguments)
    return 1
  }
  var parser = JSONParser(handler: ValidatingHandler(), options: arguments.options)
  guard let error = try parseInput(input, into: &parser) else { return 0 }
  report(error, in: input, arguments)
  return 1
}

/// validate's parse of a block of lines.
struct ValidateSegment: LineSegment {
  var parser: JSONParser<ValidatingHandler>

  init(options: JSONParseOptions) {
    parser = JSONParser(handler: ValidatingHandler(), options: options)
  }

  mutating func feed(_ input: _ScanInput?) throws { try parser.feed(input) }
  mutating func finish() throws { try parser.finish() }
  mutating func takeOutput(flushing: Bool) -> [UInt8] { [] }
  var printed: Bool { false }
  var isInsideValue: Bool { false }
  var count: Int { 0 }
  var line: Int { parser.line }
  mutating func resumeInsideArray() throws { try parser._resumeInsideTopLevelArrayAfterComma() }
  var isInsideArrayAfterComma: Bool { parser._isInsideTopLevelArrayAfterComma }
}
