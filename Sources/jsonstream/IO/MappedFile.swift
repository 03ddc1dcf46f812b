import JSONStreamCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A regular file mapped into memory, read-only, for NDJSON parsed in blocks on several
/// threads: each block is parsed where the file's pages lie, without the copy into memory that
/// `read` makes (an eighth of the work of validating NDJSON on two threads). The pages before
/// the blocks in use are given back as the input is read (`release(before:)`), so the memory
/// the tool holds stays that of the blocks in flight; the page cache keeps them.
///
/// A file cut short while mapped makes a read past its new end raise SIGBUS: while a file is
/// mapped, that ends the tool with an I/O error, as a failed `read` would (see
/// `endOnInputCutShort`).
@safe final class MappedFile: @unchecked Sendable {
  // @unchecked: the mapping is read-only and never changes; `released` is used by the thread
  // that reads the blocks only.
  private let base: UnsafeRawPointer
  /// The file's length.
  let count: Int
  /// Pages before this offset are given back.
  private var released = 0

  /// Maps the regular file open at `fd`, read from its start; nil for anything else (a pipe,
  /// an empty file) or when it cannot be mapped.
  init?(fd: Int32) {
    var status = stat()
    guard unsafe fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0,
      lseek(fd, 0, SEEK_CUR) == 0
    else { return nil }
    let count = Int(status.st_size)
    guard let address = unsafe mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0),
      unsafe address != MAP_FAILED
    else { return nil }
    _ = unsafe madvise(address, count, MADV_SEQUENTIAL)
    unsafe base = UnsafeRawPointer(address)
    self.count = count
    endOnInputCutShort(true)
  }

  deinit {
    unsafe munmap(UnsafeMutableRawPointer(mutating: base), count)
    endOnInputCutShort(false)
  }

  /// The offset just after the last line break in `range` (within the file), or nil.
  func endOfLastLine(in range: Range<Int>) -> Int? {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    let bytes = unsafe UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    guard let found = unsafe bytes.lastIndex(of: 0x0A) else { return nil }
    return range.lowerBound + found + 1
  }

  /// Calls `body` with the bytes of `range` (within the file) as the parser's checked view.
  func withInput<Result>(_ range: Range<Int>, _ body: (_ScanInput) throws -> Result) rethrows
    -> Result
  {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    let start = unsafe (base + range.lowerBound).assumingMemoryBound(to: UInt8.self)
    return unsafe try body(_ScanInput(base: start, count: range.count))
  }

  /// A copy of the bytes of `range` (within the file).
  func bytes(_ range: Range<Int>) -> [UInt8] {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    return unsafe Array(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Gives back the whole pages before `offset`: no block before it is read again.
  func release(before offset: Int) {
    let page = Self.pageSize
    let end = Swift.min(offset, count) / page * page
    guard end > released else { return }
    _ = unsafe madvise(
      UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
    released = end
  }
}
