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
        self.init(storage: .int(value))
      } else {
        self.init(_nonInt64: number)
      }
    }

    /// `init(exactly:)`, but keeping the text as written when the number's own form would
    /// write it differently (`-0`, `1E2`, `1.50`): for a parsed top-level number, which is
    /// then written back as it was, like numbers inside parsed arrays and objects.
    init(keepingText number: JSONNumber) {
      let value = Number(exactly: number)
      let text = number.text
      self = value.description == text ? value : Number(storage: .text(text))
    }

    @usableFromInline
    init(_nonInt64 number: JSONNumber) {
      if number.isNonFinite {
        storage = .double(number.double)
      } else if let value = number._shortDouble {
        storage = .double(value)
      } else if let value = number.int64 {
        storage = .int(value)
      } else if let value = number.uint64 {
        storage = .uint(value)
      } else {
        // More digits than a double is sure to keep, or out of its normal range: the text is
        // the value (conversions parse it on demand; equality compares decimal values).
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

    /// Emits the number as an event. Integers are written into a stack buffer: no `String`.
    @inlinable
    func withJSONNumber<R>(_ body: (JSONNumber) throws -> R) rethrows -> R {
      if case .int(let value) = storage {
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
          var magnitude = value.magnitude
          var start = 20
          repeat {
            start -= 1
            buffer[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ ._zero
            magnitude /= 10
          } while magnitude != 0
          if value < 0 {
            start -= 1
            buffer[start] = ._minus
          }
          return try body(
            JSONNumber(_utf8: UnsafeBufferPointer(rebasing: buffer[start..<20]), flags: 0))
        }
      }
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
      case (.text(let a), .text(let b)):
        return a == b || Self.decimalsEqual(a, b)
      case (.int, .uint), (.uint, .int): return false  // .uint is always above Int64.max
      case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
        return Double(exactly: a) == b
      case (.uint(let a), .double(let b)), (.double(let b), .uint(let a)):
        return Double(exactly: a) == b
      case (.text(let a), .double(let b)), (.double(let b), .text(let a)):
        return Self.withNumber(a) { $0.losslessDouble } == b
      case (.text(let a), .int(let b)), (.int(let b), .text(let a)):
        return Self.withNumber(a) { $0.int64 } == b
      case (.text(let a), .uint(let b)), (.uint(let b), .text(let a)):
        return Self.withNumber(a) { $0.uint64 } == b
      }
    }

    static func decimalsEqual(_ a: String, _ b: String) -> Bool {
      _NormalizedDecimal(a) == _NormalizedDecimal(b)
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
      case .text(let text):
        // Hash as the equal double or integer would, else by normalized decimal digits.
        if let value = Self.withNumber(text, { $0.int64 }), let exact = Double(exactly: value) {
          hasher.combine(exact == 0 ? 0 : exact)
        } else if let value = Self.withNumber(text, { $0.losslessDouble }) {
          hasher.combine(value == 0 ? 0 : value)
        } else {
          hasher.combine(_NormalizedDecimal(text))
        }
      }
    }
  }
}

extension JSONNumber {
  /// The value as a `Double` when it has at most 15 significant digits and lands in the normal
  /// range: such a decimal always survives text → double → shortest text, so the double
  /// holds it without loss. Cheap (usually Clinger's fast path); nil otherwise.
  @usableFromInline
  var _shortDouble: Double? {
    guard let digits = _DecimalDigits(self), digits.digitCount <= 15, !digits.truncated else {
      return nil
    }
    let value = double
    if value.isNormal || (value == 0 && digits.significand == 0) { return value }
    return nil
  }

  /// The value as a `Double` when writing that double back (shortest round-trip text) gives the
  /// same decimal value as the text here — so keeping the double loses nothing.
  @usableFromInline
  var losslessDouble: Double? {
    if let value = _shortDouble { return value }
    let value = double
    guard value.isNormal, let digits = _DecimalDigits(self) else { return nil }
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

/// A number's decimal value in a canonical form — sign, significant digits without leading or
/// trailing zeros, and the exponent of the last digit — so that `1.50`, `15e-1` and `1.5`
/// compare and hash alike, at any length. Only for valid number text.
struct _NormalizedDecimal: Hashable {
  var negative = false
  var digits: [UInt8] = []
  var exponent = 0

  init(_ text: String) {
    var fractionDigits = 0
    var inFraction = false
    var explicitExponent = 0
    var exponentSign = 1
    var inExponent = false
    for byte in text.utf8 {
      switch byte {
      case ._minus where !inExponent: negative = true
      case ._minus: exponentSign = -1
      case ._plus: break
      case ._period: inFraction = true
      case ._lowerE, ._upperE: inExponent = true
      case _ where inExponent:
        if explicitExponent < 1_000_000_000 {
          explicitExponent = explicitExponent * 10 + Int(byte - ._zero)
        }
      default:
        if byte == ._zero && digits.isEmpty {
          if inFraction { fractionDigits += 1 }
          continue
        }
        digits.append(byte)
        if inFraction { fractionDigits += 1 }
      }
    }
    exponent = exponentSign * explicitExponent - fractionDigits
    while digits.last == ._zero {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty {
      negative = false
      exponent = 0
    }
  }
}
