import Testing

@testable import JSONStreamCore
@testable import JSONStreamFoundation

/// The Codable coders' small kernels at their boundaries: arrays made in place
/// (`Array._madeInPlace`), a value as its own type (`_same`), and state in memory of its own
/// (`_StateMemory`).
@Suite("Codable kernels", .serialized)
struct CodingKernelTests {
  /// Counts the instances alive, to see what a kernel releases.
  final class Tracked {
    nonisolated(unsafe) static var alive = 0
    let value: Int
    init(_ value: Int) {
      self.value = value
      Tracked.alive += 1
    }
    deinit { Tracked.alive -= 1 }
  }

  struct Stop: Error {}

  @Test("an array made in place holds what was appended, in order, and no more")
  func madeInPlace() {
    let full = [Int]._madeInPlace(count: 5) { elements in
      for index in 0..<5 { elements.append(index * index) }
    }
    #expect(full == [0, 1, 4, 9, 16])
    // Fewer than the room: the array holds those.
    let short = [Int]._madeInPlace(count: 5) { elements in
      elements.append(7)
      elements.append(8)
    }
    #expect(short == [7, 8])
    #expect([Int]._madeInPlace(count: 0) { _ in }.isEmpty)
  }

  @Test("when filling throws, what was made is released and the error comes through")
  func throwingFill() {
    let before = Tracked.alive
    #expect(throws: Stop.self) {
      _ = try [Tracked]._madeInPlace(count: 10) { elements in
        for index in 0..<10 {
          if index == 6 { throw Stop() }
          elements.append(Tracked(index))
        }
      }
    }
    #expect(Tracked.alive == before)
    var made: [Tracked]? = [Tracked]._madeInPlace(count: 3) { elements in
      for index in 0..<3 { elements.append(Tracked(index)) }
    }
    #expect(made?.map(\.value) == [0, 1, 2])
    #expect(Tracked.alive == before + 3)
    made = nil
    #expect(Tracked.alive == before)
  }

  @Test("appending past the room traps")
  func pastTheRoom() async {
    await #expect(processExitsWith: .failure) {
      _ = [Int]._madeInPlace(count: 2) { elements in
        for index in 0..<3 { elements.append(index) }
      }
    }
  }

  @Test("a value as its own type is itself; two different types trap in debug builds")
  func same() async {
    #expect(_same([1, 2, 3], as: [Int].self) == [1, 2, 3])
    #expect(_same("text", as: String.self) == "text")
    #if DEBUG
      await #expect(processExitsWith: .failure) {
        _ = _same(Int64(1), as: Double.self)
      }
    #endif
  }

  @Test("state memory is changed in place and freed with its holder")
  func stateMemory() {
    final class Holder {
      let state = _StateMemory([Tracked]())
    }
    let before = Tracked.alive
    var holder: Holder? = Holder()
    holder?.state.value.append(Tracked(1))
    holder?.state.value.append(Tracked(2))
    #expect(holder?.state.value.map(\.value) == [1, 2])
    #expect(Tracked.alive == before + 2)
    holder = nil
    #expect(Tracked.alive == before)
  }
}
