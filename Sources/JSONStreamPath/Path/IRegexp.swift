/// An I-Regexp (RFC 9485), the regular expressions of JSONPath's `match` and `search`,
/// compiled to a small automaton and run by simulating all its states at once: time linear in
/// the input (times the automaton's size), whatever the pattern, and no recursion on input.
///
/// The automaton is bounded (``maximumSize`` states, counted repeats expanded; groups nested
/// at most ``maximumNesting`` deep; repeat counts at most ``maximumCount``): a pattern beyond
/// the bounds is refused as invalid, as is one outside the grammar.
struct _IRegexp: Sendable {
  static let maximumSize = 4_000
  static let maximumNesting = 32
  static let maximumCount = 1_000

  struct Invalid: Error {}

  enum Instruction: Sendable {
    /// Consumes one character in the set `sets[index]`.
    case character(Int)
    /// Continues at both places.
    case split(Int, Int)
    case jump(Int)
    /// `^`, `$`: continues only at the start, at the end of the input.
    case atStart
    case atEnd
    case accept
  }

  var program: [Instruction] = []
  var sets: [_CharacterSet] = []

  /// Compiles `pattern`; throws when it is not an I-Regexp or exceeds the bounds.
  init(_ pattern: String) throws {
    var parser = _RegexpParser(Array(pattern.unicodeScalars))
    let tree = try parser.parse()
    try emit(tree)
    program.append(.accept)
  }

  /// Whether the whole of `string` matches (`match`).
  func matches(_ string: String) -> Bool { run(Array(string.unicodeScalars), anchored: true) }

  /// Whether some substring of `string` matches (`search`).
  func contains(_ string: String) -> Bool { run(Array(string.unicodeScalars), anchored: false) }

  // MARK: Compiling

  mutating func append(_ instruction: Instruction) throws -> Int {
    guard program.count < Self.maximumSize else { throw Invalid() }
    program.append(instruction)
    return program.count - 1
  }

  mutating func emit(_ node: _RegexpNode) throws {
    switch node {
    case .empty: break
    case .atStart: _ = try append(.atStart)
    case .atEnd: _ = try append(.atEnd)
    case .set(let set):
      sets.append(set)
      _ = try append(.character(sets.count - 1))
    case .sequence(let nodes):
      for node in nodes { try emit(node) }
    case .alternation(let branches):
      // split(L1, next) L1: branch; jump end … the last branch falls through.
      var jumps: [Int] = []
      for (index, branch) in branches.enumerated() {
        if index == branches.count - 1 {
          try emit(branch)
        } else {
          let split = try append(.split(0, 0))
          try emit(branch)
          jumps.append(try append(.jump(0)))
          program[split] = .split(split + 1, program.count)
        }
      }
      for jump in jumps { program[jump] = .jump(program.count) }
    case .repeated(let node, let minimum, let maximum):
      for _ in 0..<minimum { try emit(node) }
      if let maximum {
        // Each optional copy: split(body, end of all copies).
        var splits: [Int] = []
        for _ in minimum..<maximum {
          splits.append(try append(.split(0, 0)))
          try emit(node)
        }
        for split in splits { program[split] = .split(split + 1, program.count) }
      } else {
        let split = try append(.split(0, 0))
        try emit(node)
        _ = try append(.jump(split))
        program[split] = .split(split + 1, program.count)
      }
    }
  }

  // MARK: Running

  /// The states reached, without duplicates, in a set that clears in constant time.
  struct StateSet {
    var states: [Int] = []
    var stamps: [Int]
    var generation = 1

    init(size: Int) { stamps = Array(repeating: 0, count: size) }

    mutating func clear() {
      states.removeAll(keepingCapacity: true)
      generation += 1
    }

    mutating func insert(_ state: Int) -> Bool {
      if stamps[state] == generation { return false }
      stamps[state] = generation
      states.append(state)
      return true
    }
  }

  /// Adds `start` and every state reachable from it without consuming a character.
  func add(
    _ start: Int, to set: inout StateSet, stack: inout [Int], position: Int, count: Int
  ) {
    stack.append(start)
    while let state = stack.popLast() {
      guard set.insert(state) else { continue }
      switch program[state] {
      case .atStart: if position == 0 { stack.append(state + 1) }
      case .atEnd: if position == count { stack.append(state + 1) }
      case .jump(let target): stack.append(target)
      case .split(let first, let second):
        stack.append(second)
        stack.append(first)
      case .character, .accept: break
      }
    }
  }

  func run(_ input: [Unicode.Scalar], anchored: Bool) -> Bool {
    var current = StateSet(size: program.count)
    var next = StateSet(size: program.count)
    var stack: [Int] = []
    let acceptState = program.count - 1
    add(0, to: &current, stack: &stack, position: 0, count: input.count)
    for (offset, scalar) in input.enumerated() {
      if !anchored && current.stamps[acceptState] == current.generation { return true }
      if anchored && current.states.isEmpty { return false }
      next.clear()
      for state in current.states {
        if case .character(let set) = program[state], sets[set].contains(scalar) {
          add(state + 1, to: &next, stack: &stack, position: offset + 1, count: input.count)
        }
      }
      if !anchored { add(0, to: &next, stack: &stack, position: offset + 1, count: input.count) }
      swap(&current, &next)
    }
    return current.stamps[acceptState] == current.generation
  }
}

/// A set of characters: ranges of scalars and Unicode general categories, maybe complemented.
struct _CharacterSet: Sendable {
  var isNegated = false
  var ranges: [ClosedRange<UInt32>] = []
  /// Categories, each group possibly complemented (`\P{…}`).
  var categories: [(categories: [Unicode.GeneralCategory], isNegated: Bool)] = []

  func contains(_ scalar: Unicode.Scalar) -> Bool {
    var found = ranges.contains { $0.contains(scalar.value) }
    if !found && !categories.isEmpty {
      let category = scalar.properties.generalCategory
      found = categories.contains { $0.categories.contains(category) != $0.isNegated }
    }
    return found != isNegated
  }
}

indirect enum _RegexpNode {
  case empty
  case atStart
  case atEnd
  case set(_CharacterSet)
  case sequence([_RegexpNode])
  case alternation([_RegexpNode])
  case repeated(_RegexpNode, minimum: Int, maximum: Int?)
}

/// Recursive descent over the pattern's scalars (RFC 9485 §5); recursion follows groups,
/// whose nesting is bounded.
struct _RegexpParser {
  let scalars: [Unicode.Scalar]
  var position = 0
  var depth = 0

  init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

  var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  mutating func parse() throws -> _RegexpNode {
    let node = try parseAlternation()
    guard position == scalars.count else { throw _IRegexp.Invalid() }
    return node
  }

  mutating func parseAlternation() throws -> _RegexpNode {
    var branches = [try parseBranch()]
    while current == "|" {
      position += 1
      branches.append(try parseBranch())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  mutating func parseBranch() throws -> _RegexpNode {
    var pieces: [_RegexpNode] = []
    while let scalar = current, scalar != "|", scalar != ")" {
      pieces.append(try parsePiece())
    }
    switch pieces.count {
    case 0: return .empty
    case 1: return pieces[0]
    default: return .sequence(pieces)
    }
  }

  mutating func parsePiece() throws -> _RegexpNode {
    let atom = try parseAtom()
    switch current {
    case "*":
      position += 1
      return .repeated(atom, minimum: 0, maximum: nil)
    case "+":
      position += 1
      return .repeated(atom, minimum: 1, maximum: nil)
    case "?":
      position += 1
      return .repeated(atom, minimum: 0, maximum: 1)
    case "{":
      position += 1
      let minimum = try parseCount()
      var maximum: Int? = minimum
      if current == "," {
        position += 1
        maximum = current == "}" ? nil : try parseCount()
      }
      guard current == "}" else { throw _IRegexp.Invalid() }
      position += 1
      if let maximum, maximum < minimum { throw _IRegexp.Invalid() }
      return .repeated(atom, minimum: minimum, maximum: maximum)
    default:
      return atom
    }
  }

  mutating func parseCount() throws -> Int {
    var value = 0
    var digits = 0
    while let scalar = current, scalar >= "0" && scalar <= "9" {
      value = value * 10 + Int(scalar.value - 48)
      digits += 1
      position += 1
      if value > _IRegexp.maximumCount { throw _IRegexp.Invalid() }
    }
    guard digits > 0 else { throw _IRegexp.Invalid() }
    return value
  }

  mutating func parseAtom() throws -> _RegexpNode {
    guard let scalar = current else { throw _IRegexp.Invalid() }
    position += 1
    switch scalar {
    case "(":
      depth += 1
      guard depth <= _IRegexp.maximumNesting else { throw _IRegexp.Invalid() }
      let inner = try parseAlternation()
      guard current == ")" else { throw _IRegexp.Invalid() }
      position += 1
      depth -= 1
      return inner
    case "[":
      return .set(try parseClass())
    case ".":
      return .set(_CharacterSet(isNegated: true, ranges: [0x0A...0x0A, 0x0D...0x0D]))
    case "\\":
      if let category = try parseCategoryEscape() { return .set(category) }
      let literal = try parseSingleEscape()
      return .set(_CharacterSet(ranges: [literal.value...literal.value]))
    case "^":
      // The suite (and the usual translations to other dialects) read these as anchors.
      return .atStart
    case "$":
      return .atEnd
    case ")", "*", "+", "?", "]", "{", "|", "}":
      throw _IRegexp.Invalid()
    default:
      return .set(_CharacterSet(ranges: [scalar.value...scalar.value]))
    }
  }

  /// After `\`: `p{…}` or `P{…}`, else nil with the position unchanged.
  mutating func parseCategoryEscape() throws -> _CharacterSet? {
    guard let letter = current, letter == "p" || letter == "P" else { return nil }
    position += 1
    guard current == "{" else { throw _IRegexp.Invalid() }
    position += 1
    var name = ""
    while let scalar = current, scalar != "}" {
      name.unicodeScalars.append(scalar)
      position += 1
      if name.unicodeScalars.count > 2 { throw _IRegexp.Invalid() }
    }
    guard current == "}", let categories = Self.categories[name] else {
      throw _IRegexp.Invalid()
    }
    position += 1
    return _CharacterSet(categories: [(categories, letter == "P")])
  }

  /// After `\`: one of the characters that may be escaped, or `n`, `r`, `t`.
  mutating func parseSingleEscape() throws -> Unicode.Scalar {
    guard let scalar = current else { throw _IRegexp.Invalid() }
    position += 1
    switch scalar {
    case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return scalar
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    default: throw _IRegexp.Invalid()
    }
  }

  /// After `[`: `^`?, items (characters, ranges, category escapes), a `-` first or last, `]`.
  mutating func parseClass() throws -> _CharacterSet {
    var set = _CharacterSet()
    if current == "^" {
      set.isNegated = true
      position += 1
    }
    if current == "-" {
      set.ranges.append(0x2D...0x2D)
      position += 1
    }
    while true {
      guard let scalar = current else { throw _IRegexp.Invalid() }
      if scalar == "]" {
        position += 1
        guard !set.ranges.isEmpty || !set.categories.isEmpty else { throw _IRegexp.Invalid() }
        return set
      }
      if scalar == "-" {
        // Only as the last item.
        position += 1
        guard current == "]" else { throw _IRegexp.Invalid() }
        set.ranges.append(0x2D...0x2D)
        continue
      }
      if scalar == "\\" {
        position += 1
        if let category = try parseCategoryEscape() {
          set.categories += category.categories
          continue
        }
        position -= 1
      }
      let low = try parseClassCharacter()
      if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
        position += 1
        let high = try parseClassCharacter()
        guard low.value <= high.value else { throw _IRegexp.Invalid() }
        set.ranges.append(low.value...high.value)
      } else {
        set.ranges.append(low.value...low.value)
      }
    }
  }

  mutating func parseClassCharacter() throws -> Unicode.Scalar {
    guard let scalar = current else { throw _IRegexp.Invalid() }
    position += 1
    switch scalar {
    case "\\": return try parseSingleEscape()
    case "-", "[", "]": throw _IRegexp.Invalid()
    default: return scalar
    }
  }

  static let categories: [String: [Unicode.GeneralCategory]] = {
    let groups: [(String, [(String, Unicode.GeneralCategory)])] = [
      (
        "L",
        [
          ("u", .uppercaseLetter), ("l", .lowercaseLetter), ("t", .titlecaseLetter),
          ("m", .modifierLetter), ("o", .otherLetter),
        ]
      ),
      ("M", [("n", .nonspacingMark), ("c", .spacingMark), ("e", .enclosingMark)]),
      ("N", [("d", .decimalNumber), ("l", .letterNumber), ("o", .otherNumber)]),
      (
        "P",
        [
          ("c", .connectorPunctuation), ("d", .dashPunctuation), ("s", .openPunctuation),
          ("e", .closePunctuation), ("i", .initialPunctuation), ("f", .finalPunctuation),
          ("o", .otherPunctuation),
        ]
      ),
      ("Z", [("s", .spaceSeparator), ("l", .lineSeparator), ("p", .paragraphSeparator)]),
      (
        "S",
        [("m", .mathSymbol), ("c", .currencySymbol), ("k", .modifierSymbol), ("o", .otherSymbol)]
      ),
      ("C", [("c", .control), ("f", .format), ("o", .privateUse), ("n", .unassigned)]),
    ]
    var table: [String: [Unicode.GeneralCategory]] = [:]
    for (major, minors) in groups {
      table[major] = minors.map(\.1)
      for (minor, category) in minors { table[major + minor] = [category] }
    }
    return table
  }()
}
