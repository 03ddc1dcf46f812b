import JSONStreamCore
import JSONStreamValue

/// Applies a JSON Merge Patch (RFC 7396) to events on their way to another consumer, in
/// constant memory whatever the document's size (parser → merge patch → writer).
///
/// ```swift
/// var parser = JSONParser(
///   handler: JSONMergePatchFilter(patch: ["draft": nil, "meta": ["rev": 2]], downstream: writer))
/// ```
///
/// The output is the events of ``JSONValue/merging(patch:)``: a member the patch names is
/// replaced where it is (merged, when both are objects) or removed (for `null`); the patch's
/// other members are added at the end of their object, in the patch's order; a value the
/// patch does not reach passes unchanged, and one it replaces is skipped by the parser
/// (checked, not decoded). Each top-level value is patched (NDJSON). One difference from a
/// tree: when an object repeats a key, every occurrence is patched (a tree keeps one).
public struct JSONMergePatchFilter<Downstream: JSONEventHandler>: JSONEventHandler {
  /// The consumer of the patched events.
  public var downstream: Downstream
  /// The merge patch.
  public let patch: JSONValue

  /// The patch's objects, each with its keys; 0 is the patch itself when it is an object.
  @usableFromInline let _objects: [_MergeObject]
  /// The input's objects being merged now, innermost last.
  @usableFromInline var _frames: [_MergeFrame] = []
  /// What becomes of the next value in the innermost merged object (set by its key).
  @usableFromInline var _next = _MergeNext.forward
  /// Open containers inside a value passed on unchanged, and inside one dropped.
  @usableFromInline var _passDepth = 0
  @usableFromInline var _dropDepth = 0

  /// A filter applying `patch` to each top-level value on its way to `downstream`.
  public init(patch: JSONValue, downstream: Downstream) {
    self.patch = patch
    self.downstream = downstream
    var objects: [_MergeObject] = []
    if case .object(let object) = patch {
      // Breadth first, with a queue of its own: any depth.
      var queue = [object]
      var next = 0
      while next < queue.count {
        let current = queue[next]
        next += 1
        var children: [Int?] = []
        for (_, value) in current {
          if case .object(let inner) = value {
            children.append(queue.count)
            queue.append(inner)
          } else {
            children.append(nil)
          }
        }
        objects.append(
          _MergeObject(patch: current, keys: _PatchTokenTable(current.keys), children: children))
      }
    }
    _objects = objects
  }

  /// `true` once ``downstream`` is done.
  @inlinable public var isDone: Bool { downstream.isDone }
  /// A value the patch replaces is skipped (checked, not decoded); one it passes on unchanged
  /// is skipped when ``downstream`` asks.
  @inlinable public var skipsContainerContents: Bool {
    if _dropDepth > 0 { return true }
    if _passDepth > 0 { return downstream.skipsContainerContents }
    // An object being merged, which ``downstream`` skips when it asked to.
    return _frames.last?.skipped ?? false
  }
  /// `true`: the filter has the parser skip the values it replaces or removes.
  @inlinable public static var canSkipContainers: Bool { true }

  /// Passes the run on to ``downstream``.
  @inlinable public mutating func beginEventRun() { downstream.beginEventRun() }
  /// Passes the end of the run on to ``downstream``.
  @inlinable public mutating func endEventRun() { downstream.endEventRun() }

  /// Passes the object's start on, or starts merging it, or writes what replaces it.
  @inlinable public mutating func startObject() throws {
    if try _begin(container: true, isObject: true) {
      try downstream.startObject()
      if Downstream.canSkipContainers && _passDepth == 0 && downstream.skipsContainerContents {
        // An object being merged, whose contents ``downstream`` does not want.
        _frames[_frames.count - 1].skipped = true
      }
    }
  }

  /// Passes the array's start on, or writes what replaces it.
  @inlinable public mutating func startArray() throws {
    if try _begin(container: true, isObject: false) { try downstream.startArray() }
  }

  /// Passes the object's end on, after the patch's members it lacked when it is merged.
  @inlinable public mutating func endObject() throws {
    if try _end() { try downstream.endObject() }
  }

  /// Passes the array's end on, unless the array is dropped.
  @inlinable public mutating func endArray() throws {
    if try _end() { try downstream.endArray() }
  }

  /// Passes the key on, unless the patch removes or will replace its member.
  @inlinable public mutating func key(_ key: borrowing JSONString) throws {
    if try _key(key) { try downstream.key(key) }
  }

  /// Passes the string on, unless the patch replaces it.
  @inlinable public mutating func string(_ value: borrowing JSONString) throws {
    if try _begin(container: false, isObject: false) { try downstream.string(value) }
  }

  /// Passes the number on, unless the patch replaces it.
  @inlinable public mutating func number(_ value: borrowing JSONNumber) throws {
    if try _begin(container: false, isObject: false) { try downstream.number(value) }
  }

  /// Passes the number on, unless the patch replaces it.
  @inlinable public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    if try _begin(container: false, isObject: false) { try downstream.binaryNumber(value) }
  }

  /// Passes the Boolean on, unless the patch replaces it.
  @inlinable public mutating func bool(_ value: Bool) throws {
    if try _begin(container: false, isObject: false) { try downstream.bool(value) }
  }

  /// Passes `null` on, unless the patch replaces it.
  @inlinable public mutating func null() throws {
    if try _begin(container: false, isObject: false) { try downstream.null() }
  }
}

/// One of a merge patch's objects.
@usableFromInline
struct _MergeObject: Sendable {
  @usableFromInline let patch: JSONObject
  @usableFromInline let keys: _PatchTokenTable
  /// For each member whose value is an object: that object's number.
  @usableFromInline let children: [Int?]

  @usableFromInline
  init(patch: JSONObject, keys: _PatchTokenTable, children: [Int?]) {
    self.patch = patch
    self.keys = keys
    self.children = children
  }
}

/// An object of the input being merged with patch object `object`.
@usableFromInline
struct _MergeFrame: Sendable {
  @usableFromInline let object: Int
  /// Which of the patch object's members the input object had.
  @usableFromInline var seen: [Bool]
  /// Whether the downstream consumer skips the object's contents: nothing is added to it.
  @usableFromInline var skipped = false

  @usableFromInline
  init(object: Int, count: Int) {
    self.object = object
    seen = Array(repeating: false, count: count)
  }
}

/// What becomes of a value in a merged object.
@usableFromInline
enum _MergeNext: Sendable {
  /// Passed on unchanged: the patch does not name it.
  case forward
  /// Dropped, with its key: the patch sets it to null.
  case drop
  /// Replaced by patch object `object`'s member `member`, merged into an empty object when
  /// it is one; merged with it when both are objects.
  case patch(object: Int, member: Int)
}

extension JSONMergePatchFilter {
  /// A value starts: passes on whether to send its first event on (or, having written its
  /// replacement, to drop it).
  @inlinable
  mutating func _begin(container: Bool, isObject: Bool) throws -> Bool {
    if _dropDepth > 0 {
      if container { _dropDepth += 1 }
      return false
    }
    if _passDepth > 0 {
      if container { _passDepth += 1 }
      return true
    }
    let next: _MergeNext
    if _frames.isEmpty {
      // A top-level value.
      next = _objects.isEmpty ? .patch(object: -1, member: -1) : .patch(object: 0, member: -1)
    } else {
      next = _next
      _next = .forward
    }
    switch next {
    case .forward:
      if container { _passDepth = 1 }
      return true
    case .drop:
      if container { _dropDepth = 1 }
      return false
    case .patch(let object, let member):
      // The patch object to merge in (-1: the value is replaced, not merged).
      let child = object < 0 ? nil : member < 0 ? object : _objects[object].children[member]
      if let child, isObject {
        _frames.append(_MergeFrame(object: child, count: _objects[child].patch.count))
        return true
      }
      try _writeReplacement(object: object, member: member)
      if container { _dropDepth = 1 }
      return false
    }
  }

  /// A container ends: whether to send its end event on. A merged object first gets the
  /// patch's members it lacked.
  @inlinable
  mutating func _end() throws -> Bool {
    if _dropDepth > 0 {
      _dropDepth -= 1
      return false
    }
    if _passDepth > 0 {
      _passDepth -= 1
      return true
    }
    try _appendMissing(_frames.removeLast())
    return true
  }

  /// A key in a merged object (or inside a value passed on or dropped): whether to send it on.
  @inlinable
  mutating func _key(_ key: borrowing JSONString) throws -> Bool {
    if _dropDepth > 0 { return false }
    if _passDepth > 0 { return true }
    let top = _frames.count - 1
    let object = _frames[top].object
    guard let member = _objects[object].keys.position(of: key) else {
      _next = .forward
      return true
    }
    _frames[top].seen[member] = true
    if case .null = _objects[object].patch._member(at: member, keepingText: true).value {
      _next = .drop
      return false
    }
    _next = .patch(object: object, member: member)
    return true
  }

  /// Writes what replaces a value: patch object `object`'s member `member`, or the whole
  /// patch (`object` -1), or the patch object `object` itself (`member` -1); an object merged
  /// into an empty one, which drops its nulls.
  @usableFromInline
  mutating func _writeReplacement(object: Int, member: Int) throws {
    let replacement =
      object < 0
      ? patch
      : member < 0
        ? .object(_objects[object].patch)
        : _objects[object].patch._member(at: member, keepingText: true).value
    try JSONValue.null.merging(patch: replacement).replay(into: &downstream)
  }

  /// The end of a merged object: the patch's members it did not have, but for nulls.
  @usableFromInline
  mutating func _appendMissing(_ frame: _MergeFrame) throws {
    guard !frame.skipped else { return }
    let patch = _objects[frame.object].patch
    for member in frame.seen.indices where !frame.seen[member] {
      let (key, value) = patch._member(at: member, keepingText: true)
      if case .null = value { continue }
      var name = key
      try name.withJSONString { try downstream.key($0) }
      try JSONValue.null.merging(patch: value).replay(into: &downstream)
    }
  }
}
