import JSONStreamTestSupport
import Testing

@testable import JSONStreamCore
@testable import JSONStreamWriter

/// `_shortDecimal`'s text, or nil: the same text `description` gives, with or without `.0`.
private func shortDecimalText(_ value: Double) -> String? {
  guard let decimal = _shortDecimal(value) else { return nil }
  var buffer = _Buffer<UInt8>(capacity: 8)
  defer { buffer.deallocate() }
  buffer.appendDecimal(
    decimal.digits, fractionDigits: decimal.fractionDigits, negative: value < 0,
    pointZero: true)
  return String(decoding: buffer.array(), as: UTF8.self)
}

/// A double's text through the writer.
private func written(_ value: Double) throws -> String {
  var writer = JSONWriter()
  try writer.number(value)
  try writer.finish()
  return String(decoding: writer.bytes, as: UTF8.self)
}

/// The shortest decimal of a double, found without `description`, is the text `description`
/// gives for every value it takes; the values it leaves are the ones its rules name.
@Suite("Shortest decimal text of a double")
struct DoubleTextTests {
  @Test("common values take the short path and read as description writes them")
  func commonValues() throws {
    let values: [Double] = [
      0.1, 0.2, 0.3, 1.5, 12.34, 99.99, 786_000_000.123456, -65.613617, 3.14159, 1e15,
      9_007_199_254_740_991, 0.001, 1.0 / 3.0, 123_456.789, -0.75, 5, -42, 0x1p-10 * 3,
    ]
    for value in values {
      let text = shortDecimalText(value)
      #expect(text == value.description, "\(value)")
      #expect(try written(value) == value.description)
    }
  }

  @Test("values left to description: zero, powers of two, 17 digits, tiny, huge, non-finite")
  func leftToDescription() throws {
    let values: [Double] = [
      0, -0.0, 0.5, 0.25, -0.125, 0x1p-20, 1e-5, 0.0009, 0x1p53, 1e16, 1e300,
      0.1 + 0.2,
      .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, .nan,
    ]
    for value in values {
      #expect(_shortDecimal(value) == nil, "\(value)")
    }
    for value in values where value.isFinite {
      #expect(try written(value) == value.description)
    }
  }

  @Test("random doubles of every shape: the short path agrees with description or stays out")
  func randomValues() {
    var generator = SplitMix(seed: 0xD0B1E)
    var decimalsTaken = 0
    var decimals = 0
    @discardableResult
    func check(_ value: Double) -> Bool {
      guard let text = shortDecimalText(value) else { return false }
      #expect(text == value.description, "\(value.bitPattern)")
      return true
    }
    for _ in 0..<200_000 {
      // Any bit pattern: mostly out of range, some with exponents it takes.
      check(Double(bitPattern: generator.next()))
      // Any double between 2⁻¹² and 2⁵⁴: a full 17-digit significand, seldom short.
      let exponent = Int(generator.next() % 66) - 12
      let fraction = Double(generator.next() >> 11) * 0x1p-53
      check(Double(sign: .plus, exponent: exponent, significand: 1 + fraction))
      // Decimals as data holds them: up to 16 digits, up to 16 of them after the point.
      let digits = (generator.next() % 10_000_000_000_000_000) >> (generator.next() % 50)
      let scale = Int(generator.next() % 17)
      let decimal = Double(digits) / _powersOfTen[scale]
      let taken = check(generator.next() % 2 == 0 ? decimal : -decimal)
      // Up to 15 digits, a decimal reads back from its own text: the short path finds it (or
      // a shorter one) unless the value is one it leaves to `description`.
      if digits < 1_000_000_000_000_000 && decimal >= 0x1p-10 && decimal.significandBitPattern != 0
        && decimal != decimal.rounded(.towardZero)
      {
        decimals += 1
        if taken { decimalsTaken += 1 }
      }
      // Its neighbours, one unit in the last place either side.
      check(decimal.nextUp)
      check(decimal.nextDown)
    }
    #expect(decimalsTaken == decimals && decimals > 100_000, "\(decimalsTaken) of \(decimals)")
  }
}
