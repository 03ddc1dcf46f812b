import JSONStreamCore
import JSONStreamValue

/// Knows where every event is in the document, and passes the events on unchanged: wrap any
/// consumer in it to ask ``path`` or ``pointer`` at any event, and to have the consumer's errors
/// name the location (as ``JSONLocatedError``).
///
/// ```swift
/// var parser = JSONParser(handler: JSONPathTracker(downstream: MyImporter()))
/// do { try parser.feed(bytes) } catch let error as JSONLocatedError {
///   print(error)          // "at /orders/17/total: the total is negative"
/// }
/// ```
///
/// For a value, the location is the value's; for a key, the member's; for `}` or `]`, the
/// container's. Keeping it costs a little per event (keys are copied), so a pipeline only
/// pays for it where the tracker is used.
public struct JSONPathTracker<Downstream: JSONEventHandler>: JSONEventHandler {
  public var downstream: Downstream

  @usableFromInline var _frames: [_Frame] = []
  /// The current key of every open object, outermost first.
  @usableFromInline var _keys: [UInt8] = []
  /// Where the current keys end in `_keys`, which only grows: a key is written over the one
  /// before it, not removed and appended (the array's range replacement cost more than the
  /// rest of the tracker's work on a key).
  @usableFromInline var _keysEnd = 0

  @usableFromInline
  struct _Frame {
    @usableFromInline var isObject: Bool
    /// The current element's index (arrays), or whether a key was seen (objects: 0).
    @usableFromInline var index = -1
    @usableFromInline var keyStart: Int

    @inlinable
    init(isObject: Bool, keyStart: Int) {
      self.isObject = isObject
      self.keyStart = keyStart
    }
  }

  public init(downstream: Downstream) {
    self.downstream = downstream
  }

  public var isDone: Bool { downstream.isDone }

  /// The downstream consumer's: wrapping a filter in a tracker keeps its skipping (a skipped
  /// container's start and end still pass through, so the path stays right).
  public var skipsContainerContents: Bool { downstream.skipsContainerContents }
  public static var canSkipContainers: Bool { Downstream.canSkipContainers }

  @inlinable public mutating func beginEventRun() { downstream.beginEventRun() }
  @inlinable public mutating func endEventRun() { downstream.endEventRun() }

  /// Where the current event is, outermost first.
  public var path: [JSONPathComponent] {
    var components: [JSONPathComponent] = []
    for (level, frame) in _frames.enumerated() where frame.index >= 0 {
      if frame.isObject {
        let end = level + 1 < _frames.count ? _frames[level + 1].keyStart : _keysEnd
        components.append(.key(String(decoding: _keys[frame.keyStart..<end], as: UTF8.self)))
      } else {
        components.append(.index(frame.index))
      }
    }
    return components
  }

  /// ``path`` as a JSON Pointer, e.g. `/statuses/3/user`.
  public var pointer: String { path.jsonPointer }

  @inlinable
  mutating func _valueStarts() {
    if let last = _frames.indices.last, !_frames[last].isObject { _frames[last].index &+= 1 }
  }

  @inlinable
  mutating func _forward(_ event: (inout Downstream) throws -> Void) throws {
    do {
      try event(&downstream)
    } catch let error as JSONLocatedError {
      throw error
    } catch {
      throw JSONLocatedError(path: path, underlying: error)
    }
  }

  @inlinable @inline(__always)
  public mutating func startObject() throws {
    _valueStarts()
    try _forward { try $0.startObject() }
    _frames.append(_Frame(isObject: true, keyStart: _keysEnd))
  }

  @inlinable @inline(__always)
  public mutating func startArray() throws {
    _valueStarts()
    try _forward { try $0.startArray() }
    _frames.append(_Frame(isObject: false, keyStart: _keysEnd))
  }

  @inlinable @inline(__always)
  public mutating func endObject() throws {
    _keysEnd = _frames.removeLast().keyStart
    try _forward { try $0.endObject() }
  }

  @inlinable @inline(__always)
  public mutating func endArray() throws {
    _keysEnd = _frames.removeLast().keyStart
    try _forward { try $0.endArray() }
  }

  @inlinable @inline(__always)
  public mutating func key(_ key: JSONString) throws {
    _keyStarts(key)
    try _forward { try $0.key(key) }
  }

  @inlinable
  mutating func _keyStarts(_ key: JSONString) {
    let last = _frames.count &- 1
    let start = _frames[last].keyStart
    let bytes = key.utf8
    let end = start &+ bytes.count
    if _keys.count < end { _keys.append(contentsOf: repeatElement(0, count: end &- _keys.count)) }
    _keys.replaceSubrange(start..<end, with: bytes)
    _keysEnd = end
    _frames[last].index = 0
  }

  @inlinable @inline(__always)
  public mutating func string(_ value: JSONString) throws {
    _valueStarts()
    try _forward { try $0.string(value) }
  }

  @inlinable @inline(__always)
  public mutating func number(_ value: JSONNumber) throws {
    _valueStarts()
    try _forward { try $0.number(value) }
  }

  @inlinable @inline(__always)
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    _valueStarts()
    try _forward { try $0.binaryNumber(value) }
  }

  @inlinable @inline(__always)
  public mutating func bool(_ value: Bool) throws {
    _valueStarts()
    try _forward { try $0.bool(value) }
  }

  @inlinable @inline(__always)
  public mutating func null() throws {
    _valueStarts()
    try _forward { try $0.null() }
  }
}
