import Foundation
import JSONStream

/// Decodes `Decodable` types from JSON, with the API of Foundation's `JSONDecoder`: switching
/// is a one-line change.
///
/// ```swift
/// let decoder = JSONStreamDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let orders = try decoder.decode([Order].self, from: data)
/// ```
///
/// The input is parsed into a ``JSONStream/JSONValue`` document first (see `JSONTreeBuilder`), then
/// decoded from it in place. A repeated key keeps its first value, as in Foundation. A
/// `DecodingError` names the coding path and, when decoding from bytes, where the value is
/// in the input (line, column, offset). A class, as Foundation's is, `Sendable`: its settings
/// can be changed after creation, under a lock, and each call reads them once at its start,
/// so one decoder can serve many tasks at once.
public final class JSONStreamDecoder: @unchecked Sendable {
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
    /// A number of seconds since 1970-01-01T00:00:00Z.
    case secondsSince1970
    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    case millisecondsSince1970
    /// ISO 8601 with internet date-time format (`2026-11-02T08:15:00Z`).
    case iso8601
    /// A string the formatter reads.
    case formatted(DateFormatter)
    /// The closure decodes the date.
    case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
  }

  /// What to do with object members no property asked for (JLObjectMapping's
  /// IgnoreMissingProperties).
  public enum UnknownKeyDecodingStrategy: Sendable {
    /// Skip them, as Foundation does.
    case ignore
    /// Fail with `DecodingError.dataCorrupted` naming them: checked for every keyed container,
    /// nested ones and enum payloads included, once the value that made it is decoded; the key a
    /// super decoder reads (`"super"` or your own) counts as asked for.
    case `throw`
  }

  /// How `Data` is read.
  public enum DataDecodingStrategy: Sendable {
    /// `Data`'s own `Decodable` conformance (an array of bytes).
    case deferredToData
    /// A base64 string.
    case base64
    /// The closure decodes the data.
    case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
  }

  /// How non-finite floating-point values are read (JSON has none).
  public enum NonConformingFloatDecodingStrategy: Sendable {
    /// No string stands for a non-finite value: decoding a float from a string fails.
    case `throw`
    /// These strings stand for the non-finite values.
    case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// The settings, one value: what each call reads once, at its start.
  /// The public properties' values (see each).
  struct Settings: Sendable {
    var keyDecodingStrategy = KeyDecodingStrategy.useDefaultKeys
    var dateDecodingStrategy = DateDecodingStrategy.deferredToDate
    var dataDecodingStrategy = DataDecodingStrategy.base64
    var nonConformingFloatDecodingStrategy = NonConformingFloatDecodingStrategy.throw
    var unknownKeyDecodingStrategy = UnknownKeyDecodingStrategy.ignore
    var keyReportHandler: (@Sendable (_ report: JSONKeyReport) -> Void)? = nil
    var parseOptions = JSONParseOptions()
    var assumesTopLevelDictionary = false
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The configuration of the top-level value (`decode(_:from:configuration:)`), in one
    /// call's copy.
    var topLevelConfiguration: _Configuration? = nil
    /// Decoding the binary format (`decode(_:fromBinary:)`): a number where a date goes is a
    /// native date, and a string one is read with ``dateDecodingStrategy``; a dictionary whose
    /// keys are not strings may be a map.
    var readsBinary = false
  }

  private let lock = NSLock()
  private var _settings = Settings()

  /// The settings now.
  var settings: Settings { lock.withLock { _settings } }

  /// How object keys map to coding keys; as written by default.
  public var keyDecodingStrategy: KeyDecodingStrategy {
    get { settings.keyDecodingStrategy }
    set { lock.withLock { _settings.keyDecodingStrategy = newValue } }
  }
  /// How dates are read; `Date`'s own conformance by default.
  public var dateDecodingStrategy: DateDecodingStrategy {
    get { settings.dateDecodingStrategy }
    set { lock.withLock { _settings.dateDecodingStrategy = newValue } }
  }
  /// How `Data` is read; base64 by default.
  public var dataDecodingStrategy: DataDecodingStrategy {
    get { settings.dataDecodingStrategy }
    set { lock.withLock { _settings.dataDecodingStrategy = newValue } }
  }
  /// How non-finite floats are read; by default no string stands for one.
  public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
    get { settings.nonConformingFloatDecodingStrategy }
    set { lock.withLock { _settings.nonConformingFloatDecodingStrategy = newValue } }
  }
  /// What to do with object members no property asked for; ignored by default.
  public var unknownKeyDecodingStrategy: UnknownKeyDecodingStrategy {
    get { settings.unknownKeyDecodingStrategy }
    set { lock.withLock { _settings.unknownKeyDecodingStrategy = newValue } }
  }
  /// Called for each object decoded into a type whose keyed container met members it did not
  /// ask for, or asked for members that are absent (JLObjectMapping's ReportMissingProperties
  /// and ReportNilProperties): to log how the JSON and the models drift apart. Runs on the
  /// decoding thread, before `decode` returns.
  public var keyReportHandler: (@Sendable (_ report: JSONKeyReport) -> Void)? {
    get { settings.keyReportHandler }
    set { lock.withLock { _settings.keyReportHandler = newValue } }
  }
  /// Parse options. `allowMultipleValues` is an error for the calls that read one document
  /// (`decode`, and each line of `decodeLines`); ``ItemDecoder`` and `decodeItems` take items
  /// from every top-level value with it.
  public var parseOptions: JSONParseOptions {
    get { settings.parseOptions }
    set { lock.withLock { _settings.parseOptions = newValue } }
  }
  /// Whether input that is not an object is read as an object's members without their
  /// braces (`"a": 1, "b": 2`), as Foundation's decoder does; false by default. Input that is an
  /// object (its first byte after whitespace is `{`) is read as it is; empty input is `{}`.
  public var assumesTopLevelDictionary: Bool {
    get { settings.assumesTopLevelDictionary }
    set { lock.withLock { _settings.assumesTopLevelDictionary = newValue } }
  }
  /// Available to `init(from:)` as `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { settings.userInfo }
    set { lock.withLock { _settings.userInfo = newValue } }
  }

  /// A decoder with `JSONDecoder`'s defaults.
  public init() {}

  /// Decodes a `T` from JSON bytes: `Data`, `[UInt8]`, a slice, any sequence of bytes. As
  /// with Foundation's decoder, the text may be UTF-8 (with or without a byte order mark),
  /// UTF-16 or UTF-32 of either byte order, found from a byte order mark or from where the
  /// first bytes are zero; positions in errors are the input's in each.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for input that is not JSON (its debug
  ///   description gives line and column, its underlying error is the
  ///   ``JSONStream/JSONParseError``), or the `DecodingError` the type's decoding met.
  public func decode<T: Decodable, Bytes: Sequence>(_ type: T.Type, from bytes: Bytes) throws -> T
  where Bytes.Element == UInt8 {
    try settings.decode(type, from: bytes)
  }

  /// Decodes a `T` from the binary format (what ``JSONStreamEncoder/encodeBinary(_:)``
  /// writes). Dates and data written natively are read natively, whatever the strategies. A
  /// date held as a string (binary converted from JSON text) is read with
  /// ``dateDecodingStrategy``; one held as a number is taken for a native date (seconds since
  /// 2001), since the binary format reads a native date as that number.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for bytes that are not the binary format (the
  ///   underlying ``JSONStream/JSONParseError`` names the byte), or the type's `DecodingError`.
  public func decode<T: Decodable, Bytes: Sequence>(_ type: T.Type, fromBinary bytes: Bytes)
    throws -> T where Bytes.Element == UInt8
  {
    try settings.decode(type, fromBinary: bytes)
  }

  /// Decodes a `T` from a value: parsed, built, or encoded
  /// (``JSONStreamValue/JSONValue/init(encoding:encoder:)``). Its nodes are read in place, with no
  /// JSON text in between; a `DecodingError` names the coding path, with no position (there is no
  /// input). ``JSONStreamValue/JSONValue/decode(_:decoder:)`` is the same call, made on the value.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try settings.decode(type, from: value)
  }

  /// The error for input that is not JSON, as Foundation reports it (with the position), or
  /// for parse options the call cannot honour.
  static func notJSON(_ error: JSONParseError) -> DecodingError {
    let what =
      error.kind == .invalidOption
      ? "The decoder's parse options are invalid" : "The given data was not valid JSON"
    return DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: [], debugDescription: "\(what): \(error)", underlyingError: error))
  }

  /// What to do instead of `allowMultipleValues` where one document is read.
  static let oneDocument = "each line of decodeLines is one, and decodeItems reads several"
}

extension JSONStreamDecoder.Settings {
  /// ``JSONStreamDecoder/decode(_:from:)-(_,Bytes)`` with these settings.
  func decode<T: Decodable, Bytes: Sequence>(_ type: T.Type, from bytes: Bytes) throws -> T
  where Bytes.Element == UInt8 {
    // Parsed in a function of its own, not generic over the bytes, where the parser is
    // specialized for the tree builder.
    try _ScanInput.with(contentsOf: bytes) { try decodeInput(type, $0) }
  }

  /// Decodes from `input` (nil when empty), in whichever Unicode encoding it is (see
  /// `_InputEncoding`).
  func decodeInput<T: Decodable>(_ type: T.Type, _ input: _ScanInput?) throws -> T {
    var documents = _DocumentDecoder(options: self)
    guard let input else { return try decodeText(type, nil, base: _DocumentBase(), &documents) }
    let (encoding, byteOrderMark) = _InputEncoding.detect(input)
    if encoding == .utf8 {
      // A UTF-8 byte order mark is passed over, as Foundation's decoder does (counted as the
      // first column, as the parser counts it when it allows one).
      let text = byteOrderMark == 0 ? input : input.slice(byteOrderMark, input.count)
      return try decodeText(
        type, byteOrderMark == input.count ? nil : text,
        base: _DocumentBase(offset: byteOrderMark, column: byteOrderMark == 0 ? 1 : 2),
        &documents)
    }
    let utf8: [UInt8]
    do {
      utf8 = try encoding.utf8(of: input, from: byteOrderMark)
    } catch let error as JSONParseError {
      throw JSONStreamDecoder.notJSON(error)
    }
    // Offsets in errors are the input's; lines and columns are the same in both.
    // A byte order mark counts as the first column, as in UTF-8.
    let base = _DocumentBase(
      column: byteOrderMark == 0 ? 1 : 2,
      convertedOffset: { offset in
        encoding.inputOffset(ofUTF8: offset, in: input, from: byteOrderMark)
      })
    guard !utf8.isEmpty else { return try decodeText(type, nil, base: base, &documents) }
    return try _ScanInput.with(utf8) { try decodeText(type, $0, base: base, &documents) }
  }

  /// Decodes from UTF-8 `text` (nil when empty) that starts at `base`, braces added around it
  /// under ``JSONStreamDecoder/assumesTopLevelDictionary`` when it is not an object.
  func decodeText<T: Decodable>(
    _ type: T.Type, _ text: _ScanInput?, base: _DocumentBase, _ documents: inout _DocumentDecoder
  ) throws -> T {
    guard assumesTopLevelDictionary, !Self.startsWithBrace(text) else {
      return try documents.decode(type, text, base: base)
    }
    var braced: [UInt8] = [UInt8(ascii: "{")]
    if let text { text.copy(0, text.count, to: &braced) }
    braced.append(UInt8(ascii: "}"))
    // The added brace is not in the input: positions count from the byte after it.
    var inside = base
    inside.offset -= 1
    inside.column -= 1
    inside.textStart = (base.inputOffset(0), base.column)
    if let converted = base.convertedOffset { inside.convertedOffset = { converted($0 - 1) } }
    return try _ScanInput.with(braced) { try documents.decode(type, $0, base: inside) }
  }

  /// Whether the first byte of `text` that is not whitespace is `{`.
  static func startsWithBrace(_ text: _ScanInput?) -> Bool {
    guard let text else { return false }
    var position = 0
    while let byte = text.byte(at: position) {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        position += 1
      default: return byte == UInt8(ascii: "{")
      }
    }
    return false
  }

  /// ``JSONStreamDecoder/decode(_:fromBinary:)`` with these settings.
  func decode<T: Decodable, Bytes: Sequence>(_ type: T.Type, fromBinary bytes: Bytes)
    throws -> T where Bytes.Element == UInt8
  {
    if let error = parseOptions.oneDocumentError(
      "decode(_:fromBinary:)", instead: JSONStreamDecoder.oneDocument)
    {
      throw JSONStreamDecoder.notJSON(error)
    }
    // The whole-input reader: it copies shared keys and strings into the tree once, where a
    // streaming reader feeding a tree builder copies them twice.
    let value: JSONValue
    let shared: [_Node]
    do {
      (value, shared) = try JSONValue.readingSharedValues(
        binary: bytes, options: parseOptions, duplicateKeys: .firstWins)
    } catch let error as JSONParseError {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "The given data was not valid binary: \(error)",
          underlyingError: error))
    }
    // A native date reads as its seconds since 2001 (`Date`'s own encoding), and a string
    // date (binary made from JSON text) with the date strategy; native data as base64.
    var native = self
    native.readsBinary = true
    native.dataDecodingStrategy = .base64
    var known = _DecodingKnowledge()
    if !shared.isEmpty {
      known.sharedValues = Dictionary(
        shared.enumerated().map { (_SharedNodeKey($0.element), $0.offset) },
        uniquingKeysWith: { first, _ in first })
    }
    return try native.decode(type, from: value, known: &known)
  }

  /// ``JSONStreamDecoder/decode(_:from:)-(_,JSONValue)`` with these settings.
  func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    var known = _DecodingKnowledge()
    return try decode(type, from: value, known: &known)
  }

  /// Decodes a `T` from a parsed value, with what earlier calls found out.
  func decode<T: Decodable>(
    _ type: T.Type, from value: JSONValue, known: inout _DecodingKnowledge
  ) throws -> T {
    let root = JSONNodeCursorRoot(value)
    let decoder = _Decoder(options: self, root: root)
    swap(&decoder.state.value.types, &known.types)
    swap(&decoder.state.value.convertedKeys, &known.convertedKeys)
    decoder.state.value.sharedValues = known.sharedValues
    defer {
      swap(&decoder.state.value.types, &known.types)
      swap(&decoder.state.value.convertedKeys, &known.convertedKeys)
    }
    return try decoder.decode(type, from: root.cursor)
  }
}

/// What one document's decoding finds out that the next one's can use: the types met, and the
/// member keys a key strategy converted (converting them again for each NDJSON line took
/// three quarters of decoding snake_case lines).
struct _DecodingKnowledge {
  var types = _TypeInfos()
  var convertedKeys: [String: String] = [:]
  /// The shared values of binary input (see `_DecoderState.sharedValues`): its document's own.
  var sharedValues: [_SharedNodeKey: Int]? = nil
}

/// Where a document starts in the decoder's input: its line, byte offset and column.
struct _DocumentBase {
  var line = 1
  var offset = 0
  var column = 1
  /// For text converted to UTF-8 from UTF-16 or UTF-32: the input's byte offset of an
  /// offset in the converted text.
  var convertedOffset: ((Int) -> Int)? = nil
  /// Where the input's own text starts, when a brace was added before it
  /// (`assumesTopLevelDictionary`): no position is before it.
  var textStart: (offset: Int, column: Int)? = nil

  /// The offset in the input of `offset` in the document's text.
  func inputOffset(_ offset: Int) -> Int {
    let converted = convertedOffset?(offset) ?? self.offset + offset
    return Swift.max(converted, textStart?.offset ?? converted)
  }

  /// The column in the input of `column` on line `line` of the document's text.
  func inputColumn(line: Int, column: Int) -> Int {
    guard line == 1 else { return column }
    return Swift.max(self.column + column - 1, textStart?.column ?? 1)
  }
}

/// Decodes documents one after another (a single one, or the lines of NDJSON), sharing what
/// can be shared between them: the tree builder's stacks and what is known of the types met.
/// Per line, finding that out again cost more than parsing.
struct _DocumentDecoder {
  let options: JSONStreamDecoder.Settings
  private var parser: JSONParser<JSONTreeBuilder>
  private var known = _DecodingKnowledge()

  init(options: JSONStreamDecoder.Settings) {
    self.options = options
    parser = JSONParser(
      handler: JSONTreeBuilder(duplicateKeyPolicy: .firstWins), options: Self.parseOptions(options))
  }

  /// The decoder's parse options, for one document; a repeated key keeps its first value, as
  /// Foundation's decoder reads it.
  static func parseOptions(_ options: JSONStreamDecoder.Settings) -> JSONParseOptions {
    var parseOptions = options.parseOptions
    parseOptions.allowMultipleValues = false
    return parseOptions
  }

  /// Decodes the document in `input` (nil when empty), which starts at `base`: positions in
  /// errors count from there.
  mutating func decode<T: Decodable>(
    _ type: T.Type, _ input: _ScanInput?, base: _DocumentBase
  ) throws -> T {
    if let error = options.parseOptions.oneDocumentError(
      "JSONStreamDecoder", instead: JSONStreamDecoder.oneDocument)
    {
      throw JSONStreamDecoder.notJSON(error)
    }
    let value: JSONValue
    do {
      defer {
        // Ready for the next document, with the builder's memory (and, after an error, a
        // fresh builder: it may hold part of a value).
        parser = JSONParser(handler: parser.handler, options: Self.parseOptions(options))
      }
      do {
        try parser.feed(input)
        try parser.finish()
      } catch {
        parser.handler = JSONTreeBuilder(duplicateKeyPolicy: .firstWins)
        throw error
      }
      value = parser.handler.takeValues()[0]
    } catch let error as JSONParseError {
      throw JSONStreamDecoder.notJSON(
        JSONParseError(
          kind: error.kind, offset: base.inputOffset(error.offset),
          line: base.line + error.line - 1,
          column: base.inputColumn(line: error.line, column: error.column),
          message: error.message))
    }
    do {
      return try options.decode(type, from: value, known: &known)
    } catch let error as DecodingError {
      throw options.locating(error, in: input, base: base)
    }
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
