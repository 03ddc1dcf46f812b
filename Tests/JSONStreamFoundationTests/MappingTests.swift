import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

/// JLObjectMapping's README and options, in Swift: what its users did with `jl_` methods and
/// deserializer options, done with Codable, ``JSONModel`` and the coders' options.
@Suite("Object mapping (JLObjectMapping's features)")
struct MappingTests {
  /// The README's `SimpleTestMappingObject`: an integer, a dictionary, a dictionary of objects
  /// of its own type (what `jl_propertyTypeMap` declared; Codable knows element types) and a
  /// child object.
  final class SimpleTestMappingObject: Codable, Equatable, @unchecked Sendable {
    var someInt = 0
    var someDict: [String: String] = [:]
    var dictionaryOfSimpleObjects: [String: SimpleTestMappingObject]?
    var someChildObject: SimpleTestMappingObject?

    static func == (a: SimpleTestMappingObject, b: SimpleTestMappingObject) -> Bool {
      a.someInt == b.someInt && a.someDict == b.someDict
        && a.dictionaryOfSimpleObjects == b.dictionaryOfSimpleObjects
        && a.someChildObject == b.someChildObject
    }
  }

  // The README's string, with its stray `@` removed (it made the JSON invalid).
  static let readmeJSON = #"""
    {"someInt":12345, "someDict":{"turtles":"yes"}, "someChildObject" : {"someInt":9876,
    "someDict":{"someKey":"someVal"},
    "dictionaryOfSimpleObjects" : {"objKey":{"someInt":321, "someDict":{"aKey":"aVal"}}}}}
    """#

  @Test("the README's example: nested objects and a dictionary of objects")
  func readmeExample() throws {
    let object = try JSONStreamDecoder().decode(
      SimpleTestMappingObject.self, from: Data(Self.readmeJSON.utf8))
    #expect(object.someInt == 12345)
    #expect(object.someDict == ["turtles": "yes"])
    let child = try #require(object.someChildObject)
    #expect(child.someInt == 9876)
    #expect(child.someDict == ["someKey": "someVal"])
    let inner = try #require(child.dictionaryOfSimpleObjects?["objKey"])
    #expect(inner.someInt == 321 && inner.someDict == ["aKey": "aVal"])
    #expect(inner.someChildObject == nil)
    // Foundation reads the same, and our output reads back the same.
    #expect(
      try JSONDecoder().decode(SimpleTestMappingObject.self, from: Data(Self.readmeJSON.utf8))
        == object)
    let data = try JSONStreamEncoder().encode(object)
    #expect(try JSONStreamDecoder().decode(SimpleTestMappingObject.self, from: data) == object)
  }

  /// `jl_propertyNameMap`, `jl_excludedFromSerialization`, `jl_dateFormatterForPropertyNamed:`
  /// with the README's two formats, `jl_didDeserialize` and `jl_willSerialize`.
  struct Person: Codable, Equatable, JSONModel {
    var firstname: String
    var password: String?
    var startDate: Date
    var endDate: Date
    var friends: [Person]?
    var didDecodeCalls = 0
    var willEncodeCalls = 0

    enum CodingKeys: String, CodingKey {
      case firstname, password, startDate, endDate, friends
    }

    static var jsonKeys: [String: String] { ["firstname": "first"] }
    static var jsonExcludedKeys: Set<String> { ["password"] }
    static func jsonDateFormatter(forKey key: String) -> DateFormatter? {
      switch key {
      case "startDate": return MappingTests.formatter("yyyy-MM-dd'T'HH:mm:ss.SSS Z")
      case "endDate": return MappingTests.formatter("dd-MM-yyyy'T'HH:mm:ss.SSS Z")
      default: return nil
      }
    }
    mutating func didDecode() throws {
      guard !firstname.isEmpty else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no name"))
      }
      didDecodeCalls += 1
    }
    mutating func willEncode() throws {
      willEncodeCalls += 1
      firstname = firstname.uppercased()
    }
  }

  static func formatter(_ format: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = format
    return formatter
  }

  static let personJSON = #"""
    {"first":"Ada","password":"s3cret","startDate":"2026-01-31T08:00:00.000 +0000",
     "endDate":"28-02-2026T17:30:00.500 +0000",
     "friends":[{"first":"Bob","startDate":"2025-12-01T00:00:00.000 +0000",
                 "endDate":"01-12-2025T00:00:00.000 +0000"}]}
    """#

  @Test("name maps, excluded properties, per-property date formats, callbacks")
  func model() throws {
    let person = try JSONStreamDecoder().decode(Person.self, from: Data(Self.personJSON.utf8))
    #expect(person.firstname == "Ada")
    #expect(person.password == "s3cret")  // excluded from output only
    #expect(person.startDate == Date(timeIntervalSince1970: 1_769_846_400))
    #expect(person.endDate == Date(timeIntervalSince1970: 1_772_299_800.5))
    #expect(person.didDecodeCalls == 1)
    #expect(person.friends?.map(\.firstname) == ["Bob"])
    #expect(person.friends?[0].didDecodeCalls == 1)

    let encoder = JSONStreamEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(person), as: UTF8.self)
    #expect(
      text
        == #"{"endDate":"28-02-2026T17:30:00.500 +0000","first":"ADA","friends":[{"endDate":"#
        + #""01-12-2025T00:00:00.000 +0000","first":"BOB","#
        + #""startDate":"2025-12-01T00:00:00.000 +0000"}],"#
        + #""startDate":"2026-01-31T08:00:00.000 +0000"}"#)
    // willEncode changed the copy that was written, not the value.
    #expect(person.firstname == "Ada" && person.willEncodeCalls == 0)

    // A throwing didDecode fails the decode.
    let nameless = Self.personJSON.replacingOccurrences(of: #""Ada""#, with: #""""#)
    #expect(throws: DecodingError.self) {
      try JSONStreamDecoder().decode(Person.self, from: Data(nameless.utf8))
    }
  }

  struct Small: Codable, Equatable {
    var id: Int
    var name: String?
    var note: String?
  }

  @Test("unknown keys: ignored, refused, or reported; absent properties reported")
  func keyReports() throws {
    let text = #"[{"id":1,"name":"a","extra":true,"more":[]},{"id":2}]"#
    // Ignored by default.
    #expect(try JSONStreamDecoder().decode([Small].self, from: Data(text.utf8)).count == 2)
    // Refused, naming the keys and where.
    let strict = JSONStreamDecoder()
    strict.unknownKeyDecodingStrategy = .throw
    #expect {
      try strict.decode([Small].self, from: Data(text.utf8))
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription.contains(#""extra", "more""#)
        && context.codingPath.map { $0.intValue ?? -1 } == [0]
    }
    #expect(try strict.decode([Small].self, from: Data(#"[{"id":1,"note":null}]"#.utf8)).count == 1)
    // Reported, and decoding goes on.
    let reports = Reports()
    let reporting = JSONStreamDecoder()
    reporting.keyDecodingStrategy = .convertFromSnakeCase
    reporting.keyReportHandler = { report in
      reports.add(
        "\(report.codingPath.map { $0.intValue ?? -1 }) \(report.type) unknown \(report.unknownKeys)"
          + " absent \(report.absentKeys)")
    }
    let snake = #"[{"id":1,"name":"a","extra_key":true},{"id":2,"note":"n"}]"#
    #expect(try reporting.decode([Small].self, from: Data(snake.utf8)).count == 2)
    #expect(
      reports.lines == [
        #"[0] Small unknown ["extra_key"] absent ["note"]"#,
        #"[1] Small unknown [] absent ["name"]"#,
      ])
  }

  class Base: Decodable {
    var name: String
  }

  final class Derived: Base {
    var level: Int
    enum Keys: CodingKey { case level, base }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      level = try container.decode(Int.self, forKey: .level)
      try super.init(from: container.superDecoder(forKey: .base))
    }
  }

  final class Inheriting: Base {
    var level: Int
    enum Keys: CodingKey { case level }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      level = try container.decode(Int.self, forKey: .level)
      try super.init(from: container.superDecoder())
    }
  }

  enum Payload: Decodable, Equatable {
    case move(x: Int, y: Int)
  }

  @Test("unknown keys under .throw: super decoders' keys are known, nested containers checked")
  func unknownKeysThroughContainers() throws {
    let strict = JSONStreamDecoder()
    strict.unknownKeyDecodingStrategy = .throw
    func unknown<T: Decodable>(_ type: T.Type, _ text: String) -> (keys: String, path: String)? {
      let result = Result { try strict.decode(type, from: Data(text.utf8)) }
      guard case .failure(let error) = result else { return nil }
      guard case DecodingError.dataCorrupted(let context) = error else {
        return ("\(error)", "?")
      }
      let keys = context.debugDescription.split(separator: ":").dropFirst().joined(separator: ":")
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return (keys, path.joined(separator: "."))
    }
    // The keys a super decoder reads are known, under "super" or a key of the type's own.
    #expect(unknown(Derived.self, #"{"level":1,"base":{"name":"n"}}"#) == nil)
    #expect(unknown(Inheriting.self, #"{"level":1,"super":{"name":"n"}}"#) == nil)
    // What the super decoder's object holds beyond what the superclass read is unknown.
    let inBase = unknown(Derived.self, #"{"level":1,"base":{"name":"n","age":3}}"#)
    #expect(inBase?.keys.contains(#""age""#) == true && inBase?.path == "base")
    #expect(
      unknown(Derived.self, #"{"level":1,"base":{"name":"n"},"x":0}"#)?.keys.contains(#""x""#)
        == true)
    // A synthesized enum payload is a nested keyed container: its extra keys are unknown.
    #expect(unknown(Payload.self, #"{"move":{"x":1,"y":2}}"#) == nil)
    let payload = unknown([Payload].self, #"[{"move":{"x":1,"y":2,"z":3}}]"#)
    #expect(payload?.keys.contains(#""z""#) == true && payload?.path == "0.move")
    #expect(
      unknown(Payload.self, #"{"move":{"x":1,"y":2},"jump":{}}"#)?.keys.contains("jump") == true)
    // A decode that failed and was caught leaves nothing to check.
    struct Fallback: Decodable {
      var value: Int
      enum Keys: CodingKey { case wrapped, value }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let payload = try? container.decode(Payload.self, forKey: .wrapped) {
          guard case .move(let x, _) = payload else { throw CancellationError() }
          value = x
        } else {
          value = try container.decode(Int.self, forKey: .value)
        }
      }
    }
    #expect(unknown(Fallback.self, #"{"wrapped":{"move":{"x":1}},"value":5}"#) == nil)
  }

  final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
  }
}
