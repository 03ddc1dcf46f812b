#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Buffered output to a file descriptor. A closed pipe (`jsonstream events big.json | head`)
/// ends the program quietly, as command-line users expect.
final class ByteOutput {
  var buffer: [UInt8] = []
  private let fd: Int32
  private let flushThreshold = 1 << 16

  init(fd: Int32) {
    self.fd = fd
    buffer.reserveCapacity(flushThreshold + 4096)
  }

  /// Output to the file at `path` (created or truncated), or standard output for nil or `-`.
  convenience init(path: String?) throws(ToolError) {
    guard let path, path != "-" else {
      self.init(fd: 1)
      return
    }
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
      throw ToolError.io("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    self.init(fd: fd)
  }

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= flushThreshold { flush() }
  }

  /// Flushes when the buffer is full; call after appending to `buffer` directly.
  @inline(__always)
  func didAppend() {
    if buffer.count >= flushThreshold { flush() }
  }

  /// Appends `bytes`; a large block with nothing buffered before it goes out directly,
  /// without a copy into the buffer (a writer hands over its output 64 KiB at a time).
  func write(bytes: UnsafeRawBufferPointer) {
    if buffer.isEmpty && bytes.count >= flushThreshold / 2 {
      writeAll(bytes)
      return
    }
    buffer.append(contentsOf: bytes)
    didAppend()
  }

  func flush() {
    buffer.withUnsafeBytes { writeAll($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) {
    var written = 0
    while written < bytes.count {
      let n = systemWrite(fd, bytes.baseAddress! + written, bytes.count - written)
      if n < 0 {
        if errno == EINTR { continue }
        // A reader that went away (`| head`): no message, as any tool in a pipeline, but
        // not a success either: the output is cut short (`set -o pipefail` sees it).
        if errno == EPIPE { exit(3) }
        writeStandardError("jsonstream: write error: \(String(cString: strerror(errno)))\n")
        exit(3)
      }
      written += n
    }
  }
}

/// `write(2)` under a name that does not clash with the method.
@inline(__always)
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}

/// Writes a message to standard error, unbuffered (messages are few and must not be lost).
func writeStandardError(_ message: String) {
  var message = message
  message.withUTF8 { bytes in
    var written = 0
    while written < bytes.count {
      let n = write(2, bytes.baseAddress! + written, bytes.count - written)
      if n <= 0 { return }
      written += n
    }
  }
}
