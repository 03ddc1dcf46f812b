import Foundation
import JSONStream

// Encoding into a JSONValue and decoding out of one, without JSON text: the encoder's third
// output is a tree builder, fed the events the JSON writer would have written; the decoder
// reads the value's nodes in place (see `JSONStreamDecoder.decode(_:from:)`).

extension JSONStreamEncoder {
  /// `value` as a ``JSONStream/JSONValue``, built as it is encoded, with no JSON text in between:
  /// the value ``encode(_:)`` writes, as `JSONValue(parsing:)` would read it back. The key, date,
  /// data and non-finite float strategies apply as they do to text, and so does
  /// ``OutputFormatting/sortedKeys`` (objects hold their members in key order); the rest of the
  /// formatting does not concern a value. A `Float` keeps the number its text shows (`0.1`,
  /// not the `0.10000000149011612` of the double it widens to).
  ///
  /// ```swift
  /// let value = try JSONStreamEncoder().encodeToValue(order)
  /// value["items"]?[0]?["sku"]   // "A1"
  /// ```
  ///
  /// - Throws: the errors ``encode(_:)`` throws for the same value and options.
  public func encodeToValue<T: Encodable>(_ value: T) throws -> JSONValue {
    let settings = self.settings
    try settings.writeOptions.validate()
    return try _EncodeState(options: settings, writeOptions: settings.writeOptions, format: .value)
      .encodeTopLevelToValue(value)
  }
}

extension JSONValue {
  /// The value of an `Encodable` value, as `encoder` encodes it, without JSON text in
  /// between (see ``JSONStreamEncoder/encodeToValue(_:)``): equal to, and written as,
  /// `JSONValue(parsing: encoder.encode(value))`.
  ///
  /// ```swift
  /// let encoder = JSONStreamEncoder()
  /// encoder.keyEncodingStrategy = .convertToSnakeCase
  /// let value = try JSONValue(encoding: order, encoder: encoder)
  /// ```
  ///
  /// - Throws: the errors ``JSONStreamEncoder/encode(_:)`` throws for the same value.
  public init<T: Encodable>(encoding value: T, encoder: JSONStreamEncoder = JSONStreamEncoder())
    throws
  {
    self = try encoder.encodeToValue(value)
  }

  /// A `T` decoded from this value by `decoder`, with no JSON text in between: the decoder
  /// reads the value's nodes in place, as `decoder.decode(type, from: self)` does, with its
  /// key, date, data and non-finite float strategies.
  ///
  /// ```swift
  /// let order = try value.decode(Order.self)
  /// ```
  ///
  /// - Throws: the `DecodingError` the type's decoding met, at its coding path.
  public func decode<T: Decodable>(
    _ type: T.Type = T.self, decoder: JSONStreamDecoder = JSONStreamDecoder()
  ) throws -> T {
    try decoder.decode(type, from: self)
  }
}

/// The encoder's output into a tree (see `_EncoderOutput`): the events go to a tree builder,
/// as a parser of the JSON writer's text would deliver them. A handler itself, so that a
/// `JSONValue` being encoded is replayed through it, its numbers checked as the writer checks
/// them.
struct _TreeOutput: JSONEventHandler {
  var builder = JSONTreeBuilder()
  /// Objects are sorted by key once the value is complete (the JSON writer sorts each
  /// object as it ends; the builder keeps members in the order they came).
  let sortKeys: Bool
  /// Whether a non-finite number in a `JSONValue` is kept (the writer writes it) or refused.
  let allowNonFiniteNumbers: Bool

  /// Set when a key came twice in one object: the value is being encoded again, into this
  /// instead of the builder (see `_MergingTree`).
  var merging: _MergingTree?

  init(options: JSONWriteOptions, mergingRepeatedKeys: Bool = false) {
    sortKeys = options.sortKeys
    allowNonFiniteNumbers = options.allowNonFiniteNumbers
    if mergingRepeatedKeys { merging = _MergingTree() }
    // The builder's state is its own for the whole encode: no uniqueness check per event.
    builder.beginEventRun()
  }

  // MARK: Events

  @inline(__always)
  mutating func startObject() {
    if merging != nil { return merging!.startObject() }
    builder.startObject()
  }
  @inline(__always)
  mutating func endObject() {
    if merging != nil { return merging!.endContainer() }
    builder.endObject()
  }
  @inline(__always)
  mutating func startArray() {
    if merging != nil { return merging!.startArray() }
    builder.startArray()
  }
  @inline(__always)
  mutating func endArray() {
    if merging != nil { return merging!.endContainer() }
    builder.endArray()
  }
  mutating func key(_ key: borrowing JSONString) throws {
    if merging != nil { return merging!.key(key.string, reopens: false) }
    try builder.key(key)
  }
  mutating func string(_ value: borrowing JSONString) {
    if merging != nil { return merging!.add(.string(value.string)) }
    builder.string(value)
  }
  @inline(__always)
  mutating func bool(_ value: Bool) {
    if merging != nil { return merging!.add(.bool(value)) }
    builder.bool(value)
  }
  @inline(__always)
  mutating func null() {
    if merging != nil { return merging!.add(.null) }
    builder.null()
  }

  /// A number, refused when non-finite as the JSON writer refuses it (its error, its
  /// message), unless the options allow it.
  mutating func number(_ value: borrowing JSONNumber) throws {
    if value.isNonFinite && !allowNonFiniteNumbers {
      throw JSONWriterError(kind: .nonFiniteNumber, message: "\(value.text) is not a JSON number")
    }
    if merging != nil { return merging!.add { $0.number(value) } }
    builder.number(value)
  }

  mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    if case .double(let double) = value, !double.isFinite, !allowNonFiniteNumbers {
      throw JSONWriterError(
        kind: .nonFiniteNumber, message: "\(double.description) is not a JSON number")
    }
    if merging != nil { return merging!.add { $0.binaryNumber(value) } }
    builder.binaryNumber(value)
  }

  /// Nothing: the builder's run lasts the whole encode, a replayed value's events included.
  mutating func beginEventRun() {}
  /// Nothing (see ``beginEventRun()``).
  mutating func endEventRun() {}

  // MARK: The encoder's values

  @inline(__always)
  mutating func key(_ key: String) throws {
    if merging != nil { return merging!.key(key, reopens: false) }
    var key = key
    try key.withJSONString { try builder.key($0) }
  }

  @inline(__always)
  mutating func string(_ value: String) {
    if merging != nil { return merging!.add(.string(value)) }
    var value = value
    value.withJSONString { builder.string($0) }
  }

  @inline(__always)
  mutating func number(_ value: Int64) {
    if merging != nil { return merging!.add(.number(JSONValue.Number(value))) }
    builder.binaryNumber(.int(value))
  }

  @inline(__always)
  mutating func number(_ value: UInt64) {
    if merging != nil { return merging!.add(.number(JSONValue.Number(value))) }
    builder.binaryNumber(value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value))
  }

  /// A finite double's or float's `description`, trimmed of `.0` as the JSON output trims it:
  /// the number node parsing that text makes.
  mutating func double(_ description: String) {
    var text = description
    if merging != nil {
      return text.withTrimmedFloatingPointText { number in merging!.add { $0.number(number) } }
    }
    text.withTrimmedFloatingPointText { builder.number($0) }
  }

  /// A whole value, replayed through this handler.
  mutating func write(_ value: JSONValue) throws {
    try value.replay(into: &self)
  }

  /// The complete value.
  mutating func finish() -> JSONValue {
    // Merged values are sorted where they are written (see `encodeRootOrMerge`).
    if let merging { return merging.value! }
    builder.endEventRun()
    let value = builder.value!
    return sortKeys ? Self.sortingKeys(value) : value
  }
  /// `value` with the members of every object in key order (UTF-8 byte order, as the JSON
  /// writer sorts them), read through the node cursor so that every number keeps its text.
  /// Walked with a stack of its own, so that any depth is sorted.
  static func sortingKeys(_ value: JSONValue) -> JSONValue {
    guard value.arrayValue != nil || value.objectValue != nil else { return value }
    /// An open container: its node, the order of its children, the next one.
    struct Frame {
      var container: JSONNodeCursor
      var order: [Int]?
      var next = 0
    }
    let root = JSONNodeCursorRoot(value)
    var builder = JSONTreeBuilder()
    var stack: [Frame] = []
    func open(_ node: JSONNodeCursor) {
      switch node.kind {
      case .array:
        builder.startArray()
        stack.append(Frame(container: node, order: nil))
      case .object:
        builder.startObject()
        let keys = (0..<node.count).map { node.keyString($0) }
        let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        stack.append(Frame(container: node, order: order))
      case .string:
        var text = node.string!
        text.withJSONString { builder.string($0) }
      case .number:
        node.withNumber { builder.number($0) }
      case .bool:
        builder.bool(node.bool!)
      case .null:
        builder.null()
      }
    }
    open(root.cursor)
    while var frame = stack.popLast() {
      let position = frame.next
      guard position < frame.container.count else {
        if frame.order == nil { builder.endArray() } else { builder.endObject() }
        continue
      }
      frame.next += 1
      stack.append(frame)
      guard let order = frame.order else {
        open(frame.container.element(position))
        continue
      }
      var key = frame.container.keyString(order[position])
      // Keys of one object are distinct: no repeated key to refuse.
      try! key.withJSONString { try builder.key($0) }
      open(frame.container.value(order[position]))
    }
    return withExtendedLifetime(root) { builder.value! }
  }
}
