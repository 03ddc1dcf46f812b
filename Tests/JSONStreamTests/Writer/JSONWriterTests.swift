import JSONStream
import JSONStreamTestSupport
import Testing

@testable import JSONStreamWriter

/// Parses `text` straight into a writer with `options`, as `jsonstream fmt/minify` does.
func transcode(_ text: String, _ options: JSONWriteOptions = .compact, chunkSizes: [Int] = [])
  throws -> String
{
  var parser = JSONParser(handler: JSONWriter(options: options))
  let bytes = Array(text.utf8)
  var start = 0
  for size in chunkSizes where start < bytes.count {
    let end = min(bytes.count, start + size)
    try parser.feed(bytes[start..<end])
    start = end
  }
  try parser.feed(bytes[start...])
  try parser.finish()
  try parser.handler.finish()
  return String(decoding: parser.handler.bytes, as: UTF8.self)
}

let awkwardText = """
  { "a" : [ 1 , -2.50e+3 , true , false , null , "x\\n\\u00e9\\ud83d\\ude00\\/\\"" ] ,
    "b" : { } , "c" : [ ] , "d" : { "e" : [ [ ] , { } , 123456789012345678901234567890 ] } ,
    "é" : "\\u0000\\u001f" }
  """

@Suite("JSONWriter")
struct JSONWriterTests {
  @Test("compact output has no whitespace outside strings; numbers pass through")
  func compact() throws {
    let output = try transcode(awkwardText)
    #expect(
      output
        == #"{"a":[1,-2.50e+3,true,false,null,"x\né😀/\""],"b":{},"c":[],"d":{"e":[[],{},123456789012345678901234567890]},"é":"\u0000\u001f"}"#
    )
  }

  @Test("pretty output with the indent chosen")
  func pretty() throws {
    let output = try transcode(#"{"a":[1,{"b":null}],"c":{},"d":[]}"#, .pretty)
    #expect(
      output == """
        {
          "a": [
            1,
            {
              "b": null
            }
          ],
          "c": {},
          "d": []
        }
        """)
    var four = JSONWriteOptions()
    four.indent = 4
    #expect(try transcode("[1]", four) == "[\n    1\n]")
    four.indent = 0
    #expect(try transcode("[1,[2]]", four) == "[\n1,\n[\n2\n]\n]")
  }

  @Test("parse → write → parse gives the same events, compact and pretty, at any chunking")
  func roundTrip() throws {
    for options in [JSONWriteOptions.compact, .pretty] {
      let output = try transcode(awkwardText, options)
      #expect(parse(output).events == parse(awkwardText).events)
      for size in [1, 2, 3, 7] {
        #expect(
          try transcode(awkwardText, options, chunkSizes: Array(repeating: size, count: 500))
            == output)
      }
      // Formatting is idempotent.
      #expect(try transcode(output, options) == output)
    }
  }

  @Test("sorted keys, recursively, by code point")
  func sortedKeys() throws {
    var options = JSONWriteOptions()
    options.sortKeys = true
    let output = try transcode(
      #"{"b":{"z":1,"a":[{"y":0,"x":0}]},"a":2,"é":3,"Z":4,"aa":5}"#, options)
    #expect(output == #"{"Z":4,"a":2,"aa":5,"b":{"a":[{"x":0,"y":0}],"z":1},"é":3}"#)
    options.indent = 2
    #expect(
      try transcode(#"{"b":1,"a":{"d":[],"c":{}}}"#, options) == """
        {
          "a": {
            "c": {},
            "d": []
          },
          "b": 1
        }
        """)
  }

  /// A document for the sorted-keys test: objects with keys in any order, repeated keys,
  /// keys written with escapes, and nesting.
  indirect enum Node {
    case leaf(String)
    case array([Node])
    case object([(key: String, value: Node)])

    /// Its JSON text; with `sorted`, every object's members in key order (by UTF-8 bytes,
    /// equal keys in their order), which is what a writer with `sortKeys` must write.
    func text(sorted: Bool) -> String {
      switch self {
      case .leaf(let text): return text
      case .array(let elements):
        return "[" + elements.map { $0.text(sorted: sorted) }.joined(separator: ",") + "]"
      case .object(let members):
        var ordered = Array(members.enumerated())
        if sorted {
          ordered.sort { a, b in
            let (x, y) = (Array(a.element.key.utf8), Array(b.element.key.utf8))
            return x.lexicographicallyPrecedes(y) || (x == y && a.offset < b.offset)
          }
        }
        return "{"
          + ordered.map {
            Self.keyText($0.element.key) + ":" + $0.element.value.text(sorted: sorted)
          }
          .joined(separator: ",") + "}"
      }
    }

    /// A key as JSON text, some of its characters escaped so that the writer must sort by
    /// the decoded bytes.
    static func keyText(_ key: String) -> String {
      "\""
        + key.unicodeScalars.map { scalar in
          switch scalar {
          case "\"": return "\\\""
          case "b", "é": return String(format: "\\u%04x", scalar.value)
          default: return String(scalar)
          }
        }.joined() + "\""
    }

    static func random(depth: Int, using generator: inout some RandomNumberGenerator) -> Node {
      let keys = ["a", "b", "ab", "ba", "", "é", "e", "Z", "\"", "a\"", "zz", "🙂", "b"]
      switch depth == 0 ? 0 : Int.random(in: 0..<4, using: &generator) {
      case 0:
        return .leaf(
          ["1", "-2.5e3", "true", "null", #""x""#][Int.random(in: 0..<5, using: &generator)])
      case 1:
        return .array(
          (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
            random(depth: depth - 1, using: &generator)
          })
      default:
        return .object(
          (0..<Int.random(in: 0..<7, using: &generator)).map { _ in
            (keys.randomElement(using: &generator)!, random(depth: depth - 1, using: &generator))
          })
      }
    }
  }

  @Test("sorted keys give what the sorted document gives, in every format and chunking")
  func sortedKeysDifferential() throws {
    var generator = SplitMix(seed: 0x5eed)
    for round in 0..<300 {
      let node = Node.random(depth: 5, using: &generator)
      // Several top-level values, so that output is handed on between sorted objects.
      let unsorted = (0..<3).map { _ in node.text(sorted: false) }.joined(separator: "\n")
      let sorted = (0..<3).map { _ in node.text(sorted: true) }.joined(separator: "\n")
      for base in [JSONWriteOptions.compact, .pretty] {
        var options = base
        options.allowMultipleValues = true
        options.escapeUnicode = round % 2 == 1
        let expected = try Self.write(sorted, options)
        options.sortKeys = true
        for chunkSize in [1, 7, 64 * 1024] {
          #expect(
            try Self.write(unsorted, options, chunkSize: chunkSize) == expected,
            "round \(round), chunks of \(chunkSize): \(unsorted)")
        }
      }
    }
  }

  @Test("a copy of a writer with a sorted object open goes on independently")
  func sortedKeysCopy() throws {
    var options = JSONWriteOptions()
    options.sortKeys = true
    var first = JSONWriter(options: options)
    try first.startObject()
    try first.key("b")
    try first.number(1)
    var second = first
    try first.key("a")
    try first.number(2)
    try first.endObject()
    try second.key("c")
    try second.startObject()
    try second.key("y")
    try second.null()
    try second.key("x")
    try second.null()
    try second.endObject()
    try second.endObject()
    try first.finish()
    try second.finish()
    #expect(String(decoding: first.bytes, as: UTF8.self) == #"{"a":2,"b":1}"#)
    #expect(String(decoding: second.bytes, as: UTF8.self) == #"{"b":1,"c":{"x":null,"y":null}}"#)
  }

  @Test("flush with a sorted object open hands on what comes before it; the object still sorts")
  func sortedKeysFlush() throws {
    var options = JSONWriteOptions()
    options.sortKeys = true
    options.allowMultipleValues = true
    options.indent = 2
    var writer = JSONWriter(sink: JSONByteSink(), options: options)
    // Nothing held: everything goes.
    try writer.number(1)
    try writer.flush()
    #expect(String(decoding: writer.sink.bytes, as: UTF8.self) == "1")
    // A complete sorted value, then one open two levels deep.
    try writer.startObject()
    try writer.key("b")
    try writer.null()
    try writer.key("a")
    try writer.null()
    try writer.endObject()
    try writer.startObject()
    try writer.key("z")
    try writer.startObject()
    try writer.key("y")
    try writer.number(1)
    try writer.flush()
    let before = "1\n{\n  \"a\": null,\n  \"b\": null\n}\n"
    #expect(String(decoding: writer.sink.bytes, as: UTF8.self) == before)
    #expect(writer.depth == 2)
    try writer.key("x")
    try writer.number(2)
    try writer.flush()
    try writer.endObject()
    #expect(writer.depth == 1)
    try writer.key("c")
    try writer.bool(true)
    try writer.endObject()
    #expect(writer.depth == 0)
    try writer.finish()
    #expect(
      String(decoding: writer.sink.bytes, as: UTF8.self)
        == before + "{\n  \"c\": true,\n  \"z\": {\n    \"x\": 2,\n    \"y\": 1\n  }\n}")
  }

  /// Several top-level values of `text` through a writer with `options` that hands its
  /// output on every `chunkSize` bytes.
  static func write(_ text: String, _ options: JSONWriteOptions, chunkSize: Int = 64 * 1024)
    throws -> String
  {
    var parseOptions = JSONParseOptions()
    parseOptions.allowMultipleValues = true
    var writer = try JSONParser.parse(
      Array(text.utf8),
      handler: JSONWriter(sink: JSONByteSink(), options: options, chunkSize: chunkSize),
      options: parseOptions)
    try writer.finish()
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test("escape options: non-ASCII as \\uXXXX with surrogate pairs; forward slashes")
  func escaping() throws {
    var options = JSONWriteOptions()
    options.escapeUnicode = true
    #expect(
      try transcode(#"["w∈L⟺y", "😀/é"]"#, options) == #"["w\u2208L\u27fay","\ud83d\ude00/\u00e9"]"#)
    options.escapeSlash = true
    #expect(try transcode(#"["</script>"]"#, options) == #"["<\/script>"]"#)
    #expect("é/\"".jsonStringLiteral() == "\"é/\\\"\"")
    #expect(
      "é/".jsonStringLiteral(includeQuotes: false, escapeUnicode: true, escapeSlash: true)
        == "\\u00e9\\/")
  }

  @Test("doubles are written in the shortest form that reads back the same")
  func doubles() throws {
    var writer = JSONWriter()
    try writer.startArray()
    for value in [
      0.1, 1.0 / 3.0, 1e22, Double.leastNonzeroMagnitude, -0.0, 1.7976931348623157e308, 100.0,
    ] {
      try writer.number(value)
    }
    try writer.number(42)
    try writer.endArray()
    try writer.finish()
    let text = String(decoding: writer.bytes, as: UTF8.self)
    #expect(text == "[0.1,0.3333333333333333,1e+22,5e-324,-0.0,1.7976931348623157e+308,100.0,42]")
    let reread = try JSONValue(parsing: text).arrayValue!.map { $0.doubleValue! }
    #expect(
      reread == [
        0.1, 1.0 / 3.0, 1e22, Double.leastNonzeroMagnitude, -0.0, 1.7976931348623157e308, 100.0, 42,
      ])
  }

  @Test("grammar errors: refused, nothing written")
  func grammarErrors() throws {
    func kind(_ body: (inout JSONWriter<JSONByteSink>) throws -> Void) -> JSONWriterError.Kind? {
      var writer = JSONWriter()
      do {
        try body(&writer)
        try writer.finish()
        return nil
      } catch let error as JSONWriterError {
        return error.kind
      } catch {
        return nil
      }
    }
    #expect(kind { try $0.key("a") } == .misplacedKey)
    #expect(
      kind {
        try $0.startArray()
        try $0.key("a")
      } == .misplacedKey)
    #expect(
      kind {
        try $0.startObject()
        try $0.key("a")
        try $0.key("b")
      } == .misplacedKey)
    #expect(
      kind {
        try $0.startObject()
        try $0.string("v")
      } == .valueWhereKeyExpected)
    #expect(kind { try $0.endArray() } == .unbalancedEnd)
    #expect(
      kind {
        try $0.startArray()
        try $0.endObject()
      } == .unbalancedEnd)
    #expect(
      kind {
        try $0.startObject()
        try $0.endArray()
      } == .unbalancedEnd)
    #expect(
      kind {
        try $0.startObject()
        try $0.key("a")
        try $0.endObject()
      } == .unbalancedEnd)
    #expect(
      kind {
        try $0.null()
        try $0.null()
      } == .multipleTopLevelValues)
    #expect(kind { try $0.number(Double.nan) } == .nonFiniteNumber)
    #expect(kind { try $0.number(-Double.infinity) } == .nonFiniteNumber)
    #expect(kind { try $0.startArray() } == .incompleteDocument)
    #expect(kind { _ in } == .incompleteDocument)
    let invalid: [UInt8] = [0x61, 0xC3, 0x28]
    #expect(
      kind { w in try invalid.withUnsafeBufferPointer { try w.string(JSONString(utf8: $0)) } }
        == .invalidUTF8)
    #expect(
      kind { w in
        try w.startObject()
        try invalid.withUnsafeBufferPointer { try w.key(JSONString(utf8: $0)) }
      } == .invalidUTF8)

    // A refused event leaves the output and state as they were.
    var writer = JSONWriter()
    try writer.startArray()
    try writer.number(1)
    #expect(throws: JSONWriterError.self) {
      try invalid.withUnsafeBufferPointer { try writer.string(JSONString(utf8: $0)) }
    }
    #expect(throws: JSONWriterError.self) { try writer.key("k") }
    try writer.number(2)
    try writer.endArray()
    try writer.finish()
    #expect(writer.bytes == Array("[1,2]".utf8))
  }

  @Test("multiple top-level values, one per line, when allowed")
  func multipleValues() throws {
    var options = JSONWriteOptions()
    options.allowMultipleValues = true
    var parseOptions = JSONParseOptions()
    parseOptions.allowMultipleValues = true
    var parser = JSONParser(handler: JSONWriter(options: options), options: parseOptions)
    try parser.feed(Array("{\"a\" : 1}   [2]\n3 \"x\"".utf8))
    try parser.finish()
    try parser.handler.finish()
    #expect(parser.handler.bytes == Array("{\"a\":1}\n[2]\n3\n\"x\"".utf8))
  }

  @Test("non-finite numbers only on request")
  func nonFinite() throws {
    var options = JSONWriteOptions()
    options.allowNonFiniteNumbers = true
    var parseOptions = JSONParseOptions()
    parseOptions.allowNonFiniteNumbers = true
    var parser = JSONParser(handler: JSONWriter(options: options), options: parseOptions)
    try parser.feed(Array("[NaN,-Infinity]".utf8))
    try parser.finish()
    try parser.handler.finish()
    #expect(parser.handler.bytes == Array("[NaN,-Infinity]".utf8))
    #expect(throws: JSONWriterError.self) {
      _ = try JSONParser.parse(Array("[NaN]".utf8), handler: JSONWriter(), options: parseOptions)
    }
  }

  @Test("the sink receives chunks of bounded size; their concatenation is the output")
  func boundedChunks() throws {
    final class Chunks: @unchecked Sendable {
      var sizes: [Int] = []
      var bytes: [UInt8] = []
    }
    let chunks = Chunks()
    let sink = JSONChunkSink { chunk in
      chunks.sizes.append(chunk.count)
      chunks.bytes.append(contentsOf: chunk)
    }
    var writer = JSONWriter(sink: sink, options: .compact, chunkSize: 100)
    try writer.startArray()
    for i in 0..<1000 { try writer.number(i) }
    try writer.string(String(repeating: "long ", count: 200))  // one value larger than a chunk
    try writer.endArray()
    try writer.finish()
    #expect(chunks.sizes.allSatisfy { $0 <= 100 })
    #expect(chunks.sizes.count > 40)
    let value = try JSONValue(parsing: chunks.bytes)
    #expect(value.arrayValue?.count == 1001)
  }

  @Test("values built in code serialize through replay")
  func replaySerialization() throws {
    let value: JSONValue = ["name": "Zoë", "tags": ["a", "b"], "n": 1.5, "ok": true, "none": nil]
    #expect(
      try value.jsonString() == #"{"name":"Zoë","tags":["a","b"],"n":1.5,"ok":true,"none":null}"#)
    var options = JSONWriteOptions.pretty
    options.sortKeys = true
    #expect(
      try value.jsonString(options: options) == """
        {
          "n": 1.5,
          "name": "Zoë",
          "none": null,
          "ok": true,
          "tags": [
            "a",
            "b"
          ]
        }
        """)
    #expect(throws: JSONWriterError.self) { try JSONValue(Double.nan).jsonBytes() }
    #expect(JSONValue(Double.nan).description == "NaN")
  }

  @Test("a whole-output writer's text read in place: all of it, flushed or not; refused unfinished")
  func finishReading() throws {
    var writer = JSONWriter(wholeOutput: .compact)
    try writer.startArray()
    for index in 0..<10_000 { try writer.number(index) }
    try writer.endArray()
    let expected = "[" + (0..<10_000).map(String.init).joined(separator: ",") + "]"
    #expect(try writer.finish { String(decoding: $0, as: UTF8.self) } == expected)
    #expect(writer.bytes.isEmpty, "read in place, not handed to the sink")

    // After a flush, part of the text is in the sink: the whole is read from there.
    var flushed = JSONWriter(wholeOutput: .compact)
    try flushed.startArray()
    try flushed.number(1)
    try flushed.flush()
    try flushed.number(2)
    try flushed.endArray()
    #expect(try flushed.finish { String(decoding: $0, as: UTF8.self) } == "[1,2]")

    var unfinished = JSONWriter(wholeOutput: .compact)
    try unfinished.startObject()
    #expect(throws: JSONWriterError.self) { try unfinished.finish { $0.count } }
    var empty = JSONWriter(wholeOutput: .compact)
    #expect(throws: JSONWriterError.self) { try empty.finish { $0.count } }
  }

  @Test("binary numbers are written as the text withJSONNumber makes, without making it")
  func binaryNumbers() throws {
    var values: [JSONBinaryNumber] = [
      .int(0), .int(-1), .int(.max), .int(.min), .uint(.max), .uint(1 << 63),
      .decimal(mantissa: 0, scale: 1), .decimal(mantissa: 150, scale: 2),
      .decimal(mantissa: -5, scale: 1), .decimal(mantissa: 1, scale: 3),
      .decimal(mantissa: .max, scale: 18), .decimal(mantissa: -(.max), scale: 255),
      .double(1.5), .double(0.1), .double(-0.0), .double(1e-9), .double(1e300), .double(100),
      .double(0.30000000000000004),
    ]
    var generator = SplitMix(seed: 0xB17)
    for _ in 0..<2_000 {
      let mantissa = Int64(bitPattern: generator.next()) >> (generator.next() % 64)
      values.append(.decimal(mantissa: mantissa, scale: UInt8(generator.next() % 255 + 1)))
      values.append(.double(Double(bitPattern: generator.next())))
    }
    for value in values {
      if case .double(let double) = value, !double.isFinite { continue }
      var writer = JSONWriter()
      try writer.binaryNumber(value)
      try writer.finish()
      let expected = value.withJSONNumber { $0.text }
      #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "\(value)")
    }
    var refusing = JSONWriter()
    #expect(throws: JSONWriterError.self) { try refusing.binaryNumber(.double(.nan)) }
    var options = JSONWriteOptions()
    options.allowNonFiniteNumbers = true
    var allowing = JSONWriter(options: options)
    try allowing.binaryNumber(.double(-.infinity))
    try allowing.finish()
    #expect(String(decoding: allowing.bytes, as: UTF8.self) == "-Infinity")
  }
}
