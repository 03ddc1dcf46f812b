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
public final class JSONFileReader {
  /// The file.
  public let path: String
  /// Bytes read at a time.
  public let chunkSize: Int
  /// The file's size in bytes when it was opened (0 for a pipe or device).
  public let size: Int

  private let descriptor: Int32

  /// Opens `path`.
  ///
  /// - Throws: ``JSONFoundationError`` of kind ``JSONFoundationError/Kind/unreadableFile(code:)``
  ///   when the file cannot be opened.
  public init(path: String, chunkSize: Int = 64 * 1024) throws {
    self.path = path
    self.chunkSize = max(1, chunkSize)
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw JSONFoundationError.unreadableFile(path, code: errno) }
    var status = stat()
    size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
  }

  deinit { close(descriptor) }

  /// Calls `body` with each chunk (valid only during the call) and the bytes read so far,
  /// until the end of the file or until `body` returns false.
  public func forEachChunk(_ body: (UnsafeRawBufferPointer, _ read: Int) throws -> Bool) throws {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    var total = 0
    while true {
      let count = read(descriptor, buffer, chunkSize)
      if count < 0 {
        if errno == EINTR { continue }
        throw JSONFoundationError.unreadableFile(path, code: errno)
      }
      if count == 0 { return }
      total += count
      guard try body(UnsafeRawBufferPointer(start: buffer, count: count), total) else { return }
    }
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
    try reader.forEachChunk { chunk, read in
      let status = try parser.feed(chunk)
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
      kind: .unreadableFile(code: code), message: "\(path): \(String(cString: strerror(code)))")
  }
}
