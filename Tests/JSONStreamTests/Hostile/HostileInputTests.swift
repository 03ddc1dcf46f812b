import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// Input made to hurt: each case gets its clear error or its correct result, in memory
/// bounded by what it must keep, with work (bytes copied, nodes built) linear in its size.
/// Work is counted, not timed.
// The time limit is a backstop, not a measure: quadratic work on these sizes would take hours;
// the slowest test takes about a minute in a debug build, several under a sanitizer.
@Suite("Hostile input", .timeLimit(.minutes(15)))
struct HostileInputTests {
  static let millionDeep = 1_000_000

  /// `[[[…]]]` and `{"a":{"a":…1…}}`, `depth` levels.
  static func nested(_ depth: Int, objects: Bool) -> [UInt8] {
    if objects {
      return Array(repeating: Array(#"{"a":"#.utf8), count: depth).flatMap { $0 } + [0x31]
        + Array(repeating: UInt8(ascii: "}"), count: depth)
    }
    return Array(repeating: UInt8(ascii: "["), count: depth)
      + Array(repeating: UInt8(ascii: "]"), count: depth)
  }

  /// Feeds `document` to `parser` in chunks of `chunk` bytes (without copying them), calling
  /// `afterEach` after every chunk.
  static func feed<Handler: JSONEventHandler>(
    _ document: [UInt8], to parser: inout JSONParser<Handler>, chunk: Int,
    afterEach: (inout JSONParser<Handler>) -> Void = { _ in }
  ) throws {
    try document.withUnsafeBytes { all in
      var start = 0
      while start < all.count {
        let end = min(start + chunk, all.count)
        try parser.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        afterEach(&parser)
        start = end
      }
    }
  }

  @Test(
    "1,000,000-deep nesting: the depth error, or, raised, a tree that works without recursion",
    arguments: [false, true])
  func millionDeepNesting(objects: Bool) throws {
    let bytes = Self.nested(Self.millionDeep, objects: objects)
    // Default limits: the depth error where level 1,001 opens, from the parser, the tree and
    // the binary reader alike.
    let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
    #expect(error?.kind == .limitExceeded(.depth))
    #expect(error?.offset == (objects ? 5 : 1) * 1000)
    #expect(error?.line == 1 && error?.column == (objects ? 5 : 1) * 1000 + 1)

    var raised = JSONParseOptions()
    raised.limits.maxDepth = Self.millionDeep
    let value = try JSONValue(parsing: bytes, options: raised)
    let again = try JSONValue(parsing: bytes, options: raised)
    // Two documents: compared node by node, not by identity.
    #expect(value == again)
    #expect(value.hashValue == again.hashValue)
    #expect(try value.jsonBytes() == bytes)

    var writer = JSONBinaryWriter()
    try value.replay(into: &writer)
    try writer.finish()
    let binary = writer.bytes
    #expect(throws: JSONParseError.self) {
      var reader = JSONBinaryReader(handler: JSONTreeBuilder())
      try reader.feed(binary)
      try reader.finish()
    }
    var reader = JSONBinaryReader(handler: JSONTreeBuilder(), options: raised)
    try reader.feed(binary)
    try reader.finish()
    #expect(reader.handler.value == value)

    // A difference at the bottom is found.
    var changed = bytes
    if objects {
      changed[changed.count - Self.millionDeep - 1] = UInt8(ascii: "2")
    } else {
      changed.replaceSubrange(Self.millionDeep..<Self.millionDeep, with: [0x30])
    }
    #expect(try JSONValue(parsing: changed, options: raised) != value)
  }

  @Test(
    "a 100 MB string fed in 64 KiB and in 1-byte chunks: one event, each byte copied once",
    .hugeInput, .tags(.hugeInput))
  func hugeString() throws {
    // 12 bytes a round, characters of 1 to 4 bytes: every split of a sequence happens.
    let unit = Array("abcé€😀".utf8)
    let rounds = 100_000_000 / unit.count
    let content = Array(repeating: unit, count: rounds).flatMap { $0 }
    let document = Array(#"[""#.utf8) + content + Array(#"","\n"]"#.utf8)

    struct Strings: JSONEventHandler {
      var lengths: [Int] = []
      var matches = true
      let expected: [UInt8]
      mutating func string(_ value: borrowing JSONString) {
        if lengths.isEmpty { matches = value.utf8.elementsEqual(expected) }
        lengths.append(value.count)
      }
    }
    for chunk in [64 * 1024, 1] {
      var parser = JSONParser(handler: Strings(expected: content))
      var peakScratch = 0
      try Self.feed(document, to: &parser, chunk: chunk) {
        peakScratch = max(peakScratch, $0._scratch.capacity)
      }
      try parser.finish()
      #expect(parser.handler.lengths == [content.count, 1], "chunks of \(chunk)")
      #expect(parser.handler.matches, "chunks of \(chunk)")
      // Work: each byte of the string copied once into the scratch buffer (and the escape).
      #expect(parser._scratchCopied.value <= content.count + 2, "chunks of \(chunk)")
      // Memory: the string's own bytes, grown by doubling; given back at the next token.
      #expect(peakScratch <= 2 * content.count, "chunks of \(chunk)")
      #expect(parser._scratch.capacity < 1 << 20, "chunks of \(chunk)")
    }
    // Over the limit: the string-length error at the string's start, before its end.
    var options = JSONParseOptions()
    options.limits.maxStringLength = 1 << 20
    var limited = JSONParser(handler: Strings(expected: content), options: options)
    let error = #expect(throws: JSONParseError.self) {
      try Self.feed(document, to: &limited, chunk: 64 * 1024)
    }
    #expect(error?.kind == .limitExceeded(.stringLength))
    #expect(error?.offset == 1)
    #expect(limited.offset <= (1 << 20) + 64 * 1024 + 2, "reading stopped at the limit")
  }

  @Test("a 1,000,000-digit number: the length error, or, raised, one number copied once")
  func millionDigitNumber() throws {
    let digits = Array(repeating: UInt8(ascii: "7"), count: 1_000_000)
    let document = Array("[-0.".utf8) + digits + Array("e-5]".utf8)
    let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: document) }
    #expect(error?.kind == .limitExceeded(.numberLength))
    #expect(error?.offset == 1)

    var options = JSONParseOptions()
    options.limits.maxNumberLength = 2_000_000
    struct Numbers: JSONEventHandler {
      var texts: [[UInt8]] = []
      var doubles: [Double] = []
      mutating func number(_ value: borrowing JSONNumber) {
        texts.append(Array(value.utf8))
        doubles.append(value.double)
      }
    }
    for chunk in [1, 4096, document.count] {
      var parser = JSONParser(handler: Numbers(), options: options)
      try Self.feed(document, to: &parser, chunk: chunk)
      try parser.finish()
      #expect(parser.handler.texts == [Array(document.dropFirst().dropLast())])
      // -0.777…e-5, correctly rounded.
      #expect(parser.handler.doubles == [-0.000_007_777_777_777_777_777_8])
      #expect(parser._scratchCopied.value <= document.count, "chunks of \(chunk)")
    }
    // A halfway case decided by the last of 1,000,000 digits: 2^53 + 1 rounds up.
    let halfway =
      Array("9007199254740993.".utf8) + Array(repeating: 0x30, count: 1_000_000) + [0x31]
    let double = halfway.withUnsafeBufferPointer { JSONNumber(text: $0)?.double }
    #expect(double == 9_007_199_254_740_994)
  }

  @Test(
    "1,000,000 keys in one object: built once, each found by its key", .hugeInput, .tags(.hugeInput)
  )
  func millionKeys() throws {
    var document: [UInt8] = [UInt8(ascii: "{")]
    document.reserveCapacity(16_000_000)
    for index in 0..<1_000_000 {
      if index > 0 { document.append(UInt8(ascii: ",")) }
      document += Array("\"k\(index)\":\(index)".utf8)
    }
    document.append(UInt8(ascii: "}"))
    for policy in [JSONDuplicateKeyPolicy.lastWins, .firstWins, .error] {
      let value = try JSONValue(parsing: document, duplicateKeys: policy)
      guard case .object(let object) = value else {
        Issue.record("not an object")
        return
      }
      #expect(object.count == 1_000_000)
      for index in stride(from: 0, to: 1_000_000, by: 9_973) {
        #expect(value["k\(index)"]?.int64Value == Int64(index))
      }
      #expect(value["k1000000"] == nil)
    }
  }

  @Test("100,000 repeats of one key under each policy: linear, and the policy's answer")
  func duplicateKeys() throws {
    let count = 100_000
    var document: [UInt8] = [UInt8(ascii: "{")]
    for index in 0..<count {
      if index > 0 { document.append(UInt8(ascii: ",")) }
      document += Array("\"same\":\(index),\"k\(index)\":0".utf8)
    }
    document.append(UInt8(ascii: "}"))
    let last = try JSONValue(parsing: document, duplicateKeys: .lastWins)
    #expect(last["same"]?.int64Value == Int64(count - 1))
    #expect(last.objectValue?.count == count + 1)
    // The last value at the first position.
    #expect(last.objectValue?.first?.key == "same")
    let first = try JSONValue(parsing: document, duplicateKeys: .firstWins)
    #expect(first["same"]?.int64Value == 0)
    #expect(first.objectValue?.count == count + 1)
    let error = #expect(throws: JSONParseError.self) {
      try JSONValue(parsing: document, duplicateKeys: .error)
    }
    // At the second "same", the first repeat.
    #expect(error?.kind == .duplicateKey)
    #expect(error?.offset == Array(#"{"same":0,"k0":0,"#.utf8).count)
  }

  @Test("ill-formed UTF-8 at every byte of every multi-byte sequence: an error at that byte")
  func illFormedUTF8() throws {
    // A character of each length, and the ways each of its bytes can go wrong.
    let characters = ["é", "€", "😀", "\u{10FFFF}", "\u{800}", "\u{FFFD}"].map { Array($0.utf8) }
    var checked = 0
    for character in characters {
      for position in 0..<character.count {
        // A continuation byte replaced by what cannot continue; the lead by a stray
        // continuation byte or a byte that never starts a sequence.
        let replacements: [UInt8] =
          position == 0 ? [0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF] : [0x00, 0x41, 0x7F, 0xC3, 0xFF]
        for replacement in replacements {
          var bad = character
          bad[position] = replacement
          let document = Array(#"["ok",""#.utf8) + bad + Array(#""]"#.utf8)
          let outcome = parse(document)
          let error = try #require(outcome.error, "\(bad) at \(position)")
          // Where the sequence stops being valid: at the replaced byte, or at its start when
          // the lead itself is wrong or the replacement is a quote or ASCII ending it early.
          #expect(error.offset >= 7 && error.offset <= 7 + position, "\(bad): \(error)")
          #expect(error.kind == .invalidUTF8 || error.kind == .controlCharacterInString, "\(bad)")
          #expect(splitMismatches(document).isEmpty, "\(bad)")
          checked += 1
        }
        // Cut short: the sequence ends at this byte.
        let cut = Array(#"["ok",""#.utf8) + character[..<position] + Array(#""]"#.utf8)
        if position > 0 {
          #expect(parse(cut).error?.kind == .invalidUTF8, "\(character) cut at \(position)")
        }
      }
    }
    #expect(checked > 100)
    // Overlong forms, surrogates as UTF-8, beyond U+10FFFF.
    // Each fails at its first byte that no valid sequence has there.
    for (bad, at): ([UInt8], Int) in [
      ([0xC0, 0xAF], 1), ([0xE0, 0x80, 0xAF], 2), ([0xF0, 0x80, 0x80, 0xAF], 2),
      ([0xED, 0xA0, 0x80], 2), ([0xF4, 0x90, 0x80, 0x80], 2),
    ] {
      let error = parse([0x22] + bad + [0x22]).error
      #expect(
        error?.kind == .invalidUTF8 && error?.offset == at, "\(bad): \(String(describing: error))")
    }
  }

  @Test("a document cut at every byte: an error at the cut, never a crash or a half value")
  func cutAtEveryByte() throws {
    let document = Array(
      #"{"id":-12.5e3,"name":"Zoë 😀\n","tags":["a",true,false,null],"nested":{"x":[1,{}]}}"#
        .utf8)
    for cut in 0..<document.count {
      let prefix = Array(document[..<cut])
      let outcome = parse(prefix)
      let error = try #require(outcome.error, "cut at \(cut) parsed")
      #expect(
        error.kind == .unexpectedEndOfInput || error.kind == .emptyInput
          || (error.kind == .invalidUTF8 && cut > 0),
        "cut at \(cut): \(error)")
      #expect(error.offset <= cut, "cut at \(cut): \(error)")
      #expect(throws: JSONParseError.self) { try JSONValue(parsing: prefix) }
    }
  }
}
