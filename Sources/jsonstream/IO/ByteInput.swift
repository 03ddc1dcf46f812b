#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file or standard input in chunks of exactly `chunkSize` bytes (fewer only at the end),
/// so that `--chunk-size` means what it says even on pipes, which return short reads.
final class ByteInput {
  /// The name used in messages: the path, or `<stdin>`.
  let name: String
  private let fd: Int32
  private let ownsDescriptor: Bool
  private var buffer: [UInt8]

  /// Opens `path`, or standard input for nil or `-`.
  init(path: String?, chunkSize: Int) throws(ToolError) {
    buffer = [UInt8](repeating: 0, count: chunkSize)
    if let path, path != "-" {
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else {
        throw ToolError.io("cannot open \(path): \(String(cString: strerror(errno)))")
      }
      self.fd = fd
      self.name = path
      self.ownsDescriptor = true
    } else {
      self.fd = 0
      self.name = "<stdin>"
      self.ownsDescriptor = false
    }
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// Calls `body` with each chunk until the input ends or `body` returns false.
  func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
    let capacity = buffer.count
    try buffer.withUnsafeMutableBytes { storage in
      let base = storage.baseAddress!
      while true {
        var filled = 0
        while filled < capacity {
          let n = read(fd, base + filled, capacity - filled)
          if n == 0 { break }
          if n < 0 {
            if errno == EINTR { continue }
            throw ToolError.io("cannot read \(name): \(String(cString: strerror(errno)))")
          }
          filled += n
        }
        if filled == 0 { return }
        guard try body(UnsafeRawBufferPointer(start: base, count: filled)) else { return }
        if filled < capacity { return }
      }
    }
  }
}
