import JSONStream
import JSONStreamTestSupport
import Testing

/// Collects one number's conversions.
struct NumberProbe: JSONEventHandler {
  var text = ""
  var int64: Int64?
  var uint64: UInt64?
  var double = 0.0
  var exactDouble: Double?
  var isIntegerLiteral = false
  mutating func number(_ n: borrowing JSONNumber) {
    text = n.text
    int64 = n.int64
    uint64 = n.uint64
    double = n.double
    exactDouble = n.exactDouble
    isIntegerLiteral = n.isIntegerLiteral
  }
}

func probe(_ text: String) throws -> NumberProbe {
  try JSONParser.parse(Array(text.utf8), handler: NumberProbe())
}

/// One number's `_plainDecimalDouble` (a nested function doing this drew a spurious "no
/// calls to throwing functions" warning when the module was emitted).
struct PlainDecimalProbe: JSONEventHandler {
  var value: Double??
  mutating func number(_ number: borrowing JSONNumber) {
    value = number._plainDecimalDouble
  }
}

func plainDecimal(_ text: String) throws -> Double? {
  try JSONParser.parse(Array(text.utf8), handler: PlainDecimalProbe()).value!
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

  @Test("isIntegerLiteral reflects how it was written")
  func integerLiteral() throws {
    #expect(try probe("12").isIntegerLiteral)
    #expect(try !probe("12.0").isIntegerLiteral)
    #expect(try !probe("1e2").isIntegerLiteral)
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

  @Test("plain decimals of up to 15 digits take the fast division, and agree with the C library")
  func plainDecimalDoubles() throws {
    // Its edges: 15 digits in, 16 out; a sign and a point do not count; no exponent.
    #expect(try plainDecimal("123456789012345") == 123_456_789_012_345)
    #expect(try plainDecimal("-1234567.89012345") == -1_234_567.890_123_45)
    #expect(try plainDecimal("0.00000000000001") == 1e-14)
    #expect(try plainDecimal("0.000000000000001") == nil)  // the leading 0 is a digit too
    #expect(try plainDecimal("1234567890123456") == nil)
    #expect(try plainDecimal("0.1234567890123456") == nil)
    #expect(try plainDecimal("1.5e3") == nil)
    #expect(try plainDecimal("1E2") == nil)
    #expect(try plainDecimal("-0.0")?.bitPattern == (-0.0 as Double).bitPattern)
    #expect(try plainDecimal("0")?.bitPattern == (0.0 as Double).bitPattern)
    var generator = SplitMix(seed: 0xDEC)
    for _ in 0..<20_000 {
      let digits = Int(generator.next() % 16) + 1
      var text = generator.next() % 2 == 0 ? "-" : ""
      let mantissa = String(generator.next() % 10_000_000_000_000_000_000)
      var body = String(mantissa.prefix(digits))
      let point = Int(generator.next() % 16)
      if point > 0 && point < body.count {
        body.insert(".", at: body.index(body.endIndex, offsetBy: -point))
      } else if point > 0 {
        body = "0." + String(repeating: "0", count: point % 5) + body
      }
      text += body
      let value = try plainDecimal(text)
      #expect((value == nil) == (text.filter(\.isNumber).count > 15), "\(text)")
      if let value { #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)") }
    }
  }

  @Test("Eisel–Lemire agrees with strtod across the whole range, subnormals and halfway cases")
  func fullRangeDoubles() throws {
    var generator = SplitMix(seed: 0xD0B1E)
    var texts: [String] = []
    for _ in 0..<60_000 {
      // 1 to 19 significant digits, exponents across every binade, subnormals included.
      let digits = Int(generator.next() % 19) + 1
      var mantissa = String(generator.next() % 10_000_000_000_000_000_000)
      while mantissa.count < digits { mantissa = "1" + mantissa }
      let exponent = Int(generator.next() % 680) - 360
      texts.append("\(generator.next() % 2 == 0 ? "-" : "")\(mantissa.prefix(digits))e\(exponent)")
    }
    for _ in 0..<300 {
      // Exact decimal midpoints between neighbouring doubles, and just above and below them:
      // the ties must round to even.
      let value = Double(
        bitPattern: 0x3800_0000_0000_0000 + generator.next() % 0x0FFF_FFFF_FFFF_FFFF)
      let midpoint = exactMidpointText(value)
      texts.append(midpoint)
      texts.append(midpoint.replacingOccurrences(of: "e", with: "1e"))  // a hair above
    }
    for _ in 0..<5_000 {
      let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
      texts.append(String(value) + "0000000000000000000001")
    }
    texts += [
      "2.2250738585072011e-308", "2.2250738585072012e-308", "4.9406564584124654e-324",
      "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
      "1.7976931348623158e308", "1.7976931348623159e308", "9007199254740993",
      "9007199254740992.9999999999999999999", "123456789012345678901234567890e-10",
      "0.000000000000000000000000000000000000000000001", "1e-342", "1e-343", "1e308", "1e309",
      "7.2057594037927933e16", "3.0000000000000000000000000000000000000000000000000001",
    ]
    var mismatches: [String] = []
    for text in texts {
      let ours = try probe(text).double
      let reference = Double(text)!
      if ours.bitPattern != reference.bitPattern {
        mismatches.append("\(text): \(ours) vs \(reference)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
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

/// The exact decimal text of the midpoint between `value` (positive, normal) and the next
/// double up: (2M + 1) × 2^(E−1) for value = M × 2^E, written as digits and an exponent.
func exactMidpointText(_ value: Double) -> String {
  let exponent = Int(value.exponent) - 52
  let mantissa = value.significandBitPattern | (1 << 52)
  var digits = Array(String(2 * mantissa + 1).utf8).map { Int($0) - 48 }.reversed().map { $0 }
  func multiply(by factor: Int) {
    var carry = 0
    for i in digits.indices {
      let product = digits[i] * factor + carry
      digits[i] = product % 10
      carry = product / 10
    }
    while carry > 0 {
      digits.append(carry % 10)
      carry /= 10
    }
  }
  var decimalExponent = 0
  if exponent - 1 >= 0 {
    for _ in 0..<(exponent - 1) { multiply(by: 2) }
  } else {
    // 2^-k = 5^k × 10^-k
    for _ in 0..<(1 - exponent) { multiply(by: 5) }
    decimalExponent = exponent - 1
  }
  return String(digits.reversed().map { Character(String($0)) }) + "e\(decimalExponent)"
}

@Suite("JSONNumber(text:) accepts only JSON numbers")
struct JSONNumberTextTests {
  func make(_ text: String) -> (valid: Bool, isIntegerLiteral: Bool, nonFinite: Bool) {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      guard let number = JSONNumber(text: buffer) else { return (false, false, false) }
      return (true, number.isIntegerLiteral, number.isNonFinite)
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

  @Test("decimal components and doubles at every split of up to 19 digits around the point")
  func digitSplits() {
    // Digits read eight at a time, the last fewer than eight as one word ending the text:
    // every length of the integer part and of the fraction, with and without a sign and an
    // exponent, and with zeros where the word's padding goes.
    var checked = 0
    for pattern in ["9071530248610000593", "5000000000000000001"].map({ Array($0.utf8) }) {
      for integerLength in 1...12 {
        for fractionLength in 0...(19 - integerLength) {
          for suffix in ["", "e-5", "E+12"] {
            for sign in ["", "-"] {
              let integer = Array(pattern.prefix(integerLength))
              let fraction = Array(pattern.suffix(fractionLength))
              let text =
                sign + String(decoding: integer, as: UTF8.self)
                + (fractionLength > 0 ? "." + String(decoding: fraction, as: UTF8.self) : "")
                + suffix
              // The reference: the digits as one integer, scaled by the exponent.
              let digits = String(decoding: integer + fraction, as: UTF8.self)
              let significand = UInt64(digits)!
              let written = suffix.isEmpty ? 0 : Int(suffix.dropFirst())!
              let exponent = significand == 0 ? 0 : written - fractionLength
              let found = Array(text.utf8).withUnsafeBufferPointer {
                buffer -> ((isNegative: Bool, significand: UInt64, exponent: Int)?, Double)? in
                guard let number = JSONNumber(text: buffer) else { return nil }
                return (number.decimalComponents, number.double)
              }
              guard let (components, double) = found else {
                Issue.record("\(text) did not parse")
                continue
              }
              #expect(components?.isNegative == (sign == "-"), "\(text)")
              #expect(components?.significand == significand, "\(text)")
              #expect(components?.exponent == exponent, "\(text)")
              #expect(double == Double(text), "\(text)")
              checked += 1
            }
          }
        }
      }
    }
    // Two patterns, 162 splits each, three exponents, two signs.
    #expect(checked == 2 * 162 * 3 * 2)
  }

  @Test("flags")
  func flags() {
    #expect(make("12").isIntegerLiteral)
    #expect(!make("1.0").isIntegerLiteral)
    #expect(make("-Infinity").nonFinite)
  }
}
