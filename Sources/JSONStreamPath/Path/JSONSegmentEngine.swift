// Deciding which children of one container a segment selects, while the container streams,
// when the child's key or index alone does not decide it: a filter needs the child whole, a
// negative index or slice needs the array's end, a negative step gives the elements in
// reverse, and a union gives each selector's results in turn (RFC 9535 §2.5.1.2).
//
// The tracker builds each child the engine wants as a tree and hands it over when it ends;
// the engine gives back the children selected, in the RFC's order, as soon as that order is
// decided. What it holds: the filter's candidate (only while it is tested), the last n
// elements for `[-n]` or a slice with a negative bound, the elements a negative step selects,
// and, in a union, the results of a selector waiting for those of the selectors before it.

import JSONStreamCore
import JSONStreamValue

/// A selected child: where it is among its container's children, and its value.
struct _SelectedChild {
  var location: _PathStep
  var value: JSONValue
}

@usableFromInline
struct _SegmentEngine {
  /// The path and the step (an index into the tracker's steps) this engine decides.
  let path: Int
  let step: Int
  let selectors: [_EngineSelector]
  /// Per selector: results waiting for the selectors before it to finish.
  var queues: [[_SelectedChild]]
  /// Per selector: the trailing elements held until the array's end decides them.
  var held: [[(position: Int, value: JSONValue)]]

  init(path: Int, step: Int, selectors: [_EngineSelector]) {
    self.path = path
    self.step = step
    self.selectors = selectors
    queues = Array(repeating: [], count: selectors.count)
    held = Array(repeating: [], count: selectors.count)
  }

  /// Whether the member with this key may be selected: then the tracker builds it.
  func wants(key: borrowing JSONString) -> Bool {
    for selector in selectors {
      switch selector {
      case .name(let name):
        if key.count == name.count && key.equals(name, in: 0..<name.count) { return true }
      case .wildcard, .filter: return true
      case .positions: break
      }
    }
    return false
  }

  /// Whether the element at `position` may be selected: then the tracker builds it.
  func wants(position: Int) -> Bool {
    for selector in selectors {
      switch selector {
      case .name: break
      case .wildcard, .filter: return true
      case .positions(let positions): if positions.mayTake(position) { return true }
      }
    }
    return false
  }

  /// A child the engine wanted, complete: appends to `output` what is decided now.
  mutating func add(
    _ child: _SelectedChild, evaluator: inout _QueryEvaluator, into output: inout [_SelectedChild]
  ) {
    var position = -1
    if case .index(let index) = child.location { position = index }
    for index in selectors.indices {
      switch selectors[index] {
      case .name(let name):
        if case .name(let key) = child.location, key.utf8.elementsEqual(name) {
          queues[index].append(child)
        }
      case .wildcard: queues[index].append(child)
      case .filter(let expression):
        if evaluator.test(expression, current: child.value) { queues[index].append(child) }
      case .positions(let positions):
        guard position >= 0, positions.mayTake(position) else { continue }
        switch positions.kind {
        case .streamed: queues[index].append(child)
        case .trailing(let length):
          held[index].append((position, child.value))
          if held[index].count > length {
            // Its array has more than `length` elements after it: decided now.
            let (oldest, value) = held[index].removeFirst()
            if positions.takesEarly(oldest) {
              queues[index].append(_SelectedChild(location: .index(oldest), value: value))
            }
          }
        case .reversed: held[index].append((position, child.value))
        }
      }
    }
    flush(upTo: position, finished: false, into: &output)
  }

  /// The container ended, an array after `count` elements: appends the rest of the results.
  mutating func finish(count: Int, into output: inout [_SelectedChild]) {
    for index in selectors.indices {
      guard case .positions(let positions) = selectors[index], !held[index].isEmpty else {
        continue
      }
      let values = Dictionary(uniqueKeysWithValues: held[index])
      for position in positions.positions(count: count) {
        if let value = values[position] {
          queues[index].append(_SelectedChild(location: .index(position), value: value))
        }
      }
      held[index].removeAll()
    }
    flush(upTo: count, finished: true, into: &output)
  }

  /// Moves the results whose turn has come to `output`: each selector's after all those of
  /// the selectors before it, which are finished once `position` is past what they can take.
  mutating func flush(upTo position: Int, finished: Bool, into output: inout [_SelectedChild]) {
    for index in selectors.indices {
      output += queues[index]
      queues[index].removeAll()
      if !finished && !selectors[index].isFinished(after: position) { return }
    }
  }
}

/// A selector as the engine applies it.
enum _EngineSelector {
  case name([UInt8])
  case wildcard
  case filter(_FilterExpression)
  case positions(_Positions)

  init(_ selector: JSONPathQuery.Selector) {
    switch selector {
    case .name(let name): self = .name(Array(name.utf8))
    case .wildcard: self = .wildcard
    case .filter(let filter): self = .filter(filter.expression)
    case .index(let index):
      // The one-element slice from it; `[-1:]` for -1, whose end would be 0.
      self = .positions(_Positions(start: index, end: index == -1 ? nil : index + 1, step: 1))
    case .slice(let start, let end, let step):
      self = .positions(_Positions(start: start, end: end, step: step ?? 1))
    }
  }

  /// Whether no child after `position` can be selected by this selector.
  func isFinished(after position: Int) -> Bool {
    guard case .positions(let positions) = self, case .streamed = positions.kind,
      let end = positions.end
    else { return false }
    return position + 1 >= end
  }
}

/// An index or a slice: the positions of an array it selects, and when each is decided.
struct _Positions {
  var start: Int?
  var end: Int?
  var step: Int

  enum Kind {
    /// Bounds from 0 and a positive step: each position is decided as it arrives.
    case streamed
    /// A negative bound, positive step: held until `length` elements follow it.
    case trailing(length: Int)
    /// A negative step: held until the end, given in reverse.
    case reversed
  }

  var kind: Kind {
    if step < 0 { return .reversed }
    let negatives = [start, end].compactMap { $0 }.filter { $0 < 0 }
    return negatives.isEmpty ? .streamed : .trailing(length: negatives.map { -$0 }.max()!)
  }

  /// Whether the position may be selected, for some length of the array.
  func mayTake(_ position: Int) -> Bool {
    if step == 0 { return false }
    if step > 0 {
      let first = start ?? 0
      if first >= 0 && (position < first || (position - first) % step != 0) { return false }
      if let end, end >= 0, position >= end { return false }
      return true
    }
    if let start, start >= 0, position > start { return false }
    if let end, end >= 0, position <= end { return false }
    return true
  }

  /// For a trailing selector: whether `position`, now known to have more than the trailing
  /// length of elements after it, is selected (a negative start excludes it; a negative end
  /// includes it).
  func takesEarly(_ position: Int) -> Bool {
    if let start, start < 0 { return false }
    return mayTake(position)
  }

  /// The positions selected in an array of `count` elements, in the RFC's order.
  func positions(count: Int) -> [Int] {
    _QueryEvaluator.sliceIndexes(count: count, start, end, step)
  }
}
