import JSONStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file or standard input in chunks of exactly `chunkSize` bytes (fewer only at the end),
/// so that `--chunk-size` means what it says even on pipes, which return short reads.
@safe final class ByteInput {
  /// The name used in messages: the path, or `<stdin>`.
  let name: String
  private let fd: Int32
  private let ownsDescriptor: Bool
  private var buffer: [UInt8]
  /// Bytes read so far.
  var bytesRead: Int { chunkStart + filled }
  /// Bytes of the chunk in `buffer` now, and where it starts in the input.
  private var filled = 0
  private var chunkStart = 0
  /// The last bytes before this chunk (`tailLimit` to twice that), for showing the line of
  /// an error that began in an earlier chunk.
  private var tail: [UInt8] = []
  private let tailLimit = 4096

  /// Shows progress on standard error (see `Progress`); nil when it should not.
  private var progress: Progress?

  /// Reads a regular file a block ahead on another thread; nil for other inputs.
  private var readAhead: ReadAhead?
  /// With `readAhead`, the chunk handed out last: part of the block it holds.
  private var slice = unsafe UnsafeRawBufferPointer(start: nil, count: 0)

  /// Opens `path`, or standard input for nil or `-`. With `showsProgress`, a progress line
  /// appears on standard error when it is a terminal and the input is large.
  init(path: String?, chunkSize: Int, showsProgress: Bool = false) throws(ToolError) {
    buffer = [UInt8](repeating: 0, count: chunkSize)
    if let path, path != "-" {
      let fd = unsafe open(path, O_RDONLY)
      guard fd >= 0 else {
        throw ToolError.io(unsafe "cannot open \(path): \(String(cString: strerror(errno)))")
      }
      self.fd = fd
      self.name = path
      self.ownsDescriptor = true
    } else {
      self.fd = 0
      self.name = "<stdin>"
      self.ownsDescriptor = false
    }
    var status = stat()
    let isFile = unsafe fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    if showsProgress && isatty(2) == 1 {
      progress = Progress(total: isFile ? Int(status.st_size) : nil)
    }
    // Small files are read before a thread would have started.
    readsAhead = isFile && Int(status.st_size) > 4 * chunkSize
  }

  /// Whether `forEachChunk` reads a block ahead on another thread (a large regular file).
  private let readsAhead: Bool

  /// Starts reading ahead, once, for `forEachChunk`. Input read in blocks (`readBlock(into:from:to:)`)
  /// never starts it: its blocks already go to other threads.
  private func startReadingAhead() {
    guard readsAhead, readAhead == nil, chunkStart == 0, filled == 0 else { return }
    // Blocks of whole chunks, about 1 MB: a hand-over between the threads costs a wake-up,
    // too much for every 64 KiB chunk.
    let chunkSize = buffer.count
    let blockSize = max(1, (1 << 20) / chunkSize) * chunkSize
    let readAhead = ReadAhead(fd: fd, capacity: blockSize)
    if readAhead.start() { self.readAhead = readAhead }
  }

  /// Throws the error opening `path` would, without reading it.
  static func checkReadable(_ path: String) throws(ToolError) {
    guard path != "-" else { return }
    let fd = unsafe open(path, O_RDONLY)
    guard fd >= 0 else {
      throw ToolError.io(unsafe "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    close(fd)
  }

  deinit {
    progress?.clear()
    readAhead?.stop()
    if ownsDescriptor { close(fd) }
  }

  /// The chunk being parsed, still valid after `forEachChunk` returns.
  private var currentChunk: [UInt8] {
    if readAhead != nil { return unsafe Array(slice) }
    return Array(buffer[0..<filled])
  }

  /// Keeps the last `tailLimit` bytes or more before the chunk about to be replaced, for an
  /// error's line: a copy of at most that, and no search for line breaks, which are looked for
  /// only when there is an error. Trimmed at twice the limit, so small chunks do not shift the
  /// bytes on every read.
  private func keepTail(of chunk: UnsafeRawBufferPointer) {
    if chunk.count >= tailLimit {
      tail.removeAll(keepingCapacity: true)
      unsafe tail.append(
        contentsOf: UnsafeRawBufferPointer(rebasing: chunk[(chunk.count - tailLimit)...]))
    } else {
      unsafe tail.append(contentsOf: chunk)
      if tail.count > 2 * tailLimit { tail.removeFirst(tail.count - tailLimit) }
    }
  }

  /// `forEachChunk` for a file read ahead on another thread: each block it hands over, in
  /// chunks of `buffer.count` bytes.
  private func forEachChunk(
    from readAhead: ReadAhead, _ body: (UnsafeRawBufferPointer) throws -> Bool
  ) throws {
    let chunkSize = buffer.count
    while true {
      let block: UnsafeRawBufferPointer?
      do {
        // Gives back the previous block: its last chunk is in `tail` by now.
        unsafe block = unsafe try readAhead.nextBlock()
      } catch {
        throw ToolError.io(unsafe "cannot read \(name): \(String(cString: strerror(error.code)))")
      }
      guard let block = unsafe block else {
        progress?.clear()
        return
      }
      var start = 0
      while start < block.count {
        unsafe slice = unsafe UnsafeRawBufferPointer(
          rebasing: block[start..<min(block.count, start + chunkSize)])
        filled = unsafe slice.count
        progress?.update(bytes: chunkStart + filled)
        guard unsafe try body(slice) else { return }
        // The slice stays readable for an error's line until the block is given back.
        unsafe keepTail(of: slice)
        unsafe chunkStart += slice.count
        filled = 0
        unsafe slice = unsafe UnsafeRawBufferPointer(start: nil, count: 0)
        start += chunkSize
      }
    }
  }

  /// Calls `body` with each chunk until the input ends or `body` returns false.
  func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
    startReadingAhead()
    if let readAhead { return unsafe try forEachChunk(from: readAhead, body) }
    let capacity = buffer.count
    unsafe try buffer.withUnsafeMutableBytes { storage in
      let base = storage.baseAddress!
      while true {
        if self.filled > 0 {
          unsafe keepTail(of: UnsafeRawBufferPointer(start: base, count: self.filled))
          chunkStart += self.filled
          self.filled = 0
        }
        var filled = 0
        while filled < capacity {
          let n = unsafe read(fd, base + filled, capacity - filled)
          if n == 0 { break }
          if n < 0 {
            if errno == EINTR { continue }
            throw ToolError.io(unsafe "cannot read \(name): \(String(cString: strerror(errno)))")
          }
          filled += n
        }
        if filled == 0 {
          progress?.clear()
          return
        }
        self.filled = filled
        progress?.update(bytes: chunkStart + filled)
        guard unsafe try body(UnsafeRawBufferPointer(start: base, count: filled)) else { return }
        if filled < capacity { return }
      }
    }
  }

  /// The input mapped into memory, when it is a regular file not read from yet (see
  /// `MappedFile`); nil otherwise, and then it is read.
  func mapped() -> MappedFile? {
    guard readAhead == nil, chunkStart == 0, filled == 0 else { return nil }
    return MappedFile(fd: fd)
  }

  /// Shows that `bytesRead` bytes of a mapped input are read.
  func showProgress(bytesRead: Int) {
    progress?.update(bytes: bytesRead)
  }

  /// Reads into `block[start..<end]`, all of it unless the input ends first: the bytes read,
  /// 0 at the end. For input read in blocks of lines (see `LineBlocks`) instead of chunks.
  func readBlock(into block: inout [UInt8], from start: Int, to end: Int) throws(ToolError)
    -> Int
  {
    precondition(readAhead == nil && start >= 0 && start <= end && end <= block.count)
    let wanted = end - start
    let got = unsafe block.withUnsafeMutableBytes { storage -> Int in
      var got = 0
      while got < wanted {
        let n = unsafe systemRead(fd, storage.baseAddress! + start + got, wanted - got)
        if n == 0 { break }
        if n < 0 {
          if errno == EINTR { continue }
          return -1
        }
        got += n
      }
      return got
    }
    guard got >= 0 else {
      throw ToolError.io(unsafe "cannot read \(name): \(String(cString: strerror(errno)))")
    }
    chunkStart += got
    if got > 0 { progress?.update(bytes: chunkStart) } else { progress?.clear() }
    return got
  }

  /// The line around byte `offset` of the input, as far as the bytes kept allow: its text
  /// (at most `width` characters around the offset) and the text before the offset on it.
  func line(around offset: Int, width: Int = 100) -> (text: String, before: String)? {
    lineAround(offset - (chunkStart - tail.count), in: tail + currentChunk, width: width)
  }
}

/// The line around `position` of `window`, as far as `window` goes: its text (at most `width`
/// characters around the position) and the text before the position on it; nil when the
/// position is outside the window.
func lineAround(_ position: Int, in window: [UInt8], width: Int = 100)
  -> (text: String, before: String)?
{
  guard position >= 0, position <= window.count else { return nil }
  func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
  var start = position
  while start > 0 && !isBreak(window[start - 1]) && position - start < width * 4 { start -= 1 }
  var end = position
  while end < window.count && !isBreak(window[end]) && end - position < width * 4 { end += 1 }
  var before = String(decoding: window[start..<position], as: UTF8.self)
  var after = String(decoding: window[position..<end], as: UTF8.self)
  // Long lines: the characters nearest the offset.
  if before.unicodeScalars.count > width / 2 {
    before = "…" + String(String.UnicodeScalarView(before.unicodeScalars.suffix(width / 2)))
  }
  if after.unicodeScalars.count > width / 2 {
    after = String(String.UnicodeScalarView(after.unicodeScalars.prefix(width / 2))) + "…"
  }
  return (before + after, before)
}

/// A progress line on standard error — bytes, percent when the size is known, MB/s, time left
/// — for inputs over 50 MB, redrawn a few times a second and erased at the end.
struct Progress {
  let total: Int?
  let clock = ContinuousClock()
  let start: ContinuousClock.Instant
  var lastDraw: ContinuousClock.Instant
  var shown = false
  static let threshold = 50_000_000

  init(total: Int?) {
    self.total = total
    start = clock.now
    lastDraw = start
  }

  mutating func update(bytes: Int) {
    if let total, total < Self.threshold { return }
    if bytes < Self.threshold && !shown { return }
    let now = clock.now
    guard now - lastDraw >= .milliseconds(250) else { return }
    lastDraw = now
    let elapsed = now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Double(bytes) / seconds : 0
    var line = "\r\(bytes / 1_000_000) MB"
    if let total, total > 0 {
      line += "  \(bytes * 100 / total)%"
      if rate > 0 {
        let left = Int(Double(total - bytes) / rate)
        line +=
          "  \(Int(rate / 1e6)) MB/s  \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60) left"
      }
    } else if rate > 0 {
      line += "  \(Int(rate / 1e6)) MB/s"
    }
    writeStandardError(line + "\u{1B}[K")
    shown = true
  }

  /// Erases the line, if it was drawn.
  mutating func clear() {
    if shown { writeStandardError("\r\u{1B}[K") }
    shown = false
  }
}

extension ByteInput {
  /// Feeds each chunk to `parser` while it needs more input (not once it has stopped, or,
  /// reading one value, finished it).
  func feed<Handler>(_ parser: inout JSONParser<Handler>) throws {
    unsafe try forEachChunk { chunk in unsafe try parser.feed(chunk) == .needsMoreInput }
  }

  /// Feeds each chunk to `reader` until its handler stops it.
  func feed<Handler>(_ reader: inout JSONBinaryReader<Handler>) throws {
    unsafe try forEachChunk { chunk in unsafe try reader.feed(chunk) != .stopped }
  }
}

/// `read(2)` under a name that does not clash with the method.
@inline(__always)
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
  unsafe read(fd, bytes, count)
}
