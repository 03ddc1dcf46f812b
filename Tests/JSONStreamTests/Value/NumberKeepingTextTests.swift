import JSONStream
import Testing

@testable import JSONStreamValue

/// A parsed scalar that a consumer holds (a select filter's probe or result) keeps its text:
/// written back, it is the text as written. The rule is read from the text where it can be,
/// and checked against the value's description where it cannot.
@Suite("Numbers held from the input keep their text")
struct NumberKeepingTextTests {
  static func held(_ text: String) -> JSONValue.Number? {
    var text = text
    return text.withJSONNumber { JSONValue.Number(keepingText: $0) }
  }

  @Test("every form writes back as written, with the value it was read as")
  func writesAsWritten() throws {
    var texts = [
      "0", "-0", "7", "-12", "9223372036854775807", "-9223372036854775808",
      "18446744073709551615", "123456789012345678901234567890", "1e2", "1E2", "-0.0", "0.0",
      "1.50", "9692.0", "888.59", "-56.984098", "0.1", "0.5", "-0.5", "0.0001", "0.00012",
      "0.00001", "0.000123", "12345678901234.5", "123456789012345.6", "99999999999999.9",
      "999999999999999.5", "0.123456789012345", "0.1234567890123456", "1.7976931348623157e308",
      "5e-324", "2.5e-3", "1.0e1", "100.25", "-0.000100",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      // Decimals of every length up to 17 digits, the point anywhere, some leading zeros.
      let digits = Int.random(in: 1...17, using: &generator)
      var text = String(UInt64.random(in: 0..<UInt64(10).power(digits), using: &generator))
      let point = Int.random(in: 0...text.count, using: &generator)
      text.insert(".", at: text.index(text.startIndex, offsetBy: point))
      if text.hasPrefix(".") { text = "0" + text }
      if text.hasSuffix(".") { text += "5" }
      if Bool.random(using: &generator) { text = "-" + text }
      texts.append(text)
      texts.append(Double.random(in: -1e6...1e6, using: &generator).description)
    }
    for text in texts {
      let number = try #require(Self.held(text), "\(text)")
      let plain = try #require(JSONValue.Number(text: text))
      #expect(number.description == text, "\(text) writes back as written")
      #expect(number == plain, "\(text) keeps its value")
    }
  }
}

/// A parsed number's value as the tree holds it: a short double, else an integer of either
/// sign, else its text.
@Suite("Numbers read from text keep their value")
struct NumberFromTextTests {
  @Test("integers past Int64, long decimals and exponents convert as the number text does")
  func conversions() throws {
    let texts = [
      "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "-9223372036854775809", "18446744073709551615", "18446744073709551616",
      "-18446744073709551615", "1e2", "-1e2", "1.5e2", "12e18", "12e19", "-9.223372036854775808e18",
      "1234567890123456.5", "-65.613616999999977", "0.12345678901234567", "1e400", "-1e-400",
      "123456789012345678901234567890", "1.0000000000000000000001", "0e5", "-0.0e-3", "5e-324",
    ]
    for text in texts {
      var copy = text
      try copy.withJSONNumber { number in
        let value = try #require(JSONValue.Number(text: text))
        #expect(value.int64 == number.int64, "\(text)")
        #expect(value.uint64 == number.uint64, "\(text)")
        #expect(value.double == number.double, "\(text)")
      }
    }
  }
}

extension UInt64 {
  fileprivate func power(_ exponent: Int) -> UInt64 {
    (0..<exponent).reduce(1) { product, _ in product * self }
  }
}
