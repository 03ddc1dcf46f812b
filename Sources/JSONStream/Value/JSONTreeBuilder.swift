/// An event consumer that builds ``JSONValue``s: every complete top-level value lands in
/// ``values`` (one for a document; many with ``JSONParseOptions/allowMultipleValues``).
///
/// ```swift
/// var parser = JSONParser(handler: JSONTreeBuilder())
/// try parser.feed(chunk1)
/// try parser.feed(chunk2)
/// try parser.finish()
/// let value = parser.handler.value
/// ```
///
/// A builder can be reused across documents (``reset()``): it keeps a cache of key strings, so
/// the keys that repeat in every record are decoded into `String`s once (JSONKit's reusable
/// decoder cache). Nesting is kept on explicit stacks, so depth costs no call stack.
public struct JSONTreeBuilder: JSONEventHandler {
  /// What a repeated key in an object does.
  public var duplicateKeyPolicy: JSONDuplicateKeyPolicy

  /// The complete top-level values so far.
  public var values: [JSONValue] { _values }

  @usableFromInline var _values: [JSONValue] = []

  /// Open containers, innermost last: `true` for an object.
  @usableFromInline var _kinds: [Bool] = []
  @usableFromInline var _arrays: [[JSONValue]] = []
  @usableFromInline var _objects: [_ObjectFrame] = []
  @usableFromInline var _keyCache: _KeyCache?

  /// - Parameters:
  ///   - duplicateKeyPolicy: what a repeated key does; last wins by default.
  ///   - cachesKeys: reuse `String`s for keys seen before (on by default).
  public init(duplicateKeyPolicy: JSONDuplicateKeyPolicy = .lastWins, cachesKeys: Bool = true) {
    self.duplicateKeyPolicy = duplicateKeyPolicy
    self._keyCache = cachesKeys ? _KeyCache() : nil
  }

  /// The first complete top-level value, if any.
  public var value: JSONValue? { _values.first }

  /// Forgets the values and any partial one, keeping the key cache for the next document.
  public mutating func reset() {
    _values.removeAll()
    _kinds.removeAll(keepingCapacity: true)
    _arrays.removeAll(keepingCapacity: true)
    _objects.removeAll(keepingCapacity: true)
  }

  /// Returns the complete values and forgets them (for streams of many documents).
  public mutating func takeValues() -> [JSONValue] {
    defer { _values.removeAll() }
    return _values
  }

  // MARK: Events

  @inlinable
  public mutating func startObject() {
    _kinds.append(true)
    _objects.append(_ObjectFrame())
  }

  @inlinable
  public mutating func endObject() {
    _kinds.removeLast()
    _add(.object(_objects.removeLast().object))
  }

  @inlinable
  public mutating func startArray() {
    _kinds.append(false)
    _arrays.append([])
  }

  @inlinable
  public mutating func endArray() {
    _kinds.removeLast()
    _add(.array(_arrays.removeLast()))
  }

  @inlinable
  public mutating func key(_ key: JSONString) throws {
    let string = _keyCache?.string(for: key) ?? key.string
    let last = _objects.count - 1
    if let existing = _objects[last].object.index(forKey: string) {
      switch duplicateKeyPolicy {
      case .lastWins: _objects[last].slot = existing
      case .firstWins: _objects[last].slot = _ObjectFrame.discard
      case .error: throw JSONValueError.duplicateKey(string)
      }
    } else {
      _objects[last].slot = _ObjectFrame.append
    }
    _objects[last].key = string
  }

  @inlinable
  public mutating func string(_ value: JSONString) {
    _add(.string(value.string))
  }

  @inlinable
  public mutating func number(_ value: JSONNumber) {
    _add(.number(JSONValue.Number(exactly: value)))
  }

  @inlinable
  public mutating func bool(_ value: Bool) {
    _add(.bool(value))
  }

  @inlinable
  public mutating func null() {
    _add(.null)
  }

  /// A complete value: into the innermost container, or a top-level value.
  @inlinable
  mutating func _add(_ value: JSONValue) {
    guard let isObject = _kinds.last else {
      _values.append(value)
      return
    }
    if isObject {
      _objects[_objects.count - 1].add(value)
    } else {
      _arrays[_arrays.count - 1].append(value)
    }
  }
}

/// An object being built, and where its next value goes.
@usableFromInline
struct _ObjectFrame {
  @usableFromInline static var append: Int { -1 }
  @usableFromInline static var discard: Int { -2 }

  @usableFromInline var object = JSONObject()
  @usableFromInline var key = ""
  /// `append`, `discard`, or the position of a repeated key whose value is replaced.
  @usableFromInline var slot = -1

  @inlinable init() {}

  @inlinable
  mutating func add(_ value: JSONValue) {
    if slot == _ObjectFrame.append {
      object._append(key, value)
    } else if slot >= 0 {
      object._values[slot] = value
    }
  }
}

/// Errors of the tree builder.
public enum JSONValueError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An object repeated this key under ``JSONDuplicateKeyPolicy/error``.
  case duplicateKey(String)

  public var description: String {
    switch self {
    case .duplicateKey(let key): return "duplicate key \"\(key)\" in an object"
    }
  }
}

/// A direct-mapped cache of key strings by their bytes: a hit returns a `String` made before
/// (sharing its storage) instead of allocating a new one. Only keys longer than 15 bytes go
/// through it, since shorter ones are stored inline anyway. Bounded: a colliding key
/// replaces the older one.
@usableFromInline
struct _KeyCache {
  /// Empty until the first key long enough to cache: a builder for a small document (or
  /// one with short keys only) never pays for the table.
  @usableFromInline var slots: [String?] = []
  @usableFromInline static var slotCount: Int { 1024 }
  @usableFromInline static var maxKeyLength: Int { 64 }

  @inlinable
  init() {}

  @inlinable
  mutating func string(for key: JSONString) -> String {
    let bytes = key.utf8
    // Up to 15 bytes, Swift stores a string inline: making one costs no allocation, and
    // less than a lookup would.
    guard bytes.count > 15 && bytes.count <= _KeyCache.maxKeyLength else { return key.string }
    if slots.isEmpty { slots = Array(repeating: nil, count: _KeyCache.slotCount) }
    // FNV-1a over the bytes.
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let slot = Int(hash & UInt32(_KeyCache.slotCount - 1))
    if let cached = slots[slot],
      cached.utf8.withContiguousStorageIfAvailable({ _bytesEqual($0, bytes) }) == true
    {
      return cached
    }
    let string = key.string
    slots[slot] = string
    return string
  }
}
