import JSONStreamCore
import JSONStreamValue

/// A JSONPath query (RFC 9535) as a tree: segments of selectors, filters included, evaluated
/// on a ``JSONValue``.
///
/// ```swift
/// let query = try JSONPathQuery("$.store.book[?@.price < 10].title")
/// let titles = query.select(in: document)
/// ```
///
/// ``JSONPath`` holds one of these; it also streams the queries that can be decided without
/// looking ahead.
public struct JSONPathQuery: Sendable, Hashable, CustomStringConvertible {
  /// What a selector picks among the children of a node.
  public enum Selector: Sendable, Hashable {
    /// `'name'`, `.name`: the member of an object with this name.
    case name(String)
    /// `*`: every element of an array, every member value of an object.
    case wildcard
    /// `[3]`, `[-1]`: an array element; a negative index counts from the end.
    case index(Int)
    /// `[start:end:step]`: a slice of an array; a missing part is nil.
    case slice(start: Int?, end: Int?, step: Int?)
    /// `[?expression]`: the children for which the expression holds.
    case filter(Filter)
  }

  /// One segment: its selectors, applied to the children of each node (`[…]`, `.name`) or,
  /// for a descendant segment (`..`), to the children of each node and all its descendants.
  public struct Segment: Sendable, Hashable {
    /// The selectors of the segment, in order (several for a union: `['a','b']`).
    public var selectors: [Selector]
    /// `..`: the selectors apply at every depth below, not only to the children.
    public var isDescendant: Bool

    /// A segment of `selectors`; a descendant segment with `isDescendant`.
    public init(_ selectors: [Selector], isDescendant: Bool = false) {
      self.selectors = selectors
      self.isDescendant = isDescendant
    }
  }

  /// A filter expression (`?…`), compiled and type-checked.
  public struct Filter: Sendable, Hashable, CustomStringConvertible {
    let expression: _FilterExpression

    /// The expression in JSONPath syntax, fully parenthesized.
    public var description: String { expression.description }
  }

  /// The segments after `$`, in order.
  public var segments: [Segment]

  /// A query of `segments`.
  public init(segments: [Segment]) { self.segments = segments }

  /// Parses `text`, the whole of RFC 9535's syntax.
  ///
  /// - Throws: ``JSONPathError`` with the offset of the offending character (in UTF-8 bytes).
  public init(_ text: String) throws {
    var parser = _QueryParser(Array(text.utf8))
    self = try parser.parseQuery()
  }

  /// The query in normalized bracket syntax: `$['a'][0][*]..[?(@['b'] == 1)]`.
  public var description: String { "$" + segments.map(\.description).joined() }

  /// `true` for a singular query: only names and indexes, no descendant segment; it selects
  /// at most one node.
  public var isSingular: Bool {
    segments.allSatisfy { segment in
      guard !segment.isDescendant, segment.selectors.count == 1 else { return false }
      switch segment.selectors[0] {
      case .name, .index: return true
      default: return false
      }
    }
  }
}

extension JSONPathQuery.Segment: CustomStringConvertible {
  /// The segment in bracket syntax, `..` first for a descendant segment.
  public var description: String {
    (isDescendant ? ".." : "") + "[" + selectors.map(\.description).joined(separator: ",") + "]"
  }
}

extension JSONPathQuery.Selector: CustomStringConvertible {
  /// The selector in JSONPath syntax: `'name'`, `*`, `3`, `1:5:2`, `?…`.
  public var description: String {
    switch self {
    case .name(let name): return _normalizedName(name)
    case .wildcard: return "*"
    case .index(let index): return String(index)
    case .slice(let start, let end, let step):
      let parts = [start, end].map { $0.map(String.init) ?? "" }
      return parts.joined(separator: ":") + (step.map { ":\($0)" } ?? "")
    case .filter(let filter): return "?" + filter.description
    }
  }
}

/// A member name as in a normalized path (RFC 9535 §2.7): single quotes, escapes only where
/// needed, lowercase hex.
func _normalizedName(_ name: String) -> String {
  var text = "'"
  for scalar in name.unicodeScalars {
    switch scalar {
    case "\u{08}": text += "\\b"
    case "\u{0C}": text += "\\f"
    case "\n": text += "\\n"
    case "\r": text += "\\r"
    case "\t": text += "\\t"
    case "'": text += "\\'"
    case "\\": text += "\\\\"
    case "\u{00}"..."\u{1F}":
      let hex = String(scalar.value, radix: 16)
      text += "\\u00" + (hex.count == 1 ? "0" : "") + hex
    default: text.unicodeScalars.append(scalar)
    }
  }
  return text + "'"
}

/// A filter expression node. Logical nodes evaluate to true or false; the others are the
/// operands of comparisons and functions.
indirect enum _FilterExpression: Sendable, Hashable, CustomStringConvertible {
  case or([_FilterExpression])
  case and([_FilterExpression])
  case not(_FilterExpression)
  case comparison(_FilterExpression, _ComparisonOperator, _FilterExpression)
  /// A query: as a test, whether it selects anything; as a comparable, its one value.
  case query(_FilterQuery)
  case literal(JSONValue)
  /// A singular query a projected filter's probe answered (see `_Projection`): its value is
  /// the evaluator's `probeValues[index]`. Never made by the parser.
  case probe(Int)
  case function(_FunctionName, [_FilterExpression])

  var description: String {
    switch self {
    case .or(let operands): return "(" + operands.map(\.description).joined(separator: " || ") + ")"
    case .and(let operands):
      return "(" + operands.map(\.description).joined(separator: " && ") + ")"
    case .not(let operand): return "!" + operand.description
    case .comparison(let lhs, let op, let rhs): return "(\(lhs) \(op.rawValue) \(rhs))"
    case .query(let query): return query.description
    case .probe(let index): return "@probe\(index)"
    case .literal(let value):
      switch value {
      case .null: return "null"
      case .bool(let flag): return flag ? "true" : "false"
      case .number(let number): return number.description
      case .string(let string): return string.jsonStringLiteral()
      case .array, .object: return "?"
      }
    case .function(let name, let arguments):
      return name.rawValue + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    }
  }
}

/// `@…` or `$…` inside a filter.
struct _FilterQuery: Sendable, Hashable, CustomStringConvertible {
  var isRelative: Bool
  var query: JSONPathQuery

  var description: String {
    (isRelative ? "@" : "$") + query.segments.map(\.description).joined()
  }
}

enum _ComparisonOperator: String, Sendable, Hashable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
}

/// The function extensions RFC 9535 defines, with their types (§2.4).
enum _FunctionName: String, Sendable, Hashable {
  case length
  case count
  case match
  case search
  case value

  var parameters: [_ExpressionType] {
    switch self {
    case .length: return [.value]
    case .count, .value: return [.nodes]
    case .match, .search: return [.value, .value]
    }
  }

  var result: _ExpressionType {
    switch self {
    case .length, .count, .value: return .value
    case .match, .search: return .logical
    }
  }
}

/// RFC 9535's types of expressions: ValueType, LogicalType, NodesType.
enum _ExpressionType {
  case value
  case logical
  case nodes
}
