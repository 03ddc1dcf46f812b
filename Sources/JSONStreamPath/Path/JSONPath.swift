import JSONStreamCore
import JSONStreamValue

/// A compiled JSONPath query (RFC 9535): evaluated on a tree, or streamed when it can be
/// decided without looking ahead.
///
/// Every query of RFC 9535 compiles: names, wildcards, indexes (negative too), slices,
/// filters with comparisons, `&&`, `||`, `!` and the functions `length`, `count`, `match`,
/// `search` and `value`, unions and descendant segments. ``select(in:)`` evaluates one on a
/// ``JSONValue`` with the RFC's results.
///
/// The streaming consumers (``JSONSelectFilter``, ``JSONExcludeFilter``, ``JSONItemStreamer``,
/// ``JSONTransform``) take the queries that can be decided while a document streams, those
/// for which ``isStreamable`` is `true`:
///
/// | syntax | selects |
/// | --- | --- |
/// | `$` | the root value |
/// | `.name`, `['name']`, `["name"]` | the member `name` of an object |
/// | `[3]` | element 3 of an array (from 0; negative indexes would need the array's end) |
/// | `[*]`, `.*` | every element of an array, every member value of an object |
/// | `..name`, `..*`, `..[3]`, `..['name']` | the same, at any depth below |
///
/// ```swift
/// let users = try JSONPath("$.statuses[*].user")
/// let names = try JSONPath("$..screen_name")
/// let cheap = try JSONPath("$.items[?@.price < 10]")  // not streamable: select(in:)
/// ```
///
/// Streamed, a value inside a value already selected is part of that value, not a separate
/// match (for `$..a` on `{"a":{"a":1}}`, one match: the outer `a`), and matches come in
/// document order; ``select(in:)`` reports both, in the RFC's order.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// One step: what it selects among the children of the current values, and whether it looks
  /// at every depth below them (`..`).
  public struct Step: Sendable, Hashable {
    /// What a step selects among the children of the current values.
    public enum Selector: Sendable, Hashable {
      /// An object member by name (its UTF-8 bytes).
      case name([UInt8])
      /// An array element by position.
      case index(Int)
      /// Every element or member value.
      case wildcard
    }

    /// What the step selects.
    public var selector: Selector
    /// `..`: the selector applies at any depth below, not only to direct children.
    public var isDescendant: Bool

    /// A step selecting `selector`, among direct children or, with `isDescendant`, at any depth
    /// below.
    public init(_ selector: Selector, isDescendant: Bool = false) {
      self.selector = selector
      self.isDescendant = isDescendant
    }
  }

  /// The steps after `$`, in order, when each segment is one name, one index from 0 or a
  /// wildcard (what ``JSONExcludeFilter`` and ``JSONTransform`` take); empty otherwise (see
  /// ``query``).
  public let steps: [Step]

  /// The whole query, as a tree.
  public let query: JSONPathQuery

  /// Why the query cannot be streamed, with the offset of its first part that cannot; nil
  /// when it can.
  public let streamingRefusal: JSONPathError?

  /// Why the query cannot be excluded or transformed while streaming (``steps`` is empty);
  /// nil when it can.
  let keyedRefusal: JSONPathError?

  /// The text the path was compiled from.
  public let description: String

  /// Compiles `text`: any RFC 9535 query.
  ///
  /// - Throws: ``JSONPathError`` naming the offending character and its offset.
  public init(_ text: String) throws {
    var parser = _QueryParser(Array(text.utf8))
    query = try parser.parseQuery()
    description = text
    var steps: [Step] = []
    var keyedRefusal: JSONPathError?
    var refusal: JSONPathError?
    for (segment, offset) in zip(query.segments, parser.segmentStarts) {
      if refusal == nil && segment.selectors.contains(where: \.readsRoot) {
        refusal = JSONPathError(
          offset: offset,
          message: "a filter that reads the root ($) needs the whole document; evaluate the "
            + "query on a tree instead")
      }
      guard keyedRefusal == nil else { continue }
      guard let step = Step(streaming: segment) else {
        keyedRefusal = JSONPathError(
          offset: offset,
          message: "only names, indexes from 0 and wildcards, one per segment, can be "
            + "excluded or transformed while streaming")
        continue
      }
      steps.append(step)
    }
    self.steps = keyedRefusal == nil ? steps : []
    self.keyedRefusal = keyedRefusal
    streamingRefusal = refusal
  }

  /// Compiles `text` for the streaming consumers: as ``init(_:)``, and throws
  /// ``streamingRefusal`` when the query cannot stream. (A static method, so that
  /// `JSONPath.init` stays unambiguous.)
  public static func streamable(_ text: String) throws -> JSONPath {
    let path = try JSONPath(text)
    if let refusal = path.streamingRefusal { throw refusal }
    return path
  }

  /// A path of `steps`.
  public init(steps: [Step]) {
    self.steps = steps
    query = JSONPathQuery(segments: steps.map(\.segment))
    streamingRefusal = nil
    keyedRefusal = nil
    description = "$" + steps.map(\.description).joined()
  }

  /// `true` when ``JSONSelectFilter`` and ``JSONItemStreamer`` take the query: every query
  /// but those with a filter that reads the root (`$`), which needs the whole document.
  public var isStreamable: Bool { streamingRefusal == nil }

  /// The values the query selects in `root`, in RFC 9535's order (see
  /// ``JSONPathQuery/select(in:)``).
  public func select(in root: JSONValue) -> [JSONValue] { query.select(in: root) }

  /// The values the query selects in `root`, each with its normalized path such as
  /// `$['items'][0]` (see ``JSONPathQuery/selectWithPaths(in:)``).
  public func selectWithPaths(in root: JSONValue) -> [(path: String, value: JSONValue)] {
    query.selectWithPaths(in: root)
  }
}

extension JSONPath.Step {
  /// The step a segment streams as, if it does.
  init?(streaming segment: JSONPathQuery.Segment) {
    guard segment.selectors.count == 1 else { return nil }
    switch segment.selectors[0] {
    case .name(let name): selector = .name(Array(name.utf8))
    case .wildcard: selector = .wildcard
    case .index(let index) where index >= 0: selector = .index(index)
    default: return nil
    }
    isDescendant = segment.isDescendant
  }

  /// The segment of the query tree that selects the same.
  var segment: JSONPathQuery.Segment {
    let selector: JSONPathQuery.Selector
    switch self.selector {
    case .name(let bytes): selector = .name(String(decoding: bytes, as: UTF8.self))
    case .index(let index): selector = .index(index)
    case .wildcard: selector = .wildcard
    }
    return JSONPathQuery.Segment([selector], isDescendant: isDescendant)
  }
}

extension JSONPath.Step: CustomStringConvertible {
  /// The step in bracket notation, `..` first for a descendant step: `["name"]`, `[3]`, `..[*]`.
  public var description: String {
    let prefix = isDescendant ? ".." : ""
    switch selector {
    case .name(let bytes):
      let name = String(decoding: bytes, as: UTF8.self)
      return prefix + "[" + name.jsonStringLiteral() + "]"
    case .index(let index): return prefix + "[\(index)]"
    case .wildcard: return prefix + "[*]"
    }
  }
}

/// A JSONPath query that is malformed (or, for the streaming consumers, not streamable).
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Byte offset in the expression.
  public let offset: Int
  /// What is wrong, e.g. naming the unexpected character.
  public let message: String

  /// `JSONPath, offset N: message`.
  public var description: String { "JSONPath, offset \(offset): \(message)" }
}

extension JSONPathQuery.Selector {
  /// Whether a filter in the selector reads the root (`$`), at any depth of its queries.
  var readsRoot: Bool {
    guard case .filter(let filter) = self else { return false }
    return filter.expression.readsRoot
  }
}

extension _FilterExpression {
  var readsRoot: Bool {
    switch self {
    case .or(let operands), .and(let operands): return operands.contains(where: \.readsRoot)
    case .not(let operand): return operand.readsRoot
    case .comparison(let lhs, _, let rhs): return lhs.readsRoot || rhs.readsRoot
    case .query(let query):
      return !query.isRelative
        || query.query.segments.contains { $0.selectors.contains(where: \.readsRoot) }
    case .literal, .probe: return false
    case .function(_, let arguments): return arguments.contains(where: \.readsRoot)
    }
  }
}
