import JSONStream
import Testing

/// `JSONNumber` (a number event) and `JSONValue.Number` (a number in a tree) answer the same
/// questions by the same names, alike for the same number.
@Suite("One number vocabulary")
struct NumberVocabularyTests {
  /// What both types answer, as one comparable value.
  struct Answers: Equatable {
    var text: String
    var int64: Int64?
    var uint64: UInt64?
    var int: Int?
    var double: Double
    var exactDouble: Double?
    var isExactDouble: Bool
    var isNegative: Bool
    var isNonFinite: Bool
    var significand: UInt64?
    var exponent: Int?
  }

  static func answers(_ n: borrowing JSONNumber) -> Answers {
    Answers(
      text: n.text, int64: n.int64, uint64: n.uint64, int: n.int, double: n.double,
      exactDouble: n.exactDouble, isExactDouble: n.isExactDouble, isNegative: n.isNegative,
      isNonFinite: n.isNonFinite, significand: n.decimalComponents?.significand,
      exponent: n.decimalComponents?.exponent)
  }

  static func answers(_ n: JSONValue.Number) -> Answers {
    Answers(
      text: n.text, int64: n.int64, uint64: n.uint64, int: n.int, double: n.double,
      exactDouble: n.exactDouble, isExactDouble: n.isExactDouble, isNegative: n.isNegative,
      isNonFinite: n.isNonFinite, significand: n.decimalComponents?.significand,
      exponent: n.decimalComponents?.exponent)
  }

  struct NotNumberText: Error {}

  /// The answers of the number event for `text`.
  static func eventAnswers(_ text: String) throws -> Answers {
    var utf8 = text
    return try utf8.withUTF8 { bytes in
      guard let number = JSONNumber(text: bytes) else {
        Issue.record("not number text: \(text)")
        throw NotNumberText()
      }
      return answers(number)
    }
  }

  static let texts = [
    "0", "-0", "7", "-42", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "123456789012345678901234567890", "0.5", "-0.5", "1.50", "0.1", "1e22", "1E2", "-12.50e+3",
    "1e400", "-1e400", "4.9e-324", "2.2250738585072014e-308",
  ]

  @Test("a parsed number answers as the event it came from", arguments: texts)
  func parsedNumbers(text: String) throws {
    guard case .number(let number) = try JSONValue(parsing: text) else {
      Issue.record("\(text) is not a number")
      return
    }
    #expect(Self.answers(number) == (try Self.eventAnswers(text)), "\(text)")
  }

  @Test(
    "a number made from a Swift value answers as the event of its text",
    arguments: [
      JSONValue.Number(0), JSONValue.Number(-7), JSONValue.Number(Int64.min),
      JSONValue.Number(UInt64.max), JSONValue.Number(0.5), JSONValue.Number(-0.0),
      JSONValue.Number(0.1), JSONValue.Number(1e300),
      JSONValue.Number(Double.leastNonzeroMagnitude),
    ])
  func madeNumbers(number: JSONValue.Number) throws {
    #expect(Self.answers(number) == (try Self.eventAnswers(number.text)), "\(number)")
  }

  @Test("a non-finite double: no exact double, no decimal components")
  func nonFinite() {
    for value in [Double.nan, .infinity, -.infinity] {
      let number = JSONValue.Number(value)
      #expect(number.isNonFinite)
      #expect(number.exactDouble == nil && !number.isExactDouble)
      #expect(number.decimalComponents == nil)
      #expect(number.int64 == nil && number.int == nil)
    }
    #expect(JSONValue.Number(-Double.infinity).isNegative)
    #expect(!JSONValue.Number(Double.nan).isNegative)
  }

  @Test("isInteger asks about the value, isIntegerLiteral about the text")
  func integerQuestions() throws {
    let cases: [(text: String, isInteger: Bool, isIntegerLiteral: Bool)] = [
      ("42", true, true), ("-7", true, true), ("42.0", true, false), ("4.2e1", true, false),
      ("4.25e1", false, false), ("0.0", true, false), ("-0.0e-5", true, false),
      ("1.5", false, false), ("1e400", true, false), ("12345678901234567890123", true, true),
      ("1.0000000000000000000000000", true, false), ("12345678901234567890123.5", false, false),
      ("1e-400", false, false), ("123456789012345678901234567890.0", true, false),
      ("-1234567890123456789012.50e1", true, false),
    ]
    for (text, isInteger, isIntegerLiteral) in cases {
      guard case .number(let number) = try JSONValue(parsing: Array(text.utf8)) else {
        Issue.record("\(text) is not a number")
        continue
      }
      #expect(number.isInteger == isInteger, "\(text)")
      let literal = try JSONParser.parse(Array(text.utf8), handler: FirstNumber()).isIntegerLiteral
      #expect(literal == isIntegerLiteral, "\(text)")
    }
    #expect(JSONValue.Number(42.0).isInteger && !JSONValue.Number(42.5).isInteger)
    #expect(!JSONValue.Number(Double.infinity).isInteger)
  }
}

/// The literal-ness of the one number of a document.
private struct FirstNumber: JSONEventHandler {
  var isIntegerLiteral = false
  mutating func number(_ value: borrowing JSONNumber) throws {
    isIntegerLiteral = value.isIntegerLiteral
  }
}
