import Foundation
import JSONStream
import JSONStreamBinary
import Testing

/// The conformance examples of the binary format's specification (`BinaryFormat.md`, the
/// table under "Conformance examples"), read from the document itself, so that the spec and
/// the readers cannot drift apart: every row through the streaming reader, whole and a byte
/// at a time, and through `JSONValue(binary:)` and the tree the Codable decoder reads, whose
/// references share one node.
@Suite("Binary format: the specification's conformance examples")
struct BinaryConformanceTableTests {
  struct Example: CustomStringConvertible {
    var bytes: [UInt8]
    var options: String
    /// The values' JSON text, one per value; nil for an error.
    var values: [String]?
    var errorOffset: Int?
    var row: String

    var description: String { row }
  }

  static let specification = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Sources/JSONStream/JSONStream.docc/BinaryFormat.md")

  /// The table's rows.
  static func examples() throws -> [Example] {
    let text = try String(contentsOf: specification, encoding: .utf8)
    guard let section = text.range(of: "### Conformance examples") else {
      throw BinaryFormatTestError("no conformance table in \(specification.path)")
    }
    var examples: [Example] = []
    for line in text[section.upperBound...].split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 5 else { throw BinaryFormatTestError("a row of \(cells.count) cells") }
      var bytes: [UInt8] = []
      for word in cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(
        separator: " ")
      {
        if word == "HDR" {
          bytes += [0x4A, 0x53, 0x42, 0x1A, 0x01, 0x04]
        } else if let byte = UInt8(word, radix: 16) {
          bytes.append(byte)
        } else {
          throw BinaryFormatTestError("not a byte: \(word) in \(line)")
        }
      }
      var example = Example(bytes: bytes, options: cells[2], row: String(line))
      let result = cells[3]
      if result.hasPrefix("error at "), let offset = Int(result.dropFirst("error at ".count)) {
        example.errorOffset = offset
      } else if result == "no values" {
        example.values = []
      } else {
        // Each value a code span.
        example.values = result.split(separator: "`", omittingEmptySubsequences: false)
          .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        guard !example.values!.isEmpty else { throw BinaryFormatTestError("no result: \(line)") }
      }
      examples.append(example)
    }
    return examples
  }

  /// The reader options a row names.
  static func options(_ text: String) throws -> JSONParseOptions {
    var options = JSONParseOptions()
    switch text {
    case "": break
    case "multiple values": options.allowMultipleValues = true
    case "non-finite numbers": options.allowNonFiniteNumbers = true
    case "max string length 2": options.limits.maxStringLength = 2
    case "max depth 1": options.limits.maxDepth = 1
    case "max depth 2": options.limits.maxDepth = 2
    default: throw BinaryFormatTestError("unknown options: \(text)")
    }
    return options
  }

  /// The JSON text of each value `bytes` holds, read in chunks of `chunk` bytes (0: whole).
  static func read(_ bytes: [UInt8], _ options: JSONParseOptions, chunk: Int) throws -> [String] {
    var writeOptions = JSONWriteOptions.compact
    writeOptions.allowMultipleValues = options.allowMultipleValues
    writeOptions.allowNonFiniteNumbers = options.allowNonFiniteNumbers
    var reader = JSONBinaryReader(handler: JSONWriter(options: writeOptions), options: options)
    if chunk == 0 {
      try reader.feed(bytes)
    } else {
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        try reader.feed(bytes[start..<min(bytes.count, start + chunk)])
      }
    }
    try reader.finish()
    try reader.handler.finish()
    let text = String(decoding: reader.handler.bytes, as: UTF8.self)
    return text.split(separator: "\n").map(String.init)
  }

  @Test("the table has its examples")
  func tableIsRead() throws {
    let examples = try Self.examples()
    #expect(examples.count >= 60)
    #expect(examples.contains { $0.errorOffset != nil })
    #expect(examples.contains { $0.values?.count == 2 })
  }

  @Test("every example, through the streaming reader whole and a byte at a time")
  func streamingReader() throws {
    for example in try Self.examples() {
      let options = try Self.options(example.options)
      for chunk in [0, 1] {
        do {
          let values = try Self.read(example.bytes, options, chunk: chunk)
          #expect(example.values == values, "\(example) (chunk \(chunk))")
        } catch let error as JSONParseError {
          #expect(example.errorOffset == error.offset, "\(example) (chunk \(chunk)): \(error)")
        }
      }
    }
  }

  @Test(
    "every example of one value, through JSONValue(binary:) and with shared nodes",
    arguments: [false, true])
  func treeReader(sharingNodes: Bool) throws {
    for example in try Self.examples() where !example.options.contains("multiple") {
      let options = try Self.options(example.options)
      // A tree keeps one member of a repeated key (the last, by default): not the events.
      if let text = example.values?.first, Self.repeatsAKey(text, options) { continue }
      do {
        let value =
          sharingNodes
          ? try JSONValue.readingSharedValues(
            binary: example.bytes, options: options, duplicateKeys: .lastWins
          ).value
          : try JSONValue(binary: example.bytes, options: options)
        var writeOptions = JSONWriteOptions.compact
        writeOptions.allowNonFiniteNumbers = options.allowNonFiniteNumbers
        let text = String(decoding: try value.jsonBytes(options: writeOptions), as: UTF8.self)
        #expect(example.values == [text], "\(example)")
      } catch let error as JSONParseError {
        #expect(example.errorOffset == error.offset, "\(example): \(error)")
      }
    }
  }
}

extension BinaryConformanceTableTests {
  /// Whether the JSON `text` has an object with a key twice.
  static func repeatsAKey(_ text: String, _ options: JSONParseOptions) -> Bool {
    do {
      _ = try JSONValue(parsing: text, options: options, duplicateKeys: .error)
      return false
    } catch let error as JSONParseError {
      return error.kind == .duplicateKey
    } catch {
      return false
    }
  }
}

struct BinaryFormatTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
