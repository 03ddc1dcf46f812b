// A kernel that fills one array from several threads at once: each element is made where it
// will stay, so the work in parallel is not followed by a copy of everything it made on one
// core (joining per-thread arrays cost a tenth of decoding NDJSON in parallel).

import Foundation

/// An array of `count` elements made across all cores: `element(&state, index)` is called once
/// for every index in `0..<count`, from several threads at once, and the array holds each
/// result at its index.
///
/// One worker per core makes its own `state` (evaluating the argument once per worker), then takes runs of consecutive indices (`runs`
/// in all, about equal) one after another from a shared counter until none is left, so a core
/// slowed by other work leaves more runs to the others; within a run, indices go in order. A
/// run stops at its first error, and no run is taken after one. When any element throws, what
/// was made is freed and the error of the lowest failing index is thrown: the error a loop in
/// index order would meet.
///
/// `makeState` and `element` are called from several threads at once: they must only read
/// what they share.
func _concurrentArray<State, Element: Sendable>(
  count: Int, workers requestedWorkers: Int, runs requestedRuns: Int,
  state makeState: @autoclosure () -> State, _ element: (inout State, Int) throws -> Element
) throws -> [Element] {
  guard count > 0 else { return [] }
  let runs = Swift.max(1, Swift.min(requestedRuns, count))
  let workers = Swift.max(1, Swift.min(requestedWorkers, runs))
  // Written by one run each: how many elements the run made, and the error that stopped it.
  var made = [Int](repeating: 0, count: runs)
  var failures = [(any Error)?](repeating: nil, count: runs)
  let queue = _RunQueue(runs: runs)
  return unsafe try [Element](unsafeUninitializedCapacity: count) { storage, initializedCount in
    unsafe made.withUnsafeMutableBufferPointer { madeSlots in
      unsafe failures.withUnsafeMutableBufferPointer { failureSlots in
        // The threads share only these: the closures (which promise to read only), the queue
        // (locked), and slots each written at the indices of one run.
        nonisolated(unsafe) let storage = unsafe storage
        nonisolated(unsafe) let madeSlots = unsafe madeSlots
        nonisolated(unsafe) let failureSlots = unsafe failureSlots
        nonisolated(unsafe) let makeState = makeState
        nonisolated(unsafe) let element = element
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
          var state = unsafe makeState()
          while let run = queue.next() {
            let range = _runRange(run, of: runs, count: count)
            var index = range.lowerBound
            do {
              while index < range.upperBound {
                unsafe storage.initializeElement(at: index, to: try element(&state, index))
                index += 1
              }
            } catch {
              unsafe failureSlots[run] = error
              queue.stop()
            }
            unsafe madeSlots[run] = index - range.lowerBound
          }
        }
      }
    }
    if let failed = failures.firstIndex(where: { $0 != nil }) {
      for run in 0..<runs where made[run] > 0 {
        let start = _runRange(run, of: runs, count: count).lowerBound
        unsafe storage.extracting(start..<start + made[run]).deinitialize()
      }
      initializedCount = 0
      throw failures[failed]!
    }
    initializedCount = count
  }
}

/// The indices of run `run` of `runs` over `0..<count`: consecutive, in order, sizes within one.
func _runRange(_ run: Int, of runs: Int, count: Int) -> Range<Int> {
  count * run / runs..<count * (run + 1) / runs
}

/// The runs not yet taken, in order, handed out under a lock (a few dozen per call).
final class _RunQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var nextRun = 0
  private let runs: Int

  init(runs: Int) { self.runs = runs }

  /// The next run to make, or nil when all are taken or a run failed.
  func next() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard nextRun < runs else { return nil }
    nextRun += 1
    return nextRun - 1
  }

  /// No run is handed out after this: one failed, and the runs after it would be thrown away.
  func stop() {
    lock.lock()
    nextRun = runs
    lock.unlock()
  }
}
