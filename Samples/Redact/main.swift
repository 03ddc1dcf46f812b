// A custom handler that filters and redacts while re-serializing: it sits between the parser
// and the writer, sees every event, and decides what the writer gets. Secrets are replaced,
// members whose key starts with "_" are dropped with their whole value, e-mail addresses keep
// only their domain. Memory stays constant however large the input.
//
//   swift run -c release redact [FILE]     # FILE defaults to Samples/accounts.json; - is stdin

import Foundation
import JSONStream

/// Forwards events to `downstream`, rewriting them on the way.
struct Redactor<Downstream: JSONEventHandler>: JSONEventHandler {
  var downstream: Downstream
  let secretKeys: Set<String> = ["password", "token", "apiKey", "secret"]
  /// The key of the member whose value comes next, if it matters.
  var pendingKey: String?
  /// Depth inside a dropped member's value (0: not dropping).
  var droppedDepth = 0
  var redacted = 0
  var dropped = 0

  init(downstream: Downstream) { self.downstream = downstream }

  var isDone: Bool { downstream.isDone }

  // A forwarding handler passes the producer's run on: the writer then checks that its state
  // is its own once per run, not at every event.
  mutating func beginEventRun() { downstream.beginEventRun() }
  mutating func endEventRun() { downstream.endEventRun() }

  /// A value begins. Returns whether it is forwarded as is.
  mutating func valueStarts(container: Bool) throws -> Bool {
    if droppedDepth > 0 {
      if container { droppedDepth += 1 }
      return false
    }
    defer { pendingKey = nil }
    if let key = pendingKey, secretKeys.contains(key) {
      // The whole value, whatever it is, becomes one string.
      try downstream.string(text: "[redacted]")
      redacted += 1
      if container { droppedDepth = 1 }
      return false
    }
    return true
  }

  mutating func key(_ key: borrowing JSONString) throws {
    if droppedDepth > 0 { return }
    if unsafe key.utf8.first == UInt8(ascii: "_") {
      // Dropped with its value: the key is not forwarded, the value is skipped.
      dropped += 1
      pendingKey = nil
      droppedDepth = -1
      return
    }
    pendingKey = secretKeys.contains(key.string) || key == "email" ? key.string : nil
    try downstream.key(key)
  }

  mutating func string(_ value: borrowing JSONString) throws {
    if droppedDepth == -1 {
      droppedDepth = 0
      return
    }
    if pendingKey == "email", let at = value.string.firstIndex(of: "@") {
      pendingKey = nil
      try downstream.string(text: "…" + value.string[at...])
      return
    }
    if try valueStarts(container: false) { try downstream.string(value) }
  }

  mutating func number(_ value: borrowing JSONNumber) throws {
    if droppedDepth == -1 {
      droppedDepth = 0
      return
    }
    if try valueStarts(container: false) { try downstream.number(value) }
  }

  mutating func bool(_ value: Bool) throws {
    if droppedDepth == -1 {
      droppedDepth = 0
      return
    }
    if try valueStarts(container: false) { try downstream.bool(value) }
  }

  mutating func null() throws {
    if droppedDepth == -1 {
      droppedDepth = 0
      return
    }
    if try valueStarts(container: false) { try downstream.null() }
  }

  mutating func startObject() throws {
    if droppedDepth == -1 {
      droppedDepth = 1
      return
    }
    if try valueStarts(container: true) { try downstream.startObject() }
  }

  mutating func startArray() throws {
    if droppedDepth == -1 {
      droppedDepth = 1
      return
    }
    if try valueStarts(container: true) { try downstream.startArray() }
  }

  mutating func endObject() throws {
    if droppedDepth > 0 {
      droppedDepth -= 1
      return
    }
    try downstream.endObject()
  }

  mutating func endArray() throws {
    if droppedDepth > 0 {
      droppedDepth -= 1
      return
    }
    try downstream.endArray()
  }
}

extension JSONEventHandler {
  /// A string value from a Swift `String`.
  mutating func string(text: String) throws {
    var text = text
    try text.withUTF8 { unsafe try string(JSONString(utf8: $0)) }
  }
}

let path = CommandLine.arguments.dropFirst().first ?? "Samples/accounts.json"
let input = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path)
guard let input else {
  FileHandle.standardError.write(Data("redact: cannot open \(path)\n".utf8))
  exit(2)
}
let output = unsafe JSONChunkSink { chunk in unsafe FileHandle.standardOutput.write(Data(chunk)) }
var parser = JSONParser(handler: Redactor(downstream: JSONWriter(sink: output, options: .pretty)))
do {
  while let chunk = try input.read(upToCount: 64 * 1024), !chunk.isEmpty {
    try parser.feed(chunk)
  }
  try parser.finish()
  try parser.handler.downstream.finish()
} catch {
  FileHandle.standardError.write(Data("\nredact: \(path): \(error)\n".utf8))
  exit(1)
}
FileHandle.standardOutput.write(Data("\n".utf8))
FileHandle.standardError.write(
  Data(
    "redact: \(parser.handler.redacted) secrets redacted, \(parser.handler.dropped) members dropped\n"
      .utf8))
