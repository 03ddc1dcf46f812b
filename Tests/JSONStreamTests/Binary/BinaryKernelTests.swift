import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@Suite("Binary format: the LEB128 and number kernels agree with the plain loops")
struct BinaryKernelTests {
  /// Values of every LEB128 size, their neighbours and random ones.
  static let values: [UInt64] = {
    var values: [UInt64] = [0, 1, 0x7F, 0x80, .max, .max - 1, UInt64(Int64.max)]
    for shift in 0..<64 {
      let power = UInt64(1) << shift
      values += [power, power - 1, power + 1, power | (power >> 1)]
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      // Random magnitudes: a random number of significant bits.
      let bits = UInt64.random(in: 0...64, using: &generator)
      values.append(
        bits == 0 ? 0 : UInt64.random(in: 0...UInt64.max, using: &generator) >> (64 - bits))
    }
    return values
  }()

  @Test("storing LEB128 a word at a time gives the bytes of the byte loop")
  func storeLEB128() {
    for value in Self.values {
      var expected: [UInt8] = []
      _appendLEB128(value, to: &expected)
      var stored = [UInt8](repeating: 0xEE, count: 16)
      let count = stored.withUnsafeMutableBufferPointer { _storeLEB128(value, at: $0.baseAddress!) }
      #expect(Array(stored[..<count]) == expected, "\(value)")
      if Array(stored[..<count]) != expected { return }
    }
  }

  @Test("reading LEB128 a word at a time, in any chunking, gives the values written")
  func readLEB128() throws {
    // Integers of every size, as zigzag (int) and plain (uint) LEB128, read whole and in
    // chunks of 1 and 7 bytes: each chunking takes the word path at different places.
    var writer = JSONBinaryWriter()
    try writer.startArray()
    for value in Self.values {
      try writer.number(value)
      try writer.number(Int64(bitPattern: value))
    }
    try writer.endArray()
    try writer.finish()
    let bytes = writer.bytes
    for chunk in [bytes.count, 1, 7] {
      var reader = JSONBinaryReader(handler: JSONTreeBuilder())
      for start in stride(from: 0, to: bytes.count, by: chunk) {
        try reader.feed(bytes[start..<min(start + chunk, bytes.count)])
      }
      try reader.finish()
      let array = try #require(reader.handler.value?.arrayValue)
      #expect(array.count == Self.values.count * 2)
      for (index, value) in Self.values.enumerated() {
        #expect(array[2 * index].numberValue?.uint64 == value, "chunks of \(chunk)")
        #expect(array[2 * index + 1].int64Value == Int64(bitPattern: value), "chunks of \(chunk)")
      }
    }
  }

  @Test("a number's binary form from its JSONNumber is the one from its text")
  func numberForms() {
    var texts = [
      "0", "-0", "1", "-1", "7", "12345678", "123456789", "-123456789012345678",
      "999999999999999999", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "18446744073709551615", "18446744073709551616",
      "0.0", "-0.0", "0.5", "-0.5", "1.50", "0.001", "10.0", "123.456", "-98765.4321",
      "0.000000000000000001", "0.0000000000000000001", "1.2345678901234567", "12345678.12345678",
      "-65.613616999999977", "1.23456789012345678", "123456789012345678.0", "1e5", "-1E-7",
      "0.1e1", "1.5e10", "00", "01", "-01", "00.5", "1.", "NaN", "Infinity", "-Infinity",
      // Nine and ten digits (their first one or two read a byte each), with a point or a
      // letter where a digit should be.
      "100000000", "-999999999", "1234567890", "-9999999999", "1.34567890", "-1.3456789",
      "12345678x", "x234567890", "1x34567890", "0123456789",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let digits = (0..<Int.random(in: 1...20, using: &generator)).map { _ in
        Character(String(Int.random(in: 0...9, using: &generator)))
      }
      let point = Int.random(in: 0...digits.count, using: &generator)
      var text = String(digits)
      if point > 0 && point < digits.count {
        text.insert(".", at: text.index(text.startIndex, offsetBy: point))
      }
      texts.append(Bool.random(using: &generator) ? "-" + text : text)
    }
    for text in texts {
      var utf8 = text
      utf8.withUTF8 { bytes in
        let expected = JSONBinaryNumber(text: bytes).map { String(describing: $0) }
        // With the flags the grammar gives, and with flags that say otherwise.
        let flags = _classifyNumberText(bytes)
        for flags in [flags ?? 0, 0, JSONNumber._hasFractionOrExponent] {
          let fast = JSONBinaryNumber(JSONNumber(_utf8: bytes, flags: flags))
          #expect(fast.map { String(describing: $0) } == expected, "\(text), flags \(flags)")
        }
      }
    }
  }
}

/// The string and key tables as the readers fill and read them: entries by number, the empty
/// entry, the last one, and views that end where the entry does.
@Suite("Binary tables, read by number")
struct BinaryTableTests {
  @Test("appended entries come back by number, as strings of exactly their bytes and flag")
  func entries() {
    var table = _BinaryTable()
    defer { table.deallocate() }
    let words = ["", "a", "é😀", String(repeating: "k", count: 70)]
    for (index, word) in words.enumerated() {
      withScanInput(Array(word.utf8) + [0]) { input in
        table.append(input.slice(0, input.count - 1), needsNoEscaping: index % 2 == 0)
      }
    }
    #expect(table.count == words.count)
    for (index, word) in words.enumerated() {
      #expect(table.string(index).string == word)
      #expect(table.string(index, keyTableEntry: index).string == word)
      #expect(table.string(index)._needsNoEscaping == (index % 2 == 0))
    }
  }
}
