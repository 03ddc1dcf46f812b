import JSONStreamCore
import JSONStreamValue

extension JSONPathQuery {
  /// The values the query selects in `root`, in the order RFC 9535 gives them (its
  /// nodelist): a value selected several times (by a union, or at several depths by a
  /// descendant segment) is reported each time.
  ///
  /// Documents of any depth are walked with a stack of their own; recursion follows only the
  /// nesting of the query's filters.
  public func select(in root: JSONValue) -> [JSONValue] {
    var evaluator = _QueryEvaluator(root: root, tracksPaths: false)
    return evaluator.nodes(of: self, from: _Node(value: root, path: -1)).map(\.value)
  }

  /// The values the query selects in `root`, as ``select(in:)``, each with its normalized
  /// path (RFC 9535 §2.7), such as `$['store']['book'][0]`.
  public func selectWithPaths(in root: JSONValue) -> [(path: String, value: JSONValue)] {
    var evaluator = _QueryEvaluator(root: root, tracksPaths: true)
    evaluator.paths.append((-1, .root))
    let nodes = evaluator.nodes(of: self, from: _Node(value: root, path: 0))
    return nodes.map { (evaluator.normalizedPath($0.path), $0.value) }
  }
}

extension JSONPathQuery {
  /// The values the query selects in `root`, as ``select(in:)``, each with the steps from
  /// `root` down to it: for the streaming consumers, which know the steps down to `root`.
  func _selectWithSteps(in root: JSONValue) -> [(steps: [_PathStep], value: JSONValue)] {
    var evaluator = _QueryEvaluator(root: root, tracksPaths: true)
    evaluator.paths.append((-1, .root))
    let nodes = evaluator.nodes(of: self, from: _Node(value: root, path: 0))
    return nodes.map { (evaluator.steps(to: $0.path), $0.value) }
  }
}

/// A value and where it is: an index into the evaluator's path entries, or -1 when paths are
/// not kept.
struct _Node {
  var value: JSONValue
  var path: Int
}

enum _PathStep {
  case root
  case name(String)
  case index(Int)

  /// `$` and the steps in bracket notation: `$['items'][0]` (RFC 9535 §2.7).
  static func normalizedPath(_ steps: some Sequence<_PathStep>) -> String {
    var text = "$"
    for step in steps {
      switch step {
      case .root: break
      case .name(let name): text += "[" + _normalizedName(name) + "]"
      case .index(let position): text += "[\(position)]"
      }
    }
    return text
  }
}

/// Evaluates queries on one document. Paths are kept, when asked for, as a table of entries
/// that point to their parent's, so that a child's path costs one entry.
struct _QueryEvaluator {
  let root: JSONValue
  let tracksPaths: Bool
  var paths: [(parent: Int, step: _PathStep)] = []
  /// Compiled patterns of `match` and `search`, nil for an invalid one.
  var patterns: [String: _IRegexp?] = [:]
  /// What the probes of a projected filter found, for its `.probe` operands.
  var probeValues: [JSONValue?] = []

  init(root: JSONValue, tracksPaths: Bool) {
    self.root = root
    self.tracksPaths = tracksPaths
  }

  mutating func child(_ value: JSONValue, of parent: _Node, _ step: _PathStep) -> _Node {
    guard parent.path >= 0 else { return _Node(value: value, path: -1) }
    paths.append((parent.path, step))
    return _Node(value: value, path: paths.count - 1)
  }

  /// The steps from the root (not included) down to path entry `index`.
  func steps(to index: Int) -> [_PathStep] {
    var steps: [_PathStep] = []
    var index = index
    while index >= 0 {
      if case .root = paths[index].step {} else { steps.append(paths[index].step) }
      index = paths[index].parent
    }
    return steps.reversed()
  }

  func normalizedPath(_ index: Int) -> String { _PathStep.normalizedPath(steps(to: index)) }

  // MARK: Segments and selectors

  mutating func nodes(of query: JSONPathQuery, from start: _Node) -> [_Node] {
    var current = [start]
    for segment in query.segments {
      var next: [_Node] = []
      for node in current {
        if !segment.isDescendant {
          apply(segment.selectors, to: node, into: &next)
          continue
        }
        // The node, then its descendants, depth first in document order (each node before
        // its descendants, arrays in order), with a stack of their own.
        var pending = [node]
        while let visited = pending.popLast() {
          apply(segment.selectors, to: visited, into: &next)
          switch visited.value {
          case .array(let array):
            for index in array.indices.reversed() {
              let element = array[index]
              if case .array = element {} else if case .object = element {} else { continue }
              pending.append(child(element, of: visited, .index(index)))
            }
          case .object(let object):
            for index in object.indices.reversed() {
              let member = object[index]
              if case .array = member.value {
              } else if case .object = member.value {
              } else {
                continue
              }
              pending.append(child(member.value, of: visited, .name(member.key)))
            }
          default: break
          }
        }
      }
      current = next
    }
    return current
  }

  mutating func apply(
    _ selectors: [JSONPathQuery.Selector], to node: _Node, into result: inout [_Node]
  ) {
    for selector in selectors {
      switch selector {
      case .name(let name):
        if case .object(let object) = node.value, let value = object[name] {
          result.append(child(value, of: node, .name(name)))
        }
      case .wildcard:
        switch node.value {
        case .array(let array):
          for index in array.indices { result.append(child(array[index], of: node, .index(index))) }
        case .object(let object):
          for member in object { result.append(child(member.value, of: node, .name(member.key))) }
        default: break
        }
      case .index(let index):
        if case .array(let array) = node.value {
          let position = index < 0 ? array.count + index : index
          if position >= 0 && position < array.count {
            result.append(child(array[position], of: node, .index(position)))
          }
        }
      case .slice(let start, let end, let step):
        if case .array(let array) = node.value {
          for index in Self.sliceIndexes(count: array.count, start, end, step) {
            result.append(child(array[index], of: node, .index(index)))
          }
        }
      case .filter(let filter):
        switch node.value {
        case .array(let array):
          for index in array.indices {
            let element = child(array[index], of: node, .index(index))
            if test(filter.expression, current: element.value) { result.append(element) }
          }
        case .object(let object):
          for member in object where test(filter.expression, current: member.value) {
            result.append(child(member.value, of: node, .name(member.key)))
          }
        default: break
        }
      }
    }
  }

  /// The positions a slice selects, in order (RFC 9535 §2.3.4.2.2).
  static func sliceIndexes(count: Int, _ start: Int?, _ end: Int?, _ step: Int?) -> [Int] {
    let step = step ?? 1
    guard step != 0 else { return [] }
    func normalize(_ index: Int) -> Int { index >= 0 ? index : count + index }
    var indexes: [Int] = []
    if step > 0 {
      let lower = min(max(normalize(start ?? 0), 0), count)
      let upper = min(max(normalize(end ?? count), 0), count)
      var index = lower
      while index < upper {
        indexes.append(index)
        index += step
      }
    } else {
      let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
      let lower = min(max(end.map(normalize) ?? -1, -1), count - 1)
      var index = upper
      while lower < index {
        indexes.append(index)
        index += step
      }
    }
    return indexes
  }

  // MARK: Filters

  /// Whether a logical expression holds for the current node `current` (`@`).
  mutating func test(_ expression: _FilterExpression, current: JSONValue) -> Bool {
    switch expression {
    case .or(let operands):
      for operand in operands where test(operand, current: current) { return true }
      return false
    case .and(let operands):
      for operand in operands where !test(operand, current: current) { return false }
      return true
    case .not(let operand):
      return !test(operand, current: current)
    case .comparison(.probe(let index), let op, .literal(.number(let literal))):
      // A projected filter's usual test (`@.total > 100`): the probe's number is compared
      // where it is; the general way copied out and destroyed two optional values per
      // candidate, a third of the whole filter's cost.
      guard case .number(let number)? = probeValues[index] else {
        return op == .notEqual
      }
      return Self.compare(number, op, literal)
    case .comparison(let lhs, let op, let rhs):
      return Self.compare(value(lhs, current: current), op, value(rhs, current: current))
    case .query(let query):
      if let found = Self.singular(query, current: current) {
        if case .some = found { return true }
        return false
      }
      return !nodes(of: query, current: current).isEmpty
    case .function(let name, let arguments):
      return logicalFunction(name, arguments, current: current)
    case .probe(let index):
      if case .some = probeValues[index] { return true }
      return false
    case .literal:
      return false  // the parser lets no literal stand as a test
    }
  }

  mutating func nodes(of query: _FilterQuery, current: JSONValue) -> [_Node] {
    nodes(of: query.query, from: _Node(value: query.isRelative ? current : root, path: -1))
  }

  /// A comparable's value: nil for Nothing (an empty nodelist, a function with no result).
  // JSONValue is ExpressibleByNilLiteral (as `null`): Nothing is spelled `.none` here.
  mutating func value(_ expression: _FilterExpression, current: JSONValue) -> JSONValue? {
    switch expression {
    case .literal(let value): return value
    case .probe(let index): return probeValues[index]
    case .query(let query):
      if let found = Self.singular(query, current: current) { return found }
      let found = nodes(of: query, current: current)
      return found.count == 1 ? Optional(found[0].value) : .none
    case .function(.length, let arguments):
      switch value(arguments[0], current: current) {
      case .string(let string): return .number(.init(string.unicodeScalars.count))
      case .array(let array): return .number(.init(array.count))
      case .object(let object): return .number(.init(object.count))
      default: return .none
      }
    case .function(.count, let arguments):
      if case .probe(let index) = arguments[0] {
        if case .some = probeValues[index] { return .number(.init(1)) }
        return .number(.init(0))
      }
      guard case .query(let query) = arguments[0] else { return .none }
      return .number(.init(nodes(of: query, current: current).count))
    case .function(.value, let arguments):
      if case .probe(let index) = arguments[0] { return probeValues[index] }
      guard case .query(let query) = arguments[0] else { return .none }
      let found = nodes(of: query, current: current)
      return found.count == 1 ? Optional(found[0].value) : .none
    default:
      return .none
    }
  }

  mutating func logicalFunction(
    _ name: _FunctionName, _ arguments: [_FilterExpression], current: JSONValue
  ) -> Bool {
    switch name {
    case .match, .search:
      guard case .string(let string) = value(arguments[0], current: current),
        case .string(let pattern) = value(arguments[1], current: current)
      else { return false }
      let regexp: _IRegexp?
      if let cached = patterns[pattern] {
        regexp = cached
      } else {
        regexp = try? _IRegexp(pattern)
        if patterns.count < 256 { patterns[pattern] = regexp }
      }
      guard let regexp else { return false }
      return name == .match ? regexp.matches(string) : regexp.contains(string)
    case .length, .count, .value:
      return false  // ValueType: the parser lets none stand as a test
    }
  }

  /// The node a relative query of names and indexes from 0 (`@.a.b`, `@[0]`) reaches in
  /// `current`, looked up directly: `.some(.none)` for none; nil for any other query.
  static func singular(_ query: _FilterQuery, current: JSONValue) -> JSONValue?? {
    guard query.isRelative else { return nil }
    var node = current
    for segment in query.query.segments {
      guard !segment.isDescendant, segment.selectors.count == 1 else { return nil }
      switch segment.selectors[0] {
      case .name(let name):
        guard case .object(let object) = node, let value = object[name] else {
          return .some(.none)
        }
        node = value
      case .index(let index) where index >= 0:
        guard case .array(let array) = node, index < array.count else { return .some(.none) }
        node = array[index]
      default: return nil
      }
    }
    return .some(node)
  }

  /// RFC 9535 §2.3.5.2.2: Nothing equals only Nothing; `<` holds between two numbers or two
  /// strings only.
  static func compare(_ lhs: JSONValue?, _ op: _ComparisonOperator, _ rhs: JSONValue?) -> Bool {
    switch op {
    case .equal: return equal(lhs, rhs)
    case .notEqual: return !equal(lhs, rhs)
    case .less: return less(lhs, rhs)
    case .lessOrEqual: return less(lhs, rhs) || equal(lhs, rhs)
    case .greater: return less(rhs, lhs)
    case .greaterOrEqual: return less(rhs, lhs) || equal(lhs, rhs)
    }
  }

  /// `compare` of two numbers.
  static func compare(_ lhs: JSONValue.Number, _ op: _ComparisonOperator, _ rhs: JSONValue.Number)
    -> Bool
  {
    switch op {
    case .equal: return lhs == rhs
    case .notEqual: return lhs != rhs
    case .less: return lhs._precedes(rhs)
    case .lessOrEqual: return lhs._precedes(rhs) || lhs == rhs
    case .greater: return rhs._precedes(lhs)
    case .greaterOrEqual: return rhs._precedes(lhs) || lhs == rhs
    }
  }

  // Each operand is matched on its own, not as a tuple: a switch over `(lhs, rhs)` copied
  // both values into the tuple and destroyed them again, per candidate a filter tests.
  static func equal(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
    guard let lhs else {
      if case .none = rhs { return true }
      return false
    }
    guard let rhs else { return false }
    return lhs == rhs
  }

  static func less(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
    if case .number(let a)? = lhs {
      guard case .number(let b)? = rhs else { return false }
      return a._precedes(b)
    }
    if case .string(let a)? = lhs {
      guard case .string(let b)? = rhs else { return false }
      return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
    }
    return false
  }
}
