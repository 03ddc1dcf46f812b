import JSONStream
import JSONStreamTestSupport
import Testing

/// Options that cannot be honoured (a negative limit, a negative indent) are refused with an
/// `invalidOption` error from the first call of whatever uses them — never a crash, never an
/// error at a negative offset.
@Suite("InvalidOptions")
struct InvalidOptionsTests {
  /// Each limit set to each bad value, with the limit's name.
  static var badLimits: [(name: String, options: JSONParseOptions)] {
    var result: [(String, JSONParseOptions)] = []
    for value in [-1, -3, Int.min] {
      var options = JSONParseOptions()
      options.limits.maxDepth = value
      result.append(("maxDepth is \(value)", options))
      options = JSONParseOptions()
      options.limits.maxStringLength = value
      result.append(("maxStringLength is \(value)", options))
      options = JSONParseOptions()
      options.limits.maxNumberLength = value
      result.append(("maxNumberLength is \(value)", options))
      options = JSONParseOptions()
      options.limits.maxInputLength = value
      result.append(("maxInputLength is \(value)", options))
    }
    return result
  }

  static func expectInvalidOption(
    _ error: (any Error)?, naming name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let error = error as? JSONParseError else {
      Issue.record(
        "not a JSONParseError: \(String(describing: error))", sourceLocation: sourceLocation)
      return
    }
    #expect(error.kind == .invalidOption, sourceLocation: sourceLocation)
    #expect(error.offset == 0, sourceLocation: sourceLocation)
    #expect(error.message.contains(name), "\(error.message)", sourceLocation: sourceLocation)
  }

  static func thrown(_ body: () throws -> Void) -> (any Error)? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  @Test("validate() refuses negative limits and accepts zero ones")
  func validateLimits() throws {
    for (name, options) in Self.badLimits {
      Self.expectInvalidOption(Self.thrown { try options.validate() }, naming: name)
      Self.expectInvalidOption(Self.thrown { try options.limits.validate() }, naming: name)
    }
    var zero = JSONParseOptions()
    zero.limits.maxDepth = 0
    zero.limits.maxStringLength = 0
    zero.limits.maxNumberLength = 0
    zero.limits.maxInputLength = 0
    try zero.validate()
    try JSONParseOptions().validate()
  }

  @Test("the parser throws the error from its first feed or finish, and again after")
  func parser() {
    for (name, options) in Self.badLimits {
      for text in ["", "1", "[1, \"a\"]", "{\"a\": [[]]}"] {
        var parser = JSONParser(handler: EventRecorder(), options: options)
        if !text.isEmpty {
          Self.expectInvalidOption(Self.thrown { try parser.feed(Array(text.utf8)) }, naming: name)
          #expect(parser.handler.events.isEmpty)
        }
        Self.expectInvalidOption(Self.thrown { try parser.finish() }, naming: name)
        #expect(parser.offset == 0)
        #expect(parser.column == 1)
      }
    }
  }

  @Test("every reader refuses them: tree, documents, binary")
  func readers() throws {
    let binary = try JSONValue(parsing: #"{"a": [1, "x"]}"#).binaryBytes()
    for (name, options) in Self.badLimits {
      Self.expectInvalidOption(
        Self.thrown { _ = try JSONValue(parsing: "[1]", options: options) }, naming: name)
      Self.expectInvalidOption(
        Self.thrown { _ = try JSONValue(binary: binary, options: options) }, naming: name)
      var binaryReader = JSONBinaryReader(handler: EventRecorder(), options: options)
      Self.expectInvalidOption(Self.thrown { try binaryReader.feed(binary) }, naming: name)
      Self.expectInvalidOption(Self.thrown { try binaryReader.finish() }, naming: name)
      // Even when skipping bad documents: the options are not a document's fault.
      for skipping in [false, true] {
        var documents = JSONDocumentReader(options: options, skipsInvalidDocuments: skipping)
        let error = Self.thrown { _ = try documents.feed(Array("1\n2\n".utf8)) }
        Self.expectInvalidOption((error as? JSONDocumentReader.Failure)?.error, naming: name)
      }
    }
  }

  @Test("zero limits keep their meaning: none of what they count")
  func zeroLimits() throws {
    var options = JSONParseOptions()
    options.limits.maxDepth = 0
    #expect(try JSONValue(parsing: "1", options: options) == 1)
    #expect(parse("[]", options: options).error?.kind == .limitExceeded(.depth))
    options = JSONParseOptions()
    options.limits.maxStringLength = 0
    #expect(try JSONValue(parsing: #"[""]"#, options: options) == [""])
    #expect(parse(#"["a"]"#, options: options).error?.offset == 1)
    options = JSONParseOptions()
    options.limits.maxNumberLength = 0
    #expect(parse("[1]", options: options).error?.kind == .limitExceeded(.numberLength))
    options = JSONParseOptions()
    options.limits.maxInputLength = 0
    #expect(parse("1", options: options).error?.kind == .limitExceeded(.inputLength))
    #expect(parse("1", options: options).error?.offset == 0)
  }

  static let badIndents = [-1, -3, Int.min, JSONWriteOptions.maxIndent + 1, Int.max]

  static func expectInvalidWriteOption(
    _ error: (any Error)?, indent: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let error = error as? JSONWriterError else {
      Issue.record(
        "not a JSONWriterError: \(String(describing: error))", sourceLocation: sourceLocation)
      return
    }
    #expect(error.kind == .invalidOption, sourceLocation: sourceLocation)
    #expect(
      error.message.contains("indent is \(indent)"), "\(error)", sourceLocation: sourceLocation)
  }

  @Test("the writer refuses an invalid indent at its first event, writing nothing")
  func writer() {
    for indent in Self.badIndents {
      var options = JSONWriteOptions()
      options.indent = indent
      Self.expectInvalidWriteOption(Self.thrown { try options.validate() }, indent: indent)
      let events: [(inout JSONWriter<JSONByteSink>) throws -> Void] = [
        { try $0.startArray() }, { try $0.startObject() }, { try $0.number(1 as Int) },
        { try $0.string("x") }, { try $0.null() }, { try $0.key("k") }, { try $0.endArray() },
        { try $0.endObject() }, { try $0.finish() },
      ]
      for event in events {
        for sortKeys in [false, true] {
          options.sortKeys = sortKeys
          var writer = JSONWriter(options: options)
          Self.expectInvalidWriteOption(Self.thrown { try event(&writer) }, indent: indent)
          Self.expectInvalidWriteOption(Self.thrown { try writer.finish() }, indent: indent)
          #expect(writer.bytes.isEmpty)
        }
      }
    }
  }

  @Test("trees and parsed text written with an invalid indent throw, not crash")
  func writerEntryPoints() throws {
    let value = try JSONValue(parsing: #"{"b": [1, {"c": null}], "a": "x"}"#)
    for indent in Self.badIndents {
      for sortKeys in [false, true] {
        var options = JSONWriteOptions()
        options.indent = indent
        options.sortKeys = sortKeys
        Self.expectInvalidWriteOption(
          Self.thrown { _ = try value.jsonBytes(options: options) }, indent: indent)
        Self.expectInvalidWriteOption(
          Self.thrown { _ = try value.jsonString(options: options) }, indent: indent)
        Self.expectInvalidWriteOption(
          Self.thrown { _ = try JSONValue(1).jsonBytes(options: options) }, indent: indent)
        var parser = JSONParser(handler: JSONWriter(options: options))
        Self.expectInvalidWriteOption(
          Self.thrown { try parser.feed(Array(#"[1, {"a": 2}]"#.utf8)) }, indent: indent)
      }
    }
  }

  @Test("indent 0 breaks lines without indenting; the largest indent works")
  func validIndents() throws {
    let value = try JSONValue(parsing: #"[1, {"a": 2}]"#)
    var options = JSONWriteOptions()
    options.indent = 0
    try options.validate()
    #expect(try value.jsonString(options: options) == "[\n1,\n{\n\"a\": 2\n}\n]")
    options.indent = JSONWriteOptions.maxIndent
    try options.validate()
    let pad = String(repeating: " ", count: JSONWriteOptions.maxIndent)
    #expect(try ([1] as JSONValue).jsonString(options: options) == "[\n\(pad)1\n]")
    try JSONWriteOptions().validate()
    try JSONWriteOptions.pretty.validate()
  }
}
