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
  /// The consumer every event is passed on to.
  public var downstream: Downstream

  /// The open containers and their current keys; shared between copies of the tracker until
  /// one of them changes it.
  @usableFromInline var _memory = _CopyOnWriteState(_PathTrackerState())
  /// The current element's index in the innermost open array, or in an object whether a key
  /// was seen (0 or more); -1 before the first. Kept here rather than in its frame: a value
  /// then costs one add to the tracker, without reaching for its state.
  @usableFromInline var _index = -1

  /// A tracker passing every event on to `downstream`.
  public init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// `true` once ``downstream`` is done.
  public var isDone: Bool { downstream.isDone }

  /// The downstream consumer's: wrapping a filter in a tracker keeps its skipping (a skipped
  /// container's start and end still pass through, so the path stays right).
  public var skipsContainerContents: Bool { downstream.skipsContainerContents }
  /// The downstream consumer type's.
  public static var canSkipContainers: Bool { Downstream.canSkipContainers }

  /// Takes the run for its own state (see `JSONEventHandler.beginEventRun()`) and passes it
  /// on to ``downstream``.
  @inlinable public mutating func beginEventRun() {
    _memory.beginEventRun()
    downstream.beginEventRun()
  }

  /// Passes the end of the run on to ``downstream``.
  @inlinable public mutating func endEventRun() {
    _memory.endEventRun()
    downstream.endEventRun()
  }

  /// Where the current event is, outermost first.
  public var path: [JSONPathComponent] {
    let frames = _memory.current.frames
    let keys = _memory.current.keys
    var components: [JSONPathComponent] = []
    for level in 0..<frames.count {
      let frame = frames[level]
      // Where the container is: at the next level's position, or (innermost) at `_index`.
      let isInnermost = level + 1 == frames.count
      let index = isInnermost ? _index : frames[level + 1].position
      if index < 0 { continue }
      if frame.isObject {
        // A key ends where the next level's keys start, the innermost one at the keys' end.
        let end = isInnermost ? keys.count : frames[level + 1].keyStart
        components.append(.key(keys.string(frame.keyStart..<end)))
      } else {
        components.append(.index(index))
      }
    }
    return components
  }

  /// ``path`` as a JSON Pointer, e.g. `/statuses/3/user`.
  public var pointer: String { path.jsonPointer }

  @inlinable @inline(__always)
  mutating func _valueStarts() {
    // Counted in objects too, and outside any container: in an object, any count past the
    // key's 0 still says a key was seen, so no test of the container's kind.
    _index &+= 1
  }

  /// A container starts, as the next value of the one around it. Its frame can go on before
  /// the event is passed on: with no element yet, it adds nothing to the path of an error.
  @inlinable @inline(__always)
  mutating func _open(isObject: Bool) {
    let position = _index &+ 1
    _memory.withUnique { state in
      state.frames.append(
        _PathFrame(isObject: isObject, keyStart: state.keys.count, position: position))
    }
    _index = -1
  }

  /// Closes the innermost container, an array: the keys are as they were at its start.
  @inlinable @inline(__always)
  mutating func _closeArray() {
    _index = _memory.withUnique { $0.frames.removeLast().position }
  }

  /// Closes the innermost container, an object, and forgets its key.
  @inlinable @inline(__always)
  mutating func _closeObject() {
    _index = _memory.withUnique { state in
      let frame = state.frames.removeLast()
      state.keys.truncate(to: frame.keyStart)
      return frame.position
    }
  }

  /// The innermost object's key is now `key`, written over the one before it.
  @inlinable @inline(__always)
  mutating func _keyStarts(_ key: borrowing JSONString) {
    _memory.withUnique { state in
      state.keys.replaceTail(from: state.frames[state.frames.count &- 1].keyStart, with: key)
    }
    _index = 0
  }

  /// A downstream error, located at the current event unless it already names a location.
  /// Out of line: only failing events pay for it.
  @inlinable @inline(never)
  func _located(_ error: any Error) -> any Error {
    if error is JSONLocatedError { return error }
    return JSONLocatedError(path: path, underlying: error)
  }

  /// Passes the object's start on; from here on, the location is inside the object.
  @inlinable @inline(__always)
  public mutating func startObject() throws {
    _open(isObject: true)
    do { try downstream.startObject() } catch { throw _located(error) }
  }

  /// Passes the array's start on; from here on, the location is inside the array.
  @inlinable @inline(__always)
  public mutating func startArray() throws {
    _open(isObject: false)
    do { try downstream.startArray() } catch { throw _located(error) }
  }

  /// Passes the object's end on, located at the object.
  @inlinable @inline(__always)
  public mutating func endObject() throws {
    _closeObject()
    do { try downstream.endObject() } catch { throw _located(error) }
  }

  /// Passes the array's end on, located at the array.
  @inlinable @inline(__always)
  public mutating func endArray() throws {
    _closeArray()
    do { try downstream.endArray() } catch { throw _located(error) }
  }

  /// Keeps the key as the current member's, and passes it on.
  @inlinable @inline(__always)
  public mutating func key(_ key: borrowing JSONString) throws {
    _keyStarts(key)
    do { try downstream.key(key) } catch { throw _located(error) }
  }

  /// Passes the string on, located at its value.
  @inlinable @inline(__always)
  public mutating func string(_ value: borrowing JSONString) throws {
    _valueStarts()
    do { try downstream.string(value) } catch { throw _located(error) }
  }

  /// Passes the number on, located at its value.
  @inlinable @inline(__always)
  public mutating func number(_ value: borrowing JSONNumber) throws {
    _valueStarts()
    do { try downstream.number(value) } catch { throw _located(error) }
  }

  /// Passes the number in binary form on, located at its value.
  @inlinable @inline(__always)
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    _valueStarts()
    do { try downstream.binaryNumber(value) } catch { throw _located(error) }
  }

  /// Passes the Boolean on, located at its value.
  @inlinable @inline(__always)
  public mutating func bool(_ value: Bool) throws {
    _valueStarts()
    do { try downstream.bool(value) } catch { throw _located(error) }
  }

  /// Passes `null` on, located at its value.
  @inlinable @inline(__always)
  public mutating func null() throws {
    _valueStarts()
    do { try downstream.null() } catch { throw _located(error) }
  }
}

/// An open container, as the tracker keeps it.
@usableFromInline
struct _PathFrame: BitwiseCopyable {
  @usableFromInline var isObject: Bool
  /// Where this container's current key starts in the keys (for an array: where the keys of
  /// the objects inside it start).
  @usableFromInline var keyStart: Int
  /// Where the container is in the one around it: that one's `_index` when this one started.
  @usableFromInline var position: Int

  @inlinable
  init(isObject: Bool, keyStart: Int, position: Int) {
    self.isObject = isObject
    self.keyStart = keyStart
    self.position = position
  }
}

/// What a ``JSONPathTracker`` keeps between events, in plain memory (Swift arrays cost a
/// uniqueness check per change, and range replacement per key).
@usableFromInline
struct _PathTrackerState: _ManualState {
  /// The open containers, outermost first.
  @usableFromInline var frames: _Buffer<_PathFrame>
  /// The current key of every open object, outermost first, end to end: a new key is written
  /// over the one before it at its level.
  @usableFromInline var keys: _Buffer<UInt8>

  @usableFromInline
  init() {
    frames = _Buffer(capacity: 16)
    keys = _Buffer(capacity: 256)
  }

  @usableFromInline
  init(frames: _Buffer<_PathFrame>, keys: _Buffer<UInt8>) {
    self.frames = frames
    self.keys = keys
  }

  @usableFromInline
  func copy() -> _PathTrackerState {
    _PathTrackerState(frames: frames.copy(), keys: keys.copy())
  }

  @usableFromInline
  func deallocate() {
    frames.deallocate()
    keys.deallocate()
  }
}
