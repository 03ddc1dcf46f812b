import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

@testable import JSONStreamFoundation

@Suite("Numbers: the NSNumber kinds JSONSerialization makes")
struct NumberTests {
  /// Random JSON number texts of every shape: signs, lengths around the 17–20 character
  /// boundaries, fractions, exponents in both cases and both signs.
  static let randomNumbers: [String] = {
    var generator = SplitMix(seed: 0x5EED)
    func digits(_ count: Int) -> String {
      var text = String(generator.next() % 9 + 1)
      for _ in 1..<max(count, 1) { text += String(generator.next() % 10) }
      return text
    }
    var numbers: [String] = []
    for _ in 0..<3000 {
      var text = generator.next() % 2 == 0 ? "-" : ""
      let integerDigits = Int(generator.next() % 24) + 1
      text += generator.next() % 8 == 0 ? "0" : digits(integerDigits)
      if generator.next() % 2 == 0 { text += "." + digits(Int(generator.next() % 20) + 1) }
      if generator.next() % 3 == 0 {
        text += generator.next() % 2 == 0 ? "e" : "E"
        text += ["", "+", "-"][Int(generator.next() % 3)]
        text += String(generator.next() % (generator.next() % 4 == 0 ? 400 : 30))
      }
      numbers.append(text)
    }
    return numbers
  }()

  @Test("random numbers: the same kind and value as JSONSerialization, or both fail")
  func randomNumbersMatch() throws {
    var mismatches: [String] = []
    for text in NumberTests.randomNumbers {
      let theirs = try? serializationTree(text, fragments: true)
      let ours = try? ourTree(text, options: .fragmentsAllowed)
      switch (ours, theirs) {
      case (nil, nil): continue
      case (let ours?, let theirs?):
        if Node(ours) != Node(theirs) {
          mismatches.append("\(text): \(Node(ours)) vs \(Node(theirs))")
        }
      default:
        mismatches.append(
          "\(text): ours \(ours.map(Node.init) as Any), theirs \(theirs.map(Node.init) as Any)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  }

  /// Collects the text of every number in a document.
  struct NumberTexts: JSONEventHandler {
    var texts: [String] = []
    mutating func number(_ value: borrowing JSONNumber) { texts.append(value.text) }
  }

  func decimalBytes(_ decimal: Decimal?) -> [UInt8]? {
    decimal.map { value in withUnsafeBytes(of: value) { Array($0) } }
  }

  func expectSameDecimal(_ texts: [String]) {
    var checked = 0
    for text in texts where text.count > 17 {
      var bytes = text
      let ours = bytes.withUTF8 { FoundationNumbers.decimal($0) }
      #expect(decimalBytes(ours) == decimalBytes(Decimal(string: text)), "\(text)")
      checked += 1
    }
    #expect(checked > 0)
  }

  @Test("the Decimal fast path gives Decimal(string:)'s exact bytes: random numbers")
  func decimalFastPathRandom() {
    expectSameDecimal(NumberTests.randomNumbers + ["0.00000000000000000", "-0.000000000000000000"])
  }

  @Test(
    "the Decimal fast path gives Decimal(string:)'s exact bytes: every corpus number",
    .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"))
  func decimalFastPathCorpus() throws {
    var texts: [String] = []
    for name in SharedData.corpusNames {
      texts += try JSONParser.parse(SharedData.corpusFile(name), handler: NumberTexts()).texts
    }
    expectSameDecimal(texts)
  }
}
