import Foundation
import JSONStream
import Testing

@testable import JSONStreamFoundation

/// The `.iso8601` strategies against Foundation's coders on this machine: every text read to
/// the same date (or refused alike), every date written to the same text.
@Suite("ISO 8601 dates, read and written as Foundation's coders do")
struct ISO8601Tests {
  /// A small deterministic generator, so that a failure repeats.
  struct Random {
    var state: UInt64
    mutating func next(_ range: ClosedRange<Int>) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return range.lowerBound + Int((state >> 33) % UInt64(range.count))
    }
  }

  static func foundationDate(_ text: String) -> Date? {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decode([Date].self, from: JSONEncoder().encode([text])).first
  }

  static func foundationText(_ date: Date) throws -> String {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return try JSONDecoder().decode([String].self, from: encoder.encode([date]))[0]
  }

  /// Texts of the common form with every part varied, in range and out of it.
  static func texts(_ count: Int) -> [String] {
    var random = Random(state: 2026)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return (0..<count).map { _ in
      let year = [random.next(1...9999), random.next(1960...2100), 0][random.next(0...2) % 3]
      let yearText = String(repeating: "0", count: max(0, 4 - "\(year)".count)) + "\(year)"
      var text = "\(yearText)-\(two(random.next(0...13)))-\(two(random.next(0...32)))"
      text += ["T", "T", "T", "t", " "][random.next(0...4)]
      text += "\(two(random.next(0...24))):\(two(random.next(0...60))):\(two(random.next(0...60)))"
      switch random.next(0...3) {
      case 0: text += "." + String(repeating: "7", count: random.next(0...11))
      case 1: text += "." + (0..<random.next(1...9)).map { _ in "\(random.next(0...9))" }.joined()
      default: break
      }
      let zone = "\(two(random.next(0...24))):\(two(random.next(0...60)))"
      text += ["Z", "Z", "+" + zone, "-" + zone, "z", "+0530", ""][random.next(0...6)]
      return text
    }
  }

  @Test("every text reads to Foundation's date, or is refused as Foundation refuses it")
  func reading() throws {
    var fast = 0
    for text in Self.texts(3000) + [
      "2026-11-02T08:15:56.789Z", "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
      "2026-11-02T08:15:56.123456789-11:30", "1969-12-31T23:59:59.999Z",
    ] {
      let ours = _ISO8601.date(from: text)
      #expect(ours == Self.foundationDate(text), "\(text)")
      if _ISO8601.parse(Array(text.utf8)) != nil { fast += 1 }
    }
    // Most texts of the common form take the fast path.
    #expect(fast > 300)
  }

  @Test("every date writes Foundation's text")
  func writing() throws {
    var random = Random(state: 9)
    var dates = [0, 0.5, -0.5, 1.999, -1e-7, 1e10, -1e11, 3e11, -62_135_596_800, -62_135_596_801]
      .map(Date.init(timeIntervalSince1970:))
    for _ in 0..<3000 {
      let seconds = Double(random.next(-5_000_000_000...10_000_000_000))
      dates.append(Date(timeIntervalSince1970: seconds + Double(random.next(0...999)) / 1000))
    }
    for date in dates {
      #expect(_ISO8601.string(from: date) == (try Self.foundationText(date)), "\(date)")
    }
  }

  @Test("the coders' .iso8601: fractional seconds read; one setting on a shared coder")
  func coders() throws {
    let decoder = JSONStreamDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let dates = try decoder.decode(
      [Date].self, from: Array(#"["2026-11-02T08:15:56.789Z","2026-11-02T08:15:56+01:00"]"#.utf8))
    #expect(dates.map(\.timeIntervalSince1970) == [1_793_607_356.789, 1_793_603_756])
    let encoder = JSONStreamEncoder()
    encoder.dateEncodingStrategy = .iso8601
    #expect(
      String(decoding: try encoder.encodeToBytes(dates), as: UTF8.self)
        == #"["2026-11-02T08:15:56Z","2026-11-02T07:15:56Z"]"#)
  }
}
