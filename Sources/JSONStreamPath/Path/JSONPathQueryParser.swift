import JSONStreamCore
import JSONStreamValue

/// Recursive descent over a query's UTF-8 bytes, following RFC 9535's grammar (§2 and its
/// appendix A). Recursion follows the nesting of filters and parentheses, which is bounded
/// (``maximumNesting``), so no query can exhaust the stack.
struct _QueryParser {
  let bytes: [UInt8]
  var position = 0
  var nesting = 0
  /// Where each of the query's own segments starts (not those of queries in filters).
  var segmentStarts: [Int] = []

  /// How deeply filters, parentheses and function calls may nest.
  static let maximumNesting = 64
  /// I-JSON's exact integer range, which indexes and slice bounds must stay in.
  static let maximumInteger = 9_007_199_254_740_991

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  func peek(_ offset: Int) -> UInt8? {
    position + offset < bytes.count ? bytes[position + offset] : nil
  }

  func error(_ message: String, at offset: Int? = nil) -> JSONPathError {
    JSONPathError(offset: offset ?? position, message: message)
  }

  func found() -> String {
    guard let byte = current else { return "the end" }
    return byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
  }

  func isBlank(_ byte: UInt8?) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  mutating func skipBlanks() {
    while isBlank(current) { position += 1 }
  }

  mutating func consume(_ byte: UInt8) -> Bool {
    guard current == byte else { return false }
    position += 1
    return true
  }

  mutating func expect(_ byte: UInt8, _ what: String) throws {
    guard consume(byte) else { throw error("expected \(what), found \(found())") }
  }

  // MARK: Queries and segments

  mutating func parseQuery() throws -> JSONPathQuery {
    guard consume(UInt8(ascii: "$")) else {
      throw error("a query starts with '$', found \(found())")
    }
    let query = try parseSegments(recordingStarts: true)
    if position < bytes.count {
      throw error("expected '.', '..' or '[', found \(found())")
    }
    return query
  }

  /// `*(S segment)`: stops before blank space that no segment follows, and before anything
  /// that starts no segment.
  mutating func parseSegments(recordingStarts: Bool = false) throws -> JSONPathQuery {
    var segments: [JSONPathQuery.Segment] = []
    while true {
      let start = position
      skipBlanks()
      guard let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") else {
        position = start
        return JSONPathQuery(segments: segments)
      }
      if recordingStarts { segmentStarts.append(position) }
      segments.append(try parseSegment())
    }
  }

  mutating func parseSegment() throws -> JSONPathQuery.Segment {
    if consume(UInt8(ascii: "[")) { return JSONPathQuery.Segment(try parseBracketed()) }
    position += 1  // .
    if consume(UInt8(ascii: ".")) {
      if consume(UInt8(ascii: "[")) {
        return JSONPathQuery.Segment(try parseBracketed(), isDescendant: true)
      }
      return JSONPathQuery.Segment([try parseShorthand()], isDescendant: true)
    }
    return JSONPathQuery.Segment([try parseShorthand()])
  }

  /// After `.` or `..`: `*` or a member name (letters, digits, `_`, non-ASCII; not starting
  /// with a digit).
  mutating func parseShorthand() throws -> JSONPathQuery.Selector {
    if consume(UInt8(ascii: "*")) { return .wildcard }
    let start = position
    while let byte = current, isNameByte(byte, first: position == start) { position += 1 }
    guard position > start else {
      throw error("expected a member name or '*', found \(found())")
    }
    return .name(String(decoding: bytes[start..<position], as: UTF8.self))
  }

  func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"), 0x80...0xFF:
      return true
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return !first
    default: return false
    }
  }

  /// After `[`: selectors separated by commas, then `]`.
  mutating func parseBracketed() throws -> [JSONPathQuery.Selector] {
    var selectors: [JSONPathQuery.Selector] = []
    while true {
      skipBlanks()
      selectors.append(try parseSelector())
      skipBlanks()
      if consume(UInt8(ascii: "]")) { return selectors }
      try expect(UInt8(ascii: ","), "',' or ']'")
    }
  }

  mutating func parseSelector() throws -> JSONPathQuery.Selector {
    switch current ?? 0 {
    case UInt8(ascii: "*"):
      position += 1
      return .wildcard
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      return .name(try parseString())
    case UInt8(ascii: "?"):
      position += 1
      skipBlanks()
      let start = position
      let expression = try parseLogical()
      guard expression.isLogical else {
        throw error("a filter needs a test or a comparison", at: start)
      }
      return .filter(JSONPathQuery.Filter(expression: expression))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"):
      return try parseIndexOrSlice()
    default:
      throw error(
        "expected a selector (a quoted name, '*', an index, a slice or a filter), "
          + "found \(found())")
    }
  }

  mutating func parseIndexOrSlice() throws -> JSONPathQuery.Selector {
    var start: Int?
    if current != UInt8(ascii: ":") {
      start = try parseInteger()
      skipBlanks()
      guard current == UInt8(ascii: ":") else { return .index(start!) }
    }
    position += 1  // :
    skipBlanks()
    var end: Int?
    if let byte = current, byte == UInt8(ascii: "-") || isDigit(byte) {
      end = try parseInteger()
      skipBlanks()
    }
    var step: Int?
    if consume(UInt8(ascii: ":")) {
      skipBlanks()
      if let byte = current, byte == UInt8(ascii: "-") || isDigit(byte) {
        step = try parseInteger()
      }
    }
    return .slice(start: start, end: end, step: step)
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  /// `0` or `-`? a non-zero digit and more digits, in ±(2^53 − 1).
  mutating func parseInteger() throws -> Int {
    let start = position
    let negative = consume(UInt8(ascii: "-"))
    guard let first = current, isDigit(first) else {
      throw error("expected a digit, found \(found())")
    }
    if first == UInt8(ascii: "0") {
      if negative { throw error("-0 is not an integer here", at: start) }
      if let next = peek(1), isDigit(next) {
        throw error("an integer has no leading zeros", at: start)
      }
    }
    var value = 0
    while let byte = current, isDigit(byte) {
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      position += 1
      if value > Self.maximumInteger {
        throw error("an integer beyond ±(2^53 − 1)", at: start)
      }
    }
    return negative ? -value : value
  }

  // MARK: String literals

  /// A quoted string with JSON-style escapes (and `\'` in single quotes).
  mutating func parseString() throws -> String {
    let quote = bytes[position]
    position += 1
    var text: [UInt8] = []
    while true {
      guard let byte = current else { throw error("unterminated string") }
      if byte == quote {
        position += 1
        return String(decoding: text, as: UTF8.self)
      }
      if byte < 0x20 {
        throw error("a control character in a string must be escaped")
      }
      position += 1
      if byte != UInt8(ascii: "\\") {
        text.append(byte)
        continue
      }
      guard let escaped = current else { throw error("unterminated escape") }
      switch escaped {
      case UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
      case UInt8(ascii: "\"") where quote == UInt8(ascii: "\""): text.append(escaped)
      case UInt8(ascii: "'") where quote == UInt8(ascii: "'"): text.append(escaped)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "u"):
        position += 1
        let scalar = try parseUnicodeEscape()
        text.append(contentsOf: String(Character(scalar)).utf8)
        continue
      default:
        throw error("invalid escape \(found())")
      }
      position += 1
    }
  }

  /// After `\u`: four hex digits, or a surrogate pair as two escapes.
  mutating func parseUnicodeEscape() throws -> Unicode.Scalar {
    let start = position - 2
    let high = try hex4()
    if high >= 0xDC00 && high < 0xE000 {
      throw error("an unpaired surrogate escape", at: start)
    }
    guard high >= 0xD800 && high < 0xDC00 else { return Unicode.Scalar(high)! }
    guard current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
      throw error("a high surrogate escape without its low half", at: start)
    }
    position += 2
    let low = try hex4()
    guard low >= 0xDC00 && low < 0xE000 else {
      throw error("an unpaired surrogate escape", at: start)
    }
    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
  }

  mutating func hex4() throws -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = hexValue(byte) else {
        throw error("expected four hex digits after \\u, found \(found())")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  // MARK: Filter expressions

  mutating func nest() throws {
    nesting += 1
    if nesting > Self.maximumNesting {
      throw error("filters nested more than \(Self.maximumNesting) deep")
    }
  }

  /// `logical-or-expr`. An operand of `||` or `&&` must be logical; a lone operand may be a
  /// literal or a query, which the caller checks (a function argument may be one).
  mutating func parseLogical() throws -> _FilterExpression {
    try nest()
    defer { nesting -= 1 }
    return try parseOperands(of: UInt8(ascii: "|")) { parser in
      try parser.parseOperands(of: UInt8(ascii: "&")) { try $0.parseBasic() }
    }
  }

  /// Operands separated by the doubled `symbol` (`||`, `&&`), each logical when there are
  /// several.
  mutating func parseOperands(
    of symbol: UInt8, _ operand: (inout _QueryParser) throws -> _FilterExpression
  ) throws -> _FilterExpression {
    var starts = [position]
    var operands = [try operand(&self)]
    while true {
      let save = position
      skipBlanks()
      guard current == symbol, peek(1) == symbol else {
        position = save
        break
      }
      position += 2
      skipBlanks()
      starts.append(position)
      operands.append(try operand(&self))
    }
    if operands.count == 1 { return operands[0] }
    for (operand, start) in zip(operands, starts) { try requireLogical(operand, at: start) }
    return symbol == UInt8(ascii: "|") ? .or(operands) : .and(operands)
  }

  func requireLogical(_ expression: _FilterExpression, at offset: Int) throws {
    if !expression.isLogical {
      throw error(expression.whyNotLogical, at: offset)
    }
  }

  /// `basic-expr`: a parenthesized expression, a negation, a comparison or a test; or, in
  /// function arguments, a lone literal or query.
  mutating func parseBasic() throws -> _FilterExpression {
    if consume(UInt8(ascii: "!")) {
      skipBlanks()
      let start = position
      let operand: _FilterExpression
      if consume(UInt8(ascii: "(")) {
        operand = try parseParenthesized()
      } else {
        operand = try parsePrimary()
        switch operand {
        case .query, .function: break
        default: throw error("'!' applies to a query, a function or parentheses", at: start)
        }
      }
      try requireLogical(operand, at: start)
      return .not(operand)
    }
    if consume(UInt8(ascii: "(")) { return try parseParenthesized() }
    let start = position
    let lhs = try parsePrimary()
    let save = position
    skipBlanks()
    guard let op = parseComparisonOperator() else {
      position = save
      return lhs
    }
    try requireComparable(lhs, at: start)
    skipBlanks()
    let rhsStart = position
    let rhs = try parsePrimary()
    try requireComparable(rhs, at: rhsStart)
    return .comparison(lhs, op, rhs)
  }

  mutating func parseParenthesized() throws -> _FilterExpression {
    skipBlanks()
    let start = position
    let inner = try parseLogical()
    try requireLogical(inner, at: start)
    skipBlanks()
    try expect(UInt8(ascii: ")"), "')'")
    return inner
  }

  mutating func parseComparisonOperator() -> _ComparisonOperator? {
    let op: _ComparisonOperator
    switch (current, peek(1)) {
    case (UInt8(ascii: "="), UInt8(ascii: "=")): op = .equal
    case (UInt8(ascii: "!"), UInt8(ascii: "=")): op = .notEqual
    case (UInt8(ascii: "<"), UInt8(ascii: "=")): op = .lessOrEqual
    case (UInt8(ascii: ">"), UInt8(ascii: "=")): op = .greaterOrEqual
    case (UInt8(ascii: "<"), _):
      position += 1
      return .less
    case (UInt8(ascii: ">"), _):
      position += 1
      return .greater
    default: return nil
    }
    position += 2
    return op
  }

  func requireComparable(_ expression: _FilterExpression, at offset: Int) throws {
    switch expression {
    case .literal: return
    case .query(let query) where query.query.isSingular: return
    case .query:
      throw error("a comparison needs a singular query (names and indexes only)", at: offset)
    case .function(let name, _) where name.result == .value: return
    case .function(let name, _):
      throw error("\(name.rawValue)() gives no value to compare", at: offset)
    default: throw error("a comparison needs a literal, a singular query or a function", at: offset)
    }
  }

  /// A literal, a query (`@…`, `$…`) or a function call.
  mutating func parsePrimary() throws -> _FilterExpression {
    guard let byte = current else { throw error("expected an expression, found the end") }
    switch byte {
    case UInt8(ascii: "@"), UInt8(ascii: "$"):
      position += 1
      return .query(_FilterQuery(isRelative: byte == UInt8(ascii: "@"), query: try parseSegments()))
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      return .literal(.string(try parseString()))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .literal(.number(try parseNumber()))
    case UInt8(ascii: "a")...UInt8(ascii: "z"):
      let start = position
      while let next = current,
        next == UInt8(ascii: "_") || isDigit(next)
          || (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z"))
      {
        position += 1
      }
      let word = String(decoding: bytes[start..<position], as: UTF8.self)
      if current == UInt8(ascii: "(") {
        return try parseFunction(word, at: start)
      }
      switch word {
      case "true": return .literal(.bool(true))
      case "false": return .literal(.bool(false))
      case "null": return .literal(.null)
      default:
        position = start
        throw error("expected a literal, a query or a function, found '\(word)'")
      }
    default:
      throw error("expected a literal, a query or a function, found \(found())")
    }
  }

  /// `-`? int, then an optional fraction and exponent (`-0` is allowed here).
  mutating func parseNumber() throws -> JSONValue.Number {
    let start = position
    _ = consume(UInt8(ascii: "-"))
    guard let first = current, isDigit(first) else {
      throw error("expected a digit, found \(found())")
    }
    position += 1
    if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
      throw error("a number has no leading zeros", at: start)
    }
    while let byte = current, isDigit(byte) { position += 1 }
    if consume(UInt8(ascii: ".")) {
      guard let byte = current, isDigit(byte) else {
        throw error("expected a digit after '.', found \(found())")
      }
      while let byte = current, isDigit(byte) { position += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard let byte = current, isDigit(byte) else {
        throw error("expected a digit in the exponent, found \(found())")
      }
      while let byte = current, isDigit(byte) { position += 1 }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard let number = JSONValue.Number(text: text) else {
      throw error("not a number", at: start)
    }
    return number
  }

  /// `name(arguments)`, checked against the function's parameter types (RFC 9535 §2.4.3).
  mutating func parseFunction(_ word: String, at start: Int) throws -> _FilterExpression {
    guard let name = _FunctionName(rawValue: word) else {
      throw error("unknown function '\(word)'", at: start)
    }
    try nest()
    defer { nesting -= 1 }
    position += 1  // (
    skipBlanks()
    var arguments: [_FilterExpression] = []
    var argumentStarts: [Int] = []
    if !consume(UInt8(ascii: ")")) {
      while true {
        argumentStarts.append(position)
        arguments.append(try parseLogical())
        skipBlanks()
        if consume(UInt8(ascii: ")")) { break }
        try expect(UInt8(ascii: ","), "',' or ')'")
        skipBlanks()
      }
    }
    let parameters = name.parameters
    guard arguments.count == parameters.count else {
      throw error(
        "\(word)() takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), "
          + "not \(arguments.count)", at: start)
    }
    for (index, (argument, parameter)) in zip(arguments, parameters).enumerated() {
      let offset = argumentStarts[index]
      switch parameter {
      case .value:
        switch argument {
        case .literal: break
        case .query(let query) where query.query.isSingular: break
        case .function(let inner, _) where inner.result == .value: break
        default:
          throw error(
            "\(word)() needs a value here: a literal, a singular query or a function",
            at: offset)
        }
      case .logical:
        try requireLogical(argument, at: offset)
      case .nodes:
        guard case .query = argument else {
          throw error("\(word)() needs a query here", at: offset)
        }
      }
    }
    return .function(name, arguments)
  }
}

extension _FilterExpression {
  /// Whether the expression can stand as a test: logical operators, comparisons, queries
  /// (existence) and functions of LogicalType or NodesType.
  var isLogical: Bool {
    switch self {
    case .or, .and, .not, .comparison, .query, .probe: return true
    case .literal: return false
    case .function(let name, _): return name.result != .value
    }
  }

  var whyNotLogical: String {
    switch self {
    case .literal: return "a literal is not a test; compare it"
    case .function(let name, _): return "\(name.rawValue)() gives a value, not a test; compare it"
    default: return "expected a test"
    }
  }
}
