import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("Codable in the binary format")
struct BinaryCodableTests {
  struct Record: Codable, Equatable {
    var id: Int
    var name: String
    var score: Double
    var ratio: Float
    var createdAt: Date
    var avatar: Data
    var tags: Set<String>
    var history: [Int64]
    var balance: Decimal
    var homePage: URL?
    var note: String?
    var children: [Record]
  }

  static let record = Record(
    id: 7, name: "Zoë", score: 0.1, ratio: 0.25,
    createdAt: Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7),
    avatar: Data([0, 1, 2, 255]), tags: ["a", "b", "c"], history: [Int64.min, 0, Int64.max],
    balance: Decimal(string: "12345.6789")!, homePage: URL(string: "https://example.com/z"),
    note: nil,
    children: [
      Record(
        id: 8, name: "child", score: -2.5, ratio: 1, createdAt: Date(timeIntervalSince1970: 0),
        avatar: Data(), tags: [], history: [], balance: 0, homePage: nil, note: "n",
        children: [])
    ])

  @Test("a model round-trips exactly, dates to the last bit, and is smaller than its JSON")
  func roundTrip() throws {
    let binary = try JSONStreamEncoder().encodeBinary(Self.record)
    let back = try JSONStreamDecoder().decode(Record.self, fromBinary: binary)
    #expect(back == Self.record)
    #expect(
      back.createdAt.timeIntervalSinceReferenceDate
        == Self.record.createdAt.timeIntervalSinceReferenceDate)
    #expect(binary.count < (try JSONStreamEncoder().encode(Self.record)).count)
    // Native tags: a date, data, a set.
    #expect(binary.contains(0x31) && binary.contains(0x30) && binary.contains(0x32))
    // The strategies for JSON do not apply; the key strategy does, both ways.
    let encoder = JSONStreamEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let decoder = JSONStreamDecoder()
    decoder.dateDecodingStrategy = .iso8601
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    #expect(
      try decoder.decode(Record.self, fromBinary: encoder.encodeBinary(Self.record)) == Self.record)
    // Top-level scalars and collections.
    #expect(
      try JSONStreamDecoder().decode(
        [Set<Int>].self, fromBinary: JSONStreamEncoder().encodeBinary([Set([1, 2])])) == [
          Set([1, 2])
        ])
    #expect(
      try JSONStreamDecoder().decode(String.self, fromBinary: JSONStreamEncoder().encodeBinary("x"))
        == "x")
  }

  @Test(
    "binary converts to JSON: a date as its seconds since 2001, data as base64, a set as an array")
  func asJSON() throws {
    struct Small: Codable {
      var at = Date(timeIntervalSinceReferenceDate: 1.5)
      var bytes = Data([1, 2, 3])
      var set: Set<Int> = [4]
    }
    let binary = try JSONStreamEncoder().encodeBinaryToBytes(Small())
    var reader = JSONBinaryReader(handler: JSONWriter())
    try reader.feed(binary)
    try reader.finish()
    try reader.handler.finish()
    #expect(
      String(decoding: reader.handler.bytes, as: UTF8.self)
        == #"{"at":1.5,"bytes":"AQID","set":[4]}"#)
  }

  @Test("bad binary is dataCorrupted naming the byte; a wrong type is the usual DecodingError")
  func errors() throws {
    var binary = try JSONStreamEncoder().encodeBinaryToBytes(Self.record)
    binary.removeLast(5)
    let truncated = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Record.self, fromBinary: binary)
    }
    guard case .dataCorrupted(let context) = truncated else { return }
    #expect(context.underlyingError is JSONParseError)
    #expect(context.debugDescription.contains("byte "))
    let wrong = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Int.self, fromBinary: JSONStreamEncoder().encodeBinary("x"))
    }
    guard case .typeMismatch = wrong else {
      Issue.record("\(wrong)")
      return
    }
  }
}
