extension JSONValue {
  /// A JSON number that keeps its exact value: an integer (`Int64`, or `UInt64` above
  /// `Int64.max`), a `Double` when that holds the written value without loss, or else the
  /// number's text — `123456789012345678901234567890`, `1e400` and
  /// `0.10000000000000000001` survive a parse and write unchanged.
  ///
  /// Equality is numeric across representations (`1 == 1.0`); text-kept numbers equal each
  /// other by text.
  public struct Number: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Storage: Sendable {
      case int(Int64)
      case uint(UInt64)
      case double(Double)
      case text(String)
    }

    @usableFromInline
    let storage: Storage

    @inlinable
    init(storage: Storage) { self.storage = storage }

    @inlinable
    public init(_ value: Int64) { storage = .int(value) }

    @inlinable
    public init(_ value: Int) { storage = .int(Int64(value)) }

    @inlinable
    public init(_ value: UInt64) {
      storage = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    /// A double. NaN and infinities can be held, but writers refuse them (JSON has no such
    /// numbers).
    @inlinable
    public init(_ value: Double) { storage = .double(value) }

    /// Number text, checked against the JSON grammar (nil if it is not a JSON number).
    public init?(text: String) {
      var text = text
      let flags = text.withUTF8 { _classifyNumberText($0) }
      guard let flags, flags & JSONNumber._nonFinite == 0 else { return nil }
      self = text.withUTF8 { Number(exactly: JSONNumber(_utf8: $0, flags: flags)) }
    }

    /// The most faithful representation of a parsed number.
    @inlinable
    public init(exactly number: JSONNumber) {
      if number.isInteger, let value = number.int64 {
        storage = .int(value)
      } else if number.isNonFinite {
        storage = .double(number.double)
      } else if let value = number.losslessDouble {
        storage = .double(value)
      } else if let value = number.uint64 {
        storage = .uint(value)
      } else if let value = number.int64 {
        storage = .int(value)
      } else {
        storage = .text(number.text)
      }
    }

    /// The value as `Int64` when it is an integer that fits.
    public var int64: Int64? {
      switch storage {
      case .int(let value): return value
      case .uint: return nil
      case .double(let value): return Int64(exactly: value)
      case .text(let text): return Self.withNumber(text) { $0.int64 }
      }
    }

    /// The value as `UInt64` when it is a non-negative integer that fits.
    public var uint64: UInt64? {
      switch storage {
      case .int(let value): return UInt64(exactly: value)
      case .uint(let value): return value
      case .double(let value): return UInt64(exactly: value)
      case .text(let text): return Self.withNumber(text) { $0.uint64 }
      }
    }

    /// The value as the nearest `Double` (±infinity beyond its range).
    public var double: Double {
      switch storage {
      case .int(let value): return Double(value)
      case .uint(let value): return Double(value)
      case .double(let value): return value
      case .text(let text): return Self.withNumber(text) { $0.double }
      }
    }

    /// `true` when the number is an integer (whatever its representation).
    public var isInteger: Bool {
      switch storage {
      case .int, .uint: return true
      case .double(let value): return value.isFinite && value.rounded(.towardZero) == value
      case .text(let text): return Self.withNumber(text) { $0.isInteger }
      }
    }

    /// The number's JSON text: integers in decimal, doubles in the shortest form that reads
    /// back as the same double, kept text as it was.
    public var description: String {
      switch storage {
      case .int(let value): return String(value)
      case .uint(let value): return String(value)
      case .double(let value): return _nonFiniteAwareText(value)
      case .text(let text): return text
      }
    }

    /// Emits the number as an event.
    @inlinable
    func withJSONNumber<R>(_ body: (JSONNumber) throws -> R) rethrows -> R {
      var text = description
      return try text.withUTF8 { bytes in
        try body(
          JSONNumber(_utf8: bytes, flags: _classifyNumberText(bytes) ?? JSONNumber._nonFinite))
      }
    }

    static func withNumber<R>(_ text: String, _ body: (JSONNumber) -> R) -> R {
      var text = text
      return text.withUTF8 { bytes in
        body(JSONNumber(_utf8: bytes, flags: _classifyNumberText(bytes) ?? 0))
      }
    }

    public static func == (lhs: Number, rhs: Number) -> Bool {
      switch (lhs.storage, rhs.storage) {
      case (.int(let a), .int(let b)): return a == b
      case (.uint(let a), .uint(let b)): return a == b
      case (.double(let a), .double(let b)): return a == b
      case (.text(let a), .text(let b)): return a == b
      case (.int, .uint), (.uint, .int): return false  // .uint is always above Int64.max
      case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
        return Double(exactly: a) == b
      case (.uint(let a), .double(let b)), (.double(let b), .uint(let a)):
        return Double(exactly: a) == b
      default: return false
      }
    }

    public func hash(into hasher: inout Hasher) {
      // Equal numbers must hash alike: integers that a Double holds exactly hash as that
      // Double.
      switch storage {
      case .int(let value):
        if let exact = Double(exactly: value) {
          hasher.combine(exact == 0 ? 0 : exact)
        } else {
          hasher.combine(value)
        }
      case .uint(let value):
        if let exact = Double(exactly: value) {
          hasher.combine(exact)
        } else {
          hasher.combine(value)
        }
      case .double(let value): hasher.combine(value == 0 ? 0 : value)
      case .text(let text): hasher.combine(text)
      }
    }
  }
}

extension JSONNumber {
  /// The value as a `Double` when writing that double back (shortest round-trip text) gives the
  /// same decimal value as the text here — so keeping the double loses nothing.
  @usableFromInline
  var losslessDouble: Double? {
    let value = double
    guard value.isFinite, let digits = _DecimalDigits(self) else { return nil }
    // Up to 15 significant digits always survive text → double → shortest text.
    if digits.digitCount <= 15 && !digits.truncated { return value }
    var shortest = _shortestText(value)
    let same = shortest.withUTF8 { bytes -> Bool in
      guard let flags = _classifyNumberText(bytes),
        let other = _DecimalDigits(JSONNumber(_utf8: bytes, flags: flags))
      else { return false }
      return other.sameValue(as: digits)
    }
    return same ? value : nil
  }
}

/// The shortest text that reads back as `value`, as a JSON number (Swift's `description`,
/// which is shortest round-trip; `5.0` stays `5.0`, `1e-07` is valid JSON as is).
@usableFromInline
func _shortestText(_ value: Double) -> String {
  value.description
}
