import Foundation

/// A `Codable` type that tunes how ``JSONStreamDecoder`` and ``JSONStreamEncoder`` map it,
/// without writing `init(from:)` or `encode(to:)` by hand (JLObjectMapping's per-class
/// methods). Every requirement has a default; implement only what you need.
///
/// ```swift
/// struct Account: Codable, JSONModel {
///   var firstName: String
///   var password: String?
///   var createdAt: Date
///   var updatedAt: Date
///
///   // The JSON says "first"; the property is firstName.
///   static var jsonKeys: [String: String] { ["firstName": "first"] }
///   // Read from JSON, never written back.
///   static var jsonExcludedKeys: Set<String> { ["password"] }
///   // Each date property in its own format.
///   static func jsonDateFormatter(forKey key: String) -> DateFormatter? {
///     key == "createdAt" ? Formats.dayFirst : nil   // nil: the coder's date strategy
///   }
///   // Fix up or validate after decoding; throwing fails the decode.
///   mutating func didDecode() throws {
///     firstName = firstName.trimmingCharacters(in: .whitespaces)
///   }
/// }
/// ```
///
/// The maps apply to the type's keyed container, with the synthesized `CodingKeys` or your
/// own: keys are the coding keys' `stringValue`s. Each is read once per type and decode or
/// encode call, and checked then: a name in ``jsonKeys`` or ``jsonExcludedKeys`` that no
/// coding key stands for fails the call, naming it.
public protocol JSONModel {
  /// Coding keys whose JSON name differs, with that name: `["firstName": "first"]`. A mapped
  /// name is used as written; the coder's key strategy applies to the other keys.
  static var jsonKeys: [String: String] { get }

  /// Coding keys left out when encoding (JLObjectMapping's `jl_excludedFromSerialization`).
  /// Decoding still reads them.
  static var jsonExcludedKeys: Set<String> { get }

  /// The formatter for the dates under a coding key, or nil for the coder's date strategy
  /// (JLObjectMapping's `jl_dateFormatterForPropertyNamed:`). Used both ways, for a `Date`
  /// property and for the dates in an optional, array or `String`-keyed dictionary property
  /// (nested ones too), not for those inside other types.
  static func jsonDateFormatter(forKey key: String) -> DateFormatter?

  /// Called on a value right after it is decoded (JLObjectMapping's `jl_didDeserialize`).
  /// An error thrown here fails the decode.
  mutating func didDecode() throws

  /// Called on a copy of a value right before it is encoded, and the copy is encoded
  /// (JLObjectMapping's `jl_willSerialize`). An error thrown here fails the encode.
  mutating func willEncode() throws
}

extension JSONModel {
  /// None: every key keeps its name, under the coder's key strategy.
  public static var jsonKeys: [String: String] { [:] }
  /// None: every key is encoded.
  public static var jsonExcludedKeys: Set<String> { [] }
  /// `nil` for every key: dates follow the coder's date strategy.
  public static func jsonDateFormatter(forKey key: String) -> DateFormatter? { nil }
  /// Does nothing.
  public mutating func didDecode() throws {}
  /// Does nothing.
  public mutating func willEncode() throws {}
}

/// What a coder needs of a ``JSONModel`` type, read once per type and coding call.
final class _ModelMapping {
  let type: any JSONModel.Type
  let keys: [String: String]
  /// The map the other way: JSON names to coding keys.
  let properties: [String: String]
  let excluded: Set<String>
  /// Formatters by coding key, asked for on first use (nil: none for that key).
  private var formatters: [String: DateFormatter?] = [:]
  /// The key types of the containers the type's values made (see `problem`).
  private var keyTypes: [ObjectIdentifier] = []
  /// The names in the maps that none of those key types stands for.
  private var unmatched: Set<String>

  init(_ type: any JSONModel.Type) {
    self.type = type
    keys = type.jsonKeys
    properties = Dictionary(keys.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    excluded = type.jsonExcludedKeys
    unmatched = Set(keys.keys).union(excluded)
  }

  /// Notes that a value of the type made a keyed container of `Key`: the names `Key` stands
  /// for are coding keys. (A subclass's value makes its superclass's container too, and a
  /// hand-written `init(from:)` may make several.)
  func accept<Key: CodingKey>(_ keyType: Key.Type) {
    let id = ObjectIdentifier(keyType)
    if keyTypes.contains(id) { return }
    keyTypes.append(id)
    unmatched = unmatched.filter { Key(stringValue: $0) == nil }
  }

  /// What is wrong with the maps once a value of the type is coded: the names in
  /// ``JSONModel/jsonKeys`` and ``JSONModel/jsonExcludedKeys`` that no key type of its keyed
  /// containers stands for (a misspelt property name would otherwise be ignored without a
  /// word). Nil when nothing is wrong, or when no keyed container was made.
  var problem: String? {
    guard !unmatched.isEmpty, !keyTypes.isEmpty else { return nil }
    let names = unmatched.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    return "\(type)'s jsonKeys or jsonExcludedKeys name \(names), which no coding key of"
      + " \(type) stands for."
  }

  func dateFormatter(forKey key: String) -> DateFormatter? {
    if let known = formatters[key] { return known }
    let formatter = type.jsonDateFormatter(forKey: key)
    formatters[key] = formatter
    return formatter
  }
}

/// What a coder treats apart, by type: a ``JSONModel`` (its mapping), an array (written and
/// read without the standard library's unspecialized code) or a dictionary with `String` keys
/// (its keys are written and read as they are, with no key strategy, as Foundation does).
/// A class: found by a table lookup per value, and passed on as one reference.
final class _TypeInfo {
  let mapping: _ModelMapping?
  let conformances: _Conformances
  /// Its number in its table (the types met before it in the coding call): the encoder's key
  /// check keeps the keys its values' objects write under it.
  let number: Int

  init(_ type: Any.Type, number: Int) {
    self.number = number
    conformances = _Conformances.of(type)
    mapping = conformances.model.map(_ModelMapping.init)
  }
}

/// What a type conforms to, of the protocols a coder treats apart. Found once per process
/// and type: a conformance check costs thousands of instructions each time, even for a
/// type the runtime has seen (measured: 2% of decoding twitter.json when done per call).
///
/// Unchecked: it holds only metatypes, which are immutable; the compiler does not count
/// existential metatypes as `Sendable`.
struct _Conformances: @unchecked Sendable {
  var model: (any JSONModel.Type)?
  /// A `[String: Value]` the decoder reads itself (see `_StringKeyedDecodable`).
  var stringKeyedDecodable: (any _StringKeyedDecodable.Type)?
  /// A `[String: Value]` the encoder writes itself (see `_StringKeyedEncodable`).
  var stringKeyedEncodable: (any _StringKeyedEncodable.Type)?
  /// An `Array` the decoder reads itself (see `_DecodableArray`).
  var decodableArray: (any _DecodableArray.Type)?
  /// An `Array` the encoder writes itself (see `_EncodableArray`).
  var encodableArray: (any _EncodableArray.Type)?
  /// A `Set`, native in the binary format (see `_EncodableSet`).
  var encodableSet: (any _EncodableSet.Type)?
  /// An ordered set, native in the binary format.
  var orderedSet: (any JSONBinaryOrderedSet.Type)?
  /// A dictionary, written as a map in the binary format when its keys are not strings (see
  /// `_EncodableMap`).
  var encodableMap: (any _EncodableMap.Type)?
  /// A dictionary, read from a binary map when its keys are not strings (see `_DecodableMap`).
  var decodableMap: (any _DecodableMap.Type)?

  init(of type: Any.Type) {
    model = type as? any JSONModel.Type
    stringKeyedDecodable = type as? any _StringKeyedDecodable.Type
    stringKeyedEncodable = type as? any _StringKeyedEncodable.Type
    decodableArray = type as? any _DecodableArray.Type
    encodableArray = type as? any _EncodableArray.Type
    encodableSet = type as? any _EncodableSet.Type
    orderedSet = type as? any JSONBinaryOrderedSet.Type
    encodableMap = type as? any _EncodableMap.Type
    decodableMap = type as? any _DecodableMap.Type
  }

  /// Every coder's conformances so far, by type.
  private static let known = _ConformanceTable()

  static func of(_ type: Any.Type) -> _Conformances {
    let id = ObjectIdentifier(type)
    if let found = known.lookUp(id) { return found }
    // Checked outside the lock: two threads may both check a new type, with the same answer.
    let found = _Conformances(of: type)
    known.insert(found, for: id)
    return found
  }
}

/// The process's `_Conformances` by type, behind an `NSLock`: a pthread mutex, which the
/// thread sanitizer follows (it does not see the futex under `Synchronization.Mutex`, and
/// reported each first use of a type from two tasks as a race).
private final class _ConformanceTable: @unchecked Sendable {
  private let lock = NSLock()
  private var table: [ObjectIdentifier: _Conformances] = [:]

  func lookUp(_ id: ObjectIdentifier) -> _Conformances? {
    lock.lock()
    defer { lock.unlock() }
    return table[id]
  }

  func insert(_ conformances: _Conformances, for id: ObjectIdentifier) {
    lock.lock()
    defer { lock.unlock() }
    table[id] = conformances
  }
}
