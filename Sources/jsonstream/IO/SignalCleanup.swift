#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a terminating signal removes (a C string), or nil. Written by the main thread only,
/// first before the handlers are installed (so that its lazy initialization never runs in a
/// handler); handlers only read it. Never freed: a handler on another thread may be reading it,
/// and a run sets at most one.
nonisolated(unsafe) private var pathToRemoveOnSignal: UnsafeMutablePointer<CChar>? = nil

/// The signals by which a user ends the tool: Ctrl-C, kill, a closed terminal.
private let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

/// Removes the file at `path` if SIGINT, SIGTERM or SIGHUP ends the tool before
/// `forgetRemovalOnSignal()`. A signal that was ignored when the tool started (`nohup`, a
/// background job) stays ignored. SIGKILL cannot be caught: the file then remains.
func removeOnTerminatingSignal(_ path: String) {
  unsafe pathToRemoveOnSignal = unsafe strdup(path)
  for number in terminatingSignals {
    let previous = signal(number, removeFileAndEnd)
    // Handlers are C function pointers, not comparable in Swift: compared as addresses.
    if unsafe unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
      signal(number, SIG_IGN)
    }
  }
}

/// Runs `body` with SIGINT, SIGTERM and SIGHUP held back on this thread; one that came in the
/// meantime is delivered when `body` returns.
func withTerminatingSignalsBlocked<Result>(_ body: () throws(ToolError) -> Result)
  throws(ToolError) -> Result
{
  var blocked = sigset_t()
  var previous = sigset_t()
  unsafe sigemptyset(&blocked)
  for number in terminatingSignals { unsafe sigaddset(&blocked, number) }
  unsafe pthread_sigmask(SIG_BLOCK, &blocked, &previous)
  defer { unsafe pthread_sigmask(SIG_SETMASK, &previous, nil) }
  return try body()
}

/// The file is gone (renamed or removed): a signal now ends the tool with nothing to remove.
func forgetRemovalOnSignal() {
  unsafe pathToRemoveOnSignal = nil
}

/// Removes the file, then lets the signal end the tool as it would have, so that the parent
/// sees the signal in the exit status. Calls only async-signal-safe functions.
private func removeFileAndEnd(_ number: Int32) {
  if let path = unsafe pathToRemoveOnSignal { unsafe unlink(path) }
  signal(number, SIG_DFL)
  raise(number)
}

/// With `on`, SIGBUS (a mapped input file cut short under the tool, see `MappedFile`) ends the
/// tool as an I/O error: a message, the file of `removeOnTerminatingSignal` removed, status 3.
/// Without, SIGBUS is back to its default.
func endOnInputCutShort(_ on: Bool) {
  signal(SIGBUS, on ? inputCutShort : SIG_DFL)
}

/// Calls only async-signal-safe functions.
private func inputCutShort(_ number: Int32) {
  if let path = unsafe pathToRemoveOnSignal { unsafe unlink(path) }
  let message: StaticString =
    "jsonstream: cannot read the input: the file was cut short while being read\n"
  _ = unsafe write(2, message.utf8Start, message.utf8CodeUnitCount)
  _exit(3)
}
