import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

/// The same models and inputs through Foundation's coders on this machine and through ours:
/// the same values, the same output bytes (keys sorted), and the same failures at the same
/// coding paths. Each case is a behaviour a user switching from Foundation relies on.
@Suite("Codable parity with Foundation's JSONDecoder and JSONEncoder")
struct CoderParityTests {
  // MARK: Models

  class Animal: Codable, Equatable {
    var name: String
    init(name: String) { self.name = name }
    static func == (a: Animal, b: Animal) -> Bool { type(of: a) == type(of: b) && a.name == b.name }
  }

  final class Dog: Animal {
    var barks: Bool
    enum Keys: CodingKey { case barks }
    init(name: String, barks: Bool) {
      self.barks = barks
      super.init(name: name)
    }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      barks = try container.decode(Bool.self, forKey: .barks)
      try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(barks, forKey: .barks)
      try super.encode(to: container.superEncoder())
    }
  }

  enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case point
  }

  struct Order: Codable, Equatable {
    var orderID: Int
    var placedAt: Date
    var customerName: String
    var lines: [Line]
    var note: String?
    var attachment: Data?
    struct Line: Codable, Equatable {
      var sku: String
      var unitPrice: Double
      var quantity: UInt8
    }
  }

  struct Numbers: Codable, Equatable {
    var i8: Int8
    var u16: UInt16
    var i64: Int64
    var u64: UInt64
    var float: Float
    var double: Double
  }

  /// The subset of both coders' strategies a case sets.
  struct Setup {
    var dates = Dates.deferred
    var snakeCase = false
    var dataDeferred = false
    var nonConforming = false

    enum Dates {
      case deferred, seconds, milliseconds, iso8601, formatted, custom
    }

    static let formatter: DateFormatter = {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(secondsFromGMT: 0)
      formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
      return formatter
    }()

    func foundationDecoder() -> JSONDecoder {
      let decoder = JSONDecoder()
      switch dates {
      case .deferred: decoder.dateDecodingStrategy = .deferredToDate
      case .seconds: decoder.dateDecodingStrategy = .secondsSince1970
      case .milliseconds: decoder.dateDecodingStrategy = .millisecondsSince1970
      case .iso8601: decoder.dateDecodingStrategy = .iso8601
      case .formatted: decoder.dateDecodingStrategy = .formatted(Self.formatter)
      case .custom:
        decoder.dateDecodingStrategy = .custom {
          Date(timeIntervalSince1970: try $0.singleValueContainer().decode(Double.self) * 60)
        }
      }
      if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
      if dataDeferred { decoder.dataDecodingStrategy = .deferredToData }
      if nonConforming {
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
          positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
      }
      return decoder
    }

    func ourDecoder() -> JSONStreamDecoder {
      let decoder = JSONStreamDecoder()
      switch dates {
      case .deferred: decoder.dateDecodingStrategy = .deferredToDate
      case .seconds: decoder.dateDecodingStrategy = .secondsSince1970
      case .milliseconds: decoder.dateDecodingStrategy = .millisecondsSince1970
      case .iso8601: decoder.dateDecodingStrategy = .iso8601
      case .formatted: decoder.dateDecodingStrategy = .formatted(Self.formatter)
      case .custom:
        decoder.dateDecodingStrategy = .custom {
          Date(timeIntervalSince1970: try $0.singleValueContainer().decode(Double.self) * 60)
        }
      }
      if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
      if dataDeferred { decoder.dataDecodingStrategy = .deferredToData }
      if nonConforming {
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
          positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
      }
      return decoder
    }

    func foundationEncoder() -> JSONEncoder {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      switch dates {
      case .deferred: encoder.dateEncodingStrategy = .deferredToDate
      case .seconds: encoder.dateEncodingStrategy = .secondsSince1970
      case .milliseconds: encoder.dateEncodingStrategy = .millisecondsSince1970
      case .iso8601: encoder.dateEncodingStrategy = .iso8601
      case .formatted: encoder.dateEncodingStrategy = .formatted(Self.formatter)
      case .custom:
        encoder.dateEncodingStrategy = .custom { date, encoder in
          var container = encoder.singleValueContainer()
          try container.encode(date.timeIntervalSince1970 / 60)
        }
      }
      if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
      if dataDeferred { encoder.dataEncodingStrategy = .deferredToData }
      if nonConforming {
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
          positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
      }
      return encoder
    }

    func ourEncoder() -> JSONStreamEncoder {
      let encoder = JSONStreamEncoder()
      encoder.outputFormatting = .sortedKeys
      switch dates {
      case .deferred: encoder.dateEncodingStrategy = .deferredToDate
      case .seconds: encoder.dateEncodingStrategy = .secondsSince1970
      case .milliseconds: encoder.dateEncodingStrategy = .millisecondsSince1970
      case .iso8601: encoder.dateEncodingStrategy = .iso8601
      case .formatted: encoder.dateEncodingStrategy = .formatted(Self.formatter)
      case .custom:
        encoder.dateEncodingStrategy = .custom { date, encoder in
          var container = encoder.singleValueContainer()
          try container.encode(date.timeIntervalSince1970 / 60)
        }
      }
      if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
      if dataDeferred { encoder.dataEncodingStrategy = .deferredToData }
      if nonConforming {
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
          positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
      }
      return encoder
    }
  }

  // MARK: Comparison

  /// What a decode gave: the value, or the error's case and coding path.
  enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T)
    case failure(kind: String, path: String)

    init(_ body: () throws -> T) {
      do {
        self = .value(try body())
      } catch let error as DecodingError {
        self = Self.failure(error)
      } catch let error as EncodingError {
        switch error {
        case .invalidValue(_, let context):
          self = .failure(kind: "invalidValue", path: Self.path(context.codingPath))
        @unknown default: self = .failure(kind: "\(error)", path: "")
        }
      } catch {
        self = .failure(kind: "\(type(of: error))", path: "")
      }
    }

    static func failure(_ error: DecodingError) -> Outcome {
      switch error {
      case .typeMismatch(_, let context):
        return .failure(kind: "typeMismatch", path: path(context.codingPath))
      case .valueNotFound(_, let context):
        return .failure(kind: "valueNotFound", path: path(context.codingPath))
      case .keyNotFound(let key, let context):
        return .failure(kind: "keyNotFound", path: path(context.codingPath + [key]))
      case .dataCorrupted(let context):
        return .failure(kind: "dataCorrupted", path: path(context.codingPath))
      @unknown default: return .failure(kind: "\(error)", path: "")
      }
    }

    static func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    var description: String {
      switch self {
      case .value(let value): return "\(value)"
      case .failure(let kind, let path): return "\(kind) at '\(path)'"
      }
    }
  }

  /// Decodes `text` as a `T` with both decoders under `setup`. With `foundationPathStopsShort`,
  /// a failure of the same kind may have a longer path in ours: for out-of-range numbers and
  /// malformed dates, Foundation's error names no coding path, ours the value's.
  func decodeBoth<T: Decodable & Equatable>(
    _ type: T.Type, _ data: Data, _ setup: Setup = Setup(), foundationPathStopsShort: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let theirs = Outcome { try setup.foundationDecoder().decode(type, from: data) }
    let ours = Outcome { try setup.ourDecoder().decode(type, from: data) }
    if foundationPathStopsShort, case .failure(let kind, _) = ours, case .failure(kind, "") = theirs
    {
      return
    }
    #expect(
      ours == theirs, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
  }

  func decodeBoth<T: Decodable & Equatable>(
    _ type: T.Type, _ text: String, _ setup: Setup = Setup(),
    foundationPathStopsShort: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    decodeBoth(
      type, Data(text.utf8), setup, foundationPathStopsShort: foundationPathStopsShort,
      sourceLocation: sourceLocation)
  }

  /// Encodes `value` with both encoders under `setup`, keys sorted: the same bytes, or the
  /// same failure.
  func encodeBoth<T: Encodable>(
    _ value: T, _ setup: Setup = Setup(), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let theirs = Outcome {
      String(decoding: try setup.foundationEncoder().encode(value), as: UTF8.self)
    }
    let ours = Outcome { String(decoding: try setup.ourEncoder().encode(value), as: UTF8.self) }
    #expect(ours == theirs, sourceLocation: sourceLocation)
  }

  static let order = Order(
    orderID: 7, placedAt: Date(timeIntervalSince1970: 1_790_000_000.25),
    customerName: "Ada / \"Lovelace\" \\ 日本語 https://example.com/a/b\n",
    lines: [
      Order.Line(sku: "A-1", unitPrice: 9.99, quantity: 3),
      Order.Line(sku: "B-2", unitPrice: 0.1, quantity: 255),
    ], note: nil, attachment: Data([0, 1, 2, 250]))

  // MARK: Cases

  @Test("every date, key and data strategy: the same text out, the same value back")
  func strategies() throws {
    for dates in [Setup.Dates.deferred, .seconds, .milliseconds, .iso8601, .formatted, .custom] {
      for snakeCase in [false, true] {
        var setup = Setup(dates: dates, snakeCase: snakeCase, dataDeferred: snakeCase)
        var order = Self.order
        if dates == .iso8601 || dates == .formatted {
          // Whole seconds: what these formats write is what they read back.
          order.placedAt = Date(timeIntervalSince1970: 1_790_000_000)
        }
        encodeBoth(order, setup)
        let text = try setup.foundationEncoder().encode(order)
        decodeBoth(Order.self, text, setup)
        setup.nonConforming = true
        encodeBoth([Double.infinity, -.infinity, 1.5], setup)
        decodeBoth([Double].self, #"["+inf", "-inf", 2.5]"#, setup)
      }
    }
  }

  @Test("ISO 8601 with fractional seconds reads as Foundation reads it")
  func iso8601Fractions() {
    let setup = Setup(dates: .iso8601)
    for text in [
      #"["2026-11-02T08:15:56.789Z"]"#, #"["2026-11-02T08:15:56Z"]"#,
      #"["2026-11-02T08:15:56+05:30"]"#,
      #"["2026-11-02 08:15:56Z"]"#, #"["not a date"]"#,
    ] {
      decodeBoth([Date].self, text, setup, foundationPathStopsShort: true)
    }
  }

  struct TwoSuperEncoders: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: KeyedBody.AnyKey.self)
      try [1, 2].encode(to: container.superEncoder(forKey: .init("first")))
      try "x".encode(to: container.superEncoder(forKey: .init("second")))
      try 3.encode(to: container.superEncoder())
    }
  }

  @Test("several super encoders in one container, and a custom key strategy")
  func superEncodersAndCustomKeys() throws {
    encodeBoth(TwoSuperEncoders())
    struct Pair: Codable, Equatable {
      var leftValue: Int
      var rightValue: String
    }
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    foundation.keyEncodingStrategy = .custom { path in
      KeyedBody.AnyKey(path.last!.stringValue.uppercased())
    }
    let ours = JSONStreamEncoder()
    ours.outputFormatting = .sortedKeys
    ours.keyEncodingStrategy = .custom { path in
      KeyedBody.AnyKey(path.last!.stringValue.uppercased())
    }
    let pairs = [Pair(leftValue: 1, rightValue: "r")]
    let text = try foundation.encode(pairs)
    #expect(try ours.encode(pairs) == text)
    let foundationDecoder = JSONDecoder()
    foundationDecoder.keyDecodingStrategy = .custom { path in
      KeyedBody.AnyKey(path.last!.stringValue == "LEFTVALUE" ? "leftValue" : "rightValue")
    }
    let ourDecoder = JSONStreamDecoder()
    ourDecoder.keyDecodingStrategy = .custom { path in
      KeyedBody.AnyKey(path.last!.stringValue == "LEFTVALUE" ? "leftValue" : "rightValue")
    }
    #expect(
      try ourDecoder.decode([Pair].self, from: text)
        == foundationDecoder.decode([Pair].self, from: text))
  }

  @Test("a subclass's metatype passed as its superclass's decodes the subclass")
  func metatypes() throws {
    let text = #"{"barks":false,"super":{"name":"Rex"}}"#
    let animalType: Animal.Type = Dog.self
    let theirs = try JSONDecoder().decode(animalType, from: Data(text.utf8))
    let ours = try JSONStreamDecoder().decode(animalType, from: Data(text.utf8))
    #expect(type(of: theirs) == Dog.self)
    #expect(ours == theirs)
    encodeBoth(Dog(name: "Rex", barks: true))
    encodeBoth([Dog(name: "Rex", barks: true) as Animal, Animal(name: "Tom")])
  }

  @Test("super decoders and encoders, enum payloads, nested containers")
  func containers() {
    decodeBoth(
      [Shape].self, #"[{"circle":{"radius":2}},{"rectangle":{"width":1,"height":3}},{"point":{}}]"#)
    encodeBoth([Shape.circle(radius: 2), .rectangle(width: 1, height: 3), .point])
    // Malformed payloads fail alike, at the same path.
    decodeBoth([Shape].self, #"[{"circle":{"radius":"2"}}]"#)
    decodeBoth([Shape].self, #"[{"circle":{}}]"#)
    decodeBoth([Shape].self, #"[{"square":{}}]"#)
  }

  @Test("numbers at the edges of every width, and beyond them")
  func numbers() {
    decodeBoth(
      Numbers.self,
      #"{"i8":-128,"u16":65535,"i64":-9223372036854775808,"u64":18446744073709551615,"float":3.4028235e38,"double":1e-320}"#
    )
    for text in [
      "128", "-129", "1.5", "1e2", "1E2", "-0", "1e400", "1e-400", "2.01e-1234", "true", "\"1\"",
      "null",
    ] {
      decodeBoth(Float.self, text)
      decodeBoth(Double.self, text)
      if text.contains("e-") { continue }  // below
      decodeBoth(Int8.self, text, foundationPathStopsShort: true)
      decodeBoth(UInt64.self, text, foundationPathStopsShort: true)
    }
    decodeBoth(Float.self, "1e-46")
    decodeBoth(Double.self, "3e-324")
    decodeBoth(Int64.self, "9223372036854775808")
    encodeBoth(Numbers(i8: -128, u16: 65535, i64: .min, u64: .max, float: 0.1, double: 0.1))
  }

  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  struct Wide: Codable, Equatable {
    var signed: Int128
    var unsigned: UInt128
    var list: [Int128]
  }

  @Test("128-bit integers, read and written")
  func wideIntegers() {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
    encodeBoth(Wide(signed: .min, unsigned: .max, list: [1, -2, 1 << 64, Int128.max]))
    decodeBoth(
      Wide.self,
      #"{"signed":-170141183460469231731687303715884105728,"unsigned":340282366920938463463374607431768211455,"list":[1e3,1.0,-18446744073709551616]}"#
    )
    for text in [
      "170141183460469231731687303715884105728", "1.5", "-1", "1e40", "0.5e1", "\"1\"",
      "1e9223372036854775807", "0e99999999999999999999",
    ] {
      decodeBoth(Int128.self, text)
      decodeBoth(UInt128.self, text)
    }
    // A tiny nonzero number is no integer (Foundation reads it as 0, through Double; see the
    // known differences), whatever its exponent.
    #expect(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Int128.self, from: Data("1.0e-9223372036854775808".utf8))
    }
  }

  @Test("UTF-8 with a byte order mark, UTF-16 and UTF-32 of either byte order")
  func inputEncodings() {
    let text = #"{"name":"Zoë 🐕","list":[1,2]}"#
    struct Doc: Codable, Equatable {
      var name: String
      var list: [Int]
    }
    var inputs = [Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)]
    for encoding: String.Encoding in [
      .utf16BigEndian, .utf16LittleEndian, .utf16, .utf32BigEndian, .utf32LittleEndian,
    ] {
      inputs.append(text.data(using: encoding)!)
    }
    for input in inputs { decodeBoth(Doc.self, input) }
    // A lone surrogate is refused by both.
    decodeBoth(Doc.self, Data([0x00, 0x22, 0xD8, 0x00, 0x00, 0x22]))
  }

  @Test("errors in UTF-16 and UTF-32 input are at the input's byte offset, line and column")
  func positionsInConvertedInput() throws {
    let text = "[\"é日\", x]"  // `x` is the 8th character
    for (encoding, unit, mark) in [
      (String.Encoding.utf16LittleEndian, 2, 0), (.utf16BigEndian, 2, 0),
      (.utf32LittleEndian, 4, 0),
      (.utf16, 2, 2),
    ] {
      let data = try #require(text.data(using: encoding))
      let error = try #require(throws: DecodingError.self) {
        try JSONStreamDecoder().decode([String].self, from: data)
      }
      guard case .dataCorrupted(let context) = error,
        let parse = context.underlyingError as? JSONParseError
      else { throw error }
      // A byte order mark counts as the first column, as in UTF-8.
      #expect(
        parse.offset == mark + 7 * unit && parse.line == 1 && parse.column == (mark > 0 ? 9 : 8),
        "\(encoding)")
    }
    // An ill-formed unit: a lone high surrogate in UTF-16BE, at its byte.
    let lone = Data([0x00, 0x5B, 0x00, 0x22, 0xD8, 0x3D, 0x00, 0x22, 0x00, 0x5D])
    let error = try #require(throws: DecodingError.self) {
      try JSONStreamDecoder().decode([String].self, from: lone)
    }
    guard case .dataCorrupted(let context) = error,
      let parse = context.underlyingError as? JSONParseError
    else { throw error }
    #expect(parse.kind == .invalidUTF8 && parse.offset == 4 && parse.column == 3)
  }

  @Test("a UTF-32 byte order mark, which Foundation's decoder refuses, is read")
  func utf32ByteOrderMark() throws {
    let data = Data([0xFF, 0xFE, 0, 0]) + "[1]".data(using: .utf32LittleEndian)!
    #expect(try JSONStreamDecoder().decode([Int].self, from: data) == [1])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Int].self, from: data) }
  }

  @Test("a repeated key in the input: the first value wins in both")
  func duplicateKeysDecoding() {
    decodeBoth([String: Int].self, #"{"a":1,"a":2}"#)
  }

  @Test("a custom date or data strategy that encodes nothing writes {}, at the top too")
  func customStrategyWritingNothing() throws {
    let foundation = JSONEncoder()
    foundation.dateEncodingStrategy = .custom { _, _ in }
    foundation.dataEncodingStrategy = .custom { _, _ in }
    let ours = JSONStreamEncoder()
    ours.dateEncodingStrategy = .custom { _, _ in }
    ours.dataEncodingStrategy = .custom { _, _ in }
    for value in [Date() as any Encodable, [Date()], Data([1]), ["k": Data([1])]] {
      #expect(try ours.encode(value) == foundation.encode(value))
    }
  }

  @Test("assumesTopLevelDictionary reads members without braces")
  func topLevelDictionary() throws {
    for text in [#""a":1,"b":2"#, #"{"a":1}"#, "", "  ", #""a":1 "b":2"#, #""a":1}"#, "[1]"] {
      let foundation = JSONDecoder()
      foundation.assumesTopLevelDictionary = true
      let ours = JSONStreamDecoder()
      ours.assumesTopLevelDictionary = true
      let theirs = Outcome { try foundation.decode([String: Int].self, from: Data(text.utf8)) }
      let mine = Outcome { try ours.decode([String: Int].self, from: Data(text.utf8)) }
      #expect(mine == theirs, "\(text)")
    }
    let decoder = JSONStreamDecoder()
    decoder.assumesTopLevelDictionary = true
    // A missing key is placed at the input's start, not at the added brace before it.
    struct Two: Decodable {
      var a: Int
      var b: Int
    }
    let missing = try #require(throws: DecodingError.self) {
      try decoder.decode(Two.self, from: Data(#""a": 1"#.utf8))
    }
    guard case .keyNotFound(_, let missingContext) = missing else { throw missing }
    #expect(missingContext.debugDescription.contains("line 1, column 1, offset 0"))
    // Positions count in the input, not in the braced text.
    let error = try #require(throws: DecodingError.self) {
      try decoder.decode([String: Int].self, from: Data(#""a":1,"b" 2"#.utf8))
    }
    guard case .dataCorrupted(let context) = error else { throw error }
    #expect(context.debugDescription.contains("line 1, column 11"), "\(context.debugDescription)")
  }

  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  struct Scaled: DecodableWithConfiguration, EncodableWithConfiguration, Equatable {
    var value: Double
    init(value: Double) { self.value = value }
    init(from decoder: any Decoder, configuration: Double) throws {
      value = try decoder.singleValueContainer().decode(Double.self) * configuration
    }
    func encode(to encoder: any Encoder, configuration: Double) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value / configuration)
    }
    enum Hundred: DecodingConfigurationProviding, EncodingConfigurationProviding {
      static var decodingConfiguration: Double { 100 }
      static var encodingConfiguration: Double { 100 }
    }
  }

  @Test("decode(_:from:configuration:) and encode(_:configuration:)")
  func configurations() throws {
    guard #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) else { return }
    let data = Data("2.5".utf8)
    #expect(
      try JSONStreamDecoder().decode(Scaled.self, from: data, configuration: 10)
        == JSONDecoder().decode(Scaled.self, from: data, configuration: 10))
    #expect(
      try JSONStreamDecoder().decode(Scaled.self, from: data, configuration: Scaled.Hundred.self)
        == JSONDecoder().decode(Scaled.self, from: data, configuration: Scaled.Hundred.self))
    let value = Scaled(value: 50)
    #expect(
      try JSONStreamEncoder().encode(value, configuration: 4)
        == JSONEncoder().encode(value, configuration: 4))
    #expect(
      try JSONStreamEncoder().encode(value, configuration: Scaled.Hundred.self)
        == JSONEncoder().encode(value, configuration: Scaled.Hundred.self))
  }

  @Test("errors at the same coding path, deep in arrays and objects")
  func errorPaths() {
    decodeBoth(
      Order.self,
      #"{"orderID":1,"placedAt":0,"customerName":"A","lines":[{"sku":"x","unitPrice":1,"quantity":300}]}"#,
      foundationPathStopsShort: true)
    // Ours names the value that does not fit.
    #expect(
      Outcome {
        try JSONStreamDecoder().decode(
          Order.self,
          from: Data(
            #"{"orderID":1,"placedAt":0,"customerName":"A","lines":[{"sku":"x","unitPrice":1,"quantity":300}]}"#
              .utf8))
      } == .failure(kind: "dataCorrupted", path: "lines.0.quantity"))
    decodeBoth(
      Order.self,
      #"{"orderID":1,"placedAt":0,"customerName":"A","lines":[{"sku":"x","unitPrice":1}]}"#)
    decodeBoth(Order.self, #"{"orderID":1,"placedAt":0,"customerName":null,"lines":[]}"#)
    decodeBoth(Order.self, #"{"orderID":1,"placedAt":"x","customerName":"A","lines":[]}"#)
    decodeBoth(
      Order.self, #"{"orderID":1,"placedAt":0,"customerName":"A","lines":[],"attachment":"***"}"#)
  }

  // MARK: Known differences (see the table in the decoder's documentation)

  @Test("a tiny nonzero number is not an integer: Foundation reads 1e-400 as 0")
  func tinyNumbersAsIntegers() throws {
    for text in ["1e-400", "2.01e-1234"] {
      #expect(try JSONDecoder().decode(Int8.self, from: Data(text.utf8)) == 0)
      #expect(throws: DecodingError.self) {
        try JSONStreamDecoder().decode(Int8.self, from: Data(text.utf8))
      }
    }
  }

  /// Encodes with `body` into a keyed container of string keys.
  struct KeyedBody: Encodable {
    let body: @Sendable (inout KeyedEncodingContainer<AnyKey>) throws -> Void
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      try body(&container)
    }
    struct AnyKey: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(_ string: String) { stringValue = string }
      init?(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
  }
  typealias K = KeyedBody.AnyKey

  @Test("one key encoded twice: the last value wins; containers asked for again merge")
  func repeatedKeysEncoding() {
    // Every case is Foundation's own output, member order included.
    encodeBoth(
      KeyedBody { container in
        try container.encode(0, forKey: K("key"))
        try container.encode(1, forKey: K("b"))
        try container.encode(42, forKey: K("key"))
      })
    encodeBoth(
      KeyedBody { container in
        var first = container.nestedContainer(keyedBy: K.self, forKey: K("n"))
        try first.encode(1, forKey: K("x"))
        try container.encode(2, forKey: K("m"))
        var second = container.nestedContainer(keyedBy: K.self, forKey: K("n"))
        try second.encode(3, forKey: K("y"))
        var list = container.nestedUnkeyedContainer(forKey: K("u"))
        try list.encode(1)
        var again = container.nestedUnkeyedContainer(forKey: K("u"))
        try again.encode(2)
      })
    // A value's container asked for again under its key: added to.
    encodeBoth(
      KeyedBody { container in
        try container.encode([1, 2], forKey: K("p"))
        var list = container.nestedUnkeyedContainer(forKey: K("p"))
        try list.encode(3)
        try container.encode(["a": 1], forKey: K("q"))
        var object = container.nestedContainer(keyedBy: K.self, forKey: K("q"))
        try object.encode(3, forKey: K("b"))
      })
    // A whole value again, or a value after a nested container: replaced.
    encodeBoth(
      KeyedBody { container in
        try container.encode(["x": 1], forKey: K("t"))
        try container.encode(["y": 1], forKey: K("t"))
        var object = container.nestedContainer(keyedBy: K.self, forKey: K("v"))
        try object.encode(1, forKey: K("x"))
        try container.encode(9, forKey: K("v"))
      })
    // Deeper (the parity cases sort keys).
    encodeBoth(
      [
        KeyedBody { container in
          var object = container.nestedContainer(keyedBy: K.self, forKey: K("o"))
          try object.encode("a", forKey: K("s"))
          try object.encode("b", forKey: K("s"))
          try container.encode(1.5, forKey: K("d"))
        }
      ])
  }

  @Test("one key encoded twice: the value tree and the binary output")
  func repeatedKeysOtherOutputs() throws {
    let value = KeyedBody { container in
      try container.encode(0, forKey: K("key"))
      try container.encode(Float(0.1), forKey: K("f"))
      try container.encode(42, forKey: K("key"))
    }
    let tree = try JSONStreamEncoder().encodeToValue(value)
    #expect(tree == ["f": 0.1, "key": 42])
    #expect(
      String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
        == #"{"f":0.1,"key":42}"#)
    #expect(throws: EncodingError.self) { try JSONStreamEncoder().encodeBinary(value) }
    // The signal caught by the value's own code does not let the repeat through.
    let swallowing = KeyedBody { container in
      try container.encode(0, forKey: K("key"))
      try? container.encode(42, forKey: K("key"))
    }
    #expect(
      String(decoding: try JSONStreamEncoder().encode(swallowing), as: UTF8.self) == #"{"key":42}"#)
  }

  /// Objects nested `depth` deep, each with a member "k" written twice and one "d" holding
  /// the next.
  struct Nest: Encodable {
    let depth: Int
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: K.self)
      try container.encode(0, forKey: K("k"))
      if depth > 0 { try container.encode(Nest(depth: depth - 1), forKey: K("d")) }
      try container.encode(depth, forKey: K("k"))
    }
  }

  @Test("a key repeated at every level of a deep nest")
  func repeatedKeysDeep() throws {
    // Deeper than the key check's first allocation, which then grows.
    encodeBoth(Nest(depth: 40))
    var expected: JSONValue = ["k": 0]
    for depth in 1...40 { expected = ["d": expected, "k": .number(JSONValue.Number(depth))] }
    #expect(try JSONStreamEncoder().encodeToValue(Nest(depth: 40)) == expected)
  }

  /// Writes `keys` in turn, each with its position as the value.
  struct Keys: Encodable {
    let keys: [String]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: K.self)
      for (index, key) in keys.enumerated() { try container.encode(index, forKey: K(key)) }
    }
  }

  @Test("a repeat is found in any value of a type, whatever its keys' order and number")
  func repeatedKeysManyValues() throws {
    // The first value of a type teaches its key order; later ones are checked against it:
    // the same keys, keys left out, new keys, keys in another order, and more than 64.
    let wide = (0..<70).map { "k\($0)" }
    let cases: [[String]] = [
      ["a", "b", "c"], ["a", "c"], ["a", "b", "c", "d"], ["d", "c", "b", "a"], ["b", "e"],
      wide, wide.reversed(), ["a"] + wide,
    ]
    for repeated in cases.indices {
      for at in cases[repeated].indices {
        var values = cases.map(Keys.init)
        // The value at `repeated` writes its key at `at` again, last.
        values[repeated] = Keys(keys: cases[repeated] + [cases[repeated][at]])
        encodeBoth(values)
      }
    }
    encodeBoth(cases.map(Keys.init))
    // Unsorted, each key where it was written, with its quotes and escapes.
    let escaped = [["a/b", "ü", "\"q\"", "a/b"], ["ü", "a/b"]]
    let text = String(
      decoding: try JSONStreamEncoder().encode((cases + escaped).map(Keys.init)), as: UTF8.self)
    let expected = (cases + escaped).map { keys in
      var members: [(String, Int)] = []
      for (index, key) in keys.enumerated() {
        members.removeAll { $0.0 == key }
        members.append((key, index))
      }
      let json = { (key: String) in
        key.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(
          of: "/", with: "\\/")
      }
      return "{" + members.map { "\"\(json($0.0))\":\($0.1)" }.joined(separator: ",") + "}"
    }
    #expect(text == "[" + expected.joined(separator: ",") + "]")
  }

  /// Writes its keys in turn, and its child, if any, after the first of them.
  final class Branch: Encodable {
    let keys: [String]
    let child: Branch?
    init(_ keys: [String], child: Branch? = nil) {
      self.keys = keys
      self.child = child
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: K.self)
      for (index, key) in keys.enumerated() {
        try container.encode(index, forKey: K(key))
        if index == 0, let child { try container.encode(child, forKey: K("child")) }
      }
    }
  }

  @Test("a type that contains itself: new and repeated keys while a value of it is open")
  func repeatedKeysSelfContaining() throws {
    // The first value teaches the order [a, b]. In the later ones an inner value of the type
    // meets keys new to the order while an outer one, checked against it, is open; the new
    // keys go at the end of the order, and every value still finds its own repeats.
    let cases: [Branch] = [
      Branch(["a", "b"]),
      Branch(["a", "b"], child: Branch(["c", "a", "d"])),
      Branch(["a", "e", "b"], child: Branch(["a", "c", "a"], child: Branch(["d", "b", "d"]))),
      Branch(["b", "a", "b"], child: Branch(["e", "c"])),
    ]
    encodeBoth(cases)
    #expect(
      try JSONStreamEncoder().encodeToValue(cases)
        == [
          ["a": 0, "b": 1], ["a": 0, "child": ["c": 0, "a": 1, "d": 2], "b": 1],
          ["a": 0, "child": ["a": 2, "child": ["d": 2, "b": 1], "c": 1], "e": 1, "b": 2],
          ["b": 2, "child": ["e": 0, "c": 1], "a": 1],
        ])
  }

  @Test("keys are compared byte for byte: canonically equivalent keys are different keys")
  func canonicallyEquivalentKeys() throws {
    // "é" precomposed and decomposed are one String (==) but two JSON keys; so are the Kelvin
    // sign and "K". The first value of the type teaches its key order; the later ones must
    // neither take another key's bytes from it nor miss a repeat.
    let values = [
      Keys(keys: ["\u{E9}", "K"]), Keys(keys: ["e\u{301}", "e\u{301}", "\u{212A}"]),
      Keys(keys: ["\u{212A}", "K", "\u{E9}", "e\u{301}"]),
    ]
    let text = String(decoding: try JSONStreamEncoder().encode(values), as: UTF8.self)
    #expect(
      Array(text.utf8)
        == Array(
          "[{\"\u{E9}\":0,\"K\":1},{\"e\u{301}\":1,\"\u{212A}\":2},"
            .utf8)
        + Array("{\"\u{212A}\":0,\"K\":1,\"\u{E9}\":2,\"e\u{301}\":3}]".utf8))
    #expect(
      try JSONStreamEncoder().encodeToValue(values)
        == JSONValue(parsing: Array(text.utf8)))
  }

  @Test("keys that share a filter bit but differ are written once each, in order")
  func distinctKeysManyMembers() throws {
    // 300 keys fill the 64-bit filter: the exact check must find no repeat among them.
    let names = (0..<300).map { "member\($0)" }
    let value = KeyedBody { container in
      for (index, name) in names.enumerated() { try container.encode(index, forKey: K(name)) }
    }
    let text = String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
    let expected = "{" + names.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
    #expect(text == expected)
  }

  @Test("trailing commas: Foundation's decoder accepts them; ours with allowTrailingCommas")
  func trailingCommas() throws {
    let data = Data("[1,2,]".utf8)
    #expect(try JSONDecoder().decode([Int].self, from: data) == [1, 2])
    #expect(throws: DecodingError.self) { try JSONStreamDecoder().decode([Int].self, from: data) }
    let lenient = JSONStreamDecoder()
    lenient.parseOptions.allowTrailingCommas = true
    #expect(try lenient.decode([Int].self, from: data) == [1, 2])
  }
}
