import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// `JSONValue(binary:)` reads a whole document itself, not through `JSONBinaryReader`: these
/// hold it to the streaming reader's values and errors, input by input.
@Suite("Binary format: JSONValue(binary:) against the streaming reader")
struct BinaryTreeReaderTests {
  func binary(_ json: String) throws -> [UInt8] {
    var parser = JSONParser(handler: JSONBinaryWriter())
    try parser.feed(Array(json.utf8))
    try parser.finish()
    try parser.handler.finish()
    return parser.handler.bytes
  }

  func document(_ tokens: [UInt8]) -> [UInt8] {
    JSONBinaryFormat.magic + [JSONBinaryFormat.majorVersion, JSONBinaryFormat.minorVersion]
      + tokens
  }

  /// Reads `bytes` both ways and expects the same value, or the same error (kind, offset and
  /// message; a repeated key under `.error` included). Returns the value read.
  @discardableResult
  func expectSameAsReader(
    _ bytes: [UInt8], options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue? {
    var reader = JSONBinaryReader(
      handler: JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys), options: options)
    let streamed = Result<JSONValue?, any Error> {
      try reader.feed(bytes)
      try reader.finish()
      return reader.handler.value
    }
    let direct = Result<JSONValue?, any Error> {
      try JSONValue(binary: bytes, options: options, duplicateKeys: duplicateKeys)
    }
    switch (streamed, direct) {
    case (.success(let a), .success(let b)):
      #expect(a != nil && a == b, comment, sourceLocation: sourceLocation)
      return b
    case (.failure(let a as JSONParseError), .failure(let b as JSONParseError)):
      #expect(
        a.kind == b.kind && a.offset == b.offset && a.message == b.message,
        "\(a) vs \(b) \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
    default:
      Issue.record(
        "the readers disagree: \(streamed) vs \(direct) \(comment.map { "\($0)" } ?? "")",
        sourceLocation: sourceLocation)
    }
    return nil
  }

  @Test(
    "the sample and the corpus read to the streaming reader's values", .hugeInput, .tags(.hugeInput)
  )
  func values() throws {
    let sample = try binary(BinaryFormatTests.sample)
    #expect(expectSameAsReader(sample) == (try JSONValue(parsing: BinaryFormatTests.sample)))
    #expect(try JSONValue(binary: sample[...]) == JSONValue(binary: AnySequence(sample)))
    for json in ["0", "\"\"", "[]", "{}", #"{"":""}"#, #"[{"a":[{"a":{"a":"a"}}]}]"#] {
      #expect(expectSameAsReader(try binary(json)) == (try JSONValue(parsing: json)), "\(json)")
    }
    guard SharedData.hasCorpus else { return }
    for name in SharedData.corpusNames {
      let bytes = try SharedData.corpusFile(name)
      let value = try JSONValue(parsing: bytes)
      var writer = JSONBinaryWriter()
      try value.replay(into: &writer)
      try writer.finish()
      #expect(expectSameAsReader(writer.bytes) == value, "\(name)")
    }
  }

  @Test("every truncation and every flipped byte of the sample: the same value or error")
  func corruption() throws {
    let bytes = try binary(BinaryFormatTests.sample)
    for end in 0..<bytes.count {
      expectSameAsReader(Array(bytes[..<end]), "truncated at \(end)")
    }
    for index in 0..<bytes.count {
      for flip: UInt8 in [0xFF, 0x01, 0x80] {
        var corrupted = bytes
        corrupted[index] ^= flip
        expectSameAsReader(corrupted, "byte \(index) ^ \(flip)")
      }
    }
  }

  @Test("tables: repeated keys by any entry, references out of range, full tables")
  func tables() throws {
    let twoEntries = BinaryFormatTests.twoEntriesOfOneKey
    for policy in [JSONDuplicateKeyPolicy.lastWins, .firstWins, .error] {
      expectSameAsReader(twoEntries, duplicateKeys: policy, "\(policy)")
    }
    let error = #expect(throws: JSONParseError.self) {
      try JSONValue(binary: twoEntries, duplicateKeys: .error)
    }
    #expect(error?.kind == .duplicateKey && error?.offset == 12)  // the second shared "a"

    // Strings by reference, in and out of range; keys out of range.
    let strings = document(
      [_BinaryTag.startArray, _BinaryTag.sharedString, 2, 0x68, 0x69, _BinaryTag.stringRef, 0]
        + [_BinaryTag.sharedString, 0, _BinaryTag.stringRef, 1, _BinaryTag.endArray])
    #expect(expectSameAsReader(strings) == ["hi", "hi", "", ""])
    expectSameAsReader(document([_BinaryTag.startArray, _BinaryTag.stringRef, 0]))
    expectSameAsReader(document([_BinaryTag.startObject, _BinaryTag.keyRef, 0]))

    // More keys than a table holds: the entry past the limit is an error, at its token.
    var manyKeys = [_BinaryTag.startObject]
    for index in 0...JSONBinaryFormat.maxTableEntries {
      let name = Array("k\(index)".utf8)
      manyKeys += [_BinaryTag.sharedKey, UInt8(name.count)] + name + [_BinaryTag.null]
    }
    manyKeys.append(_BinaryTag.endObject)
    #expect(throws: JSONParseError.self) { try JSONValue(binary: document(manyKeys)) }
    expectSameAsReader(document(manyKeys), "keys past the entry limit")
    // More bytes than a table holds: five shared strings of 1 MiB.
    var options = JSONParseOptions()
    options.limits.maxStringLength = 1 << 21
    var large = [_BinaryTag.startArray]
    for _ in 0..<5 {
      large += [_BinaryTag.sharedString, 0x80, 0x80, 0x40] + Array(repeating: 0x78, count: 1 << 20)
    }
    large.append(_BinaryTag.endArray)
    let full = #expect(throws: JSONParseError.self) {
      try JSONValue(binary: document(large), options: options)
    }
    #expect(full?.message.contains("table is full") == true)
    expectSameAsReader(document(large), options: options, "strings past the byte limit")
  }

  @Test("maps: the same values and the same errors for ends after a key, at any depth")
  func maps() throws {
    let map = _BinaryTag.startMap
    let end = _BinaryTag.endArray
    let one: [UInt8] = [_BinaryTag.int, 2]
    let cases: [[UInt8]] = [
      [map, end],
      [map] + one + one + [end],
      [map] + one + [end],
      [map, map, end, end],
      [map, map, end, map, end, end],
      [map, map] + one + [end, end],
      [map, map] + one + one + [end] + one + [end],
      [_BinaryTag.startArray, map] + one + [end, end],
      [map, _BinaryTag.startObject, _BinaryTag.endObject, end],
      [map, _BinaryTag.startOrderedSet, end] + one + [end],
      [map, map, map, end, end, end],
      [map] + one + [_BinaryTag.endObject],
    ]
    for tokens in cases { expectSameAsReader(document(tokens), "\(tokens)") }
    var shallow = JSONParseOptions()
    shallow.limits.maxDepth = 2
    expectSameAsReader(document([map, map, map, end, end, end]), options: shallow)
  }

  @Test("shared values: the same copies and the same errors as the streaming reader")
  func sharedValues() throws {
    let share = _BinaryTag.share
    let ref = _BinaryTag.valueRef
    let (open, end) = (_BinaryTag.startArray, _BinaryTag.endArray)
    let cases: [[UInt8]] = [
      [share, _BinaryTag.null],
      [open, share, _BinaryTag.true, ref, 0, end],
      [open, share, open, share, open, end, ref, 1, end, ref, 0, ref, 1, end],
      [open, share, open, ref, 0, end, end],
      [open, ref, 0, end],
      [open, share, ref, 0, end],
      [open, share, end],
      [open, share, share, _BinaryTag.null, end],
      [share],
      [_BinaryTag.startObject, share, _BinaryTag.key, 1, 0x61, _BinaryTag.null, 0x23],
      [open, share, _BinaryTag.sharedString, 1, 0x78, ref, 0, _BinaryTag.stringRef, 1, end],
      [open, share, _BinaryTag.sharedKey, 1, 0x78, end],
      [_BinaryTag.startMap, share, _BinaryTag.int, 2, _BinaryTag.null, ref, 0, end],
      // A second top-level value, and a value where a key goes: found before the index.
      [open, share, _BinaryTag.null, end, ref, 0],
      [open, share, _BinaryTag.null, end, ref, 9],
      [_BinaryTag.startObject, ref, 0, 0x23],
    ]
    for tokens in cases { expectSameAsReader(document(tokens), "\(tokens)") }
    var shallow = JSONParseOptions()
    shallow.limits.maxDepth = 2
    expectSameAsReader(
      document([open, share, open, end, open, ref, 0, end, end]), options: shallow)
  }

  @Test("limits, options and misplaced tokens fail as the streaming reader fails")
  func limitsAndStructure() throws {
    var shallow = JSONParseOptions()
    shallow.limits.maxDepth = 3
    expectSameAsReader(
      document(Array(repeating: _BinaryTag.startArray, count: 4)), options: shallow)
    var short = JSONParseOptions()
    short.limits.maxStringLength = 3
    short.limits.maxNumberLength = 2
    expectSameAsReader(try binary(#"["abcd"]"#), options: short)
    expectSameAsReader(try binary(#"{"abcd":1}"#), options: short)
    expectSameAsReader(try binary("[1e100]"), options: short)
    var tiny = JSONParseOptions()
    tiny.limits.maxInputLength = 8
    expectSameAsReader(try binary("[1,2,3]"), options: tiny)

    let nan = document(
      [_BinaryTag.float64] + withUnsafeBytes(of: Double.nan.bitPattern) { Array($0) })
    expectSameAsReader(nan)
    var nonFinite = JSONParseOptions()
    nonFinite.allowNonFiniteNumbers = true
    guard case .number(let number) = try JSONValue(binary: nan, options: nonFinite) else {
      Issue.record("NaN does not read as a number")
      return
    }
    #expect(number.double.isNaN)
    // A second value is an error even when the options allow several.
    var multiple = JSONParseOptions()
    multiple.allowMultipleValues = true
    let two = document([_BinaryTag.null, _BinaryTag.null])
    #expect(throws: JSONParseError.self) { try JSONValue(binary: two, options: multiple) }
    expectSameAsReader(two)

    for tokens: [UInt8] in [
      [], [_BinaryTag.startArray], [_BinaryTag.startObject, _BinaryTag.null],
      [_BinaryTag.key, 1, 0x61], [_BinaryTag.startArray, _BinaryTag.endObject],
      [_BinaryTag.startObject, _BinaryTag.key, 1, 0x61, _BinaryTag.endObject],
      [_BinaryTag.endArray], [_BinaryTag.string, 1, 0xFF], [_BinaryTag.numberText, 2, 0x30, 0x31],
      [_BinaryTag.uint, 1], [_BinaryTag.decimal, 0, 2],
      [_BinaryTag.int] + Array(repeating: 0xFF, count: 11),
      [0x7F], [_BinaryTag.data, 3, 1, 2, 3],
      [_BinaryTag.startSet, _BinaryTag.true, _BinaryTag.endArray],
      [_BinaryTag.float32, 0, 0, 0xC0, 0x7F],
    ] {
      expectSameAsReader(document(tokens), "\(tokens)")
    }
    expectSameAsReader([], "empty")
    expectSameAsReader(Array(JSONBinaryFormat.magic), "a partial header")
    expectSameAsReader(JSONBinaryFormat.magic + [2, 0, _BinaryTag.null], "a newer major version")
    expectSameAsReader(Array("{}".utf8) + [0, 0, 0, 0], "not binary")
  }
}
