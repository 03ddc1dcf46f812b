import JSONStreamCore
import JSONStreamValue

/// Where a ``JSONWriter`` sends its output: chunks of at most the writer's chunk size, in order.
///
/// ```swift
/// struct FileSink: JSONOutputSink {
///   let fd: Int32
///   mutating func write(_ bytes: UnsafeRawBufferPointer) throws { … }
/// }
/// ```
public protocol JSONOutputSink {
  /// Takes the next chunk of output. The buffer is valid only during the call.
  mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// Collects the output in memory.
public struct JSONByteSink: JSONOutputSink, Sendable {
  /// Everything written so far.
  public var bytes: [UInt8] = []

  /// An empty sink.
  public init() {}

  /// Appends the chunk to ``bytes``.
  @inlinable
  public mutating func write(_ bytes: UnsafeRawBufferPointer) {
    unsafe self.bytes.append(contentsOf: bytes)
  }
}

/// Hands each chunk to a closure: a file, a socket, a hash, a compressor…
///
/// ```swift
/// var writer = JSONWriter(sink: JSONChunkSink { chunk in try file.write(contentsOf: chunk) })
/// ```
@safe public struct JSONChunkSink: JSONOutputSink {
  @usableFromInline let body: (UnsafeRawBufferPointer) throws -> Void

  /// A sink that calls `body` with each chunk.
  public init(_ body: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    unsafe self.body = unsafe body
  }

  /// Calls the closure with the chunk.
  @inlinable
  public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
    unsafe try body(bytes)
  }
}

extension JSONOutputSink {
  /// Takes one byte of output.
  @inlinable
  package mutating func write(byte: UInt8) throws {
    unsafe try withUnsafeBytes(of: byte) { unsafe try write($0) }
  }

  /// Takes the bytes of `buffer` (its first `count`, by default all), in chunks of at most
  /// `chunkSize`.
  @inlinable
  package mutating func write(_ buffer: _Buffer<UInt8>, count: Int? = nil, chunkSize: Int) throws {
    let count = count ?? buffer.count
    precondition(count >= 0 && count <= buffer.count)
    var start = 0
    while start < count {
      let end = Swift.min(count, start &+ chunkSize)
      unsafe try write(UnsafeRawBufferPointer(start: buffer.base + start, count: end &- start))
      start = end
    }
  }
}

/// The in-memory writer's output read in place, for the Codable encoder (a kernel: the bytes are
/// lent as a buffer pointer).
extension JSONWriter where Sink == JSONByteSink {
  /// A writer that keeps all its output in its own buffer, for ``finish(reading:)``: output
  /// made whole in memory (the Codable encoder's) is then copied once, into its result.
  package init(wholeOutput options: JSONWriteOptions) {
    self.init(sink: JSONByteSink(), options: options, chunkSize: 1 << 62)
  }

  /// Checks that a complete document was written (see ``finish()``) and makes `body`'s
  /// result from all the output, read where it is: what the sink has not had yet is not
  /// copied into ``bytes`` first.
  package mutating func finish<R>(reading body: (UnsafeRawBufferPointer) -> R) throws -> R {
    try _checkComplete()
    guard sink.bytes.isEmpty else {
      try _flush()
      return unsafe sink.bytes.withUnsafeBytes(body)
    }
    return unsafe _box.current.out.withUnsafeBytes(body)
  }
}
