import JSONStreamTestSupport
import Testing

@testable import JSONStreamCore

/// The output buffer's byte-writing kernels, at their edges: nothing, one byte, the growth of
/// a full buffer, the extreme integers, text that cannot be quoted.
@Suite("Output buffer kernels")
struct BufferTests {
  /// A buffer of `capacity`, given to `body`, its bytes returned; freed after.
  func bytes(capacity: Int = 1, _ body: (inout _Buffer<UInt8>) -> Void) -> [UInt8] {
    var buffer = _Buffer<UInt8>(capacity: capacity)
    defer { buffer.deallocate() }
    body(&buffer)
    return buffer.array()
  }

  @Test("static text, repeated bytes and arrays: empty, exact, and past the capacity")
  func appends() {
    #expect(bytes { $0.append("") } == [])
    #expect(bytes { $0.append("null") } == Array("null".utf8))
    #expect(bytes { $0.append(repeating: 0x20, count: 0) } == [])
    #expect(bytes { $0.append(repeating: 0x20, count: 1) } == [0x20])
    #expect(
      bytes { $0.append(repeating: 0x20, count: 200) } == [UInt8](repeating: 0x20, count: 200))
    #expect(bytes { $0.append(contentsOf: []) } == [])
    let long = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
    #expect(bytes { $0.append(contentsOf: long) } == long)
    // Growth keeps what was there.
    #expect(
      bytes(capacity: 3) {
        $0.append("ab")
        $0.append(repeating: 0x2E, count: 70)
        $0.append("z")
      } == Array("ab".utf8) + [UInt8](repeating: 0x2E, count: 70) + Array("z".utf8))
  }

  @Test("a range of an array: empty, one byte, the whole, at either end, past the capacity")
  func appendsRanges() {
    let text = Array("\"key\"key".utf8)
    #expect(bytes { $0.append(contentsOf: text, range: 0..<0) } == [])
    #expect(bytes { $0.append(contentsOf: text, range: 8..<8) } == [])
    #expect(bytes { $0.append(contentsOf: text, range: 0..<1) } == Array("\"".utf8))
    #expect(bytes { $0.append(contentsOf: text, range: 0..<5) } == Array("\"key\"".utf8))
    #expect(bytes { $0.append(contentsOf: text, range: 5..<8) } == Array("key".utf8))
    #expect(bytes { $0.append(contentsOf: text, range: 0..<8) } == text)
    let long = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
    #expect(
      bytes(capacity: 2) { $0.append(contentsOf: long, range: 7..<290) } == Array(long[7..<290]))
  }

  @Test("integers: zero, every power of ten, and the extremes, with and without a sign")
  func decimals() {
    var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64(Int64.max), UInt64(Int64.max) + 1]
    var power: UInt64 = 1
    for _ in 0..<19 {
      power *= 10
      values += [power - 1, power, power + 1]
    }
    for value in values {
      #expect(bytes { $0.appendDecimal(value, negative: false) } == Array(String(value).utf8))
      #expect(bytes { $0.appendDecimal(value, negative: true) } == Array("-\(value)".utf8))
    }
    #expect(
      bytes { $0.appendDecimal(Int64.min.magnitude, negative: true) }
        == Array(String(Int64.min).utf8))
  }

  @Test("decimals against their text built digit by digit, at every number of digits")
  func decimalsAgainstText() {
    // Every length of digits (odd and even, for the two-at-a-time writing) with every number
    // of fraction digits up to 21 (beyond the digits too: zeros after the point).
    var random = SplitMix(seed: 5)
    for _ in 0..<3_000 {
      let digits = random.next() >> (random.next() % 64)
      let fraction = Int(random.next() % 22)
      let negative = random.next() % 2 == 0
      var text = String(digits)
      if fraction > 0 {
        text = String(repeating: "0", count: max(0, fraction + 1 - text.count)) + text
        text.insert(".", at: text.index(text.endIndex, offsetBy: -fraction))
      }
      let expected = (negative ? "-" : "") + text
      #expect(
        bytes {
          $0.appendDecimal(digits, fractionDigits: fraction, negative: negative, pointZero: false)
        } == Array(expected.utf8), "\(digits) \(fraction)")
    }
  }

  @Test("decimals with a point: fraction digits padded with zeros, a point zero or none")
  func pointDecimals() {
    func text(_ digits: UInt64, _ fraction: Int, negative: Bool = false, pointZero: Bool = true)
      -> String
    {
      String(
        decoding: bytes {
          $0.appendDecimal(
            digits, fractionDigits: fraction, negative: negative, pointZero: pointZero)
        }, as: UTF8.self)
    }
    #expect(text(25, 3) == "0.025")
    #expect(text(25, 2) == "0.25")
    #expect(text(25, 1) == "2.5")
    #expect(text(25, 0) == "25.0")
    #expect(text(25, 0, pointZero: false) == "25")
    #expect(text(25, 1, pointZero: false) == "2.5")
    #expect(text(0, 0) == "0.0")
    #expect(text(0, 0, negative: true, pointZero: false) == "-0")
    #expect(text(123, 2, negative: true) == "-1.23")
    #expect(text(1, 16) == "0.0000000000000001")
    #expect(text(9_007_199_254_740_991, 16) == "0.9007199254740991")
    #expect(text(UInt64.max, 16, negative: true) == "-1844.6744073709551615")
    #expect(text(UInt64.max, 0, negative: true) == "-18446744073709551615.0")
    #expect(text(7, 255, negative: true) == "-0." + String(repeating: "0", count: 254) + "7")
    #expect(
      text(UInt64.max, 255) == "0." + String(repeating: "0", count: 235) + "18446744073709551615")
  }

  @Test("the bytes read in place: none, and all of them after growth")
  func readInPlace() {
    var buffer = _Buffer<UInt8>(capacity: 1)
    defer { buffer.deallocate() }
    #expect(buffer.withUnsafeBytes { $0.count } == 0)
    for byte in 0..<300 { buffer.append(UInt8(truncatingIfNeeded: byte)) }
    #expect(buffer.withUnsafeBytes { Array($0) } == (0..<300).map { UInt8(truncatingIfNeeded: $0) })
  }

  @Test("a string's UTF-8, whole or without its last bytes")
  func utf8() {
    var text = "60.0"
    #expect(bytes { $0.append(utf8Of: &text) } == Array("60.0".utf8))
    #expect(bytes { $0.append(utf8Of: &text, dropLast: 2) } == Array("60".utf8))
    #expect(bytes { $0.append(utf8Of: &text, dropLast: 9) } == [])
    var empty = ""
    #expect(bytes { $0.append(utf8Of: &empty) } == [])
  }

  @Test("the bytes from a position on")
  func arrayFrom() {
    var buffer = _Buffer<UInt8>(capacity: 4)
    defer { buffer.deallocate() }
    buffer.append("abc")
    #expect(buffer.array(from: 0) == Array("abc".utf8))
    #expect(buffer.array(from: 2) == Array("c".utf8))
    #expect(buffer.array(from: 3) == [])
  }

  @Test("copies within the buffer: of nothing, of everything, growing it, moved down")
  func copiesWithin() {
    // A copy of a range appended, with the growth that needs (capacity 3 for 3 bytes).
    #expect(
      bytes(capacity: 3) {
        $0.append("abc")
        $0.appendCopy(of: 0..<3)
      } == Array("abcabc".utf8))
    #expect(
      bytes {
        $0.append("abc")
        $0.appendCopy(of: 1..<1)
      } == Array("abc".utf8))
    #expect(
      bytes {
        $0.append("abc")
        $0.appendCopy(of: 2..<3)
      } == Array("abcc".utf8))
    // The tail moved over the bytes just before it, and to the very start.
    #expect(
      bytes {
        $0.append("{ab,cd}")
        $0.append("X")
        $0.replace(from: 1, withTailFrom: 7)
      }
        == Array("{X".utf8))
    #expect(
      bytes {
        $0.append("hello")
        $0.append("HELLO")
        $0.replace(from: 0, withTailFrom: 5)
      }
        == Array("HELLO".utf8))
    #expect(
      bytes {
        $0.append("abc")
        $0.replace(from: 3, withTailFrom: 3)
      } == Array("abc".utf8))
    #expect(
      bytes {
        $0.append("abc")
        $0.replace(from: 1, withTailFrom: 3)
      } == Array("a".utf8))
  }

  @Test("byte order of two ranges: a difference at any place, a prefix, equal, empty")
  func compare() {
    var buffer = _Buffer<UInt8>(capacity: 1)
    defer { buffer.deallocate() }
    // "ab", "abc", "b", "", "ab" and "a" 0x80, at 0, 2, 5, 6, 6 and 8.
    buffer.append("ababcbab")
    buffer.append(contentsOf: [0x61, 0x80])
    let (ab, abc, b, empty, ab2, high) = (0..<2, 2..<5, 5..<6, 6..<6, 6..<8, 8..<10)
    #expect(buffer.compare(ab, abc) < 0 && buffer.compare(abc, ab) > 0)
    #expect(buffer.compare(abc, b) < 0 && buffer.compare(b, abc) > 0)
    #expect(buffer.compare(ab, ab2) == 0 && buffer.compare(ab2, ab) == 0)
    #expect(buffer.compare(empty, ab) < 0 && buffer.compare(ab, empty) > 0)
    #expect(buffer.compare(empty, empty) == 0)
    // Bytes compare unsigned: 0x80 after every ASCII byte.
    #expect(buffer.compare(ab, high) < 0 && buffer.compare(high, ab) > 0)
  }

  @Test("quoting: plain, escaped, options, and ill-formed UTF-8 appending nothing")
  func quoting() {
    func quoted(_ bytes: [UInt8], unicode: Bool = false, slash: Bool = false) -> [UInt8]? {
      var buffer = _Buffer<UInt8>(capacity: 1)
      defer { buffer.deallocate() }
      buffer.append("x")
      let ok = bytes.withUnsafeBufferPointer {
        buffer.appendQuoted(JSONString(utf8: $0), escapeUnicode: unicode, escapeSlash: slash)
      }
      guard ok else {
        #expect(buffer.array() == Array("x".utf8), "a failed quote leaves the buffer as it was")
        return nil
      }
      return Array(buffer.array().dropFirst())
    }
    #expect(quoted([]) == Array(#""""#.utf8))
    #expect(quoted(Array("a/b".utf8)) == Array(#""a/b""#.utf8))
    #expect(quoted(Array("a/b".utf8), slash: true) == Array(#""a\/b""#.utf8))
    #expect(quoted(Array("\"\\\n\u{1}".utf8)) == Array(#""\"\\\n\u0001""#.utf8))
    #expect(quoted(Array("é😀".utf8)) == Array(#""é😀""#.utf8))
    #expect(quoted(Array("é😀".utf8), unicode: true) == Array(#""\u00e9\ud83d\ude00""#.utf8))
    #expect(quoted(Array(repeating: UInt8(ascii: "a"), count: 500)) != nil)
    #expect(quoted([0xFF]) == nil)
    #expect(quoted([0x61, 0xC3]) == nil)
  }
}

/// The checked element access of any buffer: what a stack of frames or offsets uses.
@Suite("Buffer element access")
struct BufferElementTests {
  @Test("subscript, removeLast and truncate within the count; a buffer of one value repeated")
  func withinCount() {
    var buffer = _Buffer<Int32>(capacity: 1)
    defer { buffer.deallocate() }
    for value in 0..<100 { buffer.append(Int32(value)) }
    #expect(buffer[0] == 0 && buffer[99] == 99)
    buffer[99] = -1
    #expect(buffer.removeLast() == -1)
    buffer.truncate(to: 50)
    #expect(buffer.count == 50 && buffer[49] == 49)
    buffer.truncate(to: 50)
    buffer.truncate(to: 0)
    #expect(buffer.count == 0)

    let slots = _Buffer<Int32>(repeating: 7, count: 1024)
    defer { slots.deallocate() }
    #expect(slots.count == 1024 && slots[0] == 7 && slots[1023] == 7)
    let none = _Buffer<Int32>(repeating: 7, count: 0)
    defer { none.deallocate() }
    #expect(none.count == 0)
  }

  @Test("reading past the count, popping an empty buffer or truncating past the end traps")
  func outsideCountTraps() async {
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<Int32>(capacity: 8)
      buffer.append(1)
      _ = buffer[1]
    }
    await #expect(processExitsWith: .failure) {
      let buffer = _Buffer<Int32>(capacity: 8)
      buffer[-1] = 0
    }
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<Int32>(capacity: 8)
      _ = buffer.removeLast()
    }
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<Int32>(capacity: 8)
      buffer.truncate(to: 1)
    }
  }

  @Test("more than 255 fraction digits, or fewer than none, trap")
  func fractionDigitsOutsideRangeTraps() async {
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<UInt8>(capacity: 8)
      buffer.appendDecimal(1, fractionDigits: 256, negative: false, pointZero: true)
    }
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<UInt8>(capacity: 8)
      buffer.appendDecimal(1, fractionDigits: -1, negative: false, pointZero: true)
    }
  }

  @Test("a range past either end of its array traps")
  func rangeOutsideArrayTraps() async {
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<UInt8>(capacity: 8)
      buffer.append(contentsOf: [1, 2, 3], range: 2..<4)
    }
    await #expect(processExitsWith: .failure) {
      var buffer = _Buffer<UInt8>(capacity: 8)
      buffer.append(contentsOf: [1, 2, 3], range: Range(uncheckedBounds: (-1, 1)))
    }
  }
}
