import JSONStreamCore

/// A block of the input that ends at a line break (or at the end of the input), for a parse of
/// its own on another thread.
struct LineBlock: Sendable {
  /// The bytes, in `storage[0..<count]` (the rest of `storage` is room reused for later
  /// blocks), or in `mapped` from `offset` on.
  var storage: [UInt8]
  var mapped: MappedFile?
  var count: Int
  /// Where the block starts in the input.
  var offset: Int
  /// The last block of the input: it may end without a line break.
  var isLast: Bool
  /// No line break came within the longest block allowed: the block ends inside a line, so
  /// it cannot be parsed on its own.
  var endsInsideLine: Bool

  /// A copy of the block's bytes.
  var bytes: [UInt8] {
    if let mapped { return mapped.bytes(offset..<offset + count) }
    return Array(storage[0..<count])
  }

  /// Calls `body` with the block's bytes as the parser's checked view.
  func withInput<Result>(_ body: (_ScanInput?) throws -> Result) rethrows -> Result {
    if let mapped { return try mapped.withInput(offset..<offset + count, body) }
    return try _ScanInput.with(contentsOf: storage[0..<count], body)
  }
}

/// Reads the input in blocks of whole lines: each block holds at least `blockSize` bytes (the
/// input permitting) and ends right after a line break. A regular file is mapped, and its
/// blocks are ranges of it; other input is read, and the bytes after the last line break of a
/// read start the next block. A line longer than `maxBlockSize` ends a block inside it.
struct LineBlocks {
  let input: ByteInput
  let blockSize: Int
  let maxBlockSize: Int
  /// The input, when it is a regular file that could be mapped.
  let mapped: MappedFile?
  /// The bytes after the last line break of the previous read.
  private var carry: [UInt8] = []
  /// Where the next block starts in the input.
  private var offset = 0
  private var ended = false
  /// Storage given back, to be filled again.
  private var free: [[UInt8]] = []

  init(input: ByteInput, blockSize: Int, maxBlockSize: Int) {
    self.input = input
    self.blockSize = blockSize
    self.maxBlockSize = Swift.max(maxBlockSize, blockSize)
    mapped = input.mapped()
  }

  /// Takes back a block's storage (or the mapped pages before its end) once nothing reads the
  /// block any more.
  mutating func recycle(_ block: inout LineBlock) {
    if let mapped = block.mapped {
      mapped.release(before: block.offset + block.count)
      return
    }
    var storage: [UInt8] = []
    swap(&storage, &block.storage)
    if free.count < 8 { free.append(storage) }
  }

  /// The next block, or nil at the end of the input.
  mutating func next() throws(ToolError) -> LineBlock? {
    guard !ended else { return nil }
    if let mapped { return nextMapped(mapped) }
    var storage = free.popLast() ?? []
    // Room for the carried bytes and a block after them; storage made with room to spare, so
    // that the next block, after a carry, fits it again.
    var end = carry.count + blockSize
    if storage.count < end {
      storage = [UInt8](repeating: 0, count: Swift.max(end, blockSize + blockSize / 4))
    }
    storage.replaceSubrange(0..<carry.count, with: carry)
    var filled = carry.count
    carry.removeAll(keepingCapacity: true)
    var searched = 0
    while true {
      let got = try input.readBlock(into: &storage, from: filled, to: end)
      filled += got
      if filled < end {
        // The end of the input.
        ended = true
        guard filled > 0 else { return nil }
        return take(storage, count: filled, isLast: true, endsInsideLine: false)
      }
      if let lastBreak = storage[searched..<filled].lastIndex(of: 0x0A) {
        carry.append(contentsOf: storage[(lastBreak + 1)..<filled])
        return take(storage, count: lastBreak + 1, isLast: false, endsInsideLine: false)
      }
      searched = filled
      guard end < maxBlockSize else {
        return take(storage, count: filled, isLast: false, endsInsideLine: true)
      }
      end += Swift.min(end, maxBlockSize - end)
      if storage.count < end {
        storage += [UInt8](repeating: 0, count: end - storage.count)
      }
    }
  }

  /// The next block of a mapped file.
  private mutating func nextMapped(_ mapped: MappedFile) -> LineBlock? {
    guard offset < mapped.count else {
      ended = true
      return nil
    }
    var end = offset + blockSize
    var searched = offset
    while end < mapped.count {
      if let lineEnd = mapped.endOfLastLine(in: searched..<end) {
        return take(mapped, count: lineEnd - offset, isLast: false, endsInsideLine: false)
      }
      guard end - offset < maxBlockSize else {
        return take(mapped, count: end - offset, isLast: false, endsInsideLine: true)
      }
      searched = end
      end += Swift.min(end - offset, maxBlockSize - (end - offset))
    }
    ended = true
    return take(mapped, count: mapped.count - offset, isLast: true, endsInsideLine: false)
  }

  private mutating func take(_ storage: [UInt8], count: Int, isLast: Bool, endsInsideLine: Bool)
    -> LineBlock
  {
    defer { offset += count }
    return LineBlock(
      storage: storage, mapped: nil, count: count, offset: offset, isLast: isLast,
      endsInsideLine: endsInsideLine)
  }

  private mutating func take(_ mapped: MappedFile, count: Int, isLast: Bool, endsInsideLine: Bool)
    -> LineBlock
  {
    defer {
      offset += count
      input.showProgress(bytesRead: offset)
    }
    return LineBlock(
      storage: [], mapped: mapped, count: count, offset: offset, isLast: isLast,
      endsInsideLine: endsInsideLine)
  }
}
