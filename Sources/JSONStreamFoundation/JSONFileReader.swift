import Foundation
import JSONStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file in chunks into one reused buffer, for the parser: memory stays the chunk size
/// whatever the file's size.
///
/// ```swift
/// let reader = try JSONFileReader(path: "export.json")
/// var parser = JSONParser(handler: JSONItemStreamer(paths: [try JSONPath("$[*]")]) { item in … })
/// try reader.forEachChunk { chunk, read in
///   try parser.feed(chunk)
///   print("\(read * 100 / reader.size)%")
///   return true                           // false stops reading
/// }
/// try parser.finish()
/// ```
///
/// A reader of part of an NDJSON file, ``init(path:linesStartingIn:chunkSize:)``, delivers the
/// lines that start in a byte range, so that workers given ranges that cover a file read each
/// of its lines exactly once, whoever cut the ranges and wherever.
public final class JSONFileReader {
  /// The file.
  public let path: String
  /// Bytes read at a time.
  public let chunkSize: Int
  /// The file's size in bytes when it was opened (0 for a pipe or device).
  public let size: Int
  /// The offset in the file of the first byte delivered: 0, or for a reader of the lines
  /// starting in a range, where the first of them starts (the file's size when none does).
  /// Offsets within the chunks count from here.
  public private(set) var startOffset: Int

  private let descriptor: Int32
  /// For a reader of lines starting in a range: the range's end. Delivery stops after the
  /// newline that ends the line holding byte `lineEnd - 1`, or at once when no line starts
  /// in the range.
  private let lineEnd: Int?
  /// The file offset of the next byte to read.
  private var offset: Int
  /// Whether the range's last line has been delivered.
  private var isComplete = false
  /// Whether a read has met the end of the file.
  private var isAtEnd = false

  /// Opens `path`.
  ///
  /// - Throws: ``JSONFoundationError`` of kind ``JSONFoundationError/Kind/unreadableFile(code:)``
  ///   when the file cannot be opened.
  public init(path: String, chunkSize: Int = 64 * 1024) throws {
    self.path = path
    self.chunkSize = max(1, chunkSize)
    descriptor = unsafe open(path, O_RDONLY)
    guard descriptor >= 0 else { throw JSONFoundationError.unreadableFile(path, code: errno) }
    var status = stat()
    size = unsafe fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    startOffset = 0
    offset = 0
    lineEnd = nil
  }

  /// Opens the part of NDJSON file `path` that holds the lines that start in `range`: every
  /// line whose first byte's offset is in `range`, whole (the last may run on past the range's
  /// end), and nothing else. A line starts at offset 0 and after each `\n`. This is the rule
  /// of Hadoop's and Spark's line readers, so ranges that cover the file, cut anywhere (in
  /// the middle of a line or of a character), give each line to exactly one reader.
  ///
  /// ```swift
  /// // A worker's share of a file split into 64 MB ranges:
  /// let reader = try JSONFileReader(path: "events.ndjson", linesStartingIn: start..<start + (64 << 20))
  /// var documents = JSONDocumentReader()
  /// try reader.forEachChunk { chunk, _ in
  ///   for result in try documents.feed(chunk) { … }   // offsets count from reader.startOffset
  ///   return true
  /// }
  /// for result in try documents.finish() { … }
  /// ```
  ///
  /// Finding the first line start reads from `range.lowerBound - 1` to the next newline.
  /// Line numbers and offsets that a reader of the chunks reports count from
  /// ``startOffset``, not from the start of the file.
  ///
  /// - Throws: ``JSONFoundationError`` of kind ``JSONFoundationError/Kind/unreadableFile(code:)``
  ///   when the file cannot be opened, read or positioned (a pipe, for a range not starting at
  ///   0), or when `range` starts below 0 (`EINVAL`).
  public init(path: String, linesStartingIn range: Range<Int>, chunkSize: Int = 64 * 1024)
    throws
  {
    self.path = path
    self.chunkSize = max(1, chunkSize)
    guard range.lowerBound >= 0 else {
      throw JSONFoundationError(
        kind: .unreadableFile(code: EINVAL),
        message: "\(path): the byte range \(range) starts before the file")
    }
    descriptor = unsafe open(path, O_RDONLY)
    guard descriptor >= 0 else { throw JSONFoundationError.unreadableFile(path, code: errno) }
    var status = stat()
    size = unsafe fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    lineEnd = range.upperBound
    offset = 0
    startOffset = 0
    isComplete = range.isEmpty
    if range.lowerBound > 0 && !range.isEmpty {
      do {
        // The first line that starts in the range starts after the first newline from the
        // byte before the range (which may be that newline), or nowhere.
        try seek(to: range.lowerBound - 1)
        _ = unsafe try readChunks(untilNewlineFrom: range.lowerBound - 1) { _ in true }
      } catch {
        close(descriptor)
        throw error
      }
      startOffset = offset
      isComplete = offset >= range.upperBound
    }
  }

  deinit { close(descriptor) }

  /// Calls `body` with each chunk (valid only during the call) and the bytes read so far,
  /// until the end of the file (or of the range's lines) or until `body` returns false.
  public func forEachChunk(_ body: (UnsafeRawBufferPointer, _ read: Int) throws -> Bool) throws {
    guard !isComplete else { return }
    var total = 0
    func deliver(_ chunk: UnsafeRawBufferPointer) throws -> Bool {
      total += chunk.count
      return unsafe try body(chunk, total)
    }
    if let lineEnd {
      // The range's last line ends with the first newline at or after byte `lineEnd - 1`.
      isComplete = unsafe try readChunks(untilNewlineFrom: lineEnd - 1, deliver)
    } else {
      unsafe try readChunks(deliver)
    }
  }

  /// Reads chunks, passing each to `body`, up to and including the first newline at offset
  /// `from` or later, or to the end of the file; stops early when `body` returns false.
  /// Returns whether it got to that newline or to the end. The reader stands after the last
  /// byte passed.
  private func readChunks(
    untilNewlineFrom from: Int, _ body: (UnsafeRawBufferPointer) throws -> Bool
  ) throws -> Bool {
    var found = false
    unsafe try readChunks { chunk in
      let chunkStart = offset - chunk.count
      let searchStart = Swift.max(0, from - chunkStart)
      if searchStart < chunk.count,
        let newline = unsafe chunk[searchStart...].firstIndex(of: UInt8(ascii: "\n"))
      {
        found = true
        // What follows the newline is read again by whoever reads on.
        if newline + 1 < chunk.count { try seek(to: chunkStart + newline + 1) }
        _ = unsafe try body(UnsafeRawBufferPointer(rebasing: chunk[...newline]))
        return false
      }
      return unsafe try body(chunk)
    }
    return found || isAtEnd
  }

  /// Reads chunks from the current offset into one buffer until the end of the file or until
  /// `body` returns false.
  private func readChunks(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { unsafe buffer.deallocate() }
    while true {
      let count = unsafe read(descriptor, buffer, chunkSize)
      if count < 0 {
        if errno == EINTR { continue }
        throw JSONFoundationError.unreadableFile(path, code: errno)
      }
      if count == 0 {
        isAtEnd = true
        return
      }
      offset += count
      guard unsafe try body(UnsafeRawBufferPointer(start: buffer, count: count)) else { return }
    }
  }

  /// Moves the reader to file offset `target`.
  private func seek(to target: Int) throws {
    guard lseek(descriptor, off_t(target), SEEK_SET) >= 0 else {
      throw JSONFoundationError.unreadableFile(path, code: errno)
    }
    offset = target
  }

  /// Parses the file into `handler`, chunk by chunk, and returns the handler.
  ///
  /// ```swift
  /// let builder = try JSONFileReader.parse(path: "big.json", handler: JSONTreeBuilder())
  /// ```
  public static func parse<Handler: JSONEventHandler>(
    path: String, handler: Handler, options: JSONParseOptions = JSONParseOptions(),
    chunkSize: Int = 64 * 1024, progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws -> Handler {
    let reader = try JSONFileReader(path: path, chunkSize: chunkSize)
    var parser = JSONParser(handler: handler, options: options)
    unsafe try reader.forEachChunk { chunk, read in
      let status = unsafe try parser.feed(chunk)
      progress?(read, reader.size)
      return status == .needsMoreInput
    }
    try parser.finish()
    return parser.handler
  }
}

extension JSONFoundationError {
  /// File `path` could not be opened or read: `path: reason`.
  static func unreadableFile(_ path: String, code: Int32) -> JSONFoundationError {
    JSONFoundationError(
      kind: .unreadableFile(code: code),
      message: unsafe "\(path): \(String(cString: strerror(code)))")
  }
}
