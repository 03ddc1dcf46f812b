import Foundation
import JSONStream

// How the decoder reads. One `_Decoder` per decode call reads the parsed document in place
// through cursors (see JSONValue+Cursor): no `JSONValue` and no decoder object is made per
// value. It is the `Decoder` of whatever value is being decoded: decoding a child moves its
// cursor there and pushes the key on its coding path, and moves back after. Scalars that the
// standard library decodes generically (an `[Double]`'s elements) are read straight from
// their node, without going through `init(from:)`.

/// The keys a type's keyed containers asked for, when unknown or absent keys are checked.
final class _KeyUsage {
  var asked: Set<String> = []
  var absent: [String] = []
}

/// Keys checked once the value that asked for them is decoded: those of a nested keyed
/// container (by its object, shared by every container of that object), or everything a
/// super decoder's value asked for.
enum _PendingKeyCheck {
  case object(JSONNodeCursor, path: [any CodingKey], usage: _KeyUsage)
  case decoder(_Decoder)
}

/// What a `_Decoder` changes as it goes. In memory of its own, not in the class's stored
/// properties: each access to those is checked at run time for exclusive access, which cost
/// about 7% of decoding twitter.json.
struct _DecoderState {
  /// The value being decoded.
  var cursor: JSONNodeCursor
  /// Its coding path.
  var path: _CodingPath
  /// Its model mapping, when its type is a ``JSONModel``.
  var mapping: _ModelMapping? = nil
  /// The keys its keyed container asked for, when they are checked.
  var usage: _KeyUsage? = nil
  /// Nested containers and super decoders made while a value decodes, when keys are checked.
  var pendingKeyChecks: [_PendingKeyCheck] = []
  /// The usages of the pending nested containers, by their object's node.
  var nestedUsages: [Int: _KeyUsage] = [:]
  /// A model's format for the property being decoded (``JSONModel/jsonDateFormatter(forKey:)``),
  /// for the dates in its value: in its arrays, optionals and dictionaries with `String` keys,
  /// not inside other types, whose keyed containers clear it.
  var dateFormatter: DateFormatter? = nil
  var types = _TypeInfos()
  /// The container type of each key type met.
  var containerTypes = _KeyedContainerTypes()
  /// Converted member keys (a key strategy), each converted once per call.
  var convertedKeys: [String: String] = [:]
  /// Decoding binary with shared values: the number of each shared value, by its node (see
  /// `JSONValue.readingSharedValues`), and the class instance decoded from each so far.
  var sharedValues: [_SharedNodeKey: Int]? = nil
  var sharedInstances: [Int: AnyObject] = [:]
}

/// A node's bits, by which the decoder knows the places of one shared value.
struct _SharedNodeKey: Hashable {
  let head: UInt64
  let payload: UInt64

  init(_ node: _Node) {
    head = node.head
    payload = node.payload
  }
}

final class _Decoder: Decoder, SingleValueDecodingContainer {
  let options: JSONStreamDecoder.Settings
  let checksKeys: Bool
  /// Member keys are converted (a key strategy other than `useDefaultKeys`): read once here,
  /// not from the options (a copy of them) for every keyed container.
  let convertsKeys: Bool
  /// The state, in memory of its own: `state.value` is read and changed in place, without
  /// the exclusivity check a stored `var` of the class would get at run time.
  let state: _StateMemory<_DecoderState>
  /// The document the cursors point into, kept alive as long as the decoder: a container an
  /// `init(from:)` kept may be read after the decode call returned.
  let document: JSONNodeCursorRoot
  /// Per depth (modulo `hintCount`), the member position after the last one a keyed
  /// container found, tried first for its next key: synthesized decoding asks in declaration
  /// order, which is often the document's. Only a hint, so containers of one depth share it.
  let hints = _Buffer<Int>(repeating: 0, count: _Decoder.hintCount)
  static var hintCount: Int { 64 }

  /// A decoder of `document`'s value, or with `cursor`, of that value inside it.
  init(
    options: JSONStreamDecoder.Settings, root document: JSONNodeCursorRoot,
    cursor: JSONNodeCursor? = nil,
    path: [any CodingKey] = []
  ) {
    self.options = options
    self.document = document
    checksKeys = options.unknownKeyDecodingStrategy == .throw || options.keyReportHandler != nil
    if case .useDefaultKeys = options.keyDecodingStrategy {
      convertsKeys = false
    } else {
      convertsKeys = true
    }
    state = _StateMemory(
      _DecoderState(cursor: cursor ?? document.cursor, path: _CodingPath(path)))
  }

  deinit {
    hints.deallocate()
  }

  /// The position hint of keyed containers at `depth`.
  @inline(__always)
  func hint(at depth: Int) -> Int {
    hints[depth & (Self.hintCount &- 1)]
  }

  @inline(__always)
  func setHint(_ hint: Int, at depth: Int) {
    hints[depth & (Self.hintCount &- 1)] = hint
  }

  /// Runs `body` with `formatter` as the format of the dates in the value being decoded (see
  /// `_DecoderState.dateFormatter`), then the enclosing one again.
  func withDateFormatter<R>(_ formatter: DateFormatter, _ body: () throws -> R) rethrows -> R {
    let enclosing = state.value.dateFormatter
    state.value.dateFormatter = formatter
    defer { state.value.dateFormatter = enclosing }
    return try body()
  }

  var cursor: JSONNodeCursor { state.value.cursor }
  var path: [any CodingKey] { state.value.path.keys }

  var codingPath: [any CodingKey] { path }
  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  /// The path of the child under `key` (the current value's path when nil).
  func path(appending key: () -> (any CodingKey)?) -> [any CodingKey] {
    guard let key = key() else { return path }
    return path + [key]
  }

  // MARK: Values

  /// Decodes a `T` from `value`, the child under `key` of the current value. Generic over the
  /// key's type, which becomes an `any CodingKey` only on the coding path or in an error: an
  /// optional existential parameter was copied and destroyed through its metadata for every
  /// value.
  func decode<T: Decodable, K: CodingKey>(_ type: T.Type, from value: JSONNodeCursor, key: K)
    throws -> T
  {
    // The scalars first: a metadata compare each, no call through init(from:).
    if T.self == String.self { return _same(try string(value, key), as: T.self) }
    if T.self == Double.self {
      return _same(try floatingPoint(Double.self, value, key), as: T.self)
    }
    if T.self == Int.self { return _same(try int(value, key), as: T.self) }
    if T.self == Bool.self { return _same(try bool(value, key), as: T.self) }
    if T.self == Int64.self { return _same(try int64(value, key), as: T.self) }
    if T.self == Float.self { return _same(try floatingPoint(Float.self, value, key), as: T.self) }
    return try withKey(key) { try decode(type, from: value) }
  }

  /// Decodes a `T` from `value` on the current coding path (the top-level value, or a single
  /// value container's), with `T`'s own mapping and key checks.
  func decode<T: Decodable>(_ type: T.Type, from value: JSONNodeCursor) throws -> T {
    // Swapped in and out: moved, where copies were a retain and release per reference.
    var cursor = value
    var mapping: _ModelMapping? = nil
    var usage: _KeyUsage? = nil
    swap(&cursor, &state.value.cursor)
    swap(&mapping, &state.value.mapping)
    swap(&usage, &state.value.usage)
    defer {
      swap(&cursor, &state.value.cursor)
      swap(&mapping, &state.value.mapping)
      swap(&usage, &state.value.usage)
    }
    return try decodeCurrent(type)
  }

  /// The current value as a `T` that is `JSONValue`, `JSONObject`, `JSONArray` or
  /// `JSONValue.Number`: taken from the parsed document as a view (the number text of what an
  /// array or an object holds included), not rebuilt member by member.
  func documentValue<T: Decodable>(_ type: T.Type) throws -> T {
    let value = document.value(at: cursor)
    switch value {
    case _ where T.self == JSONValue.self: return _same(value, as: T.self)
    case .object(let object) where T.self == JSONObject.self: return _same(object, as: T.self)
    case .array(let array) where T.self == JSONArray.self: return _same(array, as: T.self)
    case .number(let number) where T.self == JSONValue.Number.self:
      return _same(number, as: T.self)
    default: throw typeMismatch(T.self, cursor, nil)
    }
  }

  /// Decodes the current value as a `T` that is not one of the scalars above.
  func decodeCurrent<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == Date.self { return _same(try decodeDate(), as: T.self) }
    if T.self == Data.self { return _same(try decodeData(), as: T.self) }
    if T.self == URL.self {
      guard let url = URL(string: try string(cursor, nil)) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: path, debugDescription: "Invalid URL string."))
      }
      return _same(url, as: T.self)
    }
    if T.self == Decimal.self {
      guard let text = cursor.withNumber({ $0.text }), let decimal = Decimal(string: text) else {
        throw typeMismatch(Decimal.self, cursor, nil)
      }
      return _same(decimal, as: T.self)
    }
    // Compared here, inline: a call returning `T?` made Optional<T>'s metadata at run time
    // on every decode (decoding citm_catalog took 25% more instructions).
    if T.self == JSONValue.self || T.self == JSONObject.self || T.self == JSONArray.self
      || T.self == JSONValue.Number.self
    {
      return try documentValue(T.self)
    }
    // `type`, not `T`: a subclass's metatype passed as its superclass's decodes the subclass,
    // as Foundation's decoder does.
    let (conformances, mapping) = state.value.types.withInfo(for: type) {
      ($0.conformances, $0.mapping)
    }
    if let array = conformances.decodableArray {
      return try array._decodeElements(from: self, as: T.self)
    }
    if let dictionary = conformances.stringKeyedDecodable {
      return try dictionary._decodeMembers(from: self, as: T.self)
    }
    if let map = conformances.decodableMap, options.readsBinary, cursor.kind == .array {
      return try map._decodeEntries(from: self, as: T.self)
    }
    if state.value.sharedValues != nil, type is AnyClass {
      return try decodeShared(type, mapping: mapping)
    }
    return try decodeByInit(type, mapping: mapping)
  }

  /// The end of `decodeCurrent`: `type`'s own `init(from:)`.
  @inline(__always)
  func decodeByInit<T: Decodable>(_ type: T.Type, mapping: _ModelMapping?) throws -> T {
    state.value.mapping = mapping
    if checksKeys || state.value.dateFormatter != nil {
      return try decodeCurrentWithExtras(type, mapping: mapping)
    }
    var result = try type.init(from: self)
    if let mapping { try didDecode(&result, mapping) }
    return result
  }

  /// A class instance, from binary with shared values: a place of a shared value decoded
  /// before gives the instance decoded there.
  @inline(never)
  func decodeShared<T: Decodable>(_ type: T.Type, mapping: _ModelMapping?) throws -> T {
    guard let index = state.value.sharedValues![_SharedNodeKey(cursor.node)] else {
      return try decodeByInit(type, mapping: mapping)
    }
    if let instance = state.value.sharedInstances[index] {
      guard let same = instance as? T else {
        throw DecodingError.typeMismatch(
          T.self,
          DecodingError.Context(
            codingPath: path,
            debugDescription:
              "Expected to decode \(T.self) but found the shared \(Swift.type(of: instance))"
              + " instance decoded before."))
      }
      return same
    }
    let instance = try decodeByInit(type, mapping: mapping)
    state.value.sharedInstances[index] = instance as AnyObject
    return instance
  }

  /// The end of `decodeCurrent` when keys are checked or a property's date format is in
  /// effect; apart, because in this unspecialized code every extra step of the common path
  /// costs each value (they cost decoding citm_catalog 1% there).
  @inline(never)
  func decodeCurrentWithExtras<T: Decodable>(_ type: T.Type, mapping: _ModelMapping?) throws
    -> T
  {
    // A keyed container of this value clears the property's date format: it is this value's
    // again afterwards.
    let dateFormatter = state.value.dateFormatter
    defer { state.value.dateFormatter = dateFormatter }
    var result: T
    if checksKeys {
      let mark = state.value.pendingKeyChecks.count
      // What a failed decode left (one a caller tried and caught) is not checked.
      defer { dropPendingKeyChecks(from: mark) }
      result = try type.init(from: self)
      try checkKeys(type)
      try checkPendingKeys(type, from: mark)
    } else {
      result = try type.init(from: self)
    }
    if let mapping { try didDecode(&result, mapping) }
    return result
  }

  /// ``JSONModel/didDecode()`` on a model value just decoded, once its maps are known to name
  /// only its coding keys.
  func didDecode<T>(_ result: inout T, _ mapping: _ModelMapping) throws {
    if let problem = mapping.problem {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: path, debugDescription: problem))
    }
    var model = result as! any JSONModel
    try model.didDecode()
    result = model as! T
  }

  // MARK: Scalars

  func string(_ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?) throws -> String
  {
    guard let string = value.string else { throw typeMismatch(String.self, value, key()) }
    return string
  }

  func bool(_ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?) throws -> Bool {
    guard let flag = value.bool else { throw typeMismatch(Bool.self, value, key()) }
    return flag
  }

  /// An integer: the number must be integral and fit, as Foundation requires.
  /// An `Int64`, or (`asInt`) an `Int`: the common integers without the generic path, whose
  /// metadata lookups showed in profiles.
  func int64(_ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?) throws -> Int64 {
    if let int = value.int64 { return int }
    return try integer(Int64.self, value, key())
  }

  func int(_ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?) throws -> Int {
    if let int = value.int64, let exact = Int(exactly: int) {
      return exact
    }
    return try integer(Int.self, value, key())
  }

  func integer<T: FixedWidthInteger>(
    _ type: T.Type, _ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?
  )
    throws -> T
  {
    // The value when it fits; else the number's text, for the error.
    var text = ""
    let fits: T?? = value.withNumber { number in
      if let int = number.int64 {
        if let exact = T(exactly: int) { return exact }
      } else if let exact = number.uint64.flatMap({ T(exactly: $0) }) {
        return exact
      }
      text = number.text
      // Beyond 64 bits (Int128, UInt128): from the digits.
      if T.bitWidth > 64, let exact = _exactInteger(T.self, text: text) { return exact }
      return nil
    }
    guard let fits else { throw typeMismatch(type, value, key()) }
    guard let exact = fits else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path(appending: key),
          debugDescription: "Parsed JSON number <\(text)> does not fit in \(type)."))
    }
    return exact
  }

  /// A floating-point value: the nearest one (non-finite ones only as the strategy's strings).
  func floatingPoint<T: BinaryFloatingPoint>(
    _ type: T.Type, _ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?
  ) throws -> T {
    // A double from the binary format, as it is, when it fits; one that does not takes the
    // text path below, for its error.
    if let double = value.binaryDouble, case let result = T(double),
      result.isFinite == double.isFinite && (result != 0 || double == 0)
    {
      return result
    }
    // The nearest value, and the text of a finite number beyond the type's range.
    if let (result, outOfRange) = value.withNumber({ number -> (T, String?) in
      let result = T(number.double)
      // A number beyond the type's range is an error, as in Foundation, not ±infinity (which
      // only the non-finite literals, when the parse options allow them, stand for); so is a
      // nonzero number too small for it (`1e-400`), not ±0.
      if !result.isFinite && !number.isNonFinite { return (result, number.text) }
      if result == 0 {
        let text = number.text
        let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        if mantissa.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
          return (result, text)
        }
      }
      return (result, nil)
    }) {
      if let outOfRange {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path(appending: key),
            debugDescription: "Parsed JSON number <\(outOfRange)> does not fit in \(type)."))
      }
      return result
    }
    if let text = value.string,
      case .convertFromString(let positive, let negative, let nan) =
        options.nonConformingFloatDecodingStrategy
    {
      if text == positive { return .infinity }
      if text == negative { return -.infinity }
      if text == nan { return .nan }
    }
    throw typeMismatch(type, value, key())
  }

  /// The error for `value` where a `type` was expected: `valueNotFound` for null, as
  /// Foundation reports it, else `typeMismatch`.
  func typeMismatch(
    _ type: Any.Type, _ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?
  )
    -> DecodingError
  {
    let path = path(appending: key)
    let found: String
    switch value.kind {
    case .null:
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path, debugDescription: "Expected \(type) value but found null instead."))
    case .bool: found = "bool"
    case .number: found = "number"
    case .string: found = "string"
    case .array: found = "array"
    case .object: found = "dictionary"
    }
    return DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."
      ))
  }

  // MARK: Dates and data

  func decodeDate() throws -> Date {
    if options.readsBinary && cursor.kind == .number {
      return Date(timeIntervalSinceReferenceDate: try floatingPoint(Double.self, cursor, nil))
    }
    if let formatter = state.value.dateFormatter {
      return try date(cursor, nil, formatter)
    }
    switch options.dateDecodingStrategy {
    case .deferredToDate: return try Date(from: self)
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try floatingPoint(Double.self, cursor, nil))
    case .millisecondsSince1970:
      return Date(timeIntervalSince1970: try floatingPoint(Double.self, cursor, nil) / 1000)
    case .iso8601:
      guard let date = _ISO8601.date(from: try string(cursor, nil)) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path, debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .formatted(let formatter): return try date(cursor, nil, formatter)
    case .custom(let body): return try body(self)
    }
  }

  func date(
    _ value: JSONNodeCursor, _ key: @autoclosure () -> (any CodingKey)?, _ formatter: DateFormatter
  ) throws
    -> Date
  {
    guard let date = formatter.date(from: try string(value, key())) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path(appending: key),
          debugDescription: "Date string does not match format expected by formatter."))
    }
    return date
  }

  func decodeData() throws -> Data {
    switch options.dataDecodingStrategy {
    case .deferredToData: return try Data(from: self)
    case .base64:
      guard let data = Data(base64Encoded: try string(cursor, nil)) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path, debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let body): return try body(self)
    }
  }

  // MARK: Keys

  /// The coding key name a member's key answers to.
  func keyName(forMember key: String) -> String {
    if let mapping = state.value.mapping, let property = mapping.properties[key] {
      return property
    }
    guard case .convertFromSnakeCase = options.keyDecodingStrategy else {
      return options.keyDecodingStrategy.name(forMember: key, in: path)
    }
    // Each distinct key is converted once per call, or per stream of documents (bounded there,
    // for streams of ever new keys).
    if let converted = state.value.convertedKeys[key] { return converted }
    let converted = options.keyDecodingStrategy.name(forMember: key, in: path)
    if state.value.convertedKeys.count >= 4096 {
      state.value.convertedKeys.removeAll(keepingCapacity: true)
    }
    state.value.convertedKeys[key] = converted
    return converted
  }

  /// After `init(from:)`: fails on or reports the keys the object and the type disagree on.
  func checkKeys(_ type: Any.Type) throws {
    guard let usage = state.value.usage else { return }
    try checkKeys(type, of: cursor, usage: usage)
  }

  /// The keys the nested containers and super decoders made since `mark` disagree on with
  /// their objects, while `type` decoded.
  func checkPendingKeys(_ type: Any.Type, from mark: Int) throws {
    for check in state.value.pendingKeyChecks[mark...] {
      switch check {
      case .object(let object, let path, let usage):
        try withPath(path) { try checkKeys(type, of: object, usage: usage) }
      case .decoder(let decoder):
        try decoder.checkKeys(type)
        try decoder.checkPendingKeys(type, from: 0)
      }
    }
  }

  /// The usage to record for a nested keyed container of `object`, at `path`: one per object,
  /// checked when the current value is decoded.
  func nestedUsage(of object: JSONNodeCursor, path: [any CodingKey]) -> _KeyUsage {
    // Found by node, not by a scan of the pending checks: a loop of nested containers would
    // make that quadratic.
    if let usage = state.value.nestedUsages[object.nodeIdentity] { return usage }
    let usage = _KeyUsage()
    state.value.pendingKeyChecks.append(.object(object, path: path, usage: usage))
    state.value.nestedUsages[object.nodeIdentity] = usage
    return usage
  }

  /// Drops the pending checks from `mark` on (checked, or left by a failed decode).
  func dropPendingKeyChecks(from mark: Int) {
    for check in state.value.pendingKeyChecks[mark...] {
      if case .object(let object, _, _) = check {
        state.value.nestedUsages[object.nodeIdentity] = nil
      }
    }
    state.value.pendingKeyChecks.removeSubrange(mark...)
  }

  /// Fails on or reports the keys `object` and the containers that read it disagree on.
  func checkKeys(_ type: Any.Type, of object: JSONNodeCursor, usage: _KeyUsage) throws {
    guard object.kind == .object else { return }
    let cursor = object
    var unknown: [String] = []
    for position in 0..<cursor.count {
      let key = cursor.keyString(position)
      if !usage.asked.contains(keyName(forMember: key)) { unknown.append(key) }
    }
    if !unknown.isEmpty && options.unknownKeyDecodingStrategy == .throw {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path,
          debugDescription: "Unknown keys for \(type): "
            + unknown.map { "\"\($0)\"" }.joined(separator: ", ") + "."))
    }
    if let handler = options.keyReportHandler, !unknown.isEmpty || !usage.absent.isEmpty {
      handler(
        JSONKeyReport(codingPath: path, type: type, unknownKeys: unknown, absentKeys: usage.absent))
    }
  }

  // MARK: Decoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard cursor.kind == .object else { throw typeMismatch([String: Any].self, cursor, nil) }
    if checksKeys && state.value.usage == nil { state.value.usage = _KeyUsage() }
    state.value.mapping?.accept(Key.self)
    // A type of its own: its dates are not the enclosing property's.
    if state.value.dateFormatter != nil { state.value.dateFormatter = nil }
    return keyedContainer(Key.self, object: cursor, base: .shared(state.value.path.count))
  }

  /// A keyed container of `object` with coding path `base`.
  func keyedContainer<Key: CodingKey>(_ type: Key.Type, object: JSONNodeCursor, base: _PathBase)
    -> KeyedDecodingContainer<Key>
  {
    let extras = _KeyedContainer<Key>.extras(decoder: self, object: object, base: base)
    let depth = base.depth
    setHint(0, at: depth)
    return _keyedContainer(
      state.value.containerTypes.decoderType(keyedBy: Key.self),
      owner: extras.map(_KeyedContainerOwner.init(extras:)) ?? _KeyedContainerOwner(decoder: self),
      object: object, depth: depth)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard cursor.kind == .array else { throw typeMismatch([Any].self, cursor, nil) }
    return _UnkeyedContainer(
      decoder: self, array: cursor, base: .shared(state.value.path.count))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  // MARK: Single value

  func decodeNil() -> Bool { cursor.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try bool(cursor, nil) }
  func decode(_ type: String.Type) throws -> String { try string(cursor, nil) }
  func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type, cursor, nil) }
  func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type, cursor, nil) }
  func decode(_ type: Int.Type) throws -> Int { try int(cursor, nil) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, cursor, nil) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, cursor, nil) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, cursor, nil) }
  func decode(_ type: Int64.Type) throws -> Int64 { try int64(cursor, nil) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type, cursor, nil) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, cursor, nil) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, cursor, nil) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, cursor, nil) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, cursor, nil) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: Int128.Type) throws -> Int128 { try integer(type, cursor, nil) }
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type, cursor, nil) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(type, from: cursor) }
}

/// A `[String: Value]`, read with its keys as they are (see `_TypeInfo`).
protocol _StringKeyedDecodable {
  /// The current value of `decoder` as a `Self`, returned as `T` (which is `Self`).
  static func _decodeMembers<T>(from decoder: _Decoder, as type: T.Type) throws -> T
}

extension Dictionary: _StringKeyedDecodable where Key == String, Value: Decodable {
  static func _decodeMembers<T>(from decoder: _Decoder, as type: T.Type) throws -> T {
    _same(try decodeMembers(from: decoder), as: T.self)
  }

  static func decodeMembers(from decoder: _Decoder) throws -> Self {
    let object = decoder.cursor
    guard object.kind == .object else { throw decoder.typeMismatch(Self.self, object, nil) }
    var result: [String: Value] = [:]
    result.reserveCapacity(object.count)
    for position in 0..<object.count {
      let key = object.keyString(position)
      result[key] = try decoder.decode(Value.self, from: object.value(position), key: _JSONKey(key))
    }
    return result
  }
}

/// An `Array`, read by the decoder itself rather than by the standard library's
/// `init(from:)`, which is not specialized for the element type: it looks up the array's
/// generic metadata on every call and grows the array as it goes. Here the array is made at
/// its final size, and scalar elements take the decoder's scalar paths.
protocol _DecodableArray {
  /// The current value of `decoder` as a `Self`, returned as `T` (which is `Self`): no
  /// dynamic cast of the result.
  static func _decodeElements<T>(from decoder: _Decoder, as type: T.Type) throws -> T
}

extension Array: _DecodableArray where Element: Decodable {
  static func _decodeElements<T>(from decoder: _Decoder, as type: T.Type) throws -> T {
    _same(try decodeElements(from: decoder), as: T.self)
  }

  static func decodeElements(from decoder: _Decoder) throws -> Self {
    let array = decoder.cursor
    guard array.kind == .array else { throw decoder.typeMismatch([Any].self, array, nil) }
    let count = array.count
    return try Self._madeInPlace(count: count) { elements in
      for index in 0..<count {
        elements.append(
          try decoder.decode(Element.self, from: array.element(index), key: _IndexKey(index)))
      }
    }
  }
}

/// A dictionary whose keys are not strings, read from the binary format's map (an array of
/// keys and values, alternately) with its keys in their own encoding. From an object (binary
/// written before maps, or from JSON), it decodes as it always does.
protocol _DecodableMap {
  static func _decodeEntries<T>(from decoder: _Decoder, as type: T.Type) throws -> T
}

extension Dictionary: _DecodableMap where Key: Decodable, Value: Decodable {
  static func _decodeEntries<T>(from decoder: _Decoder, as type: T.Type) throws -> T {
    let map = decoder.cursor
    let count = map.count
    guard count & 1 == 0 else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "A map of \(count) elements: its last key has no value."))
    }
    var dictionary = Self(minimumCapacity: count >> 1)
    for index in stride(from: 0, to: count, by: 2) {
      let key = try decoder.decode(Key.self, from: map.element(index), key: _IndexKey(index))
      dictionary[key] = try decoder.decode(
        Value.self, from: map.element(index &+ 1), key: _IndexKey(index &+ 1))
    }
    return _same(dictionary, as: T.self)
  }
}

/// The integer that number text writes exactly (`1e3`, `12.50e1`, `-0`), when it is one and
/// fits a `T`; nil otherwise.
func _exactInteger<T: FixedWidthInteger>(_ type: T.Type, text: String) -> T? {
  var digits: [UInt8] = []
  var exponent = 0
  var isNegative = false
  var inFraction = false
  var bytes = text.utf8[...]
  while let byte = bytes.popFirst() {
    switch byte {
    case UInt8(ascii: "-"): isNegative = true
    case UInt8(ascii: "."): inFraction = true
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
      if inFraction { exponent -= 1 }
    case UInt8(ascii: "e"), UInt8(ascii: "E"):
      // Any exponent past ±100,000 says as much as one of ±100,000 (the number is zero, or no
      // 128-bit integer), and keeps the sums below from overflowing.
      let text = String(decoding: bytes, as: UTF8.self)
      let written = Int(text) ?? (text.hasPrefix("-") ? -100_000 : 100_000)
      exponent += Swift.max(-100_000, Swift.min(100_000, written))
      bytes = bytes[bytes.endIndex...]
    default: return nil
    }
  }
  if digits.isEmpty { return 0 }
  while exponent < 0, digits.last == 0 {
    digits.removeLast()
    exponent += 1
  }
  // A fraction, or more digits than any 128-bit integer has.
  guard exponent >= 0, digits.count + exponent <= 40 else { return nil }
  var value: T = 0
  for digit in digits + [UInt8](repeating: 0, count: exponent) {
    let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
    let (next, overflow2) =
      isNegative
      ? times10.subtractingReportingOverflow(T(digit))
      : times10.addingReportingOverflow(T(digit))
    guard !overflow, !overflow2 else { return nil }
    value = next
  }
  return value
}
