import Foundation
import Testing

@testable import JSONStreamFoundation

/// The kernel that fills one array from several threads: every element at its index, made
/// once, in runs that keep their order; on an error, the lowest failing index's error and
/// nothing left alive. CI runs this suite under the thread sanitizer.
@Suite("Filling an array across the cores")
struct ConcurrentArrayTests {
  /// Counts the elements alive, across threads.
  final class Census: @unchecked Sendable {
    private let lock = NSLock()
    private var alive = 0
    var count: Int { lock.withLock { alive } }
    func add(_ change: Int) { lock.withLock { alive += change } }
  }

  /// An element that the census counts while it lives.
  final class Element: Sendable {
    let index: Int
    let census: Census
    init(_ index: Int, _ census: Census) {
      self.index = index
      self.census = census
      census.add(1)
    }
    deinit { census.add(-1) }
  }

  struct Failure: Error, Equatable {
    var index: Int
  }

  @Test("every element at its index, for counts below, at and above the runs and workers")
  func order() throws {
    for count in [0, 1, 2, 3, 7, 64, 1_000] {
      for (workers, runs) in [(1, 1), (2, 2), (2, 16), (4, 7), (3, 1_000)] {
        let census = Census()
        let made = try _concurrentArray(
          count: count, workers: workers, runs: runs, state: 0
        ) { _, index in Element(index, census) }
        #expect(made.map(\.index) == Array(0..<count), "count \(count), runs \(runs)")
        #expect(census.count == count)
      }
    }
  }

  @Test("a run's state is made once per worker and sees the run's indices in order")
  func stateAndRuns() throws {
    // The state records the last index it was given: within a run, each index follows the
    // one before; a new run starts anywhere after an earlier one ended.
    let made = try _concurrentArray(
      count: 500, workers: 2, runs: 25, state: -1
    ) { last, index -> Bool in
      let runStart = index % 20 == 0
      let follows = last == index - 1
      last = index
      return runStart || follows
    }
    #expect(made.allSatisfy { $0 })
  }

  @Test("an error: the lowest failing index's error is thrown, and nothing made stays alive")
  func errors() {
    let count = 300
    for failing in [[0], [1], [150], [299], [20, 280], [279, 21], [0, 299]] {
      for (workers, runs) in [(1, 1), (2, 2), (2, 16), (3, 300)] {
        let census = Census()
        let error = #expect(throws: Failure.self) {
          _ = try _concurrentArray(
            count: count, workers: workers, runs: runs, state: ()
          ) { _, index in
            if failing.contains(index) { throw Failure(index: index) }
            return Element(index, census)
          }
        }
        #expect(error == Failure(index: failing.min()!), "failing \(failing), runs \(runs)")
        #expect(census.count == 0, "failing \(failing), runs \(runs)")
      }
    }
  }
}
