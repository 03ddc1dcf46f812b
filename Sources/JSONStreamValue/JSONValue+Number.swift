import JSONStreamCore
import JSONStreamParser

extension JSONValue {
  /// A JSON number that keeps its exact value: an integer (`Int64`, or `UInt64` above
  /// `Int64.max`), a `Double` when that holds the written value without loss, or else the
  /// number's text — `123456789012345678901234567890`, `1e400` and
  /// `0.10000000000000000001` survive a parse and write unchanged.
  ///
  /// Equality is numeric across representations (`1 == 1.0`, `1.50 == 15e-1`): numbers compare
  /// by the decimal value they are written as (see ``==(_:_:)``), and hash alike when equal.
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

    /// An integer.
    @inlinable
    public init(_ value: Int64) { storage = .int(value) }

    /// An integer.
    @inlinable
    public init(_ value: Int) { storage = .int(Int64(value)) }

    /// An unsigned integer.
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
      let number = text.withJSONNumber { number -> Number? in
        number.isNonFinite ? nil : Number(exactly: number)
      }
      guard let number = number ?? nil else { return nil }
      self = number
    }

    /// The most faithful representation of a parsed number.
    @inlinable
    public init(exactly number: borrowing JSONNumber) {
      if number.isIntegerLiteral, let value = number.int64 {
        self.init(storage: .int(value))
      } else {
        self.init(_nonInt64: number)
      }
    }

    /// `init(exactly:)`, but keeping the text as written when the number's own form would
    /// write it differently (`-0`, `1E2`, `1.50`): for a parsed top-level number, which is
    /// then written back as it was, like numbers inside parsed arrays and objects.
    @usableFromInline
    package init(keepingText number: borrowing JSONNumber) {
      let value = Number(exactly: number)
      // Already the text the value writes (JSON has no leading zeros; `-0` is the one integer
      // literal that does not write as itself): no description to compare.
      let writesAsText: Bool
      switch value.storage {
      case .int(let integer):
        writesAsText = number.isIntegerLiteral && !(integer == 0 && number.isNegative)
      case .double: writesAsText = number._isDoubleDescription
      case .uint: writesAsText = false
      // The text itself.
      case .text: writesAsText = true
      }
      if writesAsText {
        self = value
      } else {
        let text = number.text
        self = value.description == text ? value : Number(storage: .text(text))
      }
    }

    @usableFromInline
    init(_nonInt64 number: borrowing JSONNumber) {
      if number.isNonFinite {
        storage = .double(number.double)
        return
      }
      if let value = number._plainDecimalDouble {
        storage = .double(value)
        return
      }
      // The digits read once for a short double, then an integer (`int64` and `uint64`
      // would each read them again).
      if let digits = _DecimalDigits(number) {
        if let value = number._shortDouble(digits) {
          storage = .double(value)
          return
        }
        if let magnitude = digits.integerMagnitude() {
          if let value = number._int64(magnitude: magnitude) {
            storage = .int(value)
            return
          }
          if !number.isNegative {
            storage = .uint(magnitude)
            return
          }
        }
      }
      // More digits than a double is sure to keep, or out of its normal range: the text is
      // the value (conversions parse it on demand; equality compares decimal values).
      storage = .text(number.text)
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

    /// `true` when the value is an integer, however it is written: `42`, `42.0` and `4.2e1`
    /// are; `4.25e1` is not. (`JSONNumber.isIntegerLiteral` asks about the text instead.)
    public var isInteger: Bool {
      switch storage {
      case .int, .uint: return true
      case .double(let value): return value.isFinite && value.rounded(.towardZero) == value
      case .text(let text):
        // The value's canonical form (what `==` compares): its last significant digit is in
        // the units or above.
        switch Self._key(text: text) {
        case .integer: return true
        case .decimal(let decimal): return decimal.digits.isEmpty || decimal.exponent >= 0
        case .nonFinite: return false
        }
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

    /// The number's JSON text (as ``description``): the same accessor as ``JSONNumber/text``.
    public var text: String { description }

    /// The value as `Int` when it is an integer that fits; `nil` otherwise.
    public var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// `true` for a number below zero, and for `-0` (written, or a negative-zero double).
    public var isNegative: Bool {
      switch storage {
      case .int(let value): return value < 0
      case .uint: return false
      case .double(let value): return value.sign == .minus && !value.isNaN
      case .text(let text): return Self.withNumber(text) { $0.isNegative }
      }
    }

    /// `true` for NaN and the infinities (which only a double can hold; writers refuse them
    /// unless their options allow them).
    public var isNonFinite: Bool {
      if case .double(let value) = storage { return !value.isFinite }
      return false
    }

    /// The value as a `Double` only when it converts exactly (no rounding, no overflow), as
    /// ``JSONNumber/exactDouble``. A double stands for the value of its shortest text, so
    /// `0.1` held as a double has no exact double, as the text `0.1` has none.
    public var exactDouble: Double? {
      switch storage {
      case .int(let value): return Double(exactly: value)
      case .uint(let value): return Double(exactly: value)
      case .double, .text: return withJSONNumber { $0.exactDouble }
      }
    }

    /// `true` when ``double`` is exactly the number's value.
    public var isExactDouble: Bool { exactDouble != nil }

    /// The value as `significand × 10^exponent`, as ``JSONNumber/decimalComponents``: of the
    /// number's text (a double's shortest text), nil when its digits do not fit in `UInt64`
    /// or it is not finite.
    public var decimalComponents: (isNegative: Bool, significand: UInt64, exponent: Int)? {
      switch storage {
      case .int(let value): return (value < 0, value.magnitude, 0)
      case .uint(let value): return (false, value, 0)
      case .double, .text: return withJSONNumber { $0.decimalComponents }
      }
    }

    /// Emits the number as an event. Integers are written into a stack buffer: no `String`.
    @inlinable
    package func withJSONNumber<R>(_ body: (borrowing JSONNumber) throws -> R) rethrows -> R {
      if case .int(let value) = storage {
        return try JSONBinaryNumber.int(value).withJSONNumber(body)
      }
      var text = description
      return try text.withNumberText(flagsIfNotNumber: JSONNumber._nonFinite, body)
    }

    static func withNumber<R>(_ text: String, _ body: (borrowing JSONNumber) -> R) -> R {
      var text = text
      return text.withNumberText(flagsIfNotNumber: 0, body)
    }

    /// Numbers are equal when the decimal values they are written as are equal: an integer is
    /// its value, kept text the value it denotes, and a `Double` its shortest round-trip text
    /// (what writers emit). Comparing those values alone keeps `==` transitive and makes every
    /// number equal to what it reads back as once written; so `Double(1 << 60)`, written
    /// `1.152921504606847e+18`, is not equal to the integer `1 << 60`.
    public static func == (lhs: Number, rhs: Number) -> Bool {
      switch (lhs.storage, rhs.storage) {
      case (.int(let a), .int(let b)): return a == b
      case (.uint(let a), .uint(let b)): return a == b
      // Equal doubles have the same shortest text; -0 and 0 are the same number.
      case (.double(let a), .double(let b)): return a == b
      case (.int, .uint), (.uint, .int): return false  // .uint is always above Int64.max
      default: return lhs._key == rhs._key
      }
    }

    /// Hashes the value `==` compares: an integer that fits in 64 bits by its sign and
    /// magnitude, any other value by its nearest double (equal decimals round alike).
    public func hash(into hasher: inout Hasher) {
      switch storage {
      case .int(let value):
        // The hot case, with no conversion: what `_key` gives, hashed as below.
        hasher.combine(value < 0)
        hasher.combine(value.magnitude)
      case .double(let value) where !value.isFinite || value.rounded(.towardZero) != value:
        // A fraction's shortest text is no integer, and the text reads back as this double.
        hasher.combine(value)
      default:
        switch _key {
        case .integer(let negative, let magnitude):
          hasher.combine(negative)
          hasher.combine(magnitude)
        case .decimal:
          hasher.combine(double)
        case .nonFinite(let value):
          hasher.combine(value)
        }
      }
    }

    /// The decimal value a number denotes, in one form per value, for `==` and hashing.
    enum _Key: Equatable {
      /// An integer whose magnitude fits in `UInt64` (zero is not negative).
      case integer(negative: Bool, magnitude: UInt64)
      /// Every other finite value.
      case decimal(_NormalizedDecimal)
      /// NaN or an infinity, which only doubles and the non-finite literals hold.
      case nonFinite(Double)
    }

    var _key: _Key {
      switch storage {
      case .int(let value): return .integer(negative: value < 0, magnitude: value.magnitude)
      case .uint(let value): return .integer(negative: false, magnitude: value)
      case .double(let value):
        guard value.isFinite else { return .nonFinite(value) }
        // Below 2^53 an integral double's shortest text is the integer itself.
        if value.magnitude < 0x1p53 && value.rounded(.towardZero) == value {
          return .integer(negative: value < 0, magnitude: UInt64(value.magnitude))
        }
        return Self._key(text: _shortestText(value))
      case .text(let text): return Self._key(text: text)
      }
    }

    static func _key(text: String) -> _Key {
      let key = withNumber(text) { number -> _Key? in
        if number.isNonFinite { return .nonFinite(number.double) }
        guard let magnitude = number._integerMagnitude() else { return nil }
        return .integer(negative: number.isNegative && magnitude != 0, magnitude: magnitude)
      }
      return key ?? .decimal(_NormalizedDecimal(text))
    }
  }
}

extension JSONValue.Number {
  /// Whether this number's decimal value is below `other`'s, exactly: the order that goes
  /// with `==` (JSONPath's `<`). Doubles and small integers compare directly; anything else
  /// by its decimal digits.
  package func _precedes(_ other: JSONValue.Number) -> Bool {
    switch (storage, other.storage) {
    case (.int(let a), .int(let b)): return a < b
    case (.double(let a), .double(let b)): return a < b
    // Below 2^53 the integer is a double exactly; a fraction differs from it by at least an
    // ulp, which its decimal value keeps.
    case (.int(let a), .double(let b)) where a.magnitude < 1 << 53: return Double(a) < b
    case (.double(let a), .int(let b)) where b.magnitude < 1 << 53: return a < Double(b)
    default: break
    }
    if self == other { return false }
    guard let lhs = _decimal, let rhs = other._decimal else { return double < other.double }
    return lhs.precedes(rhs) ?? (double < other.double)
  }

  /// The value as normalized decimal digits; nil for a non-finite one.
  var _decimal: _NormalizedDecimal? {
    switch _key {
    case .integer(let negative, let magnitude):
      return _NormalizedDecimal((negative ? "-" : "") + String(magnitude))
    case .decimal(let decimal): return decimal
    case .nonFinite: return nil
    }
  }
}

extension _NormalizedDecimal {
  /// Whether this value is below `other`'s; nil when an exponent is too large to compare here
  /// (beyond 10^17).
  func precedes(_ other: _NormalizedDecimal) -> Bool? {
    guard largeExponent.isEmpty && other.largeExponent.isEmpty else { return nil }
    let signs = (
      digits.isEmpty ? 0 : negative ? -1 : 1, other.digits.isEmpty ? 0 : other.negative ? -1 : 1
    )
    if signs.0 != signs.1 { return signs.0 < signs.1 }
    if signs.0 == 0 { return false }
    // Same sign: the magnitudes, by the place of the first digit, then digit by digit (no
    // trailing zeros: a prefix is the smaller).
    let places = (exponent + digits.count, other.exponent + other.digits.count)
    let smaller: Bool
    if places.0 != places.1 {
      smaller = places.0 < places.1
    } else if digits == other.digits {
      return false
    } else {
      smaller = digits.lexicographicallyPrecedes(other.digits)
    }
    return negative ? !smaller : smaller
  }
}

extension JSONNumber {
  /// The value as a `Double` when its `digits` are at most 15 significant ones and it lands
  /// in the normal range: such a decimal always survives text → double → shortest text, so
  /// the double holds it without loss. Cheap (usually Clinger's fast path); nil otherwise.
  func _shortDouble(_ digits: _DecimalDigits) -> Double? {
    guard digits.digitCount <= 15, !digits.truncated else { return nil }
    // Clinger's fast path from the digits at hand (`double` would read the text again).
    let value = digits._exactDouble(negative: isNegative) ?? double
    if value.isNormal || (value == 0 && digits.significand == 0) { return value }
    return nil
  }
}

/// A number's decimal value in a canonical form — sign, significant digits without leading or
/// trailing zeros, and the exponent of the last digit — so that `1.50`, `15e-1` and `1.5`
/// compare alike, at any length and with exponents of any length (which are not saturated, so
/// `1e1000000000` and `1e2000000000` stay apart). Only for valid, finite number text.
struct _NormalizedDecimal: Equatable {
  var negative = false
  /// Significant digits (ASCII); empty for zero.
  var digits: [UInt8] = []
  /// The exponent of the last digit when its magnitude is below 10^17; else only its sign (±1).
  var exponent = 0
  /// The exponent's magnitude in decimal digits when it is 10^17 or more, else empty: one
  /// form per value, without a big-number type.
  var largeExponent: [UInt8] = []

  init(_ text: String) {
    var fractionDigits = 0
    var inFraction = false
    var inExponent = false
    var exponentNegative = false
    var exponentDigits: [UInt8] = []  // without leading zeros
    for byte in text.utf8 {
      switch byte {
      case ._minus where !inExponent: negative = true
      case ._minus: exponentNegative = true
      case ._plus: break
      case ._period: inFraction = true
      case ._lowerE, ._upperE: inExponent = true
      case _ where inExponent:
        if byte != ._zero || !exponentDigits.isEmpty { exponentDigits.append(byte) }
      default:
        if inFraction { fractionDigits += 1 }
        if byte == ._zero && digits.isEmpty { continue }
        digits.append(byte)
      }
    }
    // What the point and the trailing zeros move the exponent by: bounded by the text length.
    var shift = -fractionDigits
    while digits.last == ._zero {
      digits.removeLast()
      shift += 1
    }
    if digits.isEmpty {
      negative = false
      return
    }
    if exponentDigits.count <= 17 {
      var explicit = 0
      for digit in exponentDigits { explicit = explicit * 10 + Int(digit - ._zero) }
      setExponent((exponentNegative ? -explicit : explicit) + shift)
    } else {
      // |explicit| ≥ 10^17 exceeds |shift|: the sign stays, the magnitude moves by the shift.
      let magnitude = _addingSmall(exponentDigits, exponentNegative ? -shift : shift)
      if magnitude.count <= 17 {
        var value = 0
        for digit in magnitude { value = value * 10 + Int(digit - ._zero) }
        setExponent(exponentNegative ? -value : value)
      } else {
        exponent = exponentNegative ? -1 : 1
        largeExponent = magnitude
      }
    }
  }

  private mutating func setExponent(_ value: Int) {
    if value.magnitude < 100_000_000_000_000_000 {
      exponent = value
    } else {
      exponent = value < 0 ? -1 : 1
      largeExponent = Array(String(value.magnitude).utf8)
    }
  }
}

/// `digits` (a decimal magnitude, most significant first) plus `delta`, which must not take it
/// below zero; the result has no leading zeros.
func _addingSmall(_ digits: [UInt8], _ delta: Int) -> [UInt8] {
  var result = digits
  var carry = delta
  var index = result.count - 1
  while carry != 0 && index >= 0 {
    let sum = Int(result[index] - ._zero) + carry
    var digit = sum % 10
    carry = sum / 10
    if digit < 0 {
      digit += 10
      carry -= 1
    }
    result[index] = UInt8(digit) + ._zero
    index -= 1
  }
  if carry > 0 { result.insert(contentsOf: String(carry).utf8, at: 0) }
  if let first = result.firstIndex(where: { $0 != ._zero }) {
    result.removeFirst(first)
  } else {
    result = []
  }
  return result
}
