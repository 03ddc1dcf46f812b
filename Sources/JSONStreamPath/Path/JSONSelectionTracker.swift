// Deciding, event by event, which values match a set of compiled paths: the engine under the
// select filter, the exclude filter, the transform and the item streamer.
//
// Each path is a sequence of steps; a state is (path, steps matched so far). Every open
// container outside a match holds the set of states its children start from; a child's set
// is computed once, from the parent's set and the child's key or index, when the child begins
// (for a member: at its key, while the key's bytes are at hand). A set that reaches the end of
// a path is a match: the whole value is then the match, and nothing inside it is tracked. An
// empty set means nothing below can match: the subtree is only counted through.
//
// A step of one name, one index from 0 or a wildcard is decided by the child's key or index.
// Any other step (a filter, a negative index, a slice, a union) has a segment engine for each
// container it applies to: the children the engine wants are held, built as trees, and it
// decides which it selects (see JSONSegmentEngine.swift); the rest of each path is then
// evaluated on its tree. A match that may contain further matches (a descendant segment) is
// forwarded as it is parsed, and tracked: a match inside it is held (forwarded as part of the
// outer match, and built), and reported once the outer match has ended.
//
// A filter that reads only members of its candidate by name (`[?@.total > 100]`), followed
// by steps of names, indexes and wildcards (`.id`), is projected: the candidate is not held
// but tracked, with a probe path for each member the filter reads; what the probes find and
// what the rest of the path selects are held, and at the candidate's end the filter decides
// whether those results go out. The rest of the candidate is skipped by the parser.

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
  /// Its normalized path (RFC 9535 §2.7), such as `$['items'][0]`, when the consumer was
  /// asked to report paths; nil otherwise.
  public var normalizedPath: String?
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
  /// Part of a value the tracker holds (the consumer adds the event to ``heldBuilder``): the
  /// value is complete when ``heldDepth`` is back to 0.
  case held
  /// Part of a held value inside a match being forwarded: the consumer does both.
  case heldInside
}

/// A value selected from a held value or by a segment engine, with where it is.
@usableFromInline
struct _HeldResult {
  @usableFromInline var match: JSONPathMatch
  @usableFromInline var value: JSONValue
}

@usableFromInline
struct _SelectionTracker {
  /// The steps of every path, one after another, compiled for matching: no nested arrays or
  /// enum payloads to copy (and count references to) per event.
  @usableFromInline let steps: [_CompiledStep]
  /// Where each path's steps start and end in `steps`: a state at its path's end is a match.
  @usableFromInline let pathStarts: [Int]
  @usableFromInline let pathEnds: [Int]
  /// The member names of all steps.
  @usableFromInline let names: [UInt8]
  /// Per step: its name as a string (empty for steps of other kinds), for keys that match it.
  let nameStrings: [String]
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
  /// The member whose key came last leads nowhere: no path continues in its value, no
  /// engine wants it. Its value then starts without computing a set (a member's scalar
  /// that no path wants cost as much as one that a path wants).
  @usableFromInline var nextValueIsDead = false
  /// The match that started last (or, for a held value's results, is being delivered).
  @usableFromInline var match = JSONPathMatch(paths: [])
  /// The key of the member whose value is next, when that value matches or is held: the
  /// name of step `matchedKeyStep` when that is 0 or more (made once, so a key a step names
  /// costs no string and no reference count), else `matchedKey`. See ``currentKey()``.
  @usableFromInline var matchedKey: String?
  @usableFromInline var matchedKeyStep = -1
  /// Why one of the paths cannot be streamed: thrown at the first value.
  @usableFromInline let refusal: JSONPathError?
  /// Whether the consumer takes held values (the select filter and the item streamer do;
  /// the exclude filter and the transform, which rewrite the stream in place, take only the
  /// steps decided by a key or an index).
  @usableFromInline let holdsValues: Bool
  /// Whether matches carry their normalized path.
  @usableFromInline let reportsPaths: Bool
  /// No engine, nothing held or tracked inside matches, no paths reported: the paths of
  /// names, indexes from 0 and wildcards that every event goes through as fast as before
  /// the rest existed.
  @usableFromInline let isSimple: Bool
  /// Per step: the selectors of a step that needs a segment engine; nil for the others.
  let engineSelectors: [[_EngineSelector]?]
  /// Per step: the query from that step to its path's end, evaluated on held values.
  let suffixes: [JSONPathQuery]
  /// The engines of the open containers, innermost last (see ``Frame/engineStart``).
  @usableFromInline var engines: [_SegmentEngine] = []
  /// The open containers' places, root first, when paths are reported.
  var frameLocations: [_PathStep] = []
  /// Whether the value beginning now is wanted by an engine of its container, and which, when
  /// only one does (else -1).
  @usableFromInline var childWanted = false
  @usableFromInline var childWantedBy = -1
  /// The value being held: open containers in it (0 for a scalar, or once it is complete).
  @usableFromInline var heldDepth = 0
  /// Open matches that are tracked (forwarded, with matches inside them held): results wait
  /// until the outermost has ended.
  @usableFromInline var openMatchFrames = 0
  /// The tracked matches open, outermost first: each is `match` again when it ends.
  @usableFromInline var trackedMatches: [JSONPathMatch] = []
  /// The events of the held value are built here by the consumer.
  @usableFromInline var heldBuilder: JSONTreeBuilder
  /// The held value's state set (from `heldSetStart` to `stateCount`), and whether an engine
  /// of its container wants it. Its place is still ``childLocation()`` when it ends: nothing
  /// inside a held value changes the child being tracked.
  var heldSetStart = 0
  var heldWanted = false
  /// Whether the held value only answers probes of the projected candidate open now: nothing
  /// selects it, so a number need not keep its text (a consumer makes it by value alone).
  @usableFromInline var heldOnlyFeedsProbes = false
  /// Values decided, not yet taken by the consumer.
  @usableFromInline var results: [_HeldResult] = []
  /// The paths the consumer gave; the probe paths of projected filters follow them.
  let userPathCount: Int
  /// Per step: how a filter step is projected, when it is.
  let projections: [_Projection?]
  /// The filter step of the projected candidate open now, or -1 (candidates do not nest).
  /// Its probes' values are in `evaluator.probeValues`; its results wait in `results`, from
  /// `candidateResults` on, for the filter.
  @usableFromInline var candidateStep = -1
  var candidateResults = 0
  /// `[path]` for each path, made once: a result's paths, without an allocation per result.
  @usableFromInline let singlePaths: [[Int]]
  /// Per path: for a probe path, its place among its projection's probes and the step of
  /// that projection's filter; -1 for the others.
  let probeIndexes: [Int]
  let probeSteps: [Int]
  /// Tests filters on held values (and keeps their compiled patterns).
  var evaluator = _QueryEvaluator(root: .null, tracksPaths: false)
  /// The key tables made so far (see JSONSelectionTracker+KeyTables.swift), and what they
  /// hold, flat, so that reading them copies no array.
  var keyTables: [_KeyTable] = []
  var keyTableSets: [UInt64] = []
  var keyTableNames: [_KeyTable.Name] = []
  var keyTableChildren: [UInt64] = []
  var keyOutcomes: [_KeyTable.Outcome] = []
  var keyTableMatches: [[Int]] = []
  /// What the pending set (from the key just seen) completes: an index into
  /// `keyTableMatches`, -1 for nothing, -2 when not known (then the set is read).
  @usableFromInline var pendingMatch = -2
  /// The same for the set of the value beginning now.
  var childMatch = -2
  /// Where the value beginning now is: an object member (key: `currentKey()`), an array
  /// element (`childIndex`), or the root (both nil / -1). Made into `match` only on a match.
  @usableFromInline var childIsMember = false
  @usableFromInline var childIndex = -1

  @usableFromInline
  struct Frame {
    @usableFromInline var isObject: Bool
    @usableFromInline var stateStart: Int
    @usableFromInline var nextIndex = 0
    /// Where this container's engines start in `engines`.
    @usableFromInline var engineStart: Int
    /// A match tracked for the matches inside it.
    @usableFromInline var isMatch = false
    /// A projected filter's candidate.
    @usableFromInline var isCandidate = false
    /// An object's key table (an index into `keyTables`), or -1.
    @usableFromInline var keyTable = -1
    /// An object's key table's `nowhereKeyLengths`: a key of one of these lengths leads
    /// nowhere.
    @usableFromInline var nowhereKeyLengths: UInt64 = 0

    @inlinable
    init(isObject: Bool, stateStart: Int, engineStart: Int) {
      self.isObject = isObject
      self.stateStart = stateStart
      self.engineStart = engineStart
    }
  }

  /// A tracker of `paths`; with `holdsValues`, every streamable query (see
  /// ``JSONPath/isStreamable``), else only the steps a key or an index decides.
  @usableFromInline
  init(
    _ paths: [JSONPath], holdsValues: Bool = false, reportsPaths: Bool = false,
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins
  ) {
    var steps: [_CompiledStep] = []
    var pathStarts: [Int] = []
    var pathEnds: [Int] = []
    var names: [UInt8] = []
    var engineSelectors: [[_EngineSelector]?] = []
    var suffixes: [JSONPathQuery] = []
    refusal =
      holdsValues
      ? paths.lazy.compactMap(\.streamingRefusal).first
      : paths.lazy.compactMap(\.keyedRefusal).first
    for path in paths {
      let segments = path.query.segments
      pathStarts.append(steps.count)
      for (position, segment) in segments.enumerated() {
        var compiled = _CompiledStep(isDescendant: segment.isDescendant)
        var selectors: [_EngineSelector]?
        switch JSONPath.Step(streaming: segment)?.selector {
        case .wildcard: compiled.kind = _CompiledStep.wildcard
        case .index(let index):
          compiled.kind = _CompiledStep.index
          compiled.index = index
        case .name(let name):
          compiled.kind = _CompiledStep.name
          compiled.nameStart = names.count
          compiled.nameCount = name.count
          names += name
        case nil:
          compiled.kind = _CompiledStep.engine
          selectors = segment.selectors.map(_EngineSelector.init)
        }
        steps.append(compiled)
        engineSelectors.append(selectors)
        suffixes.append(JSONPathQuery(segments: Array(segments[position...])))
      }
      pathEnds.append(steps.count)
      // The state at the path's end has an entry too, so that `steps[state]` is valid.
      steps.append(_CompiledStep(isDescendant: false))
      engineSelectors.append(nil)
      suffixes.append(JSONPathQuery(segments: []))
    }
    // Projected filters, and a probe path for each member name list they read.
    userPathCount = paths.count
    var projections = [_Projection?](repeating: nil, count: steps.count)
    if holdsValues {
      for path in 0..<paths.count {
        for step in pathStarts[path]..<pathEnds[path] {
          guard
            let projection = _Projection(
              path: path, step: step, segments: paths[path].query.segments,
              firstStep: pathStarts[path], firstProbePath: pathStarts.count)
          else { continue }
          for memberNames in projection.probeNames {
            pathStarts.append(steps.count)
            for name in memberNames {
              var compiled = _CompiledStep(isDescendant: false)
              compiled.kind = _CompiledStep.name
              compiled.nameStart = names.count
              compiled.nameCount = name.utf8.count
              names += Array(name.utf8)
              steps.append(compiled)
              engineSelectors.append(nil)
              suffixes.append(JSONPathQuery(segments: []))
              projections.append(nil)
            }
            pathEnds.append(steps.count)
            steps.append(_CompiledStep(isDescendant: false))
            engineSelectors.append(nil)
            suffixes.append(JSONPathQuery(segments: []))
            projections.append(nil)
          }
          projections[step] = projection
        }
      }
    }
    self.projections = projections
    singlePaths = (0..<pathStarts.count).map { [$0] }
    var probeIndexes = [Int](repeating: -1, count: pathStarts.count)
    var probeSteps = probeIndexes
    for projection in projections.lazy.compactMap({ $0 }) {
      for (index, path) in projection.probePaths.enumerated() {
        probeIndexes[path] = index
        probeSteps[path] = projection.step
      }
    }
    self.probeIndexes = probeIndexes
    self.probeSteps = probeSteps
    self.steps = steps
    nameStrings = steps.map { step in
      guard step.kind == _CompiledStep.name else { return "" }
      return String(
        decoding: names[step.nameStart..<step.nameStart + step.nameCount], as: UTF8.self)
    }
    self.pathStarts = pathStarts
    self.pathEnds = pathEnds
    self.names = names
    self.engineSelectors = engineSelectors
    self.suffixes = suffixes
    self.holdsValues = holdsValues
    self.reportsPaths = reportsPaths
    isSimple =
      !reportsPaths
      && (!holdsValues || steps.allSatisfy { $0.kind != _CompiledStep.engine && !$0.isDescendant })
    heldBuilder = JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys)
  }

  /// Whether events are inside a match now (between a container match's start and end).
  @inlinable
  var isInsideMatch: Bool { matchDepth > 0 }

  /// How many of the open containers must end before a value can be decided again: those of
  /// a match's part that nothing inside is tracked in, or of a subtree no path reaches. Until
  /// then every event is passed through or counted through, and none completes a match.
  var containersBeforeDecision: Int { matchDepth > 0 ? matchDepth : deadDepth }

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
    if nextValueIsDead {
      // The value of a member that leads nowhere, most values of a large document: decided
      // here, inlined, not in a call.
      nextValueIsDead = false
      pendingStart = -1
      let inMatch = openMatchFrames > 0
      if container {
        if inMatch { matchDepth = 1 } else { deadDepth = 1 }
      }
      return inMatch ? .inside : .outside
    }
    return try newValue(container: container, isObject: isObject)
  }

  /// A value outside matches and dead subtrees, that some path may reach, begins: part of a
  /// held value, or decide what it is.
  @usableFromInline
  mutating func newValue(container: Bool, isObject: Bool) throws -> _SelectionAction {
    if heldDepth > 0 {
      if container { heldDepth &+= 1 }
      return openMatchFrames > 0 ? .heldInside : .held
    }
    if let refusal { throw refusal }
    let setStart = childSet()
    if isSimple { return simpleValue(container: container, isObject: isObject, setStart: setStart) }
    let wanted = childWanted
    childWanted = false
    // Which paths it completes is recorded only when it is forwarded as a match, below: a
    // held value's results carry their own.
    let matches = childSetCompletesPath(from: setStart)
    let inMatch = openMatchFrames > 0
    if wanted && container && !inMatch && candidateStep < 0 && setStart == stateCount,
      childWantedBy >= 0, let projection = projections[engines[childWantedBy].step]
    {
      // A projected filter's candidate: tracked for its probes and the rest of the path.
      for path in projection.probePaths {
        append(UInt64(path) << 32 | UInt64(pathStarts[path]))
      }
      append(UInt64(projection.path) << 32 | UInt64(projection.step + 1))
      candidateStep = projection.step
      candidateResults = results.count
      if evaluator.probeValues.count == projection.probePaths.count {
        for index in evaluator.probeValues.indices { evaluator.probeValues[index] = .none }
      } else {
        evaluator.probeValues = Array(repeating: .none, count: projection.probePaths.count)
      }
      pushFrame(isObject: isObject, setStart: setStart, isMatch: false)
      frames[frames.count - 1].isCandidate = true
      return .outside
    }
    if wanted || (matches && (inMatch || candidateStep >= 0)) {
      // Held: an engine decides it, or it is a match inside a match, reported after it.
      heldSetStart = setStart
      heldWanted = wanted
      heldOnlyFeedsProbes = !wanted && heldSetOnlyFeedsProbes()
      if container { heldDepth = 1 }
      return inMatch ? .heldInside : .held
    }
    if matches {
      _ = childSetContainsMatch(from: setStart)
      match.key = childIsMember ? currentKey() : nil
      match.index = childIndex >= 0 ? childIndex : nil
      if reportsPaths {
        match.normalizedPath = _PathStep.normalizedPath(frameLocations + [childLocation()])
      }
      if container && holdsValues && hasLiveStates(from: setStart) {
        // Matches may be inside: tracked while it is forwarded.
        pushFrame(isObject: isObject, setStart: setStart, isMatch: true)
        trackedMatches.append(match)
        return .matchStart
      }
      stateCount = setStart
      if container { matchDepth = 1 }
      return .matchStart
    }
    if container {
      if setStart == stateCount {
        // Nothing below can match: skipped, or, inside a match, forwarded untracked.
        if inMatch { matchDepth = 1 } else { deadDepth = 1 }
      } else {
        pushFrame(isObject: isObject, setStart: setStart, isMatch: false)
      }
    } else {
      stateCount = setStart
    }
    return inMatch ? .inside : .outside
  }

  /// ``newValue(container:isObject:)`` when the tracker ``isSimple``.
  @inline(__always)
  mutating func simpleValue(container: Bool, isObject: Bool, setStart: Int) -> _SelectionAction {
    if childSetContainsMatch(from: setStart) {
      match.key = childIsMember ? currentKey() : nil
      match.index = childIndex >= 0 ? childIndex : nil
      stateCount = setStart
      if container { matchDepth = 1 }
      return .matchStart
    }
    if container {
      if setStart == stateCount {
        deadDepth = 1
      } else {
        var frame = Frame(isObject: isObject, stateStart: setStart, engineStart: 0)
        if isObject { setKeyTable(of: &frame) }
        frames.append(frame)
      }
    } else {
      stateCount = setStart
    }
    return .outside
  }

  /// Opens a container whose children are tracked.
  mutating func pushFrame(isObject: Bool, setStart: Int, isMatch: Bool) {
    if reportsPaths { frameLocations.append(childLocation()) }
    var frame = Frame(isObject: isObject, stateStart: setStart, engineStart: engines.count)
    frame.isMatch = isMatch
    if isObject { setKeyTable(of: &frame) }
    if isMatch { openMatchFrames += 1 }
    frames.append(frame)
    // An object's key table knows whether its set has engines to start.
    if frame.keyTable < 0 || keyTables[frame.keyTable].hasEngines { startEngines(from: setStart) }
  }

  /// `}` or `]`. Inside a match or a dead subtree (what no path can reach), a counter's
  /// change, inlined into every handler's container ends; the rest out of line.
  @inlinable @inline(__always)
  mutating func valueEnd() -> _SelectionAction {
    if matchDepth > 0 {
      matchDepth &-= 1
      // Inside a tracked match, an untracked part of it ends.
      return matchDepth == 0 && openMatchFrames == 0 ? .matchEnd : .inside
    }
    if deadDepth > 0 {
      deadDepth &-= 1
      return .outside
    }
    return liveValueEnd()
  }

  /// `valueEnd` of a container some path may still reach.
  @inlinable
  mutating func liveValueEnd() -> _SelectionAction {
    if isSimple {
      stateCount = frames.removeLast().stateStart
      return .outside
    }
    return endFrame()
  }

  /// A held container ends, or a tracked one: its engines finish; a tracked match ends.
  @usableFromInline
  mutating func endFrame() -> _SelectionAction {
    if heldDepth > 0 {
      heldDepth &-= 1
      return openMatchFrames > 0 ? .heldInside : .held
    }
    let frame = frames[frames.count &- 1]
    if frame.isCandidate { decideCandidate() }
    if engines.count > frame.engineStart || reportsPaths { finishFrame() }
    frames.removeLast()
    stateCount = frame.stateStart
    if frame.isMatch {
      openMatchFrames &-= 1
      match = trackedMatches.removeLast()
      return .matchEnd
    }
    return openMatchFrames > 0 ? .inside : .outside
  }

  /// Whether results can go to the consumer now: not while a tracked match is forwarded, nor
  /// while a projected candidate waits for its filter.
  @inlinable
  var canDeliver: Bool { openMatchFrames == 0 && candidateStep < 0 }

  /// An object key: inside a match it is part of it; else the value's set is computed now, and
  /// `.matchStart` says the member's value will be a match (the key itself is not part of it).
  /// A key its object's table passes over by its length alone, most keys of a large
  /// document, is decided here, inlined into the handler.
  @inlinable @inline(__always)
  mutating func key(_ key: borrowing JSONString) -> _SelectionAction {
    if matchDepth > 0 { return .inside }
    if deadDepth > 0 { return .outside }
    if heldDepth == 0, frames[frames.count &- 1].nowhereKeyLengths & _keyLengthBit(key.count) != 0 {
      return keyLeadsNowhere()
    }
    return newKey(key)
  }

  @usableFromInline
  mutating func newKey(_ key: borrowing JSONString) -> _SelectionAction {
    if heldDepth > 0 { return openMatchFrames > 0 ? .heldInside : .held }
    pendingStart = stateCount
    let table = frames[frames.count &- 1].keyTable
    guard table >= 0 else { return steppedKey(key) }
    let outcome = outcome(of: key, table: table)
    if keyOutcomes[outcome].leadsNowhere { return keyLeadsNowhere() }
    return knownKey(key, outcome: keyOutcomes[outcome])
  }

  /// A key of an object with a key table that may lead somewhere.
  @inline(never)
  mutating func knownKey(_ key: borrowing JSONString, outcome: _KeyTable.Outcome)
    -> _SelectionAction
  {
    appendChildSet(outcome)
    return keyWithPendingSet(key, nameStep: outcome.nameStep)
  }

  /// A key of an object without a key table: its set is made by stepping the object's.
  @inline(never)
  mutating func steppedKey(_ key: borrowing JSONString) -> _SelectionAction {
    advance(from: frames[frames.count &- 1].stateStart, to: pendingStart, index: -1) {
      compiled, names in
      key.count == compiled.nameCount
        && key.equals(names, in: compiled.nameStart..<compiled.nameStart + key.count)
    }
    pendingMatch = -2
    return keyWithPendingSet(key, nameStep: -2)
  }

  /// A key whose set is pending: what its member is. `nameStep` is the step whose name the
  /// key is (-1 for none, -2 when not known).
  @inline(__always)
  mutating func keyWithPendingSet(_ key: borrowing JSONString, nameStep: Int) -> _SelectionAction {
    if isSimple {
      if pendingSetContainsMatch() {
        setMatchedKey(key, nameStep: nameStep)
        return .matchStart
      }
      clearMatchedKey()
      nextValueIsDead = pendingStart == stateCount
      return .outside
    }
    let top = frames.count &- 1
    childWanted = false
    childWantedBy = -1
    if engines.count > frames[top].engineStart {
      for index in frames[top].engineStart..<engines.count where engines[index].wants(key: key) {
        childWantedBy = childWanted ? -1 : index
        childWanted = true
      }
    }
    if pendingSetCompletesPath() {
      setMatchedKey(key, nameStep: nameStep)
      if openMatchFrames > 0 { return .inside }
      // Which paths, only for a value forwarded as it is parsed (see `newValue`).
      if candidateStep < 0 && !childWanted { _ = pendingSetContainsMatch() }
      return .matchStart
    }
    if childWanted || (reportsPaths && pendingStart < stateCount) {
      setMatchedKey(key, nameStep: nameStep)
    } else {
      clearMatchedKey()
    }
    nextValueIsDead = !childWanted && pendingStart == stateCount
    return openMatchFrames > 0 ? .inside : .outside
  }

  /// A key whose member no path continues in and no engine wants (as a key table says): its
  /// value is skipped. Most keys of a large document take this way.
  @inlinable @inline(__always)
  mutating func keyLeadsNowhere() -> _SelectionAction {
    pendingStart = stateCount
    pendingMatch = -1
    clearMatchedKey()
    nextValueIsDead = true
    if isSimple { return .outside }
    childWanted = false
    childWantedBy = -1
    return openMatchFrames > 0 ? .inside : .outside
  }

  /// Sets ``matchedKey`` to the key of the member beginning now: the name of the step it is
  /// (made once), else a new string. `nameStep` is that step, -1 for none, -2 when not known.
  /// (Mutating, not a function returning the string: called from a mutating method, that
  /// copied the whole tracker first.)
  mutating func setMatchedKey(_ key: borrowing JSONString, nameStep: Int) {
    let step = nameStep == -2 ? stepNamed(by: key) : nameStep
    if step >= 0 {
      matchedKeyStep = step
      if matchedKey != nil { matchedKey = nil }
    } else {
      matchedKeyStep = -1
      matchedKey = key.string
    }
  }

  /// No member's key is at hand.
  @inlinable @inline(__always)
  mutating func clearMatchedKey() {
    matchedKeyStep = -1
    if matchedKey != nil { matchedKey = nil }
  }

  /// The key of the member whose value is next (see ``matchedKey``). Mutating for the reason
  /// ``setMatchedKey(_:nameStep:)`` is.
  mutating func currentKey() -> String? {
    matchedKeyStep >= 0 ? nameStrings[matchedKeyStep] : matchedKey
  }

  /// A name step that `key` matched to lead to the pending set, or -1.
  func stepNamed(by key: borrowing JSONString) -> Int {
    for position in pendingStart..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      let step = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
      guard step > pathStarts[path] else { continue }
      let compiled = steps[step - 1]
      if compiled.kind == _CompiledStep.name && key.count == compiled.nameCount
        && key.equals(names, in: compiled.nameStart..<compiled.nameStart + key.count)
      {
        return step - 1
      }
    }
    return -1
  }

  /// Where the value beginning now (or held) is, among its container's children. Mutating
  /// for the reason ``setMatchedKey(_:nameStep:)`` is.
  mutating func childLocation() -> _PathStep {
    if frames.isEmpty { return .root }
    return childIsMember ? .name(currentKey() ?? "") : .index(childIndex)
  }

  // MARK: Held values and engines

  /// Whether the set from `start` has a state that is not at its path's end.
  func hasLiveStates(from start: Int) -> Bool {
    for position in start..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      if Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) != pathEnds[path] { return true }
    }
    return false
  }

  /// Starts an engine for each state of the new container's set whose step needs one.
  mutating func startEngines(from start: Int) {
    for position in start..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      let step = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
      if let selectors = engineSelectors[step] {
        engines.append(
          _SegmentEngine(path: path, step: step, selectors: selectors))
      }
    }
  }

  /// The top container ends: its engines give their last results.
  @usableFromInline
  mutating func finishFrame() {
    let frame = frames[frames.count - 1]
    var output: [_SelectedChild] = []
    for index in frame.engineStart..<engines.count {
      output.removeAll(keepingCapacity: true)
      engines[index].finish(count: frame.nextIndex, into: &output)
      report(output, of: engines[index])
    }
    engines.removeSubrange(frame.engineStart...)
    if reportsPaths { frameLocations.removeLast() }
  }

  /// The held value is complete in ``heldBuilder``: decides what it and the values inside it
  /// match, into ``results``.
  @usableFromInline
  mutating func heldValueEnded() {
    var values = heldBuilder.takeValues()
    heldValueEnded(values.removeLast())
  }

  /// A held value is complete: `value` (a scalar need not go through ``heldBuilder``). Taken,
  /// not borrowed: most held values are stored once (a result or a probe's value), and a
  /// copy of a `JSONValue` goes through its value witness.
  @usableFromInline
  mutating func heldValueEnded(_ value: consuming JSONValue) {
    if heldOnlyFeedsProbes {
      // A projected filter's probe, and nothing else: no child to select or evaluate.
      for position in heldSetStart..<stateCount &- 1 {
        let path = Int(truncatingIfNeeded: states[position] >> 32)
        evaluator.probeValues[probeIndexes[path]] = copy value
      }
      let path = Int(truncatingIfNeeded: states[stateCount &- 1] >> 32)
      evaluator.probeValues[probeIndexes[path]] = consume value
      stateCount = heldSetStart
      return
    }
    if heldWanted {
      let child = _SelectedChild(location: childLocation(), value: copy value)
      var output: [_SelectedChild] = []
      for index in frames[frames.count - 1].engineStart..<engines.count {
        output.removeAll(keepingCapacity: true)
        engines[index].add(child, evaluator: &evaluator, into: &output)
        report(output, of: engines[index])
      }
    }
    var matched: [Int] = []
    var matchedPath = -1
    var continues = false
    for position in heldSetStart..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      guard Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) == pathEnds[path] else {
        if path < userPathCount { continues = true }
        continue
      }
      if path < userPathCount {
        if matchedPath >= 0 { matched.append(matchedPath) }
        matchedPath = path
      } else if candidateStep >= 0, probeSteps[path] == candidateStep {
        evaluator.probeValues[probeIndexes[path]] = copy value
      }
    }
    if continues {
      if matchedPath >= 0 { appendChildResult(matchedPath, matched, value: copy value) }
      for position in heldSetStart..<stateCount {
        let entry = states[position]
        let path = Int(truncatingIfNeeded: entry >> 32)
        let step = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
        if step != pathEnds[path] && path < userPathCount {
          evaluate(
            path: path, from: step, on: _SelectedChild(location: childLocation(), value: copy value)
          )
        }
      }
    } else if matchedPath >= 0 {
      appendChildResult(matchedPath, matched, value: consume value)
    }
    stateCount = heldSetStart
  }

  /// Adds the held value as a result of path `last` and of `others` (unsorted), at its place.
  mutating func appendChildResult(_ last: Int, _ others: [Int], value: consuming JSONValue) {
    var match = JSONPathMatch(
      paths: others.isEmpty ? singlePaths[last] : (others + [last]).sorted())
    if childIsMember {
      match.key = currentKey() ?? ""
    } else if childIndex >= 0 {
      match.index = childIndex
    }
    if reportsPaths {
      match.normalizedPath = _PathStep.normalizedPath(frameLocations + [childLocation()])
    }
    results.append(_HeldResult(match: match, value: value))
  }

  /// Whether every state of the held value's set ends a probe path of the candidate open now.
  /// (Mutating for the reason ``setMatchedKey(_:nameStep:)`` is.)
  mutating func heldSetOnlyFeedsProbes() -> Bool {
    guard candidateStep >= 0 else { return false }
    for position in heldSetStart..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      guard probeSteps[path] == candidateStep,
        Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) == pathEnds[path]
      else { return false }
    }
    return true
  }

  /// The projected candidate ends: its filter, tested on what the probes found, decides
  /// whether the results of the rest of its path go out.
  mutating func decideCandidate() {
    guard candidateStep >= 0 else { return }
    let projection = projections[candidateStep]!
    candidateStep = -1
    if projection.hasNestedProbes { fillNestedProbes(projection) }
    if !evaluator.test(projection.expression, current: .null) {
      // Usually one result: removed without the general range replacement.
      while results.count > candidateResults { results.removeLast() }
    }
  }

  /// A probe whose names extend another's that found a value is found inside that value.
  mutating func fillNestedProbes(_ projection: _Projection) {
    var probes = evaluator.probeValues
    let names = projection.probeNames
    for index in probes.indices {
      guard case .none = probes[index] else { continue }
      for other in names.indices
      where names[other].count < names[index].count && names[index].starts(with: names[other]) {
        guard case .some(var value) = probes[other] else { continue }
        var found = true
        for name in names[index][names[other].count...] {
          guard case .object(let object) = value, let member = object[name] else {
            found = false
            break
          }
          value = member
        }
        if found { probes[index] = .some(value) }
        break
      }
    }
    evaluator.probeValues = probes
  }

  /// The children an engine selected: each is a match, or the context of the rest of its path.
  mutating func report(_ selected: [_SelectedChild], of engine: _SegmentEngine) {
    for child in selected {
      if engine.step + 1 == pathEnds[engine.path] {
        results.append(
          result(paths: singlePaths[engine.path], at: child.location, value: child.value))
      } else {
        evaluate(path: engine.path, from: engine.step + 1, on: child)
      }
    }
  }

  /// The results of `path`'s steps from `step` on, evaluated on the tree of `child`.
  mutating func evaluate(path: Int, from step: Int, on child: _SelectedChild) {
    for (steps, value) in suffixes[step]._selectWithSteps(in: child.value) {
      results.append(
        result(paths: singlePaths[path], at: child.location, steps: steps, value: value))
    }
  }

  /// The result `value`, found `steps` below the child at `location` (the child itself for
  /// none).
  func result(
    paths: [Int], at location: _PathStep, steps: [_PathStep] = [], value: JSONValue
  ) -> _HeldResult {
    var match = JSONPathMatch(paths: paths)
    switch steps.last ?? location {
    case .name(let key): match.key = key
    case .index(let index): match.index = index
    case .root: break
    }
    if reportsPaths {
      match.normalizedPath = _PathStep.normalizedPath(frameLocations + [location] + steps)
    }
    return _HeldResult(match: match, value: value)
  }

  // MARK: Sets

  /// The state set of the value beginning now, added after the sets in use; returns where it
  /// starts.
  @usableFromInline
  mutating func childSet() -> Int {
    guard let top = frames.indices.last else {
      // The root: every path at its first step.
      let start = stateCount
      for path in 0..<userPathCount { append(UInt64(path) << 32 | UInt64(pathStarts[path])) }
      childMatch = -2
      childIsMember = false
      childIndex = -1
      return start
    }
    if frames[top].isObject {
      // Computed at the key (and what it completes, when a key table said).
      let start = pendingStart
      pendingStart = -1
      childMatch = pendingMatch
      childIsMember = true
      childIndex = -1
      return start
    }
    let index = frames[top].nextIndex
    frames[top].nextIndex = index &+ 1
    let start = stateCount
    advance(from: frames[top].stateStart, to: start, index: index) { _, _ in false }
    if !isSimple && engines.count > frames[top].engineStart {
      childWantedBy = -1
      for engine in frames[top].engineStart..<engines.count
      where engines[engine].wants(position: index) {
        childWantedBy = childWanted ? -1 : engine
        childWanted = true
      }
    }
    childMatch = -2
    childIsMember = false
    childIndex = index
    return start
  }

  /// Adds the states the child's key or index leads to from `states[from..<end]`, after
  /// `end` (which is where the sets in use end). The child is member `index` of an array
  /// (`matchesName` then answers false), or (`index` -1) the member of an object whose key
  /// `matchesName` compares with a step's name in `names`. A step with an engine is decided
  /// by the engine, not here; a descendant step also stays in the child's set. Always
  /// inlined, so that the comparison is too.
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
      case _CompiledStep.engine: matches = false
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

  /// Whether the set from `start` completes a path.
  mutating func setCompletesPath(from start: Int) -> Bool {
    for position in start..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      if Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) == pathEnds[path] { return true }
    }
    return false
  }

  /// Whether the set from `start` completes a path; records which paths in `match`.
  @usableFromInline
  mutating func setContainsMatch(from start: Int) -> Bool {
    // One path, the common case, takes its shared `[path]`: no array made per match.
    var first = -1
    var more = false
    for position in start..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      if Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) == pathEnds[path] {
        if first < 0 { first = path } else { more = true }
      }
    }
    if first < 0 { return false }
    if !more {
      match.paths = singlePaths[first]
      return true
    }
    match.paths = pathsEnded(from: start)
    return true
  }

  /// The paths that the states from `start` complete, in order.
  func pathsEnded(from start: Int) -> [Int] {
    var paths: [Int] = []
    for position in start..<stateCount {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      if Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) == pathEnds[path] { paths.append(path) }
    }
    return paths.sorted()
  }
}

/// A path step as the tracker matches it.
@usableFromInline
struct _CompiledStep {
  @usableFromInline static var name: UInt8 { 0 }
  @usableFromInline static var index: UInt8 { 1 }
  @usableFromInline static var wildcard: UInt8 { 2 }
  /// Decided by a segment engine.
  @usableFromInline static var engine: UInt8 { 3 }

  @usableFromInline var kind: UInt8 = 0
  @usableFromInline var isDescendant: Bool
  @usableFromInline var nameStart = 0
  @usableFromInline var nameCount = 0
  @usableFromInline var index = 0

  @inlinable
  init(isDescendant: Bool) { self.isDescendant = isDescendant }
}
