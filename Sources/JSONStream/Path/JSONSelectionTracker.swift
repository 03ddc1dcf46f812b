// Deciding, event by event, which values match a set of compiled paths: the engine under the
// select filter, the exclude filter and the item streamer.
//
// Each path is a sequence of steps; a state is (path, steps matched so far). Every open
// container outside a match holds the set of states its children start from; a child's set
// is computed once, from the parent's set and the child's key or index, when the child begins
// (for a member: at its key, while the key's bytes are at hand). A set that reaches the end of
// a path is a match: the whole value is then the match, and nothing inside it is tracked. An
// empty set means nothing below can match: the subtree is only counted through.

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
  @usableFromInline let paths: [[JSONPath.Step]]
  /// The state sets of the open containers outside matches, innermost last: entries are
  /// `path << 32 | step`.
  @usableFromInline var states: [UInt64] = []
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
    self.paths = paths.map(\.steps)
  }

  /// Whether events are inside a match now (between a container match's start and end).
  @inlinable
  var isInsideMatch: Bool { matchDepth > 0 }

  // MARK: Events

  /// A value begins: a scalar (`container` false) or `{` / `[`.
  @inlinable
  mutating func valueStart(container: Bool, isObject: Bool = false) -> _SelectionAction {
    if matchDepth > 0 {
      if container { matchDepth &+= 1 }
      return .inside
    }
    if deadDepth > 0 {
      if container { deadDepth &+= 1 }
      return .outside
    }
    let setStart = childSet()
    if setContainsMatch(from: setStart) {
      states.removeSubrange(setStart...)
      if container { matchDepth = 1 }
      return .matchStart
    }
    if container {
      if setStart == states.count {
        deadDepth = 1
      } else {
        frames.append(Frame(isObject: isObject, stateStart: setStart))
      }
    } else {
      states.removeSubrange(setStart...)
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
    let frame = frames.removeLast()
    states.removeSubrange(frame.stateStart...)
    return .outside
  }

  /// An object key: inside a match it is part of it; else the value's set is computed now, and
  /// `.matchStart` says the member's value will be a match (the key itself is not part of it).
  @inlinable
  mutating func key(_ key: UnsafeBufferPointer<UInt8>) -> _SelectionAction {
    if matchDepth > 0 { return .inside }
    if deadDepth > 0 { return .outside }
    pendingStart = states.count
    let parentStart = frames[frames.count &- 1].stateStart
    advance(from: parentStart, to: pendingStart, key: key, index: -1)
    if setContainsMatch(from: pendingStart) {
      matchedKey = String(decoding: key, as: UTF8.self)
      return .matchStart
    }
    matchedKey = nil
    return .outside
  }

  // MARK: Sets

  /// The state set of the value beginning now, appended to `states`; returns where it starts.
  @usableFromInline
  mutating func childSet() -> Int {
    guard let top = frames.indices.last else {
      // The root: every path at its first step.
      let start = states.count
      for path in paths.indices { states.append(UInt64(path) << 32) }
      match = JSONPathMatch(paths: [])
      return start
    }
    if frames[top].isObject {
      // Computed at the key.
      let start = pendingStart
      pendingStart = -1
      match.key = matchedKey
      match.index = nil
      return start
    }
    let index = frames[top].nextIndex
    frames[top].nextIndex = index &+ 1
    let start = states.count
    advance(from: frames[top].stateStart, to: start, key: nil, index: index)
    match.key = nil
    match.index = index
    return start
  }

  /// Appends the states the children's key or index leads to from `states[from..<to]`.
  @usableFromInline
  mutating func advance(from: Int, to end: Int, key: UnsafeBufferPointer<UInt8>?, index: Int) {
    for position in from..<end {
      let entry = states[position]
      let path = Int(entry >> 32)
      let step = Int(entry & 0xFFFF_FFFF)
      let steps = paths[path]
      guard step < steps.count else { continue }
      let matches: Bool
      switch steps[step].selector {
      case .wildcard: matches = true
      case .index(let wanted): matches = key == nil && index == wanted
      case .name(let name):
        if let key {
          matches = name.count == key.count && name.elementsEqual(key)
        } else {
          matches = false
        }
      }
      if matches { insert(UInt64(path) << 32 | UInt64(step + 1), from: end) }
      if steps[step].isDescendant { insert(entry, from: end) }
    }
  }

  @usableFromInline
  mutating func insert(_ entry: UInt64, from start: Int) {
    for position in start..<states.count where states[position] == entry { return }
    states.append(entry)
  }

  /// Whether the set from `start` completes a path; records which paths in `match`.
  @usableFromInline
  mutating func setContainsMatch(from start: Int) -> Bool {
    var matched: [Int] = []
    for position in start..<states.count {
      let entry = states[position]
      let path = Int(entry >> 32)
      if Int(entry & 0xFFFF_FFFF) == paths[path].count { matched.append(path) }
    }
    if matched.isEmpty { return false }
    match.paths = matched.sorted()
    return true
  }
}
