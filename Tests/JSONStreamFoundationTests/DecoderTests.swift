import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

@Suite("JSONStreamDecoder")
struct DecoderTests {
  struct Order: Codable, Equatable {
    struct Item: Codable, Equatable {
      var sku: String
      var title: String
      var quantity: Int
      var price: Double
    }
    struct Customer: Codable, Equatable {
      var name: String
      var email: String
      var city: String
    }
    var id: Int
    var customer: Customer
    var items: [Item]
    var total: Double
    var paid: Bool
    var note: String?
  }

  struct Export: Codable, Equatable {
    struct Header: Codable, Equatable {
      var source: String
      var generated: Date
      var currency: String
      var count: Int
    }
    var export: Header
    var orders: [Order]
  }

  /// Decodes with both decoders, configured alike, and expects the same value or the same
  /// kind of error.
  func expectParity<T: Decodable & Equatable>(
    _ type: T.Type, _ text: String,
    configure: (JSONStreamDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let ours = JSONStreamDecoder()
    let foundation = JSONDecoder()
    configure(ours, foundation)
    let data = Data(text.utf8)
    let expected = Result { try foundation.decode(type, from: data) }
    let actual = Result { try ours.decode(type, from: data) }
    switch (expected, actual) {
    case (.success(let a), .success(let b)):
      #expect(a == b, sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(errorKind(a) == errorKind(b), "\(a) vs \(b)", sourceLocation: sourceLocation)
      // Foundation leaves the path empty for some errors (a number that does not fit); ours
      // names it.
      if !errorPath(a).isEmpty {
        #expect(errorPath(a) == errorPath(b), "\(a) vs \(b)", sourceLocation: sourceLocation)
      }
    default:
      Issue.record("Foundation: \(expected), ours: \(actual)", sourceLocation: sourceLocation)
    }
  }

  func errorKind(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .typeMismatch: return "typeMismatch"
    case .valueNotFound: return "valueNotFound"
    case .keyNotFound: return "keyNotFound"
    case .dataCorrupted: return "dataCorrupted"
    default: return "other"
    }
  }

  func errorPath(_ error: any Error) -> [String] {
    let context: DecodingError.Context?
    switch error as? DecodingError {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c),
      .dataCorrupted(let c):
      context = c
    default: context = nil
    }
    return context?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } ?? []
  }

  @Test("the sample export decodes as Foundation decodes it")
  func sample() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Samples/orders.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    expectParity(Export.self, text) { ours, foundation in
      ours.dateDecodingStrategy = .iso8601
      foundation.dateDecodingStrategy = .iso8601
    }
    let decoder = JSONStreamDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let export = try decoder.decode(Export.self, from: Data(text.utf8))
    #expect(export.orders.count == export.export.count)
  }

  struct Numbers: Codable, Equatable {
    var i: Int
    var u8: UInt8
    var f: Float
    var d: Double
    var big: UInt64
    var opt: Int?
  }

  @Test("numbers: exact integers, nearest floats, the same errors as Foundation")
  func numbers() {
    expectParity(Numbers.self, #"{"i":-7,"u8":255,"f":1.5,"d":0.1,"big":18446744073709551615}"#)
    expectParity(Numbers.self, #"{"i":1.5,"u8":1,"f":1,"d":1,"big":1}"#)
    expectParity(Numbers.self, #"{"i":1,"u8":256,"f":1,"d":1,"big":1}"#)
    expectParity(Numbers.self, #"{"i":1,"u8":1,"f":1e39,"d":1,"big":1}"#)
    expectParity(Numbers.self, #"{"i":"1","u8":1,"f":1,"d":1,"big":1}"#)
    expectParity(Numbers.self, #"{"u8":1,"f":1,"d":1,"big":1}"#)
    expectParity(Numbers.self, #"{"i":1,"u8":1,"f":1,"d":1,"big":1,"opt":null}"#)
    expectParity(Numbers.self, #"{"i":1,"u8":1,"f":1,"d":1,"big":1,"opt":3}"#)
    expectParity(Numbers.self, #"{"i":null,"u8":1,"f":1,"d":1,"big":1}"#)
    expectParity([Int].self, "[1,2,3e0,-0]")
    // A number beyond Double's range is an error, not infinity (a fuzzer find).
    expectParity([Double].self, "[1e400]")
    expectParity([Double].self, "[-1.7e2800000000000056]")
    expectParity([Date].self, "[1e400]") { ours, foundation in
      ours.dateDecodingStrategy = .millisecondsSince1970
      foundation.dateDecodingStrategy = .millisecondsSince1970
    }
    expectParity([Double].self, #"[1,"Infinity"]"#) { ours, foundation in
      ours.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
      foundation.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    }
  }

  @Test("a nonzero number too small for the type does not decode, as with JSONDecoder")
  func underflow() throws {
    // It would round to zero; JSONDecoder refuses it, and so do we, naming the value. Zero
    // written with any exponent, and the smallest subnormals, still decode.
    for (text, index) in [("[1e-400,0]", 0), ("[0,-1e-400]", 1)] {
      let error = try #require(throws: DecodingError.self) {
        try JSONStreamDecoder().decode([Double].self, from: Array(text.utf8))
      }
      guard case .dataCorrupted(let context) = error else { throw error }
      #expect(context.codingPath.map(\.intValue) == [index])
      #expect(context.debugDescription.contains("does not fit in Double"))
    }
    #expect(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Float.self, from: Array("1e-46".utf8))
    }
    let zeros = try JSONStreamDecoder().decode(
      [Double].self, from: Array("[0e-999,-0.0e-5,4.9e-324]".utf8))
    #expect(zeros == [0, 0, .leastNonzeroMagnitude] && zeros[1].sign == .minus)
  }

  struct Profile: Codable, Equatable {
    var firstName: String
    var lastLoginAt: Date
    var avatar: Data
    var homePage: URL
    var balance: Decimal
    var tags: [String: [Int]]
  }

  @Test("keys from snake_case, dates, data, URLs, decimals, dictionaries")
  func strategies() {
    let text = #"""
      {"first_name":"Zoë","last_login_at":1700000000.5,"avatar":"AAEC/w==",
       "home_page":"https://example.com/z","balance":12.345,"tags":{"a":[1],"b":[]}}
      """#
    expectParity(Profile.self, text) { ours, foundation in
      ours.keyDecodingStrategy = .convertFromSnakeCase
      foundation.keyDecodingStrategy = .convertFromSnakeCase
      ours.dateDecodingStrategy = .secondsSince1970
      foundation.dateDecodingStrategy = .secondsSince1970
    }
    expectParity(Profile.self, text) { ours, foundation in
      ours.dateDecodingStrategy = .secondsSince1970
      foundation.dateDecodingStrategy = .secondsSince1970
    }
    expectParity(Profile.self, text.replacingOccurrences(of: "AAEC/w==", with: "not base64")) {
      ours, foundation in
      ours.keyDecodingStrategy = .convertFromSnakeCase
      foundation.keyDecodingStrategy = .convertFromSnakeCase
      ours.dateDecodingStrategy = .millisecondsSince1970
      foundation.dateDecodingStrategy = .millisecondsSince1970
    }
    expectParity([String: Int].self, #"{"a":1,"b":2}"#)
    // A repeated key: the first value wins, as in Foundation.
    expectParity([String: Int].self, #"{"a":1,"b":2,"a":3}"#)
    expectParity(Numbers.self, #"{"i":1,"u8":1,"f":1,"d":1,"big":1,"i":2}"#)
    // Dictionary keys are data, not coding keys: no strategy converts them.
    expectParity([String: [String: Int]].self, #"{"a_b":{"c_d":1},"_x_":{}}"#) {
      ours, foundation in
      ours.keyDecodingStrategy = .convertFromSnakeCase
      foundation.keyDecodingStrategy = .convertFromSnakeCase
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    for text in [#"["2026-11-21 09:30"]"#, #"["21.11.2026"]"#, "[1]"] {
      expectParity([Date].self, text) { ours, foundation in
        ours.dateDecodingStrategy = .formatted(formatter)
        foundation.dateDecodingStrategy = .formatted(formatter)
      }
    }
    expectParity([Int].self, #"{"a":1}"#)
    expectParity(Int.self, "[1")
  }

  @Test("bad input is dataCorrupted, with the parse error's line and column")
  func badInput() throws {
    let error = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode([Int].self, from: Data("[1,\n x]".utf8))
    }
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(error)")
      return
    }
    #expect(context.debugDescription.contains("line 2, column 2"))
    #expect(context.underlyingError is JSONParseError)
  }

  /// The error's debug description ends with the position of the value it is about.
  func position(_ error: any Error) -> String? {
    let context: DecodingError.Context
    switch error as? DecodingError {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c),
      .dataCorrupted(let c):
      context = c
    default: return nil
    }
    guard let start = context.debugDescription.range(of: " (line ", options: .backwards) else {
      return nil
    }
    return "line " + context.debugDescription[start.upperBound...].dropLast()
  }

  func decodingError<T: Decodable>(
    _ type: T.Type, _ text: String, _ configure: (JSONStreamDecoder) -> Void = { _ in }
  ) -> any Error {
    let decoder = JSONStreamDecoder()
    configure(decoder)
    do {
      _ = try decoder.decode(type, from: Data(text.utf8))
    } catch {
      return error
    }
    Issue.record("decoded without an error")
    return CancellationError()
  }

  struct Item: Decodable {
    var id: Int
    var itemName: String
  }
  struct Wrapper: Decodable { var items: [Item] }

  @Test("decoding errors give the input position of the value: line, column, offset")
  func errorPositions() throws {
    let text = """
      {
        "items": [
          {"id": 1, "itemName": "a"},
          {"id": "two", "itemName": "b"},
          {"id": 3}
        ]
      }
      """
    let offset = { (needle: String) in
      text.utf8.count - text.components(separatedBy: needle).last!.utf8.count - needle.utf8.count
    }
    // The value of the wrong type.
    #expect(
      position(decodingError(Wrapper.self, text))
        == "line 4, column 12, offset \(offset(#""two""#))")
    // A missing key: the object that lacks it.
    let missing = text.replacingOccurrences(of: #""id": "two""#, with: #""id": 2"#)
    #expect(
      position(decodingError(Wrapper.self, missing))
        == "line 5, column 5, offset \(missing.utf8.count - 15)")
    // Nested arrays, a dictionary, the top level, null, keys under a strategy.
    #expect(
      position(decodingError([[Int]].self, "[[1,2],\n [3, \"x\"]]"))
        == "line 2, column 6, offset 13")
    #expect(
      position(decodingError([[Int]].self, "[[1,2],\n [3, null]]")) == "line 2, column 6, offset 13"
    )
    #expect(
      position(decodingError([String: Int].self, #"{"a": 1, "b": "x"}"#))
        == "line 1, column 15, offset 14")
    #expect(position(decodingError(Int.self, "  \"str\"")) == "line 1, column 3, offset 2")
    #expect(
      position(
        decodingError(Wrapper.self, #"{"items": [{"id": 1, "item_name": 5}]}"#) {
          $0.keyDecodingStrategy = .convertFromSnakeCase
        }) == "line 1, column 35, offset 34")
    // Past the end of an array: where its end is.
    #expect(position(decodingError(Pair.self, "[1]")) == "line 1, column 3, offset 2")
    // Characters, not bytes, count in columns.
    #expect(
      position(decodingError([String: Int].self, #"{"é": "x"}"#)) == "line 1, column 7, offset 7")
  }

  struct Pair: Decodable {
    var a: Int
    var b: Int
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      a = try container.decode(Int.self)
      b = try container.decode(Int.self)
    }
  }

  struct Stamped: Codable, Equatable {
    var at: Date
    var blob: Data
    var userName: String
    enum CodingKeys: String, CodingKey {
      case at, blob
      case userName = "user_name"
    }
  }

  @Test("every date and data strategy, custom keys and userInfo, as Foundation reads them")
  func allStrategies() {
    let text = #"{"at":1700000000.5,"blob":[1,2,3],"user_name":"z"}"#
    let seconds: @Sendable (any Decoder) throws -> Date = { decoder in
      Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) + 1)
    }
    let bytes: @Sendable (any Decoder) throws -> Data = { decoder in
      var container = try decoder.unkeyedContainer()
      var data = Data()
      while !container.isAtEnd { data.append(try container.decode(UInt8.self) &* 2) }
      return data
    }
    let upper: @Sendable ([any CodingKey]) -> any CodingKey = {
      EncoderTests.AnyKey(stringValue: $0.last!.stringValue.uppercased())!
    }
    let dates: [(JSONStreamDecoder.DateDecodingStrategy, JSONDecoder.DateDecodingStrategy)] = [
      (.deferredToDate, .deferredToDate), (.secondsSince1970, .secondsSince1970),
      (.millisecondsSince1970, .millisecondsSince1970), (.custom(seconds), .custom(seconds)),
    ]
    for (ours, theirs) in dates {
      expectParity(Stamped.self, text) {
        $0.dateDecodingStrategy = ours
        $1.dateDecodingStrategy = theirs
        $0.dataDecodingStrategy = .deferredToData
        $1.dataDecodingStrategy = .deferredToData
      }
    }
    expectParity(Stamped.self, text) {
      $0.dataDecodingStrategy = .custom(bytes)
      $1.dataDecodingStrategy = .custom(bytes)
    }
    expectParity(Stamped.self, text.replacingOccurrences(of: "[1,2,3]", with: #""AQID""#)) { _, _ in
    }
    // A custom key strategy sees each member's key last in the path.
    expectParity([String: Int].self, #"{"a":1}"#) {
      $0.keyDecodingStrategy = .custom(upper)
      $1.keyDecodingStrategy = .custom(upper)
    }
    struct Upper: Codable, Equatable {
      var a: Int
      enum CodingKeys: String, CodingKey { case a = "A" }
    }
    expectParity(Upper.self, #"{"a":1}"#) {
      $0.keyDecodingStrategy = .custom(upper)
      $1.keyDecodingStrategy = .custom(upper)
    }
  }

  struct Probe: Decodable {
    var flag: String
    init(from decoder: any Decoder) throws {
      flag = decoder.userInfo[DecoderTests.flag] as? String ?? "none"
      _ = try decoder.singleValueContainer().decode(Int.self)
    }
  }
  static let flag = CodingUserInfoKey(rawValue: "flag")!

  @Test("userInfo reaches init(from:)")
  func userInfo() throws {
    let decoder = JSONStreamDecoder()
    decoder.userInfo[Self.flag] = "on"
    #expect(try decoder.decode(Probe.self, from: Data("1".utf8)).flag == "on")
  }

  @Test("one decoder and one encoder shared by many tasks at once")
  func concurrentUse() async throws {
    let decoder = JSONStreamDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let encoder = JSONStreamEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = .sortedKeys
    let shared = (decoder, encoder)
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<16 {
        group.addTask {
          for round in 0..<200 {
            let order = EncoderTests.Order.Item(
              sku: "sku-\(task)-\(round)", quantity: round, price: 1.5)
            let data = try shared.1.encode(order)
            guard try shared.0.decode(EncoderTests.Order.Item.self, from: data) == order else {
              return false
            }
          }
          return true
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }
}
