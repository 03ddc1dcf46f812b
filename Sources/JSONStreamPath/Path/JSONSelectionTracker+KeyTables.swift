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

  /// A key that a step of the set names: its bytes (in the tracker's `names`), its set and
  /// what that completes (an index into `keyTableMatches`, or -1).
  struct Name {
    var nameStart: Int
    var nameCount: Int
    var childStart: Int
    var childCount: Int
    var match: Int
  }

  /// The object's set.
  var setStart: Int
  var setCount: Int
  /// Its names.
  var nameStart: Int
  var nameCount = 0
  /// The set of every other key, and what it completes.
  var otherStart = 0
  var otherCount = 0
  var otherMatch = -1
}

extension _SelectionTracker {
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
    (table.otherStart, table.otherCount, table.otherMatch) = keyOutcome(from: start, to: end) {
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
      let (childStart, childCount, match) = keyOutcome(from: start, to: end) { other, names in
        names[other.nameStart..<other.nameStart + other.nameCount].elementsEqual(names[name])
      }
      keyTableNames.append(
        _KeyTable.Name(
          nameStart: name.lowerBound, nameCount: name.count, childStart: childStart,
          childCount: childCount, match: match))
    }
    table.nameCount = keyTableNames.count - table.nameStart
    keyTables.append(table)
    return keyTables.count - 1
  }

  /// The set a key leads to from `states[start..<end]` (`matchesName` says which steps'
  /// names it equals), kept in `keyTableChildren`, and what it completes.
  private mutating func keyOutcome(
    from start: Int, to end: Int, matchesName: (_CompiledStep, [UInt8]) -> Bool
  ) -> (start: Int, count: Int, match: Int) {
    advance(from: start, to: end, index: -1, matchesName: matchesName)
    let childStart = keyTableChildren.count
    keyTableChildren.append(contentsOf: states[end..<stateCount])
    let paths = pathsEnded(from: end)
    let count = stateCount - end
    stateCount = end
    if paths.isEmpty { return (childStart, count, -1) }
    if let known = keyTableMatches.firstIndex(of: paths) { return (childStart, count, known) }
    keyTableMatches.append(paths)
    return (childStart, count, keyTableMatches.count - 1)
  }

  /// Appends the set `key` leads to, as table `index` says, and notes what it completes.
  @inline(__always)
  mutating func appendChildSet(of key: borrowing JSONString, table index: Int) {
    let table = keyTables[index]
    var childStart = table.otherStart
    var childCount = table.otherCount
    var match = table.otherMatch
    for position in table.nameStart..<table.nameStart + table.nameCount {
      let name = keyTableNames[position]
      if key.count == name.nameCount
        && key.equals(names, in: name.nameStart..<name.nameStart + name.nameCount)
      {
        childStart = name.childStart
        childCount = name.childCount
        match = name.match
        break
      }
    }
    for position in childStart..<childStart + childCount { append(keyTableChildren[position]) }
    pendingMatch = match
  }

  /// Whether the set the last key led to completes a path; records which paths in `match`.
  mutating func pendingSetContainsMatch() -> Bool {
    completes(pendingMatch, setFrom: pendingStart)
  }

  /// Whether the set of the value beginning now completes a path; records which in `match`.
  mutating func childSetContainsMatch(from start: Int) -> Bool {
    completes(childMatch, setFrom: start)
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
