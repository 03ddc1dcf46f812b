import JSONStream

/// Prints one line per event; see `jsonstream events --help` and the tool article (CommandLineTool.md) for the format.
struct EventPrinter: JSONEventHandler {
  let output: ByteOutput

  private func line(_ text: String) {
    output.buffer.append(contentsOf: text.utf8)
    output.buffer.append(0x0A)
    output.didAppend()
  }

  mutating func startObject() { line("start_object") }
  mutating func endObject() { line("end_object") }
  mutating func startArray() { line("start_array") }
  mutating func endArray() { line("end_array") }
  mutating func null() { line("null") }
  mutating func bool(_ value: Bool) { line(value ? "true" : "false") }

  mutating func key(_ key: borrowing JSONString) {
    output.buffer.append(contentsOf: "key ".utf8)
    key.appendQuoted(to: &output.buffer)
    output.buffer.append(0x0A)
    output.didAppend()
  }

  mutating func string(_ value: borrowing JSONString) {
    output.buffer.append(contentsOf: "string ".utf8)
    value.appendQuoted(to: &output.buffer)
    output.buffer.append(0x0A)
    output.didAppend()
  }

  mutating func number(_ value: borrowing JSONNumber) {
    output.buffer.append(contentsOf: "number ".utf8)
    value.appendText(to: &output.buffer)
    output.buffer.append(0x0A)
    output.didAppend()
  }
}

/// `jsonstream events`: the event stream as text. On invalid input, the events before the
/// error are printed, then the error as for `validate`, and the exit status is 1.
func runEvents(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  var parser = JSONParser(handler: EventPrinter(output: output), options: arguments.options)
  let error = try parseInput(input, into: &parser)
  output.flush()
  guard let error else { return 0 }
  report(error, in: input, arguments)
  return 1
}
