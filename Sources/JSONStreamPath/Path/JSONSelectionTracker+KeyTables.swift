// Key tables: an object's state set, turned once into the sets its keys lead to.
//
// A member's set depends only on its object's set and its key, and a document repeats the
// same few object sets (every record of an array has the one its element step gives). So the
// first object with a given set gets a table: for each name that a step of the set compares
// keys with, the set that key leads to and what it completes, and the same for every other
// key. A key is then matched by comparing it with those names once, and its set copied,
// instead of stepping every state of the set and testing the result for a path's end.

import JSONStreamCore

/// The sets the keys of an object lead to, for one state set of its own (all ranges are
/// into the tracker's flat `keyTable…` arrays).
struct _KeyTable {
  /// At most this many tables are made; objects with other sets step their states.
  static var limit: Int { 64 }

  /// What one key leads to: its set (in `keyTableChildren`), what that completes (an index
  /// into `keyTableMatches`, or -1), and the step whose name the key is (for its string, made
  /// once), -1 for a key no step names.
  struct Outcome {
    var childStart: Int
    var childCount: Int
    var match: Int
    var nameStep: Int
    /// No path continues in the member's value and no engine of the object wants it.
    var leadsNowhere: Bool
  }

  /// A key that a step of the set names: its bytes (in the tracker's `names`), their first
  /// eight as a word (`JSONString.prefixWord`), and its outcome (an index into `keyOutcomes`).
  struct Name {
    var nameStart: Int
    var nameCount: Int
    var prefix: UInt64
    var outcome: Int
  }

  /// The object's set.
  var setStart: Int
  var setCount: Int
  /// Its names.
  var nameStart: Int
  var nameCount = 0
  /// The outcome of every other key.
  var other = 0
  /// Whether a state of the set has a step that needs an engine (see `startEngines`).
  var hasEngines = false
  /// The lengths of its names (see `_keyLengthBit`): a key of no name's length is another
  /// key without a comparison.
  var nameLengths: UInt64 = 0
  /// The lengths of the keys that lead nowhere without a comparison, when every other key
  /// leads nowhere (the lengths no name has); else none. Objects' frames keep a copy, which
  /// the inlined `key` reads.
  var nowhereKeyLengths: UInt64 = 0
}

/// The bit of a length of `count` bytes in a set of key lengths: bit `count`, or 63 for 63
/// and more.
@inlinable @inline(__always)
func _keyLengthBit(_ count: Int) -> UInt64 { 1 &<< UInt64(Swift.min(count, 63)) }

extension _SelectionTracker {
  /// Gives `frame`, an object's, the key table of its set (from `frame.stateStart` to
  /// `stateCount`), and the key lengths that table passes over.
  mutating func setKeyTable(of frame: inout Frame) {
    frame.keyTable = keyTable(forSetFrom: frame.stateStart)
    if frame.keyTable >= 0 { frame.nowhereKeyLengths = keyTables[frame.keyTable].nowhereKeyLengths }
  }

  /// The key table for the set of the object beginning now (`states[start..<stateCount]`),
  /// made when it is new; -1 past the limit.
  mutating func keyTable(forSetFrom start: Int) -> Int {
    let count = stateCount - start
    search: for index in keyTables.indices where keyTables[index].setCount == count {
      let setStart = keyTables[index].setStart
      for offset in 0..<count where keyTableSets[setStart + offset] != states[start + offset] {
        continue search
      }
      return index
    }
    guard keyTables.count < _KeyTable.limit else { return -1 }
    let end = stateCount
    var table = _KeyTable(
      setStart: keyTableSets.count, setCount: count, nameStart: keyTableNames.count)
    keyTableSets.append(contentsOf: states[start..<end])
    // The set's engines are the object's (see `startEngines`): they may want any key.
    let hasEngines = states[start..<end].contains {
      engineSelectors[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] != nil
    }
    table.hasEngines = hasEngines
    table.other = keyOutcome(from: start, to: end, nameStep: -1, hasEngines: hasEngines) {
      _, _ in false
    }
    for position in start..<end {
      let entry = states[position]
      let path = Int(truncatingIfNeeded: entry >> 32)
      let step = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
      let compiled = steps[step]
      guard step != pathEnds[path], compiled.kind == _CompiledStep.name else { continue }
      let name = compiled.nameStart..<compiled.nameStart + compiled.nameCount
      let known = keyTableNames[table.nameStart...].contains { other in
        names[other.nameStart..<other.nameStart + other.nameCount].elementsEqual(names[name])
      }
      if known { continue }
      let outcome = keyOutcome(from: start, to: end, nameStep: step, hasEngines: hasEngines) {
        other, names in
        names[other.nameStart..<other.nameStart + other.nameCount].elementsEqual(names[name])
      }
      keyTableNames.append(
        _KeyTable.Name(
          nameStart: name.lowerBound, nameCount: name.count,
          prefix: _prefixWord(of: names, in: name), outcome: outcome))
      table.nameLengths |= _keyLengthBit(name.count)
    }
    table.nameCount = keyTableNames.count - table.nameStart
    if keyOutcomes[table.other].leadsNowhere { table.nowhereKeyLengths = ~table.nameLengths }
    keyTables.append(table)
    return keyTables.count - 1
  }

  /// What a key leads to from `states[start..<end]` (`matchesName` says which steps' names it
  /// equals; `nameStep` is a step whose name it is, or -1): its set, kept in
  /// `keyTableChildren`, and what that completes.
  private mutating func keyOutcome(
    from start: Int, to end: Int, nameStep: Int, hasEngines: Bool,
    matchesName: (_CompiledStep, [UInt8]) -> Bool
  ) -> Int {
    advance(from: start, to: end, index: -1, matchesName: matchesName)
    let childStart = keyTableChildren.count
    keyTableChildren.append(contentsOf: states[end..<stateCount])
    let paths = pathsEnded(from: end)
    let count = stateCount - end
    stateCount = end
    var outcome = _KeyTable.Outcome(
      childStart: childStart, childCount: count, match: -1, nameStep: nameStep,
      leadsNowhere: count == 0 && !hasEngines)
    if !paths.isEmpty {
      if let known = keyTableMatches.firstIndex(of: paths) {
        outcome.match = known
      } else {
        keyTableMatches.append(paths)
        outcome.match = keyTableMatches.count - 1
      }
    }
    keyOutcomes.append(outcome)
    return keyOutcomes.count - 1
  }

  /// What `key` leads to in an object of table `index`: an index into `keyOutcomes`.
  @inline(__always)
  func outcome(of key: borrowing JSONString, table index: Int) -> Int {
    let table = keyTables[index]
    let count = key.count
    guard table.nameLengths & _keyLengthBit(count) != 0 else { return table.other }
    for position in table.nameStart..<table.nameStart &+ table.nameCount {
      let name = keyTableNames[position]
      // A key of up to eight bytes is its count and its word; a longer one is compared whole.
      if count == name.nameCount && key.prefixWord == name.prefix
        && (count <= 8 || key.equals(names, in: name.nameStart..<name.nameStart + count))
      {
        return name.outcome
      }
    }
    return table.other
  }

  /// Appends the set of `outcome` as the pending set, and notes what it completes.
  @inline(__always)
  mutating func appendChildSet(_ outcome: _KeyTable.Outcome) {
    let end = outcome.childStart &+ outcome.childCount
    for position in outcome.childStart..<end { append(keyTableChildren[position]) }
    pendingMatch = outcome.match
  }

  /// Whether the set the last key led to completes a path; records which paths in `match`.
  mutating func pendingSetContainsMatch() -> Bool {
    completes(pendingMatch, setFrom: pendingStart)
  }

  /// Whether the set of the value beginning now completes a path; records which in `match`.
  mutating func childSetContainsMatch(from start: Int) -> Bool {
    completes(childMatch, setFrom: start)
  }

  /// Whether the set the last key led to completes a path, without recording which.
  mutating func pendingSetCompletesPath() -> Bool {
    completesPath(pendingMatch, setFrom: pendingStart)
  }

  /// Whether the set of the value beginning now completes a path, without recording which.
  mutating func childSetCompletesPath(from start: Int) -> Bool {
    completesPath(childMatch, setFrom: start)
  }

  /// `completes(_:setFrom:)` without recording which paths.
  @inline(__always)
  private mutating func completesPath(_ known: Int, setFrom start: Int) -> Bool {
    known == -2 ? setCompletesPath(from: start) : known >= 0
  }

  /// What a key table said (`known`), or else what the set from `start` completes.
  @inline(__always)
  private mutating func completes(_ known: Int, setFrom start: Int) -> Bool {
    if known == -2 { return setContainsMatch(from: start) }
    if known < 0 { return false }
    match.paths = keyTableMatches[known]
    return true
  }
}
