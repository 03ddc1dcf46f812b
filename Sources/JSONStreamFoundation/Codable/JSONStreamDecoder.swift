import Foundation
import JSONStream

/// Decodes `Decodable` types from JSON, with the API of Foundation's `JSONDecoder`: switching
/// is a one-line change.
///
/// ```swift
/// var decoder = JSONStreamDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let orders = try decoder.decode([Order].self, from: data)
/// ```
///
/// The input is parsed into a ``JSONValue`` document first (see `JSONTreeBuilder`), then
/// decoded from it. A value type, `Sendable`: one decoder can serve many tasks at once.
public struct JSONStreamDecoder: Sendable {
  /// How object keys map to coding keys.
  public enum KeyDecodingStrategy: Sendable {
    /// Keys as written.
    case useDefaultKeys
    /// `first_name` → `firstName` (as Foundation converts: leading and trailing underscores
    /// kept, the rest camel-cased).
    case convertFromSnakeCase
    /// The coding key for a key; the path holds the key last.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// How dates are read.
  public enum DateDecodingStrategy: Sendable {
    /// `Date`'s own `Decodable` conformance (seconds since 2001).
    case deferredToDate
    case secondsSince1970
    case millisecondsSince1970
    /// ISO 8601 with internet date-time format (`2026-11-02T08:15:00Z`).
    case iso8601
    /// A string the formatter reads.
    case formatted(DateFormatter)
    case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
  }

  /// What to do with object members no property asked for (JLObjectMapping's
  /// IgnoreMissingProperties).
  public enum UnknownKeyDecodingStrategy: Sendable {
    /// Skip them, as Foundation does.
    case ignore
    /// Fail with `DecodingError.dataCorrupted` naming them.
    case `throw`
  }

  /// How `Data` is read.
  public enum DataDecodingStrategy: Sendable {
    /// `Data`'s own `Decodable` conformance (an array of bytes).
    case deferredToData
    case base64
    case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
  }

  /// How non-finite floating-point values are read (JSON has none).
  public enum NonConformingFloatDecodingStrategy: Sendable {
    case `throw`
    /// These strings stand for the non-finite values.
    case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  public var keyDecodingStrategy = KeyDecodingStrategy.useDefaultKeys
  public var dateDecodingStrategy = DateDecodingStrategy.deferredToDate
  public var dataDecodingStrategy = DataDecodingStrategy.base64
  public var nonConformingFloatDecodingStrategy = NonConformingFloatDecodingStrategy.throw
  public var unknownKeyDecodingStrategy = UnknownKeyDecodingStrategy.ignore
  /// Called for each object decoded into a type whose keyed container met members it did not
  /// ask for, or asked for members that are absent (JLObjectMapping's ReportMissingProperties
  /// and ReportNilProperties): to log how the JSON and the models drift apart. Runs on the
  /// decoding thread, before `decode` returns.
  public var keyReportHandler: (@Sendable (_ report: JSONKeyReport) -> Void)? = nil
  /// Parse options; `allowMultipleValues` does not apply.
  public var parseOptions = JSONParseOptions()
  /// Available to `init(from:)` as `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  public init() {}

  /// Decodes a `T` from JSON bytes: `Data`, `[UInt8]`, a slice, any sequence of bytes.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for input that is not JSON (its debug
  ///   description gives line and column, its underlying error is the ``JSONParseError``), or
  ///   the `DecodingError` the type's decoding met.
  public func decode<T: Decodable, Bytes: Sequence>(_ type: T.Type, from bytes: Bytes) throws -> T
  where Bytes.Element == UInt8 {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: bytes, options: parseOptions)
    } catch let error as JSONParseError {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "The given data was not valid JSON: \(error)",
          underlyingError: error))
    }
    return try decode(type, from: value)
  }

  /// Decodes a `T` from a parsed value.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try _TreeDecoder(value: value, codingPath: [], options: self, context: _DecodeContext())
      .decodeValue(type)
  }
}

/// Keys of one object that the JSON and a type's `init(from:)` disagree on.
public struct JSONKeyReport {
  /// Where the object is.
  public var codingPath: [any CodingKey]
  /// The type decoded from it.
  public var type: Any.Type
  /// Members of the object that no key asked for, in the object's order.
  public var unknownKeys: [String]
  /// Keys asked for (with `decodeIfPresent`, `contains` or `decodeNil`) that the object lacks.
  public var absentKeys: [String]
}

/// What the decoders of one `decode` call share.
final class _DecodeContext {
  /// Made on the first ISO 8601 date, then reused: a formatter per date cost an allocation
  /// and its setup each time.
  lazy var iso8601 = ISO8601DateFormatter()
  var types = _TypeInfos()
}

/// The keys a type's keyed containers asked for, when unknown or absent keys are checked.
final class _KeyUsage {
  var asked: Set<String> = []
  var absent: [String] = []
  /// `allKeys` was read: every member counts as asked for.
  var tookAll = false
}

/// A `Decoder` over one value of a parsed document.
final class _TreeDecoder: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  let options: JSONStreamDecoder
  let context: _DecodeContext
  /// The mapping of the model type being decoded from this value, if it is one.
  var mapping: _ModelMapping?
  /// Keys asked for, when they are checked (see `JSONStreamDecoder.keyReportHandler`).
  var usage: _KeyUsage?
  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  init(
    value: JSONValue, codingPath: [any CodingKey], options: JSONStreamDecoder,
    context: _DecodeContext
  ) {
    self.value = value
    self.codingPath = codingPath
    self.options = options
    self.context = context
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else {
      throw typeMismatch([String: Any].self, value, codingPath)
    }
    if usage == nil
      && (options.unknownKeyDecodingStrategy == .throw || options.keyReportHandler != nil)
    {
      usage = _KeyUsage()
    }
    return KeyedDecodingContainer(_KeyedContainer<Key>(object: object, decoder: self))
  }

  /// After `init(from:)`: fails on or reports the keys the object and the type disagree on.
  func checkKeys(_ type: Any.Type) throws {
    guard let usage, case .object(let object) = value else { return }
    var unknown: [String] = []
    if !usage.tookAll {
      for key in object.keys {
        // Under a key strategy, a member is asked for by its converted name.
        let name = keyName(forMember: key)
        if !usage.asked.contains(name) { unknown.append(key) }
      }
    }
    if !unknown.isEmpty && options.unknownKeyDecodingStrategy == .throw {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Unknown keys for \(type): "
            + unknown.map { "\"\($0)\"" }.joined(separator: ", ") + "."))
    }
    if let handler = options.keyReportHandler, !unknown.isEmpty || !usage.absent.isEmpty {
      handler(
        JSONKeyReport(
          codingPath: codingPath, type: type, unknownKeys: unknown, absentKeys: usage.absent))
    }
  }

  /// The coding key name a member's key answers to.
  func keyName(forMember key: String) -> String {
    if let mapping, let property = mapping.properties[key] { return property }
    switch options.keyDecodingStrategy {
    case .useDefaultKeys: return key
    case .convertFromSnakeCase: return _convertFromSnakeCase(key)
    case .custom(let body): return body(codingPath + [_JSONKey(key)]).stringValue
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let array) = value else {
      throw typeMismatch([Any].self, value, codingPath)
    }
    return _UnkeyedContainer(array: array, decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  /// A child value's decoder.
  func child(_ value: JSONValue, _ key: any CodingKey) -> _TreeDecoder {
    _TreeDecoder(value: value, codingPath: codingPath + [key], options: options, context: context)
  }

  /// Decodes this value as `T`, with the strategies for dates, data, URLs and decimals.
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    switch type {
    case is Date.Type: return try decodeDate() as! T
    case is Data.Type: return try decodeData() as! T
    case is URL.Type:
      let text = try decode(String.self)
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: codingPath, debugDescription: "Invalid URL string."))
      }
      return url as! T
    case is Decimal.Type:
      guard case .number(let number) = value, let decimal = Decimal(string: number.description)
      else { throw typeMismatch(Decimal.self, value, codingPath) }
      return decimal as! T
    default:
      let info = context.types.info(for: T.self)
      if info.isStringKeyedDictionary {
        return try (T.self as! any _StringKeyedDecodable.Type)._decodeMembers(from: self) as! T
      }
      mapping = info.mapping
      var result = try T(from: self)
      try checkKeys(T.self)
      if info.mapping != nil {
        var model = result as! any JSONModel
        try model.didDecode()
        result = model as! T
      }
      return result
    }
  }

  func decodeDate() throws -> Date {
    switch options.dateDecodingStrategy {
    case .deferredToDate: return try Date(from: self)
    case .secondsSince1970: return Date(timeIntervalSince1970: try decode(Double.self))
    case .millisecondsSince1970: return Date(timeIntervalSince1970: try decode(Double.self) / 1000)
    case .iso8601:
      let text = try decode(String.self)
      guard let date = context.iso8601.date(from: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .formatted(let formatter): return try date(from: formatter)
    case .custom(let body): return try body(self)
    }
  }

  func date(from formatter: DateFormatter) throws -> Date {
    guard let date = formatter.date(from: try decode(String.self)) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Date string does not match format expected by formatter."))
    }
    return date
  }

  func decodeData() throws -> Data {
    switch options.dataDecodingStrategy {
    case .deferredToData: return try Data(from: self)
    case .base64:
      guard let data = Data(base64Encoded: try decode(String.self)) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let body): return try body(self)
    }
  }
}

/// The error for `value` where a `type` was expected: `valueNotFound` for null, as Foundation
/// reports it, else `typeMismatch`.
func typeMismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
  if value.isNull {
    return DecodingError.valueNotFound(
      type,
      DecodingError.Context(
        codingPath: path, debugDescription: "Expected \(type) value but found null instead."))
  }
  let found: String
  switch value {
  case .null: found = "null"
  case .bool: found = "bool"
  case .number: found = "number"
  case .string: found = "string"
  case .array: found = "array"
  case .object: found = "dictionary"
  }
  return DecodingError.typeMismatch(
    type,
    DecodingError.Context(
      codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."))
}

// MARK: - Single values

extension _TreeDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool { value.isNull }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .bool(let flag) = value else { throw typeMismatch(type, value, codingPath) }
    return flag
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .string(let text) = value else { throw typeMismatch(type, value, codingPath) }
    return text
  }

  func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
  func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

  /// An integer: the number must be integral and fit, as Foundation requires.
  func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard case .number(let number) = value else { throw typeMismatch(type, value, codingPath) }
    if let exact = number.int64.flatMap({ T(exactly: $0) })
      ?? number.uint64.flatMap({ T(exactly: $0) })
    {
      return exact
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath,
        debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
  }

  /// A floating-point value: the nearest one (non-finite ones only as the strategy's strings).
  func floatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
    switch value {
    case .number(let number):
      let double = number.double
      let result = T(double)
      if double.isFinite && !result.isFinite {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
      }
      return result
    case .string(let text):
      if case .convertFromString(let positive, let negative, let nan) =
        options.nonConformingFloatDecodingStrategy
      {
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
      }
      throw typeMismatch(type, value, codingPath)
    default:
      throw typeMismatch(type, value, codingPath)
    }
  }
}

/// A `[String: Value]`, read with its keys as they are (see `_TypeInfo`).
protocol _StringKeyedDecodable {
  static func _decodeMembers(from decoder: _TreeDecoder) throws -> Self
}

extension Dictionary: _StringKeyedDecodable where Key == String, Value: Decodable {
  static func _decodeMembers(from decoder: _TreeDecoder) throws -> Self {
    guard case .object(let object) = decoder.value else {
      throw typeMismatch(Self.self, decoder.value, decoder.codingPath)
    }
    var result: [String: Value] = [:]
    result.reserveCapacity(object.count)
    for (key, value) in object {
      result[key] = try decoder.child(value, _JSONKey(key)).decodeValue(Value.self)
    }
    return result
  }
}
