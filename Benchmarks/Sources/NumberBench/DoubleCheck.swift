import JSONStream

// In a module of its own: the parser's specializations for these number-consuming handlers
// must not sit beside the no-op handler's, or LLVM's function merging folds them together and
// slows whichever variant loses the merge.

/// Sums numbers as doubles, as RapidJSON's full-precision handler does.
public struct SumDoubles: JSONEventHandler {
  public var sum = 0.0
  public init() {}
  public mutating func number(_ value: borrowing JSONNumber) { sum += value.double }
}

/// Tokenizes `bytes` and converts every number to a Double; returns their sum.
public func sumOfDoubles(_ bytes: [UInt8]) throws -> Double {
  try JSONParser.parse(bytes, handler: SumDoubles()).sum
}

/// A small deterministic generator (SplitMix64), so generated inputs are reproducible.
public struct SplitMix {
  var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Checks JSONNumber.double against the C library's strtod (`Double(String)`) on `count`
/// generated inputs: random digit strings across the whole exponent range, shortest and
/// 17-digit forms of random doubles, long (20–40 digit) numbers, and values near the subnormal
/// and overflow boundaries. Returns the mismatches (text, ours, strtod's).
public enum DoubleCheck {
  struct Probe: JSONEventHandler {
    var value = 0.0
    mutating func number(_ number: borrowing JSONNumber) { value = number.double }
  }

  public static func run(count: Int, seed: UInt64 = 0x5EED_D0B1) throws -> [String] {
    var random = SplitMix(seed: seed)
    var mismatches: [String] = []
    var text = ""
    for i in 0..<count {
      switch i % 6 {
      case 0:
        // 1–19 random digits, any exponent.
        let digits = Int(random.next() % 19) + 1
        text = String(random.next() % 10_000_000_000_000_000_000)
        text = String(text.prefix(digits)) + "e" + String(Int(random.next() % 700) - 350)
      case 1:
        // A random double's shortest form (must read back exactly).
        text = String(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
      case 2:
        // 17 significant digits of a random double.
        let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
        text = String(value) + String(random.next() % 10)
      case 3:
        // 20 to 40 digits: more than UInt64 holds.
        var digits = String(random.next() % 9 + 1)
        let length = Int(random.next() % 21) + 19
        while digits.count < length { digits += String(random.next() % 10_000_000_000) }
        text = String(digits.prefix(length)) + "e" + String(Int(random.next() % 640) - 340)
      case 4:
        // Near the subnormal boundary and below.
        text =
          String(random.next() % 100_000_000_000_000_000) + "e-"
          + String(Int(random.next() % 40) + 320)
      default:
        // Decimal fractions as people write them.
        text = "\(random.next() % 100_000).\(random.next() % 1_000_000_000)"
      }
      if random.next() % 2 == 0 { text = "-" + text }
      var probe = Probe()
      probe = try JSONParser.parse(text.utf8, handler: probe)
      let reference = Double(text)!
      if probe.value.bitPattern != reference.bitPattern {
        mismatches.append("\(text): \(probe.value) vs strtod \(reference)")
        if mismatches.count >= 20 { break }
      }
    }
    return mismatches
  }
}
