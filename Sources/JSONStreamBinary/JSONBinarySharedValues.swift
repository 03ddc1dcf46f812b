// The shared values of a binary reader: tag `40` makes the value after it the next entry of
// the document's value table, tag `41` names an entry, and reads as a copy of that value.
// Both readers keep the table here, and replay an entry's tokens for each reference.

/// The value table of a binary reader, for one top-level value: each shared value's bytes
/// and the bytes it stands for once its references are expanded, and the values being read.
///
/// Expansion is bounded, as XML parsers bound entity expansion: the references of a document
/// may stand for at most `JSONBinaryFormat.maxExpansion(at:limit:)` bytes in all, so that a
/// small document of references to references cannot make a reader produce exponentially
/// much.
@usableFromInline
struct _SharedValues {
  @usableFromInline
  struct Entry {
    /// The offset of the value's first token, and of the byte after its last token (-1 while
    /// the value is read).
    @usableFromInline var start: Int
    @usableFromInline var end = -1
    /// Where the streaming reader keeps its bytes (else unused).
    @usableFromInline var keptStart: Int
    /// The bytes it stands for: its own, and those its references stand for.
    @usableFromInline var expandedLength = 0
    /// `expanded` when it started.
    @usableFromInline var expandedAtStart: Int

    @inlinable init(start: Int, keptStart: Int, expandedAtStart: Int) {
      self.start = start
      self.keptStart = keptStart
      self.expandedAtStart = expandedAtStart
    }
  }

  @usableFromInline var entries: [Entry] = []
  /// The entries whose values are being read, innermost last, with the depth each value
  /// started at: it has ended when a value ends at that depth.
  @usableFromInline var open: [(index: Int, depth: Int)] = []
  /// The innermost open entry's depth, or -1: what `valueEnded(at:)` compares.
  @usableFromInline var closingDepth = -1
  /// The entry the last value closed, whose end is the end of the token being read, or -1.
  @usableFromInline var closing = -1
  /// A `40` has been read and its value has not begun: cleared when the token after it ends
  /// (`tokenEnded(at:)`), as the tokens that may not follow a mark check it while read.
  @usableFromInline var markPending = false
  /// Bytes all references read so far stand for.
  @usableFromInline var expanded = 0
  /// A reference's value is being replayed: `40` enters nothing, references inside are
  /// neither counted nor checked again but queued here, and shared strings and keys enter
  /// nothing.
  @usableFromInline var replaying = false
  @usableFromInline var queued: [Int] = []

  @inlinable init() {}

  /// Whether the reader must call `tokenEnded(at:)` after the token it has read: while a
  /// value is being read, or one has just closed. Stored, not computed: it is read for every
  /// token (computed from the two fields, it was a call per token and 12% more instructions
  /// reading twitter.json into a tree).
  @usableFromInline var tracksTokens = false

  /// `40`, read at `offset` with `depth` containers open: the next value is entry
  /// `entries.count`; its bytes will be kept from `keptCount + 1`. Throws when a value cannot
  /// begin here, as a value-less mark would leave nothing to share.
  @inlinable
  mutating func share(at offset: Int, depth: Int, keptCount: Int) throws {
    if replaying { return }
    guard !markPending else { throw _binaryError(.sharedMark, at: offset) }
    guard entries.count < JSONBinaryFormat.maxTableEntries else {
      throw _binaryError(.sharedTableFull, at: offset)
    }
    open.append((entries.count, depth))
    entries.append(
      Entry(start: offset &+ 1, keptStart: keptCount &+ 1, expandedAtStart: expanded))
    closingDepth = depth
    markPending = true
    tracksTokens = true
  }

  /// A value has ended with `depth` containers open: it closes the innermost open entry when
  /// it is that entry's value.
  @inlinable @inline(__always)
  mutating func valueEnded(at depth: Int) {
    if depth == closingDepth && !replaying { close() }
  }

  @inlinable
  mutating func close() {
    closing = open.removeLast().index
    closingDepth = open.last?.depth ?? -1
  }

  /// The token read ended at `end`: the entry it closed, if any, ends there.
  @inlinable
  mutating func tokenEnded(at end: Int) {
    // The mark's entry starts where the mark ends: any other token was its value's first.
    if markPending && end != entries[entries.count &- 1].start { markPending = false }
    tracksTokens = closingDepth >= 0
    guard closing >= 0 else { return }
    let entry = entries[closing].start
    entries[closing].end = end
    entries[closing].expandedLength =
      (end &- entry) &+ (expanded &- entries[closing].expandedAtStart)
    closing = -1
  }

  /// `41` read at `offset`: the entry it names, after checking that its value has ended and
  /// that the expansion stays within bounds (`limit` is the input limit). Not called while
  /// replaying.
  @inlinable
  mutating func reference(_ index: UInt64, at offset: Int, limit: Int) throws -> Entry {
    guard !markPending else { throw _binaryError(.sharedMark, at: offset) }
    guard index < UInt64(entries.count), entries[Int(index)].end >= 0 else {
      throw _binaryError(.valueReference(index, of: entries.count), at: offset)
    }
    let entry = entries[Int(index)]
    guard
      entry.expandedLength <= JSONBinaryFormat.maxExpansion(at: offset, limit: limit) &- expanded
    else {
      throw _binaryError(.expansion, at: offset)
    }
    expanded &+= entry.expandedLength
    return entry
  }

  /// A new top-level value: the table starts empty.
  @inlinable
  mutating func reset() {
    entries.removeAll(keepingCapacity: true)
    open.removeAll(keepingCapacity: true)
    closingDepth = -1
    closing = -1
    markPending = false
    tracksTokens = false
  }
}

/// The value table as a binary writer keeps it: only which shared values have been written to
/// their end, which is what a reference may name. (A reader keeps where each one lies too.)
@usableFromInline
struct _WrittenShares {
  /// For each entry, whether its value has ended.
  @usableFromInline var ended: [Bool] = []
  /// The entries whose values are being written, innermost last, with the depth each value
  /// started at: it has ended when a value ends at that depth.
  @usableFromInline var open: [(index: Int, depth: Int)] = []
  /// The innermost open entry's depth, or -1: what `valueEnded(at:)` compares.
  @usableFromInline var closingDepth = -1
  /// A mark has been written and its value has not begun.
  @usableFromInline var markPending = false

  @inlinable init() {}

  /// The number of entries.
  @inlinable var count: Int { ended.count }

  /// A mark, written with `depth` containers open: the next value is entry `count`.
  @inlinable mutating func share(depth: Int) {
    open.append((ended.count, depth))
    ended.append(false)
    closingDepth = depth
    markPending = true
  }

  /// Whether entry `index` exists and its value has ended.
  @inlinable func hasEnded(_ index: Int) -> Bool {
    index >= 0 && index < ended.count && ended[index]
  }

  /// A value begins.
  @inlinable @inline(__always) mutating func valueBegins() { markPending = false }

  /// A value has ended with `depth` containers open: it ends the innermost open entry when
  /// it is that entry's value.
  @inlinable @inline(__always) mutating func valueEnded(at depth: Int) {
    if depth == closingDepth { close() }
  }

  @inlinable mutating func close() {
    ended[open.removeLast().index] = true
    closingDepth = open.last?.depth ?? -1
  }

  /// A new top-level value: the table starts empty.
  @inlinable mutating func reset() {
    ended.removeAll(keepingCapacity: true)
    open.removeAll(keepingCapacity: true)
    closingDepth = -1
    markPending = false
  }
}
