import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@Suite("Binary format: writer, reader, safety")
struct BinaryFormatTests {
  /// JSON text → binary (through the parser and the binary writer).
  func binary(_ json: String, multiple: Bool = false) throws -> [UInt8] {
    var options = JSONParseOptions()
    options.allowMultipleValues = multiple
    var parser = JSONParser(
      handler: JSONBinaryWriter(allowMultipleValues: multiple), options: options)
    try parser.feed(Array(json.utf8))
    try parser.finish()
    try parser.handler.finish()
    return parser.handler.bytes
  }

  /// Binary → compact JSON text, fed in chunks of `chunk` bytes.
  func json(_ binary: [UInt8], chunk: Int = 1 << 20, multiple: Bool = false) throws -> String {
    var writeOptions = JSONWriteOptions()
    writeOptions.allowMultipleValues = multiple
    var options = JSONParseOptions()
    options.allowMultipleValues = multiple
    var reader = JSONBinaryReader(handler: JSONWriter(options: writeOptions), options: options)
    for start in stride(from: 0, to: binary.count, by: chunk) {
      try reader.feed(binary[start..<min(start + chunk, binary.count)])
    }
    try reader.finish()
    try reader.handler.finish()
    return String(decoding: reader.handler.bytes, as: UTF8.self)
  }

  static let sample = #"""
    {"null":null,"t":true,"f":false,"ints":[0,1,-1,63,-64,64,127,128,-129,9223372036854775807,-9223372036854775808,18446744073709551615,281474976710656,-281474976710656],
    "decimals":[0.5,-0.5,1.50,0.001,10.0,123.456,-98765.4321,0.000000000000000001,-65.613616999999977,2814749767.10655],
    "texts":[1e5,-0,-0.0,1E-7,123456789012345678901234567890,1.2345678901234567890,0.1e1,18446744073709551616],
    "strings":["","a","é😀","tab\tnew\nline","repeated","repeated","\u0000"],
    "nested":[[[]],{},{"a":{"b":{"c":[1,{"d":null}]}}}],
    "objects":[{"id":1,"name":"x"},{"id":2,"name":"y"},{"id":3,"name":"x"}]}
    """#

  @Test("round trip: JSON → binary → JSON is the same minified JSON, at any chunk size")
  func roundTrip() throws {
    let minified = try JSONValue(parsing: Self.sample).jsonString()
    let bytes = try binary(Self.sample)
    for chunk in [1, 2, 3, 7, 64, 1 << 20] {
      #expect(try json(bytes, chunk: chunk) == minified, "chunks of \(chunk)")
    }
    // Numbers keep their text exactly.
    #expect(try json(binary("[1.50,-0,1e5,0.001]")) == "[1.50,-0,1e5,0.001]")
    // Several top-level values.
    #expect(
      try json(binary("1 [2] {\"a\":3}", multiple: true), multiple: true) == "1\n[2]\n{\"a\":3}")
    // A scalar at the top.
    #expect(try json(binary("\"x\"")) == "\"x\"")
    // A stream of several values may hold none: the header alone, read back as nothing.
    let none = try binary("", multiple: true)
    #expect(none.count == 6)
    #expect(try json(none, multiple: true) == "")
    #expect(throws: JSONParseError.self) { try json(none) }
  }

  @Test(
    "the corpus round-trips, and the binary is smaller than minified JSON",
    .enabled(if: SharedData.hasCorpus, "../shared/corpus is not next to the checkout; skipped"))
  func corpus() throws {
    for name in SharedData.corpusNames {
      let bytes = try SharedData.corpusFile(name)
      let minified = try JSONValue(parsing: bytes).jsonBytes()
      let encoded = try binary(String(decoding: bytes, as: UTF8.self))
      #expect(Array(try json(encoded, chunk: 4096).utf8) == minified, "\(name)")
      #expect(encoded.count < minified.count, "\(name): \(encoded.count) vs \(minified.count)")
    }
  }

  @Test("strings and keys that need escaping are escaped when read again by reference")
  func escapedReferences() throws {
    // Each key and string is shared the first time and a reference after; whether an entry
    // needs escaping is found once, at its entry.
    let record = #"{"a\"b":"x\\y","c\u0001":"\t","plain":"é/z","q":"\"","":""}"#
    let text = "[" + Array(repeating: record, count: 3).joined(separator: ",") + "]"
    let minified = try JSONValue(parsing: text).jsonString()
    let bytes = try binary(text)
    for chunk in [1, 5, 1 << 20] {
      #expect(try json(bytes, chunk: chunk) == minified)
    }
  }

  @Test("repeated keys and short strings are written once, then referred to")
  func aliases() throws {
    let once = try binary(#"[{"name":"a long enough value"}]"#)
    let twice = try binary(#"[{"name":"a long enough value"},{"name":"a long enough value"}]"#)
    // The second object: start, key reference (2 bytes), string reference (2 bytes), end.
    #expect(twice.count - once.count == 6)
    #expect(twice.contains(_BinaryTag.keyRef) && twice.contains(_BinaryTag.stringRef))
    // Long strings are not shared.
    let long = String(repeating: "x", count: 100)
    let longTwice = try binary("[\"\(long)\",\"\(long)\"]")
    #expect(!longTwice.contains(_BinaryTag.stringRef))
  }

  @Test("thousands of short strings come back as references, a few of them written again")
  func manySharedStrings() throws {
    // 3,000 distinct 19-byte strings, then all of them again in another order. The writer's
    // table forgets an entry when a later one takes its slot: such a string is written in
    // full again, and entered again, which the reader accepts.
    let strings = (0..<3000).map { "value-\(String(1_000_000_000_000 + $0 * 7919))" }
    let once = "[" + strings.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    var generator = SplitMix(seed: 7)
    let again = strings.shuffled(using: &generator)
    let twice =
      "[" + (strings + again).map { "\"\($0)\"" }.joined(separator: ",") + "]"
    let onceBinary = try binary(once)
    let twiceBinary = try binary(twice)
    // References of one and two bytes, whole and split across chunks.
    for chunk in [1 << 20, 1, 5] {
      #expect(try json(twiceBinary, chunk: chunk) == twice, "chunks of \(chunk)")
    }
    // A reference is at most three bytes (tag and index); a string written again, 21 (tag,
    // length, bytes). Fewer than a quarter may be written again: those whose slot a later
    // string took.
    let extra = twiceBinary.count - onceBinary.count
    #expect(extra < 3000 * 3 + 3000 / 4 * 22, "\(extra) bytes for 3,000 repeats")
  }

  @Test("objects of many shapes, at every depth, under keys and in arrays, round-trip")
  func keyPredictions() throws {
    // The writer predicts each key from the one before and an object's first key from where
    // the object is: random shapes from a small pool of keys make it right, wrong and
    // changing, with keys in and out of the table's first 128 entries.
    var generator = SplitMix(seed: 11)
    let keys = (0..<300).map { "k\($0 * 37 % 300)" }
    func value(_ depth: Int) -> String {
      switch Int.random(in: 0..<(depth > 4 ? 3 : 6), using: &generator) {
      case 0: return String(Int.random(in: -1000...1000, using: &generator))
      case 1: return "\"s\(Int.random(in: 0..<50, using: &generator))\""
      case 2: return "null"
      case 3, 4:
        // Objects whose keys mostly follow one of a few orders.
        let shape = Int.random(in: 0..<4, using: &generator) * 60
        let count = Int.random(in: 0..<6, using: &generator)
        let members = (0..<count).map { index -> String in
          let skip = Int.random(in: 0..<8, using: &generator) == 0 ? 1 : 0
          return "\"\(keys[shape + index * 2 + skip])\":\(value(depth + 1))"
        }
        return "{" + members.joined(separator: ",") + "}"
      default:
        let count = Int.random(in: 0..<4, using: &generator)
        return "[" + (0..<count).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
      }
    }
    for round in 0..<200 {
      let document = "[" + (0..<8).map { _ in value(0) }.joined(separator: ",") + "]"
      #expect(try json(try binary(document), chunk: round % 2 == 0 ? 1 << 20 : 3) == document)
    }
  }

  /// Binary bytes from the header and token bytes.
  func document(_ tokens: [UInt8], major: UInt8 = 1, minor: UInt8 = 0) -> [UInt8] {
    JSONBinaryFormat.magic + [major, minor] + tokens
  }

  func error(_ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions()) -> JSONParseError? {
    var reader = JSONBinaryReader(handler: JSONTreeBuilder(), options: options)
    do {
      try reader.feed(bytes)
      try reader.finish()
      return nil
    } catch let error as JSONParseError {
      return error
    } catch {
      Issue.record("not a JSONParseError: \(error)")
      return nil
    }
  }

  @Test("versions: a newer minor is read, a newer major refused; unknown tags name themselves")
  func versions() throws {
    #expect(try json(document([0x02], minor: 7)) == "true")
    let major = try #require(error(document([0x02], major: 2)))
    #expect(major.kind == .invalidBinary && major.offset == 4)
    #expect(major.description.contains("version 2.0"))
    let unknown = try #require(error(document([0x7F])))
    #expect(unknown.offset == 6 && unknown.message.contains("unknown tag 0x7f"))
    #expect(error(Array("{}".utf8) + [0, 0, 0, 0])?.message.contains("no JSB header") == true)
    #expect(error([])?.kind == .emptyInput)
  }

  @Test(
    "1.1 and 1.2: integers of 32 bits from 2^20, and numbers from 2^48, take fixed bytes; 1.0's LEB128 still reads"
  )
  func fixedWidthNumbers() throws {
    // Below 2^48 in magnitude (zigzag under 2^49) LEB128 takes seven bytes at most; from
    // there it would take eight or more, and the fixed form takes eight. Integers of 32 bits
    // whose LEB128 would take four bytes or more (zigzag from 2^21) take four.
    let cases: [(text: String, tag: UInt8, size: Int)] = [
      ("1048575", _BinaryTag.int, 1 + 3),
      ("-1048576", _BinaryTag.int, 1 + 3),
      ("1048576", _BinaryTag.int32, 1 + 4),
      ("-1048577", _BinaryTag.int32, 1 + 4),
      ("205705993", _BinaryTag.int32, 1 + 4),
      ("2147483647", _BinaryTag.int32, 1 + 4),
      ("-2147483648", _BinaryTag.int32, 1 + 4),
      ("2147483648", _BinaryTag.int, 1 + 5),
      ("-2147483649", _BinaryTag.int, 1 + 5),
      ("281474976710655", _BinaryTag.int, 1 + 7),
      ("-281474976710656", _BinaryTag.int, 1 + 7),
      ("281474976710656", _BinaryTag.int64, 1 + 8),
      ("-281474976710657", _BinaryTag.int64, 1 + 8),
      ("9223372036854775807", _BinaryTag.int64, 1 + 8),
      ("-9223372036854775808", _BinaryTag.int64, 1 + 8),
      ("2814749767.10655", _BinaryTag.decimal, 2 + 7),
      ("2814749767.10656", _BinaryTag.decimal64, 2 + 8),
      ("-65.613616999999977", _BinaryTag.decimal64, 2 + 8),
      ("-0.99999999999999999", _BinaryTag.decimal64, 2 + 8),
    ]
    for (text, tag, size) in cases {
      let bytes = try binary(text)
      #expect(bytes[5] == JSONBinaryFormat.minorVersion)
      #expect(bytes[6] == tag && bytes.count == 6 + size, "\(text): \(bytes)")
      for chunk in 1...bytes.count {
        #expect(try json(bytes, chunk: chunk) == text, "\(text) in chunks of \(chunk)")
      }
      #expect(try tree(bytes) == (try JSONValue(parsing: text)))
      for end in 6..<bytes.count {
        #expect(error(Array(bytes[..<end]))?.kind == .unexpectedEndOfInput, "\(text) cut at \(end)")
      }
    }
    // Written by version 1.0: the same numbers in LEB128, nine bytes of mantissa.
    var old: [UInt8] = [_BinaryTag.startArray, _BinaryTag.decimal, 15]
    _appendLEB128(_zigzag(-65_613_616_999_999_977), to: &old)
    old.append(_BinaryTag.int)
    _appendLEB128(_zigzag(Int64.min), to: &old)
    old.append(_BinaryTag.endArray)
    #expect(old.count == 1 + 2 + 9 + 1 + 10 + 1)
    #expect(try json(document(old, minor: 0)) == "[-65.613616999999977,-9223372036854775808]")
    // A fixed decimal checks what a LEB128 one does: a scale of at least 1, a magnitude.
    let one = withUnsafeBytes(of: Int64(1).littleEndian) { Array($0) }
    let minimum = withUnsafeBytes(of: Int64.min.littleEndian) { Array($0) }
    #expect(error(document([_BinaryTag.decimal64, 0] + one))?.kind == .invalidBinary)
    #expect(error(document([_BinaryTag.decimal64, 2] + minimum))?.kind == .invalidBinary)
    #expect(try json(document([_BinaryTag.decimal64, 3] + one)) == "0.001")
    #expect(try json(document([_BinaryTag.int64] + minimum)) == "-9223372036854775808")
    // Four bytes are read signed; a 1.1 document's LEB128 integers read as before.
    #expect(try json(document([_BinaryTag.int32, 0xFF, 0xFF, 0xFF, 0xFF])) == "-1")
    #expect(
      try json(document([_BinaryTag.int32, 0x09, 0x2F, 0x43, 0x0C], minor: 1)) == "205729545")
    #expect(
      try json(document([_BinaryTag.int, 0x92, 0xF8, 0x98, 0xC4, 0x01], minor: 1)) == "205725193")
  }

  @Test("extended types read as JSON: data as base64, a date as seconds, a set as an array")
  func extendedTypes() throws {
    var date: [UInt8] = [_BinaryTag.date]
    withUnsafeBytes(of: (1_700_000_000.25).bitPattern.littleEndian) { date += $0 }
    let tokens: [UInt8] =
      [_BinaryTag.startArray, _BinaryTag.data, 4, 0, 1, 2, 250] + date
      + [_BinaryTag.startSet, _BinaryTag.int, 2, _BinaryTag.endArray, _BinaryTag.endArray]
    #expect(try json(document(tokens)) == #"["AAEC+g==",1700000000.25,[1]]"#)
    var float: [UInt8] = [_BinaryTag.float64]
    withUnsafeBytes(of: (0.1).bitPattern.littleEndian) { float += $0 }
    #expect(try json(document(float)) == "0.1")
  }

  @Test("corruption: every truncation, every flipped byte, bad lengths and references fail cleanly")
  func corruption() throws {
    let bytes = try binary(Self.sample)
    // Truncated at every offset: an error at or before the end, never a crash.
    for end in 0..<bytes.count {
      let failure = try #require(error(Array(bytes[..<end])), "truncated at \(end)")
      #expect(failure.offset <= end)
    }
    // Each byte flipped: an error, or a document that is still valid JSON when written out.
    for index in 0..<bytes.count {
      var corrupted = bytes
      corrupted[index] ^= 0xFF
      var reader = JSONBinaryReader(handler: JSONWriter())
      do {
        try reader.feed(corrupted)
        try reader.finish()
        try reader.handler.finish()
        #expect(throws: Never.self) { try JSONValue(parsing: reader.handler.bytes) }
      } catch is JSONParseError {
      } catch is JSONWriterError {
      }
    }
    // A length far beyond the limit fails at once, before anything is kept.
    let huge = document([_BinaryTag.string, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F] + [0x61])
    let limit = try #require(error(huge))
    #expect(limit.kind == .limitExceeded(.stringLength))
    // A LEB128 longer than 64 bits.
    #expect(
      error(document([_BinaryTag.int] + Array(repeating: 0xFF, count: 11) + [0]))?.kind
        == .invalidBinary)
    // References to entries not yet there.
    #expect(
      error(document([_BinaryTag.stringRef, 0]))?.message.contains("reference to string 0 of 0")
        == true)
    #expect(
      error(
        document([
          _BinaryTag.startObject, _BinaryTag.sharedKey, 1, 0x61, _BinaryTag.null, _BinaryTag.keyRef,
          1,
        ]))?
        .message.contains("reference to key 1 of 1") == true)
    // Structure out of place.
    #expect(
      error(document([_BinaryTag.startObject, _BinaryTag.null]))?.message.contains(
        "key is expected") == true)
    #expect(error(document([_BinaryTag.key, 1, 0x61]))?.kind == .invalidBinary)
    #expect(error(document([_BinaryTag.startArray, _BinaryTag.endObject]))?.kind == .invalidBinary)
    #expect(error(document([_BinaryTag.null, _BinaryTag.null]))?.kind == .trailingText)
    // Strings must be UTF-8, number text a JSON number.
    #expect(error(document([_BinaryTag.string, 1, 0xFF]))?.kind == .invalidUTF8)
    #expect(error(document([_BinaryTag.numberText, 2, 0x30, 0x31]))?.kind == .invalidNumber)
    // Nesting is bounded.
    var shallow = JSONParseOptions()
    shallow.limits.maxDepth = 3
    #expect(
      error(document(Array(repeating: _BinaryTag.startArray, count: 4)), options: shallow)?.kind
        == .limitExceeded(.depth))
  }

  @Test("every consumer works on binary input: a tree, a selection")
  func consumers() throws {
    let bytes = try binary(Self.sample)
    var reader = JSONBinaryReader(handler: JSONTreeBuilder())
    try reader.feed(bytes)
    try reader.finish()
    #expect(reader.handler.value == (try JSONValue(parsing: Self.sample)))
    var select = JSONBinaryReader(
      handler: JSONItemStreamer(paths: [try JSONPath("$.objects[*].name")]))
    try select.feed(bytes)
    try select.finish()
    #expect(select.handler.takeItems().map(\.value) == ["x", "y", "x"])
  }

  /// The tree of a binary document, read in chunks of `chunk` bytes.
  func tree(_ binary: [UInt8], chunk: Int = 1 << 20) throws -> JSONValue? {
    var reader = JSONBinaryReader(handler: JSONTreeBuilder())
    for start in stride(from: 0, to: binary.count, by: chunk) {
      try reader.feed(binary[start..<min(start + chunk, binary.count)])
    }
    try reader.finish()
    return reader.handler.value
  }

  @Test("a tree read from binary keeps numbers in binary form, and reads and writes as the text")
  func binaryNumbersInTrees() throws {
    let fromText = try JSONValue(parsing: Self.sample)
    let bytes = try binary(Self.sample)
    for chunk in [1, 3, 1 << 20] {
      let fromBinary = try #require(try tree(bytes, chunk: chunk))
      // Written in one pass, replayed into a writer, and compared: as the tree from the text.
      #expect(try fromBinary.jsonString() == (try fromText.jsonString()), "chunks of \(chunk)")
      var writer = JSONWriter()
      try fromBinary.replay(into: &writer)
      try writer.finish()
      #expect(String(decoding: writer.bytes, as: UTF8.self) == (try fromText.jsonString()))
      #expect(fromBinary == fromText)
      #expect(fromBinary.hashValue == fromText.hashValue)
      // Replayed into the binary writer: the numbers go in their binary form, the same bytes.
      var again = JSONBinaryWriter()
      try fromBinary.replay(into: &again)
      try again.finish()
      #expect(again.bytes == bytes)
    }
    let value = try #require(try tree(bytes))
    #expect(value["ints"]?[9]?.int64Value == Int64.max)
    #expect(value["ints"]?[10]?.int64Value == Int64.min)
    #expect(value["ints"]?[11]?.numberValue?.uint64 == UInt64.max)
    #expect(value["decimals"]?[2]?.description == fromText["decimals"]?[2]?.description)
    #expect(value["decimals"]?[2]?.doubleValue == 1.5)
    #expect(value["decimals"]?[0] == JSONValue.number(.init(0.5)))
    // A top-level number, and doubles (binary32 and binary64) and dates.
    #expect(try tree(binary("-12.340"))?.description == "-12.340")
    var writer = JSONBinaryWriter()
    try writer.startArray()
    try writer.number(0.5)
    try writer.number(0.1)
    try writer.number(1e300)
    try writer.date(secondsSince2001: 1_700_000_000.125)
    try writer.endArray()
    try writer.finish()
    let doubles = try #require(try tree(writer.bytes))
    #expect(try doubles.jsonString() == "[0.5,0.1,1e+300,1700000000.125]")
    #expect(doubles == (try JSONValue(parsing: "[0.5,0.1,1e+300,1700000000.125]")))
    #expect(doubles[1]?.doubleValue == 0.1)
  }

  @Test("deep nesting of both kinds, past the 64 levels kept in a word, reads and checks ends")
  func deepNesting() throws {
    // Arrays and objects in an irregular pattern, 150 deep, with values at each level.
    var json = ""
    var closers: [String] = []
    for level in 0..<150 {
      if level % 3 == 1 || level % 7 == 0 {
        json += #"{"k\#(level)":1,"v":"#
        closers.append("}")
      } else {
        json += "[\(level),"
        closers.append("]")
      }
    }
    json += "null" + closers.reversed().joined()
    let bytes = try binary(json)
    var options = JSONParseOptions()
    options.limits.maxDepth = 1000
    for chunk in [1, 5, 1 << 20] {
      var reader = JSONBinaryReader(handler: JSONTreeBuilder(), options: options)
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        try reader.feed(bytes[start..<min(start + chunk, bytes.count)])
      }
      try reader.finish()
      #expect(reader.handler.value == (try JSONValue(parsing: json)), "chunks of \(chunk)")
    }
    // The wrong end at each depth past 64 is refused at its byte.
    let ends = bytes.indices.filter {
      bytes[$0] == _BinaryTag.endArray || bytes[$0] == _BinaryTag.endObject
    }
    for index in ends.prefix(90) {
      var wrong = bytes
      wrong[index] =
        bytes[index] == _BinaryTag.endArray ? _BinaryTag.endObject : _BinaryTag.endArray
      #expect(error(wrong, options: options)?.offset == index)
    }
  }

  @Test("a copied reader or writer goes on independently (value semantics)")
  func copies() throws {
    let bytes = try binary(#"[{"k":"v"},{"k":"v"},{"k":"w"},{"k":"v"}]"#)
    var reader = JSONBinaryReader(handler: JSONTreeBuilder())
    try reader.feed(bytes[..<(bytes.count / 2)])
    var copy = reader
    for index in [0, 1] {
      if index == 0 {
        try reader.feed(bytes[(bytes.count / 2)...])
        try reader.finish()
      } else {
        try copy.feed(bytes[(bytes.count / 2)...])
        try copy.finish()
      }
    }
    #expect(reader.handler.value == copy.handler.value)
    #expect(
      reader.handler.value
        == (try JSONValue(parsing: #"[{"k":"v"},{"k":"v"},{"k":"w"},{"k":"v"}]"#)))

    var writer = JSONBinaryWriter()
    try writer.startArray()
    try writer.string("shared")
    var other = writer
    try writer.string("shared")
    try writer.endArray()
    try writer.finish()
    try other.string("other")
    try other.string("shared")
    try other.endArray()
    try other.finish()
    #expect(try json(writer.bytes) == #"["shared","shared"]"#)
    #expect(try json(other.bytes) == #"["shared","other","shared"]"#)

    // A copy of a writer whose tables have grown (past their first 1,024 slots) still finds
    // every entry: its repeats are references, as the original's are.
    var large = JSONBinaryWriter()
    try large.startArray()
    for index in 0..<2000 { try large.string("string \(index)") }
    var largeCopy = large
    for writer in [0, 1] {
      for index in 0..<2000 {
        if writer == 0 {
          try large.string("string \(index)")
        } else {
          try largeCopy.string("string \(index)")
        }
      }
    }
    try large.endArray()
    try largeCopy.endArray()
    try large.finish()
    try largeCopy.finish()
    #expect(large.bytes.count == largeCopy.bytes.count)
    #expect(try json(largeCopy.bytes) == json(large.bytes))
  }

  /// `[{"a":null,"a":true},{"a":1,"a":2,"a":3}]` with "a" entered in the key table twice
  /// (entries 0 and 1), and the second object's keys referring to both.
  static let twoEntriesOfOneKey: [UInt8] = {
    let a: [UInt8] = [_BinaryTag.sharedKey, 1, 0x61]
    return JSONBinaryFormat.magic + [JSONBinaryFormat.majorVersion, 0]
      + [_BinaryTag.startArray, _BinaryTag.startObject] + a + [_BinaryTag.null] + a + [
        _BinaryTag.true, _BinaryTag.endObject, _BinaryTag.startObject, _BinaryTag.keyRef, 0,
        _BinaryTag.int, 2, _BinaryTag.keyRef, 1, _BinaryTag.int, 4, _BinaryTag.keyRef, 0,
        _BinaryTag.int, 6, _BinaryTag.endObject, _BinaryTag.endArray,
      ]
  }()

  @Test("table keys in a tree: the same bytes in two entries still repeat; other readers agree")
  func tableKeysInTrees() throws {
    let twoEntries = Self.twoEntriesOfOneKey
    for policy in [JSONDuplicateKeyPolicy.lastWins, .firstWins, .error] {
      var reader = JSONBinaryReader(handler: JSONTreeBuilder(duplicateKeyPolicy: policy))
      do {
        try reader.feed(twoEntries)
        try reader.finish()
        let expected = policy == .lastWins ? #"[{"a":true},{"a":3}]"# : #"[{"a":null},{"a":1}]"#
        #expect(reader.handler.value == (try JSONValue(parsing: expected)), "\(policy)")
      } catch let error as JSONParseError {
        #expect(policy == .error && error.kind == .duplicateKey, "\(error)")
      }
    }

    // One builder fed by two readers in turn, whose tables give entry 0 to different keys.
    let first = try binary(#"[{"x":1},{"x":3}]"#)
    // Before the second object: start, reference and entry, integer and 3, end, end.
    let cut = first.count - 7
    #expect(first[cut] == _BinaryTag.startObject && first[cut + 1] == _BinaryTag.keyRef)
    var readerA = JSONBinaryReader(handler: JSONTreeBuilder())
    try readerA.feed(first[..<cut])
    var readerB = JSONBinaryReader(handler: readerA.handler)
    try readerB.feed(try binary(#"{"y":2,"y":5}"#))
    try readerB.finish()
    readerA.handler = readerB.handler
    try readerA.feed(first[cut...])
    try readerA.finish()
    #expect(readerA.handler.value == (try JSONValue(parsing: #"[{"x":1},{"y":5},{"x":3}]"#)))

    // Several values in one stream: each keeps its own keys, also when the others are gone.
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    let stream = try binary(#"{"k":1,"key two":[]} {"k":2,"key two":{}} {"k":3}"#, multiple: true)
    var reader = JSONBinaryReader(handler: JSONTreeBuilder(), options: options)
    var values: [JSONValue] = []
    for byte in stream {
      try reader.feed([byte])
      values += reader.handler.takeValues()
    }
    try reader.finish()
    #expect(
      values == [
        try JSONValue(parsing: #"{"k":1,"key two":[]}"#),
        try JSONValue(parsing: #"{"k":2,"key two":{}}"#), try JSONValue(parsing: #"{"k":3}"#),
      ])
  }

  @Test("the writer's typed values: integers, doubles (binary32 when exact), dates, data, sets")
  func typedValues() throws {
    var writer = JSONBinaryWriter()
    try writer.startArray()
    try writer.number(Int64.min)
    try writer.number(UInt64.max)
    try writer.number(UInt64(7))
    try writer.number(0.5)  // exact in binary32
    try writer.number(0.1)  // not: binary64
    try writer.date(secondsSince2001: 1_700_000_000.125)
    try [UInt8]([0xDE, 0xAD]).withUnsafeBytes { try writer.data($0) }
    try writer.startSet()
    try writer.string("a")
    try writer.endArray()
    try writer.endArray()
    try writer.finish()
    #expect(writer.bytes.contains(_BinaryTag.float32) && writer.bytes.contains(_BinaryTag.float64))
    #expect(
      try json(writer.bytes)
        == #"[-9223372036854775808,18446744073709551615,7,0.5,0.1,1700000000.125,"3q0=",["a"]]"#)
    var bad = JSONBinaryWriter()
    #expect(throws: JSONWriterError.self) { try bad.number(Double.nan) }
  }

  @Test("maps and ordered sets: written, read as arrays at any chunk size, ends checked")
  func mapsAndOrderedSets() throws {
    // {1: "a", [2]: {3: null}, {}: []} as a map, with maps and other containers as keys.
    var writer = JSONBinaryWriter()
    try writer.startMap()
    try writer.number(Int64(1))
    try writer.string("a")
    try writer.startArray()
    try writer.number(Int64(2))
    try writer.endArray()
    try writer.startMap()
    try writer.number(Int64(3))
    try writer.null()
    try writer.endArray()
    try writer.startMap()
    try writer.endArray()
    try writer.startOrderedSet()
    try writer.string("z")
    try writer.string("y")
    try writer.endArray()
    try writer.endArray()
    try writer.finish()
    #expect(writer.bytes.contains(_BinaryTag.startMap))
    #expect(writer.bytes.contains(_BinaryTag.startOrderedSet))
    #expect(writer.bytes[5] >= 3)
    for chunk in [1, 2, 3, 1 << 20] {
      #expect(try json(writer.bytes, chunk: chunk) == #"[1,"a",[2],[3,null],[],["z","y"]]"#)
    }
    #expect(
      try JSONValue(binary: writer.bytes)
        == [1, "a", [2], [3, nil], [], ["z", "y"]])

    // The writer ends a map only after a value, at every depth of maps in maps.
    var odd = JSONBinaryWriter()
    try odd.startMap()
    try odd.startMap()
    try odd.number(Int64(1))
    #expect(throws: JSONWriterError.self) { try odd.endArray() }
    try odd.null()
    try odd.endArray()  // the inner map, a key of the outer one
    #expect(throws: JSONWriterError.self) { try odd.endArray() }
    try odd.startOrderedSet()
    try odd.endArray()
    try odd.endArray()
    try odd.finish()
    #expect(try json(odd.bytes) == "[[1,null],[]]")

    // A thousand maps, each the key of the one around it: each end is checked against its own
    // map, with the ones around it saved.
    var deep = JSONBinaryWriter()
    for _ in 0..<1000 { try deep.startMap() }
    try deep.endArray()
    for _ in 0..<999 {
      #expect(throws: JSONWriterError.self) { try deep.endArray() }
      try deep.bool(true)
      try deep.endArray()
    }
    try deep.finish()
    var options = JSONParseOptions()
    options.limits.maxDepth = 1000
    var reader = JSONBinaryReader(handler: JSONTreeBuilder(), options: options)
    for byte in deep.bytes { try reader.feed([byte]) }
    try reader.finish()
    #expect(reader.handler.value == (try JSONValue(binary: deep.bytes, options: options)))
  }

  @Test("shared values: written once, read as copies at any chunk size, references checked")
  func sharedValues() throws {
    var writer = JSONBinaryWriter()
    try writer.startArray()
    let point = try writer.shareNextValue()
    try writer.startObject()
    try writer.key("x")
    try writer.number(Int64(1))
    try writer.endObject()
    let pair = try writer.shareNextValue()
    try writer.startArray()
    try writer.reference(toShared: point)
    try writer.string("mid")
    try writer.reference(toShared: point)
    try writer.endArray()
    try writer.reference(toShared: pair)
    try writer.endArray()
    try writer.finish()
    #expect(writer.bytes[5] == JSONBinaryFormat.minorVersion)
    let expected = #"[{"x":1},[{"x":1},"mid",{"x":1}],[{"x":1},"mid",{"x":1}]]"#
    for chunk in [1, 2, 3, 5, 1 << 20] {
      #expect(try json(writer.bytes, chunk: chunk) == expected, "chunks of \(chunk)")
    }
    #expect(try JSONValue(binary: writer.bytes) == (try JSONValue(parsing: expected)))

    // A reference to a value still being written (a cycle), to none, or right after a mark;
    // a mark where a key goes, before an end, or at the end: refused, nothing written.
    var cycle = JSONBinaryWriter()
    try cycle.startArray()
    let open = try cycle.shareNextValue()
    try cycle.startArray()
    #expect(throws: JSONWriterError.self) { try cycle.reference(toShared: open) }
    #expect(throws: JSONWriterError.self) { try cycle.reference(toShared: 5) }
    try cycle.shareNextValue()
    #expect(throws: JSONWriterError.self) { try cycle.reference(toShared: open) }
    #expect(throws: JSONWriterError.self) { try cycle.shareNextValue() }
    #expect(throws: JSONWriterError.self) { try cycle.endArray() }
    try cycle.null()
    try cycle.endArray()
    try cycle.reference(toShared: open)
    try cycle.endArray()
    try cycle.finish()
    #expect(try json(cycle.bytes) == "[[null],[null]]")
    var object = JSONBinaryWriter()
    try object.startObject()
    #expect(throws: JSONWriterError.self) { try object.shareNextValue() }
    try object.key("k")
    try object.shareNextValue()
    #expect(throws: JSONWriterError.self) { try object.key("j") }
    #expect(throws: JSONWriterError.self) { try object.endObject() }
    var dangling = JSONBinaryWriter()
    try dangling.shareNextValue()
    #expect(throws: JSONWriterError.self) { try dangling.finish() }

    // The table is each top-level value's own.
    var stream = JSONBinaryWriter(allowMultipleValues: true)
    #expect(try stream.shareNextValue() == 0)
    try stream.null()
    #expect(throws: JSONWriterError.self) { try stream.reference(toShared: 0) }
    #expect(try stream.shareNextValue() == 0)
    try stream.bool(true)
    try stream.finish()
    #expect(try json(stream.bytes, multiple: true) == "null\ntrue")
  }

  /// A document whose shared values each hold two references to the one before: `levels`
  /// of them stand for 2^levels copies of the first.
  func referencesToReferences(levels: Int) throws -> [UInt8] {
    var writer = JSONBinaryWriter()
    try writer.startArray()
    var last = try writer.shareNextValue()
    try writer.startArray()
    try writer.endArray()
    for _ in 0..<levels {
      let next = try writer.shareNextValue()
      try writer.startArray()
      try writer.reference(toShared: last)
      try writer.reference(toShared: last)
      try writer.endArray()
      last = next
    }
    try writer.endArray()
    try writer.finish()
    return writer.bytes
  }

  struct ArrayCounter: JSONEventHandler {
    var count = 0
    mutating func startArray() { count += 1 }
  }

  /// Reads `bytes` with both readers under `options`: the error both give, at one offset.
  func expansionError(_ bytes: [UInt8], _ options: JSONParseOptions) throws -> JSONParseError {
    var reader = JSONBinaryReader(handler: ArrayCounter(), options: options)
    let streamed = try #require(throws: JSONParseError.self) {
      try reader.feed(bytes)
      try reader.finish()
    }
    #expect(streamed.kind == .limitExceeded(.inputLength))
    let direct = try #require(throws: JSONParseError.self) {
      try JSONValue(binary: bytes, options: options)
    }
    #expect(direct.offset == streamed.offset && direct.message == streamed.message)
    return streamed
  }

  @Test("references to references: expansion stops at the input limit, in both readers")
  func sharedValueExpansion() throws {
    let bytes = try referencesToReferences(levels: 40)
    #expect(bytes.count < 400)
    var options = JSONParseOptions()
    options.limits.maxInputLength = 1 << 20
    _ = try expansionError(bytes, options)

    // A value shared thousands of times within the bound reads in full.
    var wide = JSONBinaryWriter()
    try wide.startArray()
    let record = try wide.shareNextValue()
    try wide.string(String(repeating: "r", count: 1000))
    for _ in 0..<5000 { try wide.reference(toShared: record) }
    try wide.endArray()
    try wide.finish()
    guard case .array(let copies) = try JSONValue(binary: wide.bytes) else {
      Issue.record("not an array")
      return
    }
    #expect(copies.count == 5001)
    #expect(try json(wide.bytes, chunk: 333).count == 5001 * 1003 + 1)
  }

  @Test(
    "references to references: without an input limit, expansion stops past 16 MiB",
    .hugeInput, .tags(.hugeInput))
  func sharedValueExpansionDefault() throws {
    let bytes = try referencesToReferences(levels: 40)
    let error = try expansionError(bytes, JSONParseOptions())
    #expect(error.offset < bytes.count)
  }

  @Test("references deeper than maxDepth once expanded fail in every reader, at one offset")
  func sharedValueDepth() throws {
    // Entry 0 is 3 arrays deep; each next entry nests the one before 3 levels further.
    var writer = JSONBinaryWriter()
    try writer.startArray()
    var last = try writer.shareNextValue()
    for _ in 0..<3 { try writer.startArray() }
    for _ in 0..<3 { try writer.endArray() }
    for _ in 0..<4 {
      let next = try writer.shareNextValue()
      for _ in 0..<3 { try writer.startArray() }
      try writer.reference(toShared: last)
      for _ in 0..<3 { try writer.endArray() }
      last = next
    }
    try writer.reference(toShared: last)
    try writer.endArray()
    try writer.finish()
    // The last reference stands for 15 levels, inside 1.
    var options = JSONParseOptions()
    options.limits.maxDepth = 16
    #expect(
      try JSONValue.readingSharedValues(
        binary: writer.bytes, options: options, duplicateKeys: .firstWins
      ).value
        == JSONValue(binary: writer.bytes, options: options))
    options.limits.maxDepth = 15
    var reader = JSONBinaryReader(handler: ArrayCounter(), options: options)
    let streamed = try #require(throws: JSONParseError.self) {
      try reader.feed(writer.bytes)
      try reader.finish()
    }
    #expect(streamed.kind == .limitExceeded(.depth))
    let direct = try #require(throws: JSONParseError.self) {
      try JSONValue(binary: writer.bytes, options: options)
    }
    let sharing = try #require(throws: JSONParseError.self) {
      try JSONValue.readingSharedValues(
        binary: writer.bytes, options: options, duplicateKeys: .firstWins)
    }
    #expect(direct == streamed && sharing == streamed)
  }

  @Test("a handler that stops inside a copy stops the reader there")
  func stopInsideSharedValue() throws {
    var writer = JSONBinaryWriter()
    try writer.startArray()
    let shared = try writer.shareNextValue()
    try writer.startArray()
    for index in 0..<10 { try writer.number(Int64(index)) }
    try writer.endArray()
    try writer.reference(toShared: shared)
    try writer.endArray()
    try writer.finish()
    struct StopAfter: JSONEventHandler {
      var numbers = 0
      mutating func number(_ value: borrowing JSONNumber) { numbers += 1 }
      var isDone: Bool { numbers == 15 }
    }
    var reader = JSONBinaryReader(handler: StopAfter())
    #expect(try reader.feed(writer.bytes) == .stopped)
    #expect(reader.handler.numbers == 15)
  }

  @Test("every kind of value handed to a sink in small chunks: the bytes written to memory")
  func typedValuesInChunks() throws {
    // Each event says when the output is due to the sink; at these chunk sizes every kind
    // of value is the one that fills a chunk at some point.
    func write<Sink: JSONOutputSink>(_ writer: inout JSONBinaryWriter<Sink>) throws {
      try writer.startArray()
      for round in 0..<3 {
        try writer.startObject()
        try writer.key("int")
        try writer.number(Int64(round) - 1_000_000_000_000)
        try writer.key("uint")
        try writer.number(UInt64.max - UInt64(round))
        try writer.key("double")
        try writer.number(0.1 + Double(round))
        try writer.key("kept")
        try writer.binaryNumber(.decimal(mantissa: 12_345, scale: 2))
        try writer.key("date")
        try writer.date(secondsSince2001: 1_700_000_000.125)
        try writer.key("data")
        try [UInt8](repeating: UInt8(round), count: 40).withUnsafeBytes { try writer.data($0) }
        try writer.key("set")
        try writer.startSet()
        try writer.string("s\(round)")
        try writer.bool(round == 1)
        try writer.null()
        try writer.endArray()
        try writer.key(String(repeating: "k", count: 100 + round))
        try writer.string(String(repeating: "v", count: 300))
        try writer.endObject()
      }
      try writer.endArray()
      try writer.finish()
    }
    var memory = JSONBinaryWriter()
    try write(&memory)
    for chunkSize in [1, 2, 3, 5, 8, 13, 64, 100] {
      var chunks: [[UInt8]] = []
      var chunked = JSONBinaryWriter(
        sink: JSONChunkSink { chunks.append(Array($0)) }, chunkSize: chunkSize)
      try write(&chunked)
      #expect(chunks.joined().elementsEqual(memory.bytes), "chunk size \(chunkSize)")
      // No chunk waits for much more than its size: at most a key and its value past it (the
      // longest here, 104 bytes and 303).
      #expect(chunks.dropLast().allSatisfy { $0.count < chunkSize + 407 })
    }
  }
}
