import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

/// Documents from a seeded generator — deep, wide, Unicode edge cases, numbers at every edge,
/// written with every kind of escape and whitespace — parsed by JSONStream and by
/// Foundation's JSONSerialization must give the same tree, and the same events at every
/// chunking. A failure names the seed and the document's index: the generator reproduces it.
@Suite("Differential: generated documents against JSONSerialization")
struct DifferentialTests {
  static let seed: UInt64 = 0x4A53_4F4E_5354_524D
  static let count = 400

  static let documents: [[UInt8]] = {
    var generator = DocumentGenerator(seed: seed)
    return (0..<count).map { generator.document(shape: $0 % 4) }
  }()

  @Test(
    "the same tree as JSONSerialization, and again after writing it back", .hugeInput,
    .tags(.hugeInput))
  func sameTree() throws {
    for (index, document) in Self.documents.enumerated() {
      let ours = try JSONValue(parsing: document)
      let theirs = try JSONSerialization.jsonObject(
        with: Data(document), options: .fragmentsAllowed)
      if let difference = Self.difference(ours, theirs, path: "$") {
        Issue.record("document \(index) (seed \(Self.seed)): \(difference)")
        continue
      }
      // What JSONStream writes, Foundation reads as the same tree.
      let written = try JSONSerialization.jsonObject(
        with: Data(try ours.jsonBytes()), options: .fragmentsAllowed)
      if let difference = Self.difference(ours, written, path: "$") {
        Issue.record("document \(index) written back: \(difference)")
      }
    }
  }

  @Test(
    "the same events at every chunking: 1 byte, random sizes, every split in two", .hugeInput,
    .tags(.hugeInput))
  func sameEvents() throws {
    var random = SplitMix(seed: Self.seed)
    for (index, document) in Self.documents.enumerated() {
      let whole = try JSONParser.parse(document, handler: EventRecorder()).events
      var chunkings: [[Int]] = [[1], (0..<64).map { _ in Int(random.next() % 200) + 1 }]
      if document.count < 600 {
        chunkings += (1..<document.count).map { [$0, document.count] }
      }
      for sizes in chunkings {
        var parser = JSONParser(handler: EventRecorder())
        var start = 0
        var turn = 0
        while start < document.count {
          let end = min(document.count, start + sizes[turn % sizes.count])
          try parser.feed(document[start..<end])
          start = end
          turn += 1
        }
        try parser.finish()
        if parser.handler.events != whole {
          Issue.record("document \(index): other events in chunks of \(sizes.prefix(4))…")
          break
        }
      }
    }
  }

  @Test("U+FEFF opening a string or following an escape: kept, where Foundation drops it")
  func foundationDropsFEFF() throws {
    for (text, expected) in [("[\"\u{FEFF}a\"]", "\u{FEFF}a"), ("[\"\\n\u{FEFF}\"]", "\n\u{FEFF}")]
    {
      let document = Array(text.utf8)
      #expect(try JSONValue(parsing: document)[0]?.stringValue == expected)
      // JSONSerialization here takes that U+FEFF for a byte order mark and drops it (so the
      // differential suite leaves U+FEFF out of the strings it compares). Pinned down: should
      // a later Foundation keep it, this fails, and the suite may compare U+FEFF too.
      let theirs = try JSONSerialization.jsonObject(with: Data(document)) as? [String]
      let dropped = String(
        String.UnicodeScalarView(expected.unicodeScalars.filter { $0 != "\u{FEFF}" }))
      #expect(theirs?.first?.unicodeScalars.elementsEqual(dropped.unicodeScalars) == true)
    }
  }

  static func short(_ value: Any) -> String { String(String(describing: value).prefix(60)) }

  /// The first difference between our value and Foundation's, or nil.
  static func difference(_ ours: JSONValue, _ theirs: Any, path: String) -> String? {
    switch ours {
    case .null:
      return theirs is NSNull ? nil : "\(path): null vs \(short(theirs))"
    case .bool(let value):
      guard let number = theirs as? NSNumber, String(cString: number.objCType) == "c" else {
        return "\(path): \(value) vs \(short(theirs))"
      }
      return number.boolValue == value ? nil : "\(path): \(value) vs \(number)"
    case .number(let value):
      return numberDifference(value, theirs, path: path)
    case .string(let value):
      guard let other = theirs as? String else { return "\(path): string vs \(short(theirs))" }
      // Scalar by scalar: String's == would let canonically equivalent forms pass.
      return value.unicodeScalars.elementsEqual(other.unicodeScalars)
        ? nil : "\(path): \(value.debugDescription) vs \(other.debugDescription)"
    case .array(let array):
      guard let other = theirs as? [Any], other.count == array.count else {
        return "\(path): array of \(array.count) vs \(short(theirs))"
      }
      for (index, element) in array.enumerated() {
        if let difference = difference(element, other[index], path: "\(path)[\(index)]") {
          return difference
        }
      }
      return nil
    case .object(let object):
      guard let other = theirs as? [String: Any], other.count == object.count else {
        return "\(path): object of \(object.count) vs \(short(theirs))"
      }
      for (key, value) in object {
        guard let theirValue = other[key] else { return "\(path): no \(key.debugDescription)" }
        if let difference = difference(value, theirValue, path: "\(path).\(key)") {
          return difference
        }
      }
      return nil
    }
  }

  /// Foundation gives an integer when one fits, a Double for a short decimal, a Decimal for a
  /// long one: each compares exactly with what JSONStream makes of the same text.
  static func numberDifference(_ ours: JSONValue.Number, _ theirs: Any, path: String) -> String? {
    guard let number = theirs as? NSNumber else { return "\(path): \(ours) vs \(short(theirs))" }
    let text = ours.description
    if let decimal = number as? NSDecimalNumber {
      // Foundation keeps 38 digits: compare with the same rounding of our exact text.
      return Decimal(string: text) == decimal.decimalValue
        ? nil : "\(path): \(text) vs decimal \(decimal)"
    }
    switch String(cString: number.objCType) {
    case "d", "f":
      return ours.double.bitPattern == number.doubleValue.bitPattern
        || (ours.double == 0 && number.doubleValue == 0)
        ? nil : "\(path): \(text) → \(ours.double) vs \(number.doubleValue)"
    case "Q":
      return ours.uint64 == number.uint64Value ? nil : "\(path): \(text) vs \(number)"
    default:
      return ours.int64 == number.int64Value ? nil : "\(path): \(text) vs \(number)"
    }
  }
}

/// Writes random JSON text: values of every kind, nested and wide, strings with every escape
/// and raw characters of every length, numbers at the edges of Int64, UInt64 and Double, and
/// whitespace of every kind between tokens.
struct DocumentGenerator {
  var random: SplitMix
  var out: [UInt8] = []

  init(seed: UInt64) { random = SplitMix(seed: seed) }

  mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// Shape 0: mixed; 1: deep (to 200 levels); 2: wide (to 3,000 members); 3: a scalar or
  /// small value, often a number or string at the top.
  mutating func document(shape: Int) -> [UInt8] {
    out = []
    space()
    switch shape {
    case 1: deep(levels: 20 + below(180))
    case 2: wide(count: 200 + below(2_800))
    case 3: value(depth: 3)
    default: value(depth: 0)
    }
    space()
    return out
  }

  mutating func append(_ text: String) { out += Array(text.utf8) }

  mutating func space() {
    while chance(30) { out.append([0x20, 0x09, 0x0A, 0x0D][below(4)]) }
  }

  mutating func value(depth: Int) {
    let containers = depth < 6 ? 40 : 0
    let kind = below(100)
    if kind < containers / 2 {
      array(count: below(12), depth: depth)
    } else if kind < containers {
      object(count: below(12), depth: depth)
    } else {
      switch below(6) {
      case 0: append(["null", "true", "false"][below(3)])
      case 1, 2: number()
      default: string()
      }
    }
  }

  mutating func array(count: Int, depth: Int) {
    out.append(UInt8(ascii: "["))
    for index in 0..<count {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      space()
      value(depth: depth + 1)
      space()
    }
    out.append(UInt8(ascii: "]"))
  }

  mutating func object(count: Int, depth: Int) {
    out.append(UInt8(ascii: "{"))
    // Keys unique as Swift strings (canonical equivalence), as Foundation's dictionary sees
    // them: "é" and "e\u{301}" are one key there.
    var keys = Set<String>()
    var first = true
    for _ in 0..<count {
      let key = keyText()
      guard keys.insert(key.string).inserted else { continue }
      if !first { out.append(UInt8(ascii: ",")) }
      first = false
      space()
      out += key.json
      space()
      out.append(UInt8(ascii: ":"))
      space()
      value(depth: depth + 1)
      space()
    }
    out.append(UInt8(ascii: "}"))
  }

  mutating func deep(levels: Int) {
    var closers: [UInt8] = []
    for _ in 0..<levels {
      if chance(50) {
        out.append(UInt8(ascii: "["))
        if chance(30) {
          number()
          out.append(UInt8(ascii: ","))
        }
        closers.append(UInt8(ascii: "]"))
      } else {
        out.append(UInt8(ascii: "{"))
        out += keyText().json
        out.append(UInt8(ascii: ":"))
        closers.append(UInt8(ascii: "}"))
      }
      space()
    }
    value(depth: 5)
    out += closers.reversed()
  }

  mutating func wide(count: Int) {
    if chance(50) {
      array(count: count, depth: 5)
    } else {
      object(count: count, depth: 5)
    }
  }

  // MARK: Strings

  /// Pieces of string content: (JSON text, the characters it stands for). U+FEFF only after
  /// another character: Foundation's JSONSerialization drops it at the start of a string or
  /// after an escape (its own bug, which `foundationDropsFEFF` pins down); JSONStream keeps
  /// it, as RFC 8259 asks.
  static let pieces: [(String, String)] = [
    ("plain", "plain"), (" ", " "), ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("/", "/"),
    ("\\b", "\u{8}"), ("\\f", "\u{C}"), ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"),
    ("\\u0000", "\u{0}"), ("\\u001f", "\u{1F}"), ("\\u007F", "\u{7F}"), ("\u{7F}", "\u{7F}"),
    ("\\u00e9", "é"), ("é", "é"), ("e\u{301}", "e\u{301}"), ("\\u0065\\u0301", "e\u{301}"),
    ("€", "€"), ("\\u20AC", "€"), ("😀", "😀"), ("\\ud83d\\ude00", "😀"), ("\\uD83D\\uDE00", "😀"),
    ("\u{10FFFF}", "\u{10FFFF}"), ("\\udbff\\udfff", "\u{10FFFF}"), ("\u{FFFF}", "\u{FFFF}"),
    ("\\uffff", "\u{FFFF}"), ("\u{FFFE}", "\u{FFFE}"), ("x\u{FEFF}", "x\u{FEFF}"),
    ("x\\ufeff", "x\u{FEFF}"), ("\u{2028}\u{2029}", "\u{2028}\u{2029}"),
    ("\u{80}", "\u{80}"),
    ("\u{7FF}", "\u{7FF}"), ("\u{800}", "\u{800}"), ("\u{D7FF}", "\u{D7FF}"),
    ("\u{E000}", "\u{E000}"), ("\u{10000}", "\u{10000}"), ("👩‍👩‍👧", "👩‍👩‍👧"), ("עִבְרִית", "עִבְרִית"),
    ("中文", "中文"), ("\\u4E2D", "中"),
  ]

  mutating func stringContent() -> (json: String, string: String) {
    var json = ""
    var string = ""
    let length = chance(5) ? below(400) : below(8)
    for _ in 0..<length {
      let (text, characters) = Self.pieces[below(Self.pieces.count)]
      json += text
      string += characters
    }
    return (json, string)
  }

  mutating func string() {
    let content = stringContent()
    append("\"" + content.json + "\"")
  }

  mutating func keyText() -> (json: [UInt8], string: String) {
    if chance(50) {
      let key = "k\(below(100_000))"
      return (Array("\"\(key)\"".utf8), key)
    }
    let content = stringContent()
    return (Array(("\"" + content.json + "\"").utf8), content.string)
  }

  // MARK: Numbers

  static let edgeNumbers = [
    "0", "-0", "0.0", "-0.0", "1", "-1", "0e0", "0E+0", "-0e-0", "1e0", "1E2", "1e+2", "1e-2",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993",
    "1.7976931348623157e308", "-1.7976931348623157e308", "2.2250738585072014e-308",
    "2.2250738585072011e-308", "4.9e-324", "5e-324", "2.4703282292062328e-324",
    "2.4703282292062327e-324", "1e-400", "-1e-400", "0.1", "0.2", "0.30000000000000004",
    "1.5", "123.456e-7", "100000000000000000000", "0.000001", "1e-7", "1e21", "1e22", "1e23",
    "8.98846567431158e307", "123456789012345678901234567890",
    "0.1234567890123456789012345678901234567890",
    "1.00000000000000011102230246251565404236316680908203125",
  ]

  mutating func number() {
    switch below(5) {
    case 0:
      append(Self.edgeNumbers[below(Self.edgeNumbers.count)])
    case 1:
      // Any finite double, as Swift writes it shortest.
      var double = Double(bitPattern: random.next())
      while !double.isFinite { double = Double(bitPattern: random.next()) }
      append("\(double)".replacingOccurrences(of: "+", with: chance(50) ? "+" : ""))
    case 2:
      append("\(Int64(bitPattern: random.next()) >> below(64))")
    case 3:
      append("\(random.next() >> below(64))")
    default:
      // Decimal text of random length, fraction and exponent.
      var text = chance(30) ? "-" : ""
      text +=
        chance(20) ? "0" : "\(1 + below(9))" + (0..<below(25)).map { _ in "\(below(10))" }.joined()
      if chance(50) { text += "." + (0..<1 + below(25)).map { _ in "\(below(10))" }.joined() }
      if chance(40) {
        // Exponents that keep within Double's range: Foundation refuses 1e400.
        text += (chance(50) ? "e" : "E") + ["", "+", "-"][below(3)] + "\(below(280))"
      }
      append(text)
    }
  }
}
