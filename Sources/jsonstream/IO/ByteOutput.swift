import JSONStream

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
  /// With `-o FILE` for a regular file: the temporary file that replaces FILE on `commit`.
  private let replacing: ReplacingFile?
  /// Bytes written out so far (not counting the buffer).
  private(set) var bytesWritten = 0

  /// Whether the output replaces a file on success only (`-o FILE`), dropping it on failure.
  var replacesFile: Bool { replacing != nil }

  /// Whether the output only collects what is written, in `buffer`, for `takeCollected()`:
  /// the output of one block of lines parsed on another thread.
  private let collects: Bool

  init(fd: Int32, replacing: ReplacingFile? = nil) {
    self.fd = fd
    self.replacing = replacing
    collects = false
    buffer.reserveCapacity(flushThreshold + 4096)
  }

  /// An output that writes nowhere and keeps everything in `buffer`, which takes the place
  /// of `storage` (an empty array whose room is reused: a new array for each block of output
  /// costs page faults). Swapped, not copied, so that the array stays uniquely referenced.
  init(collectingInto storage: inout [UInt8]) {
    fd = -1
    replacing = nil
    collects = true
    swap(&buffer, &storage)
  }

  /// What a collecting output holds, taken out of it.
  func takeCollected() -> [UInt8] {
    var taken: [UInt8] = []
    swap(&taken, &buffer)
    return taken
  }

  /// Output for `-o path`: standard output for nil or `-`; for a regular file (or a new one),
  /// a temporary file that replaces it on `commit` (see `ReplacingFile`); anything else, such
  /// as a device, opened and written in place.
  convenience init(path: String?) throws(ToolError) {
    guard let path, path != "-" else {
      self.init(fd: 1)
      return
    }
    if ReplacingFile.suits(path) {
      let file = try ReplacingFile(path: path)
      self.init(fd: file.fd, replacing: file)
      return
    }
    let fd = unsafe open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
    guard fd >= 0 else {
      throw ToolError.io(unsafe "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    self.init(fd: fd)
  }

  /// Ends a successful command: the output is written out and, with `-o FILE`, replaces FILE.
  func commit() throws(ToolError) {
    flush()
    try replacing?.commit()
  }

  /// Ends a failed command: with `-o FILE`, FILE stays as it was and the output is dropped.
  /// Output to standard output or a device has gone already.
  func discard() {
    replacing?.discard()
    // Coloured output cut inside a string or a null: the terminal's colour goes back to normal.
    if colorizer?.hasOpenColor == true {
      unsafe JSONColorizer.reset.withUnsafeBytes { unsafe writeRaw($0) }
      colorizer = JSONColorizer()
    }
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
    if buffer.isEmpty && bytes.count >= flushThreshold / 2 && !collects {
      unsafe writeAll(bytes)
      return
    }
    unsafe buffer.append(contentsOf: bytes)
    didAppend()
  }

  /// Appends `bytes` as `write(bytes:)` does.
  func write(_ bytes: [UInt8]) {
    unsafe bytes.withUnsafeBytes { unsafe write(bytes: $0) }
  }

  func flush() {
    if collects { return }
    unsafe buffer.withUnsafeBytes { unsafe writeAll($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Set when the output is JSON text to be coloured (`--color`).
  var colorizer: JSONColorizer?

  private func writeAll(_ bytes: UnsafeRawBufferPointer) {
    guard colorizer != nil else { return unsafe writeRaw(bytes) }
    let colored = unsafe colorizer!.color(bytes)
    unsafe colored.withUnsafeBytes { unsafe writeRaw($0) }
  }

  private func writeRaw(_ bytes: UnsafeRawBufferPointer) {
    var written = 0
    while written < bytes.count {
      let n = unsafe systemWrite(fd, bytes.baseAddress! + written, bytes.count - written)
      if n < 0 {
        if errno == EINTR { continue }
        let error = errno
        // exit() below skips the caller's discard.
        discard()
        errno = error
        // A reader that went away (`| head`): no message, as any tool in a pipeline, but
        // not a success either: the output is cut short (`set -o pipefail` sees it).
        if errno == EPIPE { exit(3) }
        writeStandardError(unsafe "jsonstream: write error: \(String(cString: strerror(errno)))\n")
        exit(3)
      }
      written += n
    }
    bytesWritten += written
  }
}

/// `write(2)` under a name that does not clash with the method.
@inline(__always)
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  unsafe write(fd, bytes, count)
}

/// Writes a message to standard error, unbuffered (messages are few and must not be lost).
/// Whether the environment variable `name` is set to something non-empty.
func isSetInEnvironment(_ name: String) -> Bool {
  guard let value = unsafe getenv(name) else { return false }
  return unsafe value.pointee != 0
}

func writeStandardError(_ message: String) {
  var message = message
  message.withUTF8 { bytes in
    var written = 0
    while written < bytes.count {
      let n = unsafe write(2, bytes.baseAddress! + written, bytes.count - written)
      if n <= 0 { return }
      written += n
    }
  }
}

/// Sends the writer's chunks to the tool's buffered output.
struct ByteOutputSink: JSONOutputSink {
  let output: ByteOutput

  mutating func write(_ bytes: UnsafeRawBufferPointer) {
    unsafe output.write(bytes: bytes)
  }
}
