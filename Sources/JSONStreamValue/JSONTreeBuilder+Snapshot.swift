// Snapshots of an incomplete document: the best value so far, with the open strings, arrays
// and objects closed, made cheaply enough to take after every chunk.
//
// A snapshot shares what earlier snapshots made. The complete children of each open container
// are copied once from the builder's stack into a "mirror" block in the arena, which grows by
// doubling (an old block stays, for the snapshots that use it), so each child is copied O(1)
// times however many snapshots are taken. A container's incomplete last child (the open
// container below it, or a partial string) is not put in the block but hangs off a small
// header (an "open" node, see `_JSONStorage`). An open string's bytes are mirrored the same
// way. So a snapshot costs the children and bytes completed since the last one, plus a header
// per open level: following a stream of N bytes with a snapshot after every chunk is O(N),
// not the O(N²) of parsing the whole buffer again each time.

import JSONStreamCore
import JSONStreamParser

/// What a snapshot of an incomplete document may show besides complete values and open
/// containers (which it always shows, closed): like partial-json's `Allow` flags and jiter's
/// partial modes.
public struct JSONSnapshotOptions: OptionSet, Sendable {
  /// The bits of the set options.
  public let rawValue: Int
  /// Options with the bits of `rawValue`.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A string value the input ends inside, with the characters so far (jiter's
  /// "trailing-strings"). A key the input ends inside never shows: its member is left out.
  public static let partialStrings = JSONSnapshotOptions(rawValue: 1 << 0)
  /// A number the input ends inside, when its text so far is a number (`12`, `1.5`; not `1.`
  /// or `-`). Off by default: `12` may yet become `123`.
  public static let partialNumbers = JSONSnapshotOptions(rawValue: 1 << 1)
}

extension JSONParser where Handler == JSONTreeBuilder {
  /// The best value of the document so far: open strings, arrays and objects closed; an
  /// incomplete key (and its member), number or literal left out. The complete value once
  /// the document is complete (with ``JSONParseOptions/allowMultipleValues``, the value in
  /// progress, or the last complete one); nil while nothing can be shown yet.
  ///
  /// Made for following a document as it streams in — an LLM's tool-call arguments, a slow
  /// API — after every chunk:
  ///
  /// ```swift
  /// var parser = JSONParser(handler: JSONTreeBuilder())
  /// for try await delta in deltas {
  ///   try parser.feed(delta)
  ///   render(parser.snapshot())           // {"city":"Par"} … {"city":"Paris","days":[1]}
  /// }
  /// ```
  ///
  /// Snapshots share what earlier ones built: a snapshot costs what was parsed since the last
  /// one plus a little per open container, so a snapshot after every chunk of an N-byte
  /// stream costs O(N) in all, not O(N²) as parsing the text so far again each time would.
  /// Each snapshot is an independent, immutable value.
  public mutating func snapshot(including options: JSONSnapshotOptions = .partialStrings)
    -> JSONValue?
  {
    let pending = pendingToken.map {
      _PendingToken(isString: $0.isString, isKey: $0.isKey, bytes: $0.scratch, start: $0.start)
    }
    return handler._snapshot(pending: pending, options: options) ?? handler.values.last
  }
}

extension JSONTreeBuilder {
  @usableFromInline
  mutating func _snapshot(pending: _PendingToken?, options: JSONSnapshotOptions) -> JSONValue? {
    _memory.withUnique {
      $0.snapshot(
        pending: pending, partialNumbers: options.contains(.partialNumbers),
        partialStrings: options.contains(.partialStrings))
    }
  }

  /// Nodes and bytes snapshots have written so far (for tests of their cost).
  var _snapshotWork: Int { _memory.current.snapshots.work.value }
}

/// The mirrors and counters snapshots share.
@usableFromInline
struct _SnapshotState {
  /// Per open frame, outermost first, the nodes of its complete children copied so far; those
  /// from `valid` on are stale (their frame closed, or a child they copied changed) and start
  /// afresh.
  @usableFromInline var mirrors: [_ArenaBlock<_Node>] = []
  @usableFromInline var valid = 0
  /// The open token's bytes (a string's, or a number's text), and which token they belong
  /// to: each snapshot of the same token copies only the bytes that arrived since the last.
  @usableFromInline var tokenBytes = _ArenaBlock<UInt8>()
  @usableFromInline var token = -1
  /// The open number last classified: its token, its length then, and its flags (nil when it
  /// was not a number yet).
  @usableFromInline var numberToken = -1
  @usableFromInline var numberCount = 0
  @usableFromInline var numberFlags: UInt8? = nil
  /// Nodes, bytes and headers written by snapshots so far: the cost that must stay linear.
  @usableFromInline var work = _WorkCounter()

  @usableFromInline
  init() {}

  /// The frame at `level` closed, or changed a child that was copied: its mirror (and those
  /// below) start afresh next time. One compare per container end while building.
  @inlinable @inline(__always)
  mutating func invalidate(from level: Int) {
    if valid > level { valid = level }
  }
}

/// A token the parser is in the middle of, for a snapshot.
@usableFromInline
struct _PendingToken {
  /// A string (or key) and its decoded bytes so far, or a number's text so far.
  var isString: Bool
  var isKey: Bool
  var bytes: [UInt8]
  /// Where the token started in the input (tells one token from the next).
  var start: Int
}

extension _BuilderState {
  /// The best value of the document so far (see `JSONParser.snapshot`).
  @usableFromInline
  mutating func snapshot(pending: _PendingToken?, partialNumbers: Bool, partialStrings: Bool)
    -> JSONValue?
  {
    // The open token, when it may show: a string value's bytes (complete characters only), or
    // a number's text that is a number already.
    var tail: _Node? = nil
    if let pending, !pending.isKey {
      if pending.isString && partialStrings {
        tail = stringNode(pending)
      } else if !pending.isString && partialNumbers, let flags = partialNumberFlags(pending),
        flags & JSONNumber._nonFinite == 0
      {
        let text = sharedTokenBytes(pending, count: pending.bytes.count)
        tail = _Node(
          head: _JSONNode.numberHead(flags: flags, count: pending.bytes.count), payload: text)
      }
    }
    let levels = frames.count
    if levels == 0 {
      // At the top: a partial top-level string, or nothing.
      guard let tail else { return nil }
      return _JSONStorage(chunks: arena.chunks).value(of: tail)
    }
    // Mirrors of frames that closed since the last snapshot (a new frame may have opened at
    // their level), of frames that changed a copied child, and of levels no longer open start
    // afresh.
    let keep = Swift.min(snapshots.mirrors.count, levels, snapshots.valid)
    snapshots.mirrors.removeLast(snapshots.mirrors.count - keep)
    while snapshots.mirrors.count < levels { snapshots.mirrors.append(.init()) }
    snapshots.valid = levels
    // From the innermost open container out: each becomes a node, the tail of its parent.
    for level in stride(from: levels - 1, through: 0, by: -1) {
      let frame = frames[level]
      let regionEnd = level + 1 < levels ? frames[level + 1].start : stack.count
      var complete = regionEnd - frame.start
      var lastNodes: [_Node] = []
      if frame.isObject {
        let danglingKey = complete % 2 == 1
        if danglingKey { complete -= 1 }
        // A member shows when its key is complete and its value has begun (and is not the
        // value of a repeated key, which replaces or is dropped when complete).
        if danglingKey, frame.pending == _BuilderFrame.none, let value = tail {
          lastNodes = [stack[regionEnd - 1], value]
        }
      } else if let value = tail {
        lastNodes = [value]
      }
      let block = mirror(level: level, frame: frame, complete: complete)
      let perChild = frame.isObject ? 2 : 1
      let childCount = complete / perChild
      if lastNodes.isEmpty && (!frame.isObject || childCount == 0) {
        tail = _Node(
          head: (frame.isObject ? _JSONNode.object : _JSONNode.array)
            | UInt64(truncatingIfNeeded: childCount) << 8,
          payload: childCount == 0 ? 0 : block.payload)
        continue
      }
      // An open node: the complete children, then the last one on its own. An object always
      // takes this form (with its last complete member as the last one when none is open):
      // it has no key index, and this form says so.
      var blockCount = childCount
      if lastNodes.isEmpty {
        blockCount -= 1
        lastNodes = [block[2 * blockCount], block[2 * blockCount + 1]]
      }
      snapshots.work.add(2 + lastNodes.count)
      tail = arena.openNode(
        isObject: frame.isObject, count: blockCount, block: block.payload, last: lastNodes)
    }
    return _JSONStorage(chunks: arena.chunks).value(of: tail!)
  }

  /// The mirror of the frame at `level`, brought up to its `complete` children's nodes.
  mutating func mirror(level: Int, frame: _BuilderFrame, complete: Int) -> _ArenaBlock<_Node> {
    var mirror = snapshots.mirrors[level]
    snapshots.work.add(mirror.reserve(complete, minimum: 8, in: &arena))
    if complete > mirror.count {
      let copied = complete - mirror.count
      mirror.append(stack, (frame.start + mirror.count)..<(frame.start + complete))
      snapshots.work.add(copied)
    }
    snapshots.mirrors[level] = mirror
    return mirror
  }

  /// A string node for the open string's bytes so far, sharing the bytes mirrored before.
  mutating func stringNode(_ pending: _PendingToken) -> _Node {
    // Only whole characters: an incomplete UTF-8 sequence at the end waits for its bytes.
    var length = pending.bytes.count
    var back = 0
    while back < 3 && back < length && pending.bytes[length - 1 - back] & 0xC0 == 0x80 { back += 1 }
    if back < length {
      let lead = pending.bytes[length - 1 - back]
      let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
      if needed > back + 1 { length -= back + 1 }
    }
    let bytes = sharedTokenBytes(pending, count: length)
    return _JSONNode.stringNode(count: length, payload: length == 0 ? 0 : bytes)
  }

  /// The number flags of the open number's text so far, or nil while it is not a number (`-`,
  /// `1.`). Digits added to a number keep it one, with the same flags (but for a leading zero,
  /// which the parser refuses), so following a long number costs its length, not its length
  /// squared.
  mutating func partialNumberFlags(_ pending: _PendingToken) -> UInt8? {
    let bytes = pending.bytes
    let old = snapshots.numberCount
    // The same number, a number already (so `old` ≥ 1), not `0` or `-0` (which take no more
    // digits: those are classified again), and only digits since.
    if pending.start == snapshots.numberToken, snapshots.numberFlags != nil, bytes.count >= old,
      !(bytes[old - 1] == ._zero && (old == 1 || old == 2 && bytes[0] == ._minus)),
      bytes[old..<bytes.count].allSatisfy({ $0._isDigit })
    {
      snapshots.work.add(bytes.count - old)
      snapshots.numberCount = bytes.count
      return snapshots.numberFlags
    }
    snapshots.work.add(bytes.count)
    snapshots.numberToken = pending.start
    snapshots.numberCount = bytes.count
    snapshots.numberFlags = _classifyNumberText(bytes)
    return snapshots.numberFlags
  }

  /// The first `count` bytes of the open token, in the block earlier snapshots of the same
  /// token share (its address, as a node's payload): only the bytes since the last snapshot
  /// are copied, so following a long string or number byte by byte costs its length, not its
  /// length squared. The nodes of earlier snapshots keep their own lengths; appending does not
  /// change what they show.
  mutating func sharedTokenBytes(_ pending: _PendingToken, count: Int) -> UInt64 {
    if pending.start != snapshots.token || count < snapshots.tokenBytes.count {
      snapshots.token = pending.start
      snapshots.tokenBytes = _ArenaBlock()
    }
    snapshots.work.add(snapshots.tokenBytes.reserve(count, minimum: 32, in: &arena))
    let copied = snapshots.tokenBytes.count
    if count > copied {
      snapshots.tokenBytes.append(pending.bytes, copied..<count)
      snapshots.work.add(count - copied)
    }
    return snapshots.tokenBytes.payload
  }
}
