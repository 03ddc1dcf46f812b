import JSONStream
import Testing

/// Equal numbers must hash alike whatever their representation (Int64, UInt64, Double or kept
/// text), or a `Set` keeps duplicates; and `==` must be transitive across representations.
@Suite("NumberHashing")
struct NumberHashingTests {
  /// A decimal value, sign · digits · 10^exponent, with no leading or trailing zeros in digits.
  struct Decimal {
    var negative: Bool
    var digits: String
    var exponent: Int
  }

  static let values: [Decimal] = [
    Decimal(negative: false, digits: "1", exponent: 0),
    Decimal(negative: false, digits: "42", exponent: 0),
    Decimal(negative: true, digits: "5", exponent: 0),
    Decimal(negative: false, digits: "1", exponent: 2),
    Decimal(negative: false, digits: "9223372036854775807", exponent: 0),  // Int64.max
    Decimal(negative: true, digits: "9223372036854775808", exponent: 0),  // Int64.min
    Decimal(negative: false, digits: "9223372036854775808", exponent: 0),
    Decimal(negative: false, digits: "18446744073709551615", exponent: 0),  // UInt64.max
    Decimal(negative: false, digits: "18446744073709551616", exponent: 0),
    Decimal(negative: true, digits: "18446744073709551615", exponent: 0),
    Decimal(negative: false, digits: "9007199254740992", exponent: 0),  // 2^53
    Decimal(negative: false, digits: "9007199254740993", exponent: 0),
    Decimal(negative: false, digits: "1152921504606846976", exponent: 0),  // 2^60
    Decimal(negative: false, digits: "1152921504606847", exponent: 3),  // Double(2^60)'s text
    Decimal(negative: false, digits: "1234567890123456789", exponent: 1),
    Decimal(negative: true, digits: "12345678901234567890123456789", exponent: 1),
    Decimal(negative: false, digits: "15", exponent: -1),
    Decimal(negative: false, digits: "1", exponent: -1),
    Decimal(negative: true, digits: "1", exponent: -3),
    Decimal(negative: false, digits: "3", exponent: -17),
    Decimal(negative: false, digits: "30000000000000004", exponent: -17),  // 0.1 + 0.2
    Decimal(negative: false, digits: "314159265358979323846", exponent: -20),
    Decimal(negative: false, digits: "65613616999999977", exponent: -15),
    Decimal(negative: false, digits: "5", exponent: -324),  // the smallest subnormal's text
    Decimal(negative: false, digits: "1", exponent: 400),
    Decimal(negative: true, digits: "1", exponent: -400),
    Decimal(negative: false, digits: "1", exponent: 100_000_000_000_000_000),
    Decimal(negative: false, digits: "7", exponent: -99_999_999_999_999_999),
  ]

  static func exponentText(_ value: Int, marker: String = "e") -> String {
    value < 0 ? "\(marker)\(value)" : "\(marker)+\(value)"
  }

  /// The value written in many ways: with exponents, fractions, leading and trailing zeros.
  static func spellings(of value: Decimal) -> [String] {
    let sign = value.negative ? "-" : ""
    let digits = value.digits
    let count = digits.count
    let e = value.exponent
    var forms = [
      "\(sign)\(digits)e\(e)",
      "\(sign)\(digits)0\(exponentText(e - 1, marker: "E"))",
      "\(sign)\(digits)000\(exponentText(e - 3))",
      "\(sign)0.00\(digits)\(exponentText(e + count + 2))",
      "\(sign)\(digits.prefix(1)).\(digits.dropFirst())0\(exponentText(e + count - 1))",
    ]
    if e >= 0 && e < 40 {
      let integer = digits + String(repeating: "0", count: e)
      forms += ["\(sign)\(integer)", "\(sign)\(integer).000", "\(sign)\(integer)0e-1"]
    }
    if e < 0 && -e < count + 40 {
      let point = count + e
      let plain =
        point > 0
        ? "\(digits.prefix(point)).\(digits.dropFirst(point))"
        : "0." + String(repeating: "0", count: -point) + digits
      forms += ["\(sign)\(plain)", "\(sign)\(plain)00"]
    }
    return forms
  }

  /// The number read every way there is: alone (which keeps its text when the number's own
  /// form differs), inside an array, and from `Number(text:)`.
  static func numbers(_ text: String) throws -> [JSONValue] {
    let number = try #require(JSONValue.Number(text: text), "\(text)")
    return [
      try JSONValue(parsing: text), try #require(JSONValue(parsing: "[\(text)]")[0]),
      .number(number),
    ]
  }

  static func expectAllEqual(_ values: [JSONValue], _ comment: Comment) {
    for value in values {
      #expect(value == values[0], comment)
      #expect(values[0] == value, comment)
      #expect(value.hashValue == values[0].hashValue, comment)
    }
    #expect(Set(values).count == 1, comment)
  }

  @Test("every spelling of a number is equal, hashes alike and dedupes in a Set")
  func spellings() throws {
    var firsts: [JSONValue] = []
    for value in Self.values {
      let all = try Self.spellings(of: value).flatMap(Self.numbers)
      Self.expectAllEqual(all, "\(value)")
      firsts.append(all[0])
    }
    // …while different values stay apart.
    #expect(Set(firsts).count == Self.values.count)
  }

  @Test("zero and minus zero are one number")
  func zeros() throws {
    let texts = ["0", "-0", "0.0", "-0.000", "0e5", "-0E-7", "0.000e+3", "-0e99999999999999999999"]
    var all = try texts.flatMap(Self.numbers)
    all += [JSONValue(0), JSONValue(0.0), JSONValue(-0.0), .number(.init(UInt64(0)))]
    Self.expectAllEqual(all, "zero")
  }

  @Test("the reported pairs dedupe")
  func reported() throws {
    for (a, b) in [
      ("9223372036854775807", "9223372036854775807.0"),
      ("12345678901234567890", "1234567890123456789e1"),
    ] {
      Self.expectAllEqual(try Self.numbers(a) + Self.numbers(b), "\(a) \(b)")
    }
  }

  @Test("numbers built from Swift values equal their parsed text")
  func swiftValues() throws {
    let built: [(JSONValue, String)] = [
      (JSONValue(42), "42.0e0"), (JSONValue(-7), "-700e-2"),
      (.number(.init(Int64.max)), "9223372036854775807.00"),
      (.number(.init(Int64.min)), "-9.223372036854775808e18"),
      (.number(.init(UInt64.max)), "1.8446744073709551615E19"),
      (JSONValue(1.5), "15e-1"), (JSONValue(0.1), "0.10"), (JSONValue(-0.001), "-1e-3"),
      (JSONValue(0.1 + 0.2), "0.30000000000000004000"), (JSONValue(1e300), "10e299"),
      (JSONValue(5e-324), "5e-324"), (JSONValue(9_007_199_254_740_992.0), "9007199254740992"),
      (JSONValue(Double(1 << 60)), "1152921504606847000"),
    ]
    for (value, text) in built {
      Self.expectAllEqual(try [value] + Self.numbers(text), "\(value) \(text)")
      // What a value is written as reads back equal.
      Self.expectAllEqual(try [value] + Self.numbers(value.description), "\(value)")
    }
  }

  @Test("equality is transitive across representations")
  func transitive() throws {
    // A double stands for its shortest text: Double(2^60) is written 1.152921504606847e+18,
    // another number than the integer 2^60 (which the text kept for 2^60.0 denotes).
    let kept = try JSONValue(parsing: "1152921504606846976.0")
    let integer = JSONValue(1 << 60)
    let double = JSONValue(Double(1 << 60))
    #expect(kept == integer)
    #expect(integer != double)
    #expect(kept != double)
  }

  @Test("huge exponents compare exactly, without saturating")
  func hugeExponents() throws {
    let equal: [(String, String)] = [
      ("10e99999999999999999999", "1e100000000000000000000"),
      ("-0.1e-99999999999999999999", "-1e-100000000000000000000"),
      ("100e99999999999999998", "1e100000000000000000"),
      ("0.1e100000000000000001", "1e100000000000000000"),
      ("1e+0000000000000000000000000005", "100000"),
    ]
    for (a, b) in equal {
      Self.expectAllEqual(try Self.numbers(a) + Self.numbers(b), "\(a) \(b)")
    }
    let different: [(String, String)] = [
      ("1e1000000000", "1e2000000000"), ("1e100000000000000000000", "1e100000000000000000001"),
      ("1e-100000000000000000000", "-1e-100000000000000000000"),
      ("1e99999999999999999", "1e100000000000000000"),
    ]
    for (a, b) in different {
      #expect(try JSONValue(parsing: a) != JSONValue(parsing: b), "\(a) \(b)")
    }
  }
}
