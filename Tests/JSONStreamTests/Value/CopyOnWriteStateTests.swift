import Testing

@testable import JSONStreamCore

/// A state of plain memory, as the handlers keep theirs: a buffer the box must copy and free.
private struct CountingState: _ManualState {
  var bytes = _Buffer<UInt8>(capacity: 4)

  func copy() -> CountingState {
    CountingState(bytes: bytes.copy())
  }

  func deallocate() { bytes.deallocate() }
}

/// The copy-on-write box behind every handler's state: a change reaches only the copy that
/// makes it, inside a run of events as outside one.
@Suite("Copy-on-write state")
struct CopyOnWriteStateTests {
  @Test("a change after a copy leaves the other copy as it was")
  func copyOnWrite() {
    var first = _CopyOnWriteState(CountingState())
    first.withUnique { $0.bytes.append("ab") }
    var second = first
    second.withUnique { $0.bytes.append("c") }
    #expect(first.current.bytes.array() == Array("ab".utf8))
    #expect(second.current.bytes.array() == Array("abc".utf8))
  }

  @Test("in a run, inRun and withUnique change the run's state, and a copy stays apart")
  func run() {
    var state = _CopyOnWriteState(CountingState())
    state.withUnique { $0.bytes.append("a") }
    let before = state
    // The run makes the state its own first: `before` keeps "a".
    state.beginEventRun()
    state.inRun.bytes.append("b")
    state.withUnique { $0.bytes.append("c") }
    var during = state
    state.endEventRun()
    #expect(state.current.bytes.array() == Array("abc".utf8))
    #expect(before.current.bytes.array() == Array("a".utf8))
    // A copy taken during the run shares the box; its own change copies it.
    during.endEventRun()
    during.withUnique { $0.bytes.append("d") }
    #expect(during.current.bytes.array() == Array("abcd".utf8))
    #expect(state.current.bytes.array() == Array("abc".utf8))
  }
}
