import JSONStream
import Testing

/// Collects one number's conversions.
struct NumberProbe: JSONEventHandler {
  var text = ""
  var int64: Int64?
  var uint64: UInt64?
  var double = 0.0
  var exactDouble: Double?
  var isInteger = false
  mutating func number(_ n: JSONNumber) {
    text = n.text
    int64 = n.int64
    uint64 = n.uint64
    double = n.double
    exactDouble = n.exactDouble
    isInteger = n.isInteger
  }
}

func probe(_ text: String) throws -> NumberProbe {
  try JSONParser.parse(Array(text.utf8), handler: NumberProbe())
}

@Suite("JSONNumber conversions are exact")
struct JSONNumberTests {
  @Test(
    "integers that fit",
    arguments: [
      ("0", Int64(0)), ("-0", 0), ("42", 42), ("-42", -42),
      ("9223372036854775807", .max), ("-9223372036854775808", .min),
      ("1.0", 1), ("1e3", 1000), ("12.50e1", 125), ("-1.5e1", -15), ("100e-2", 1),
      ("0.0e5", 0), ("123456789012345678", 123_456_789_012_345_678),
    ])
  func int64(text: String, value: Int64) throws {
    #expect(try probe(text).int64 == value)
  }

  @Test(
    "integers that do not fit, or are not integral, give nil",
    arguments: [
      "9223372036854775808", "-9223372036854775809", "1.5", "1e-1", "1e19", "1e400",
      "123456789012345678901234567890", "0.1e1000",
    ])
  func int64Nil(text: String) throws {
    #expect(try probe(text).int64 == nil)
  }

  @Test("UInt64 range")
  func uint64() throws {
    #expect(try probe("18446744073709551615").uint64 == .max)
    #expect(try probe("18446744073709551616").uint64 == nil)
    #expect(try probe("-1").uint64 == nil)
    #expect(try probe("-0").uint64 == 0)
    #expect(try probe("1e19").uint64 == 10_000_000_000_000_000_000)
    // A dropped digit must not let a later, smaller digit in.
    #expect(try probe("184467440737095516160").uint64 == nil)
    #expect(try probe("18446744073709551616.0").uint64 == nil)
    #expect(try probe("1844674407370955161.5e1").uint64 == 18_446_744_073_709_551_615)
  }

  @Test("isInteger reflects how it was written")
  func isInteger() throws {
    #expect(try probe("12").isInteger)
    #expect(try !probe("12.0").isInteger)
    #expect(try !probe("1e2").isInteger)
  }

  @Test(
    "doubles are correctly rounded",
    arguments: [
      "0", "-0", "0.1", "1.5", "3.141592653589793", "2.2250738585072014e-308",
      "4.9e-324", "2.4703282292062328e-324", "1.7976931348623157e308", "9007199254740993",
      "123456789012345678901234567890", "1e22", "1e23", "7.3177701707893310e+15",
      "0.30000000000000004", "-12.5e-3", "1e-400", "1e400", "-1e400",
      "2.2250738585072011e-308", "1.00000000000000011102230246251565404236316680908203125",
    ])
  func doubles(text: String) throws {
    let expected = Double(text)!
    let value = try probe(text).double
    #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) vs \(expected)")
  }

  @Test("doubles match the C library on many generated numbers")
  func generatedDoubles() throws {
    var generator = SplitMix(seed: 0x5EED)
    for _ in 0..<20_000 {
      let digits = Int(generator.next() % 20) + 1
      var text = generator.next() % 2 == 0 ? "-" : ""
      let mantissa = String(generator.next() % 10_000_000_000_000_000_000)
      text += String(mantissa.prefix(digits))
      if generator.next() % 2 == 0 { text += ".\(generator.next() % 1_000_000)" }
      if generator.next() % 2 == 0 { text += "e\(Int(generator.next() % 700) - 350)" }
      let value = try probe(text).double
      #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
    }
  }

  @Test("exactDouble only when no rounding happened")
  func exactDouble() throws {
    #expect(try probe("0.5").exactDouble == 0.5)
    #expect(try probe("1e22").exactDouble == 1e22)
    #expect(try probe("-0.125").exactDouble == -0.125)
    #expect(try probe("9007199254740992").exactDouble == 9_007_199_254_740_992)
    #expect(try probe("0.1").exactDouble == nil)
    #expect(try probe("9007199254740993").exactDouble == nil)
    #expect(try probe("1e400").exactDouble == nil)
  }

  @Test("the text is kept exactly as written")
  func text() throws {
    for text in ["-0.0E+00", "1e400", "123456789012345678901234567890.5e-7"] {
      #expect(try probe(text).text == text)
    }
  }
}

/// A small deterministic generator, so generated tests are reproducible.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("JSONNumber(text:) accepts only JSON numbers")
struct JSONNumberTextTests {
  func make(_ text: String) -> (valid: Bool, isInteger: Bool, nonFinite: Bool) {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      guard let number = JSONNumber(text: buffer) else { return (false, false, false) }
      return (true, number.isInteger, number.isNonFinite)
    }
  }

  @Test(
    "valid",
    arguments: ["0", "-0", "12", "1.5", "-1.5e+10", "1E5", "0e0", "NaN", "Infinity", "-Infinity"])
  func valid(text: String) {
    #expect(make(text).valid)
  }

  @Test(
    "invalid",
    arguments: [
      "", "-", "01", "+1", ".5", "1.", "1e", "1e+", "0x1", "1 ", " 1", "-NaN", "nan", "inf",
      "1.5.2", "--1",
    ])
  func invalid(text: String) {
    #expect(!make(text).valid)
  }

  @Test("decimal components keep every digit, or are nil")
  func decimalComponents() {
    func components(_ text: String) -> (Bool, UInt64, Int)? {
      Array(text.utf8).withUnsafeBufferPointer { JSONNumber(text: $0)?.decimalComponents }
        .map { ($0.isNegative, $0.significand, $0.exponent) }
    }
    #expect(components("1.50")! == (false, 150, -2))
    #expect(components("-0.05e3")! == (true, 5, 1))
    #expect(components("0")! == (false, 0, 0))
    #expect(components("18446744073709551615")! == (false, .max, 0))
    #expect(components("18446744073709551616") == nil)
    #expect(components("1844674407370955161500")! == (false, .max, 2))
    #expect(components("1844674407370955161600") == nil)
    #expect(components("NaN") == nil)
  }

  @Test("flags")
  func flags() {
    #expect(make("12").isInteger)
    #expect(!make("1.0").isInteger)
    #expect(make("-Infinity").nonFinite)
  }
}
