import Testing

@testable import JSONStreamCore
@testable import JSONStreamValue

/// Snapshots' blocks in the arena (see `_ArenaBlock`): appends land in order, growing moves
/// the elements to a larger block, and a copy of the block from before still reads its own
/// elements, as earlier snapshots' nodes do.
@Suite("Arena blocks for snapshots")
struct ArenaBlockTests {
  @Test("appends from arrays and buffers, growing, keep every element in order")
  func appendsAndGrows() {
    var arena = _Arena()
    var block = _ArenaBlock<UInt8>()
    #expect(block.payload == 0)
    var expected: [UInt8] = []
    var copied = 0
    for round in 0..<40 {
      let piece = (0..<(round % 7 + 1)).map { UInt8(truncatingIfNeeded: round &* 31 &+ $0) }
      copied += block.reserve(expected.count + piece.count, minimum: 4, in: &arena)
      block.append(piece, 0..<piece.count)
      expected += piece
      #expect(block.count == expected.count)
    }
    #expect((0..<expected.count).map { block[$0] } == expected)
    // Doubling: each element is copied a bounded number of times in all.
    #expect(copied <= 2 * expected.count)
  }

  @Test("a block from before a move still reads its elements")
  func oldBlockStays() {
    var arena = _Arena()
    var stack = _Buffer<UInt8>(capacity: 64)
    for byte in 0..<64 { stack.append(UInt8(byte)) }
    var block = _ArenaBlock<UInt8>()
    _ = block.reserve(8, minimum: 8, in: &arena)
    block.append(stack, 0..<8)
    let before = block
    #expect(block.reserve(40, minimum: 8, in: &arena) == 8)
    #expect(block.payload != before.payload)
    block.append(stack, 8..<40)
    #expect((0..<40).map { block[$0] } == Array(0..<40))
    #expect((0..<8).map { before[$0] } == Array(0..<8))
    stack.deallocate()
  }

  @Test("reading past the appended elements traps")
  func outOfRange() async {
    await #expect(processExitsWith: .failure) {
      var arena = _Arena()
      var block = _ArenaBlock<UInt8>()
      _ = block.reserve(4, minimum: 4, in: &arena)
      block.append([1, 2], 0..<2)
      _ = block[2]
    }
  }
}
