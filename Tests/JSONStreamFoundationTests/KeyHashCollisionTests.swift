import Foundation
import JSONStream
import Testing

@testable import JSONStreamFoundation

/// Two different keys with one hash in the encoder's repeated-key check: both are written, on
/// every output; the binary output, which refuses a repeated key, does not take them for one.
@Suite("Codable: two keys with one hash")
struct KeyHashCollisionTests {
  /// Two 16-byte printable ASCII keys whose `_keyHash` is the same. For 16 bytes the hash mixes the
  /// first word, then XORs the second in before the final mix (a bijection): keeping the
  /// second word's difference equal to the mixed first words' difference gives equal hashes.
  static let collidingKeys: (String, String) = {
    let start = UInt64(16) &* 0x9E37_79B9_7F4A_7C15
    let multiplier: UInt64 = 0xBF58_476D_1CE4_E5B9
    func word(_ text: String) -> UInt64 {
      text.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
    func text(_ word: UInt64) -> String {
      String(decoding: (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }, as: UTF8.self)
    }
    let first = "key-aaaa"
    let second = "zzzzzzzz"
    let mixed = (start ^ word(first)) &* multiplier
    for candidate in 0..<1_000_000 {
      // Eight letters, the fastest-changing first: a product carries a change only upward.
      var number = candidate
      var otherFirst = ""
      for _ in 0..<8 {
        otherFirst.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(number % 26))))
        number /= 26
      }
      let otherSecond = word(second) ^ mixed ^ ((start ^ word(otherFirst)) &* multiplier)
      // Printable ASCII without quote or backslash, so that JSON text shows it as it is.
      let printable = (0..<8).allSatisfy { index in
        let byte = UInt8(truncatingIfNeeded: otherSecond >> (8 * index))
        return (0x20...0x7E).contains(byte) && byte != 0x22 && byte != 0x5C
      }
      if printable {
        return (first + second, otherFirst + text(otherSecond))
      }
    }
    fatalError("no colliding key found")
  }()

  typealias Key = CoderParityTests.KeyedBody.AnyKey

  /// An object with the member `keys.0`: 1, then `keys.1`: 2.
  static func twoKeys(_ keys: (String, String)) -> CoderParityTests.KeyedBody {
    CoderParityTests.KeyedBody { container in
      try container.encode(1, forKey: Key(keys.0))
      try container.encode(2, forKey: Key(keys.1))
    }
  }

  @Test("the keys are different and their hashes equal")
  func keysCollide() {
    let (a, b) = Self.collidingKeys
    #expect(a != b)
    #expect(a.utf8.count == 16 && b.utf8.count == 16)
    // If the hash changes, this test's construction must follow it.
    #expect(_keyHash(a) == _keyHash(b))
  }

  @Test("a type's keys: JSON text, a tree and binary keep both members")
  func typeKeys() throws {
    let (a, b) = Self.collidingKeys
    let value = Self.twoKeys((a, b))
    let text = String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
    #expect(text == "{\"\(a)\":1,\"\(b)\":2}")
    #expect(try JSONStreamEncoder().encodeToValue(value) == [a: 1, b: 2])
    let binary = try JSONStreamEncoder().encodeBinary(value)
    #expect(try JSONStreamDecoder().decode([String: Int].self, fromBinary: binary) == [a: 1, b: 2])
    // The same type again: its objects are checked against the key order learned, then.
    let twice = try JSONStreamEncoder().encodeBinary([value, value])
    #expect(
      try JSONStreamDecoder().decode([[String: Int]].self, fromBinary: twice)
        == [[a: 1, b: 2], [a: 1, b: 2]])
  }

  @Test("a dictionary's keys, checked by hash in every object")
  func dictionaryKeys() throws {
    let (a, b) = Self.collidingKeys
    let dictionary = [a: 1, b: 2]
    let binary = try JSONStreamEncoder().encodeBinary(dictionary)
    #expect(try JSONStreamDecoder().decode([String: Int].self, fromBinary: binary) == dictionary)
    let text = try JSONStreamEncoder().encode(dictionary)
    #expect(try JSONStreamDecoder().decode([String: Int].self, from: text) == dictionary)
  }

  @Test("a key that does come twice is still refused by binary output")
  func realRepeat() {
    let (a, _) = Self.collidingKeys
    #expect(throws: EncodingError.self) {
      try JSONStreamEncoder().encodeBinary(Self.twoKeys((a, a)))
    }
  }
}
