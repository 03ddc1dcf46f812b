// A filter projected onto the members it reads (see JSONSelectionTracker.swift): which filter
// steps can be, the probe paths that read those members, and the filter rewritten to take
// the probes' values.

import JSONStreamCore
import JSONStreamValue

/// A filter step projected: what its filter reads of the candidate, and the rest of its path.
/// A class: the tracker reads it at each candidate's start and end, and a reference is one
/// count to copy, where the struct's arrays were several.
final class _Projection {
  /// The path and its filter step.
  let path: Int
  let step: Int
  let expression: _FilterExpression
  /// The member name lists the filter reads (`@.a.b` is `["a", "b"]`), and their probe paths
  /// (constants: a stored `var` of a class was checked for exclusive access at each read).
  let probeNames: [[String]]
  let probePaths: [Int]
  /// Whether a probe's names extend another's (`@.a` and `@.a.b`): the longer is then found
  /// in the shorter's value when its own path was not followed.
  let hasNestedProbes: Bool

  /// The projection of `path`'s `step`, when the step is one filter of a child segment that
  /// reads only members by name, and the rest of the path is names, indexes and wildcards.
  /// Its probe paths are numbered from `firstProbePath`, one per name list.
  init?(
    path: Int, step: Int, segments: [JSONPathQuery.Segment], firstStep: Int, firstProbePath: Int
  ) {
    let index = step - firstStep
    let segment = segments[index]
    guard !segment.isDescendant, segment.selectors.count == 1,
      case .filter(let filter) = segment.selectors[0],
      let names = Self.names(read: filter.expression), index + 1 < segments.count,
      segments[(index + 1)...].allSatisfy({ JSONPath.Step(streaming: $0)?.isDescendant == false })
    else { return nil }
    self.path = path
    self.step = step
    var unique: [[String]] = []
    for list in names where !unique.contains(list) { unique.append(list) }
    probeNames = unique
    probePaths = Array(firstProbePath..<firstProbePath + unique.count)
    hasNestedProbes = unique.contains { list in
      unique.contains { $0.count < list.count && list.starts(with: $0) }
    }
    expression = Self.probing(filter.expression, unique)
  }

  /// `expression` with each query of `names` replaced by its probe.
  static func probing(_ expression: _FilterExpression, _ names: [[String]]) -> _FilterExpression {
    switch expression {
    case .or(let operands): return .or(operands.map { probing($0, names) })
    case .and(let operands): return .and(operands.map { probing($0, names) })
    case .not(let operand): return .not(probing(operand, names))
    case .comparison(let lhs, let op, let rhs):
      return .comparison(probing(lhs, names), op, probing(rhs, names))
    case .query(let query):
      let list = query.query.segments.map { segment -> String in
        if case .name(let name) = segment.selectors[0] { return name }
        return ""
      }
      return names.firstIndex(of: list).map { .probe($0) } ?? expression
    case .literal, .probe: return expression
    case .function(let name, let arguments):
      return .function(name, arguments.map { probing($0, names) })
    }
  }

  /// The member name lists an expression reads; nil when it reads anything else (`@` itself,
  /// an index, a wildcard, a descendant, the root).
  static func names(read expression: _FilterExpression) -> [[String]]? {
    switch expression {
    case .or(let operands), .and(let operands):
      var all: [[String]] = []
      for operand in operands {
        guard let names = names(read: operand) else { return nil }
        all += names
      }
      return all
    case .not(let operand): return names(read: operand)
    case .comparison(let lhs, _, let rhs):
      guard let left = names(read: lhs), let right = names(read: rhs) else { return nil }
      return left + right
    case .query(let query):
      guard query.isRelative, !query.query.segments.isEmpty else { return nil }
      var list: [String] = []
      for segment in query.query.segments {
        guard !segment.isDescendant, segment.selectors.count == 1,
          case .name(let name) = segment.selectors[0]
        else { return nil }
        list.append(name)
      }
      return [list]
    case .literal, .probe: return []
    case .function(_, let arguments):
      var all: [[String]] = []
      for argument in arguments {
        guard let names = names(read: argument) else { return nil }
        all += names
      }
      return all
    }
  }

}
