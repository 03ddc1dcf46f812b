#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a regular file one block ahead, on a thread of its own: the kernel's copy of the next
/// block into memory runs on another core while the caller parses this one.
///
/// Two buffers take turns. The reader fills a free one to `capacity` bytes (fewer only at the
/// end of the file) and publishes it; the caller takes it, and gives it back when it asks for
/// the next one, so the block it holds stays valid until then (error messages quote it).
///
/// Only for regular files: a read there never waits indefinitely, so `stop()` can wait for the
/// thread. Pipes and terminals are read directly, where the writer on the other end already
/// runs in parallel.
@safe final class ReadAhead: @unchecked Sendable {
  // @unchecked: every stored `var` below is read and written with `lock` held; a buffer's
  // bytes belong to the reader between `free` and `published`, then to the caller.
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private let changed: UnsafeMutablePointer<pthread_cond_t>
  private let fd: Int32
  private let capacity: Int
  private let buffers: [UnsafeMutableRawPointer]
  /// Bytes in each published buffer; nil while it is free or being filled.
  private var published: [Int?] = [nil, nil]
  /// Set by the reader after the last chunk (a short or empty one) or an error.
  private var finished = false
  private var readError: Int32 = 0
  private var stopping = false
  private var thread: pthread_t?
  /// The caller's side: the buffer it holds (-1 for none) and the next one to take.
  private var held = -1
  private var next = 0

  init(fd: Int32, capacity: Int) {
    self.fd = fd
    self.capacity = capacity
    unsafe buffers = unsafe (0..<2).map { _ in
      UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 64)
    }
    unsafe lock = .allocate(capacity: 1)
    unsafe lock.initialize(to: pthread_mutex_t())
    unsafe pthread_mutex_init(lock, nil)
    unsafe changed = .allocate(capacity: 1)
    unsafe changed.initialize(to: pthread_cond_t())
    unsafe pthread_cond_init(changed, nil)
  }

  deinit {
    stop()
    unsafe pthread_cond_destroy(changed)
    unsafe changed.deallocate()
    unsafe pthread_mutex_destroy(lock)
    unsafe lock.deallocate()
    for index in unsafe buffers.indices { unsafe buffers[index].deallocate() }
  }

  /// Starts the reader; false when no thread could be made (read directly then).
  func start() -> Bool {
    let context = unsafe Unmanaged.passRetained(self).toOpaque()
    #if canImport(Darwin)
      var handle: pthread_t? = nil
    #else
      var handle = pthread_t()
    #endif
    let result = unsafe pthread_create(
      &handle, nil,
      { context in
        // Optional on Linux, not on Darwin: `unwrap` takes either.
        func unwrap(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
          unsafe pointer!
        }
        let readAhead = unsafe Unmanaged<ReadAhead>.fromOpaque(unwrap(context)).takeRetainedValue()
        readAhead.run()
        return nil
      }, unsafe context)
    guard result == 0 else {
      unsafe Unmanaged<ReadAhead>.fromOpaque(context).release()
      return false
    }
    thread = handle
    return true
  }

  /// The next block, or nil at the end of the input. Gives back the block returned before.
  /// - Throws: the read's `errno`.
  func nextBlock() throws(ReadAheadError) -> UnsafeRawBufferPointer? {
    unsafe pthread_mutex_lock(lock)
    defer { unsafe pthread_mutex_unlock(lock) }
    if held >= 0 {
      published[held] = nil
      held = -1
      unsafe pthread_cond_broadcast(changed)
    }
    while published[next] == nil && !finished {
      unsafe pthread_cond_wait(changed, lock)
    }
    guard let count = published[next] else {
      if readError != 0 { throw ReadAheadError(code: readError) }
      return nil
    }
    held = next
    next ^= 1
    guard count > 0 else { return nil }
    return unsafe UnsafeRawBufferPointer(start: buffers[held], count: count)
  }

  /// Ends the reader and waits for it. Calling it again does nothing.
  func stop() {
    unsafe pthread_mutex_lock(lock)
    stopping = true
    unsafe pthread_cond_broadcast(changed)
    let running = thread
    thread = nil
    unsafe pthread_mutex_unlock(lock)
    if let running { pthread_join(running, nil) }
  }

  /// The reader thread: fills the buffers in turn until the end of the file, an error, or
  /// `stop()`.
  private func run() {
    var index = 0
    while true {
      unsafe pthread_mutex_lock(lock)
      while published[index] != nil && !stopping { unsafe pthread_cond_wait(changed, lock) }
      let stop = stopping
      unsafe pthread_mutex_unlock(lock)
      if stop { return }

      var filled = 0
      var error: Int32 = 0
      while filled < capacity {
        let n = unsafe read(fd, buffers[index] + filled, capacity - filled)
        if n == 0 { break }
        if n < 0 {
          if errno == EINTR { continue }
          error = errno
          break
        }
        filled += n
      }

      unsafe pthread_mutex_lock(lock)
      if error != 0 {
        readError = error
        finished = true
      } else {
        published[index] = filled
        if filled < capacity { finished = true }
      }
      unsafe pthread_cond_broadcast(changed)
      unsafe pthread_mutex_unlock(lock)
      if error != 0 || filled < capacity { return }
      index ^= 1
    }
  }
}

/// A failed read on the reader thread: its `errno`.
struct ReadAheadError: Error {
  let code: Int32
}
