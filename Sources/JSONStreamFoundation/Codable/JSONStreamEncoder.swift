import Foundation
import JSONStream

/// Encodes `Encodable` values as JSON, with the API of Foundation's `JSONEncoder`: switching
/// is a one-line change.
///
/// ```swift
/// let encoder = JSONStreamEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// encoder.dateEncodingStrategy = .iso8601
/// let data = try encoder.encode(orders)
/// ```
///
/// Values are written straight to a ``JSONStream/JSONWriter`` as they are encoded, with no tree in
/// between; ``encode(_:to:)`` writes into a writer of yours, so a sequence of values can go
/// to a file or socket one at a time. ``encodeToValue(_:)`` (or `JSONValue(encoding:)`)
/// builds a ``JSONStream/JSONValue`` the same way, with no text in between.
///
/// Output is what `JSONEncoder` gives for the same value and options, up to whitespace in
/// pretty output and the text of numbers (the shortest that reads back the same). A key
/// encoded twice in one container gets `JSONEncoder`'s answer (the last value; a nested
/// container asked for again adds to the one there): the value is then encoded a second
/// time, into a tree. One thing differs for unusual `encode(to:)` implementations, because
/// nothing is held back: a container used again after a sibling or its parent has moved on
/// fails the encode (`JSONEncoder` allows it). Synthesized conformances never do that.
///
/// A class, as Foundation's is, `Sendable`: its settings can be changed after creation, under
/// a lock, and each call reads them once at its start, so one encoder can serve many tasks at
/// once.
public final class JSONStreamEncoder: @unchecked Sendable {
  /// Foundation's output formatting flags; they set ``writeOptions``.
  public struct OutputFormatting: OptionSet, Sendable {
    /// The bits of the set flags.
    public let rawValue: UInt
    /// Flags with the bits of `rawValue`.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Indented output, two spaces per level.
    public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
    /// Object members in key order.
    public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
    /// `/` written as is, not as `\/`.
    public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)
  }

  /// How coding keys become object keys.
  public enum KeyEncodingStrategy: Sendable {
    /// Keys as the coding keys say.
    case useDefaultKeys
    /// `myURLProperty` → `my_url_property`, as Foundation converts.
    case convertToSnakeCase
    /// The key for a coding path; the path holds the coding key last.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// How dates are written.
  public enum DateEncodingStrategy: Sendable {
    /// `Date`'s own `Encodable` conformance (seconds since 2001).
    case deferredToDate
    /// A number of seconds since 1970-01-01T00:00:00Z.
    case secondsSince1970
    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    case millisecondsSince1970
    /// ISO 8601 with internet date-time format (`2026-11-02T08:15:00Z`).
    case iso8601
    /// A string from the formatter.
    case formatted(DateFormatter)
    /// The closure encodes the date; encoding nothing writes `{}`, as Foundation does.
    case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
  }

  /// How `Data` is written.
  public enum DataEncodingStrategy: Sendable {
    /// `Data`'s own `Encodable` conformance (an array of bytes).
    case deferredToData
    /// A base64 string.
    case base64
    /// The closure encodes the data.
    case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
  }

  /// How non-finite floating-point values are written (JSON has none).
  public enum NonConformingFloatEncodingStrategy: Sendable {
    /// Fail with `EncodingError.invalidValue`.
    case `throw`
    /// These strings stand for the non-finite values.
    case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// The public properties' values (see each).
  struct Settings: Sendable {
    var writeOptions: JSONWriteOptions = {
      var options = JSONWriteOptions()
      options.escapeSlash = true
      return options
    }()
    var keyEncodingStrategy = KeyEncodingStrategy.useDefaultKeys
    var dateEncodingStrategy = DateEncodingStrategy.deferredToDate
    var dataEncodingStrategy = DataEncodingStrategy.base64
    var nonConformingFloatEncodingStrategy = NonConformingFloatEncodingStrategy.throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var maxDepth = 1_000
    var keepsObjectIdentity = false
  }

  private let lock = NSLock()
  private var _settings = Settings()

  /// The settings now.
  var settings: Settings { lock.withLock { _settings } }

  /// Formatting: compact, with `/` escaped as `JSONEncoder` does. All of the writer's options
  /// apply, `escapeUnicode` too; ``outputFormatting`` is another view of the same settings.
  public var writeOptions: JSONWriteOptions {
    get { settings.writeOptions }
    set { lock.withLock { _settings.writeOptions = newValue } }
  }
  /// How coding keys become object keys; unchanged by default.
  public var keyEncodingStrategy: KeyEncodingStrategy {
    get { settings.keyEncodingStrategy }
    set { lock.withLock { _settings.keyEncodingStrategy = newValue } }
  }
  /// How dates are written; `Date`'s own conformance by default.
  public var dateEncodingStrategy: DateEncodingStrategy {
    get { settings.dateEncodingStrategy }
    set { lock.withLock { _settings.dateEncodingStrategy = newValue } }
  }
  /// How deep values may nest: values other than numbers, strings and booleans, each encoded
  /// inside the one before (an object or array in another, or a value a type encodes in its
  /// place). A deeper value fails the encode with `EncodingError.invalidValue` rather than
  /// exhausting the stack. 1,000 by default, as ``JSONStream/JSONParseLimits/maxDepth``: deeper
  /// text would not read back with the default limits. Whatever this is, a class instance met again
  /// inside itself (a reference cycle) fails the encode at once, naming its type.
  public var maxDepth: Int {
    get { settings.maxDepth }
    set { lock.withLock { _settings.maxDepth = newValue } }
  }
  /// Binary output only (``encodeBinary(_:)``): a class instance met again is written once,
  /// as a shared value, and referred to afterwards, so that
  /// ``JSONStreamDecoder/decode(_:fromBinary:)`` gives back one instance where the value held
  /// one: an object graph, as `NSKeyedArchiver` keeps it, in less space and time than
  /// writing the instance out each time. A reference cycle still fails the encode: Codable
  /// cannot decode one. Off by default, as JSON has no identity; read as JSON, a reference
  /// is a copy of the value it names.
  public var keepsObjectIdentity: Bool {
    get { settings.keepsObjectIdentity }
    set { lock.withLock { _settings.keepsObjectIdentity = newValue } }
  }
  /// How `Data` is written; base64 by default.
  public var dataEncodingStrategy: DataEncodingStrategy {
    get { settings.dataEncodingStrategy }
    set { lock.withLock { _settings.dataEncodingStrategy = newValue } }
  }
  /// How non-finite floats are written; by default they fail the encode.
  public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
    get { settings.nonConformingFloatEncodingStrategy }
    set { lock.withLock { _settings.nonConformingFloatEncodingStrategy = newValue } }
  }
  /// Available to `encode(to:)` as `encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { settings.userInfo }
    set { lock.withLock { _settings.userInfo = newValue } }
  }

  /// An encoder with `JSONEncoder`'s defaults: compact output, `/` escaped.
  public init() {}

  /// Foundation's view of ``writeOptions``: pretty printing (2 spaces), sorted keys, and
  /// whether `/` is escaped.
  public var outputFormatting: OutputFormatting {
    get {
      var formatting: OutputFormatting = []
      if writeOptions.indent != nil { formatting.insert(.prettyPrinted) }
      if writeOptions.sortKeys { formatting.insert(.sortedKeys) }
      if !writeOptions.escapeSlash { formatting.insert(.withoutEscapingSlashes) }
      return formatting
    }
    set {
      lock.withLock {
        _settings.writeOptions.indent = newValue.contains(.prettyPrinted) ? 2 : nil
        _settings.writeOptions.sortKeys = newValue.contains(.sortedKeys)
        _settings.writeOptions.escapeSlash = !newValue.contains(.withoutEscapingSlashes)
      }
    }
  }

  /// The JSON text of `value`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a value JSON cannot hold (a non-finite float
  ///   with the `.throw` strategy, a top-level value that encodes nothing), or the error the
  ///   value's own encoding threw.
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    let settings = self.settings
    return try _EncodeState(options: settings, writeOptions: settings.writeOptions)
      .encodeTopLevel(value, finishing: _finishedData)
  }

  /// The JSON text of `value`, as bytes.
  public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    let settings = self.settings
    return try _EncodeState(options: settings, writeOptions: settings.writeOptions)
      .encodeTopLevel(value)
  }

  /// `value` in the binary format (see `JSONBinaryWriter`): smaller than JSON and faster to
  /// read back, with `Date`, `Data` and `Set` written natively (the date and data strategies
  /// and the output formatting do not apply; keys follow the key strategy). Read it back with
  /// ``JSONStreamDecoder/decode(_:fromBinary:)``.
  public func encodeBinary<T: Encodable>(_ value: T) throws -> Data {
    Data(try encodeBinaryToBytes(value))
  }

  /// `value` in the binary format, as bytes.
  public func encodeBinaryToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    let settings = self.settings
    return try _EncodeState(options: settings, writeOptions: settings.writeOptions, format: .binary)
      .encodeTopLevel(value)
  }

  /// Writes `value` into `writer`, as its next value: the whole document, an element of an
  /// array you opened, or a member's value after a key. The writer's options decide the
  /// formatting (``writeOptions`` does not apply). The value's text is made in memory, then
  /// handed to the writer: memory holds one value at a time, and on an error the writer is
  /// left as it was.
  ///
  /// ```swift
  /// var writer = JSONWriter(sink: JSONChunkSink { try file.write(contentsOf: $0) })
  /// try writer.startArray()
  /// for order in orders { try encoder.encode(order, to: &writer) }
  /// try writer.endArray()
  /// try writer.finish()
  /// ```
  public func encode<T: Encodable, Sink: JSONOutputSink>(
    _ value: T, to writer: inout JSONWriter<Sink>
  ) throws {
    var options = writer.options
    options.allowMultipleValues = false
    let text = try _EncodeState(
      options: settings, writeOptions: options, indentBase: writer.openContainerCount
    )
    .encodeTopLevel(value)
    try writer.writeRawValue(text)
  }
}

extension JSONStreamEncoder {
  /// Writes values one at a time to a sink — as one JSON array, or as NDJSON lines — without
  /// holding more than one value's text: a sequence of any length goes to a file or socket
  /// in constant memory.
  ///
  /// ```swift
  /// var out = JSONStreamEncoder.StreamWriter(
  ///   format: .lines, sink: JSONChunkSink { try file.write(contentsOf: $0) })
  /// for event in events { try out.write(event) }
  /// try out.finish()
  /// ```
  public struct StreamWriter<Sink: JSONOutputSink> {
    /// How the values are framed.
    public enum Format: Sendable {
      /// `[v1,v2,…]`, formatted as the encoder's ``JSONStreamEncoder/writeOptions`` say.
      case array
      /// One compact value per line, each line ending with `\n` (NDJSON, JSON Lines).
      case lines
    }

    /// The writer the values go through; its sink is the one given.
    public private(set) var writer: JSONWriter<Sink>
    /// The encoder that encodes each value.
    public let encoder: JSONStreamEncoder
    /// How the values are framed.
    public let format: Format
    /// Values written so far.
    public private(set) var count = 0

    /// A stream writer to `sink` that frames values as `format` says; `.lines` output is compact
    /// whatever the encoder's options.
    public init(
      encoder: JSONStreamEncoder = JSONStreamEncoder(), format: Format = .array, sink: Sink
    ) {
      var options = encoder.writeOptions
      if format == .lines {
        options.indent = nil
        options.allowMultipleValues = true
      }
      writer = JSONWriter(sink: sink, options: options)
      self.encoder = encoder
      self.format = format
    }

    /// Encodes the next value.
    public mutating func write<T: Encodable>(_ value: T) throws {
      if format == .array && count == 0 { try writer.startArray() }
      try encoder.encode(value, to: &writer)
      count += 1
    }

    /// Ends the output (closes the array, ends the last line) and flushes it to the sink.
    public mutating func finish() throws {
      if format == .array && count == 0 { try writer.startArray() }
      if format == .array { try writer.endArray() }
      try writer.finish()
      if format == .lines && count > 0 {
        try writer.sink.write(byte: UInt8(ascii: "\n"))
      }
    }
  }

  /// Encodes `values` to `sink` one at a time, as a JSON array or as NDJSON lines (see
  /// ``StreamWriter``).
  public func encode<Values: Sequence, Sink: JSONOutputSink>(
    _ values: Values, as format: StreamWriter<Sink>.Format = .array, to sink: Sink
  ) throws -> Sink where Values.Element: Encodable {
    var writer = StreamWriter(encoder: self, format: format, sink: sink)
    for value in values { try writer.write(value) }
    try writer.finish()
    return writer.writer.sink
  }
}
