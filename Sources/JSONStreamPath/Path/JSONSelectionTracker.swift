// Deciding, event by event, which values match a set of compiled paths: the engine under the
// select filter, the exclude filter and the item streamer.
//
// Each path is a sequence of steps; a state is (path, steps matched so far). Every open
// container outside a match holds the set of states its children start from; a child's set
// is computed once, from the parent's set and the child's key or index, when the child begins
// (for a member: at its key, while the key's bytes are at hand). A set that reaches the end of
// a path is a match: the whole value is then the match, and nothing inside it is tracked. An
// empty set means nothing below can match: the subtree is only counted through.

import JSONStreamCore
import JSONStreamValue

/// One value that matched: which paths selected it, and where it is.
public struct JSONPathMatch: Sendable, Equatable {
  /// Indexes (into the paths the consumer was given) of every path that selected this value.
  public var paths: [Int]
  /// Its key, when it is an object member.
  public var key: String?
  /// Its position, when it is an array element.
  public var index: Int?
}

/// What a consumer does with an event, as the tracker decides.
@usableFromInline
enum _SelectionAction {
  /// Outside every match: not part of the selection.
  case outside
  /// A value that matched starts with this event (for a scalar, it is the whole value).
  case matchStart
  /// Inside a match, not its end.
  case inside
  /// The last event of a matched container.
  case matchEnd
}

@usableFromInline
struct _SelectionTracker {
  /// The steps of every path, one after another, compiled for matching: no nested arrays or
  /// enum payloads to copy (and count references to) per event.
  @usableFromInline let steps: [_CompiledStep]
  /// Where each path's steps end in `steps`: a state at its path's end is a match.
  @usableFromInline let pathEnds: [Int]
  /// The member names of all steps.
  @usableFromInline let names: [UInt8]
  /// The state sets of the open containers outside matches, innermost last: entries are
  /// `path << 32 | step` (an index into `steps`). Only `states[0..<stateCount]` is in use: the
  /// array never shrinks, so sets come and go without reallocation.
  @usableFromInline var states: [UInt64] = []
  @usableFromInline var stateCount = 0
  @usableFromInline var frames: [Frame] = []
  /// The set for the value after the current key, once computed: `states[pendingStart...]`.
  @usableFromInline var pendingStart = -1
  /// Open containers inside the current match, or inside a subtree nothing can match.
  @usableFromInline var matchDepth = 0
  @usableFromInline var deadDepth = 0
  /// The match that started last.
  @usableFromInline var match = JSONPathMatch(paths: [])
  /// The key of the member whose value is next, when that value matches.
  @usableFromInline var matchedKey: String?
  /// Why one of the paths cannot be streamed: thrown at the first value.
  @usableFromInline let refusal: JSONPathError?
  /// Where the value beginning now is: an object member (key in `matchedKey`), an array
  /// element (`childIndex`), or the root (both nil / -1). Made into `match` only on a match.
  @usableFromInline var childIsMember = false
  @usableFromInline var childIndex = -1

  @usableFromInline
  struct Frame {
    @usableFromInline var isObject: Bool
    @usableFromInline var stateStart: Int
    @usableFromInline var nextIndex = 0

    @inlinable
    init(isObject: Bool, stateStart: Int) {
      self.isObject = isObject
      self.stateStart = stateStart
    }
  }

  @usableFromInline
  init(_ paths: [JSONPath]) {
    var steps: [_CompiledStep] = []
    var pathEnds: [Int] = []
    var names: [UInt8] = []
    refusal = paths.lazy.compactMap(\.streamingRefusal).first
    for path in paths {
      for step in path.steps {
        var compiled = _CompiledStep(isDescendant: step.isDescendant)
        switch step.selector {
        case .wildcard: compiled.kind = _CompiledStep.wildcard
        case .index(let index):
          compiled.kind = _CompiledStep.index
          compiled.index = index
        case .name(let name):
          compiled.kind = _CompiledStep.name
          compiled.nameStart = names.count
          compiled.nameCount = name.count
          names += name
        }
        steps.append(compiled)
      }
      pathEnds.append(steps.count)
    }
    self.steps = steps
    self.pathEnds = pathEnds
    self.names = names
  }

  /// Whether events are inside a match now (between a container match's start and end).
  @inlinable
  var isInsideMatch: Bool { matchDepth > 0 }

  // MARK: Events

  /// A value begins: a scalar (`container` false) or `{` / `[`.
  @inlinable
  mutating func valueStart(container: Bool, isObject: Bool = false) throws -> _SelectionAction {
    if matchDepth > 0 {
      if container { matchDepth &+= 1 }
      return .inside
    }
    if deadDepth > 0 {
      if container { deadDepth &+= 1 }
      return .outside
    }
    return try newValue(container: container, isObject: isObject)
  }

  /// A value outside matches and dead subtrees begins: decide what it is.
  @usableFromInline
  mutating func newValue(container: Bool, isObject: Bool) throws -> _SelectionAction {
    if let refusal { throw refusal }
    let setStart = childSet()
    if setContainsMatch(from: setStart) {
      match.key = childIsMember ? matchedKey : nil
      match.index = childIndex >= 0 ? childIndex : nil
      stateCount = setStart
      if container { matchDepth = 1 }
      return .matchStart
    }
    if container {
      if setStart == stateCount {
        deadDepth = 1
      } else {
        frames.append(Frame(isObject: isObject, stateStart: setStart))
      }
    } else {
      stateCount = setStart
    }
    return .outside
  }

  /// `}` or `]`.
  @inlinable
  mutating func valueEnd() -> _SelectionAction {
    if matchDepth > 0 {
      matchDepth &-= 1
      return matchDepth == 0 ? .matchEnd : .inside
    }
    if deadDepth > 0 {
      deadDepth &-= 1
      return .outside
    }
    stateCount = frames.removeLast().stateStart
    return .outside
  }

  /// An object key: inside a match it is part of it; else the value's set is computed now, and
  /// `.matchStart` says the member's value will be a match (the key itself is not part of it).
  @inlinable
  mutating func key(_ key: borrowing JSONString) -> _SelectionAction {
    if matchDepth > 0 { return .inside }
    if deadDepth > 0 { return .outside }
    return newKey(key)
  }

  @usableFromInline
  mutating func newKey(_ key: borrowing JSONString) -> _SelectionAction {
    let parentStart = frames[frames.count &- 1].stateStart
    let parentEnd = stateCount
    pendingStart = parentEnd
    advance(from: parentStart, to: parentEnd, index: -1) { compiled, names in
      key.count == compiled.nameCount
        && key.equals(names, in: compiled.nameStart..<compiled.nameStart + key.count)
    }
    if setContainsMatch(from: pendingStart) {
      matchedKey = key.string
      return .matchStart
    }
    matchedKey = nil
    return .outside
  }

  // MARK: Sets

  /// The state set of the value beginning now, added after the sets in use; returns where it
  /// starts.
  @usableFromInline
  mutating func childSet() -> Int {
    guard let top = frames.indices.last else {
      // The root: every path at its first step.
      let start = stateCount
      for path in pathEnds.indices {
        append(UInt64(path) << 32 | UInt64(path == 0 ? 0 : pathEnds[path &- 1]))
      }
      childIsMember = false
      childIndex = -1
      return start
    }
    if frames[top].isObject {
      // Computed at the key.
      let start = pendingStart
      pendingStart = -1
      childIsMember = true
      childIndex = -1
      return start
    }
    let index = frames[top].nextIndex
    frames[top].nextIndex = index &+ 1
    let start = stateCount
    advance(from: frames[top].stateStart, to: start, index: index) { _, _ in false }
    childIsMember = false
    childIndex = index
    return start
  }

  /// Adds the states the child's key or index leads to from `states[from..<end]`, after
  /// `end` (which is where the sets in use end). The child is member `index` of an array
  /// (`matchesName` then answers false), or (`index` -1) the member of an object whose key
  /// `matchesName` compares with a step's name in `names`. Always inlined, so that the
  /// comparison is too.
  @inline(__always)
  mutating func advance(
    from: Int, to end: Int, index: Int,
    matchesName: (_ step: _CompiledStep, _ names: [UInt8]) -> Bool
  ) {
    for position in from..<end {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      let step = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
      if step == pathEnds[path] { continue }
      let compiled = steps[step]
      let matches: Bool
      switch compiled.kind {
      case _CompiledStep.wildcard: matches = true
      case _CompiledStep.index: matches = index >= 0 && index == compiled.index
      default: matches = matchesName(compiled, names)
      }
      if matches { insert(entry &+ 1, from: end) }
      if compiled.isDescendant { insert(entry, from: end) }
    }
  }

  @inlinable
  mutating func append(_ entry: UInt64) {
    if stateCount < states.count {
      states[stateCount] = entry
    } else {
      states.append(entry)
    }
    stateCount &+= 1
  }

  @usableFromInline
  mutating func insert(_ entry: UInt64, from start: Int) {
    for position in start..<stateCount where states[position] == entry { return }
    append(entry)
  }

  /// Whether the set from `start` completes a path; records which paths in `match`.
  @usableFromInline
  mutating func setContainsMatch(from start: Int) -> Bool {
    var matched: [Int] = []
    for position in start..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      if Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) == pathEnds[path] { matched.append(path) }
    }
    if matched.isEmpty { return false }
    if matched.count > 1 { matched.sort() }
    match.paths = matched
    return true
  }
}

/// A path step as the tracker matches it.
@usableFromInline
struct _CompiledStep {
  @usableFromInline static var name: UInt8 { 0 }
  @usableFromInline static var index: UInt8 { 1 }
  @usableFromInline static var wildcard: UInt8 { 2 }

  @usableFromInline var kind: UInt8 = 0
  @usableFromInline var isDescendant: Bool
  @usableFromInline var nameStart = 0
  @usableFromInline var nameCount = 0
  @usableFromInline var index = 0

  @inlinable
  init(isDescendant: Bool) { self.isDescendant = isDescendant }
}
