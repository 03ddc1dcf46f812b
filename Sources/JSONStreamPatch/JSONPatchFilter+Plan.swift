import JSONStreamCore
import JSONStreamValue

/// A JSON Patch arranged for streaming: its paths as a tree of tokens, each operation a leaf.
/// Made only for patches whose operations are independent of one another (see
/// `JSONPatchFilter.canStream(_:)`), so that each operation's outcome depends on the input
/// document alone, and the operations can act in document order rather than patch order.
@usableFromInline
struct _PatchPlan: Sendable {
  /// A token of some operation's path, and what lies below it.
  @usableFromInline
  struct Node: Sendable {
    /// How many tokens lead to the node: its pointer is that prefix of the path of any
    /// operation below it (see `pointer(of:)`). Kept as a count, not a pointer, so that a
    /// long path costs memory in proportion to its length, not to its length squared.
    @usableFromInline var depth: Int
    /// The next tokens of the paths through here, and their nodes.
    @usableFromInline var tokens: [String] = []
    @usableFromInline var children: [Int] = []
    @usableFromInline var table = _PatchTokenTable([])
    /// For an array: the child for each element index.
    @usableFromInline var elementChildren: [Int: Int] = [:]
    /// The operation whose path ends here; nil for a node on the way.
    @usableFromInline var operation: Int?
    /// The first operation at or below the node, and how many there are.
    @usableFromInline var firstOperation = Int.max
    @usableFromInline var operationCount = 0

    init(depth: Int) { self.depth = depth }
  }

  @usableFromInline let operations: [JSONPatch.Operation]
  /// Node 0 is the root.
  @usableFromInline var nodes: [Node]

  /// The plan of `patch`; nil when its operations are not independent.
  init?(_ patch: JSONPatch) {
    operations = patch.operations
    nodes = [Node(depth: 0)]
    var childByBytes: [[[UInt8]: Int]] = [[:]]
    for (index, operation) in operations.enumerated() {
      switch operation {
      case .add, .remove, .replace, .test: break
      case .move, .copy: return nil
      }
      let path = operation.path
      guard !path.isRoot else { return nil }
      var node = 0
      for token in path.tokens {
        // On an operation's path: one path is a prefix of the other.
        guard nodes[node].operation == nil else { return nil }
        nodes[node].operationCount += 1
        nodes[node].firstOperation = min(nodes[node].firstOperation, index)
        if let child = childByBytes[node][Array(token.utf8)] {
          node = child
        } else {
          let child = nodes.count
          nodes.append(Node(depth: nodes[node].depth + 1))
          childByBytes.append([:])
          childByBytes[node][Array(token.utf8)] = child
          nodes[node].tokens.append(token)
          nodes[node].children.append(child)
          node = child
        }
      }
      // The path ends where another goes on, or where another ended.
      guard nodes[node].operationCount == 0 else { return nil }
      nodes[node].operation = index
      nodes[node].operationCount = 1
      nodes[node].firstOperation = index
    }
    // An operation that may insert or remove an element moves the ones after it: it must be
    // alone under its array.
    for operation in operations {
      let path = operation.path
      guard _ArrayToken(path.lastToken!).mayAddressElement else { continue }
      var node = 0
      for token in path.tokens.dropLast() { node = childByBytes[node][Array(token.utf8)]! }
      guard nodes[node].operationCount == 1 else { return nil }
    }
    for node in nodes.indices {
      nodes[node].table = _PatchTokenTable(nodes[node].tokens)
      for (position, token) in nodes[node].tokens.enumerated() {
        if case .index(let index) = _ArrayToken(token) {
          nodes[node].elementChildren[index] = nodes[node].children[position]
        }
      }
    }
  }

  /// Where `node` is: the first tokens of the path of an operation below it.
  @usableFromInline
  func pointer(of node: Node) -> JSONPointer {
    guard node.depth > 0 else { return .root }
    return JSONPointer(tokens: Array(operations[node.firstOperation].path.tokens[..<node.depth]))
  }
}
