import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamCore
@testable import JSONStreamParser

/// Calls `body` with `bytes`, which must not be empty, as a scan input.
@discardableResult
func withScanInput<R>(_ bytes: [UInt8], _ body: (_ScanInput) throws -> R) rethrows -> R {
  try bytes.withUnsafeBytes { try body(_ScanInput($0)!) }
}

/// The parser's input kernel at its boundaries: the last byte and one past it, word loads and
/// word-at-a-time runs that end in the last eight bytes, empty and 1-byte chunks. A read past
/// the end traps, which a test cannot catch in-process; these are the cases just inside.
@Suite("The scanner's input")
struct ScanInputTests {
  @Test("empty chunks make no input, with or without a base address")
  func empty() {
    #expect(_ScanInput(UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
    let none: [UInt8] = []
    #expect(none.withUnsafeBytes { _ScanInput($0) == nil })
    let bytes: [UInt8] = [1, 2, 3]
    bytes.withUnsafeBytes { buffer in
      #expect(_ScanInput(UnsafeRawBufferPointer(rebasing: buffer[1..<1])) == nil)
    }
  }

  @Test("the last byte is read, one past it is not in the chunk")
  func lastByte() {
    for count in 1...17 {
      let bytes = (0..<count).map { UInt8($0 &+ 1) }
      withScanInput(bytes) { input in
        #expect(input.count == count)
        #expect(input[count - 1] == UInt8(count))
        #expect(input.byte(at: count - 1) == UInt8(count))
        #expect(input.contains(count - 1))
        #expect(!input.contains(count))
        #expect(input.byte(at: count) == nil)
        #expect(!input.contains(-1))
        #expect(input.byte(at: -1) == nil)
        #expect(input.prefix(count - 1).byte(at: count - 1) == nil)
      }
    }
  }

  @Test("four-byte loads in the last bytes of the chunk, and ranges that end with it")
  func wordLoadsAndRanges() {
    let bytes = Array("xtruenull".utf8)
    withScanInput(bytes) { input in
      #expect(input.contains(5, length: 4))
      #expect(!input.contains(6, length: 4))
      #expect(!input.contains(-1, length: 4))
      #expect(input.contains(9, length: 0))
      #expect(input.loadUInt32(at: 5) == 0x6C6C_756E)  // "null", the last four bytes
      #expect(input.loadUInt32(at: 1) == 0x6575_7274)  // "true"
      let isNull = input.plainString(5, 9) == "null"
      #expect(isNull)
      let emptyCount = input.plainString(9, 9).count
      #expect(emptyCount == 0)
      let text = input.number(0, 9, flags: 0).text
      #expect(text == "xtruenull")
      var copied: [UInt8] = [0]
      input.copy(1, 9, to: &copied)
      #expect(copied == [0] + bytes[1...])
    }
  }

  @Test("word-at-a-time runs that end at the chunk's end, from every start")
  func runsToTheEnd() {
    for count in 1...20 {
      for (filler, skip) in [
        (UInt8(ascii: " "), { (input: _ScanInput, i: Int) in input.skipSpaceRun(from: i) }),
        (UInt8(ascii: "7"), { (input: _ScanInput, i: Int) in input.skipDigits(from: i) }),
        (UInt8(ascii: "a"), { (input: _ScanInput, i: Int) in input.skipPlainStringBytes(from: i) }),
      ] {
        withScanInput([UInt8](repeating: filler, count: count)) { input in
          for start in 0...count {
            #expect(skip(input, start) == count, "\(count) × \(filler) from \(start)")
          }
        }
      }
      // Three-byte characters, whole to the end or with the last one cut off by it.
      let characters = Array(String(repeating: "€", count: count).utf8)
      withScanInput(characters) { input in
        let run = input.skipWellFormedCharacters(from: 0)
        #expect(run.end == characters.count && run.continuationBytes == 2 * count)
        let cut = input.prefix(characters.count - 1).skipWellFormedCharacters(from: 0)
        #expect(cut.end == characters.count - 3 && cut.continuationBytes == 2 * (count - 1))
      }
    }
  }

  /// Documents whose last token ends exactly at the end of the input, at lengths that put its
  /// end at each place in and after the eight-byte steps.
  static let tokensAtTheEnd: [String] =
    (0...17).flatMap { length in
      let letters = String(repeating: "a", count: length)
      let digits = String(repeating: "7", count: length)
      let spaces = String(repeating: " ", count: length)
      return [
        "\"\(letters)\"", "[\"\(letters)é\"]", "[1\(digits)]", "[0.5\(digits)]", "[1e\(digits)1]",
        "\(spaces)true", "[\(spaces)false]", "{\"\(letters)\":\(spaces)null}",
        "\(spaces)1\(digits)",
      ]
    }

  @Test("tokens that end at the chunk's end, whole and split at every byte")
  func tokensEndingAtTheEnd() {
    #expect(Self.tokensAtTheEnd.count == 18 * 9)
    var mismatches: [String] = []
    for document in Self.tokensAtTheEnd {
      if !parse(document).succeeded { mismatches.append("fails: \(document)") }
      mismatches += splitMismatches(document).map { "\(document): \($0)" }
    }
    #expect(mismatches == [])
  }

  @Test("empty chunks anywhere change nothing")
  func emptyChunks() {
    for document in awkwardDocuments + Self.tokensAtTheEnd.prefix(20) {
      let bytes = Array(document.utf8)
      let whole = parse(bytes)
      // 1-byte chunks with an empty one before each.
      let sizes = (0..<bytes.count).flatMap { _ in [0, 1] }
      #expect(parse(bytes, chunkSizes: sizes) == whole, "\(document)")
    }
  }

  @Test("slices, whole-input strings, copies and appends: empty, one byte, to the end")
  func slicesAndViews() {
    withScanInput(Array("héllo".utf8)) { input in
      #expect(input.slice(0, 0).count == 0)
      #expect(input.slice(input.count, input.count).count == 0)
      let tail = input.slice(1, input.count)
      #expect(tail.count == input.count - 1)
      #expect(tail[0] == input[1])
      #expect(tail.byte(at: tail.count) == nil)
      #expect(input.slice(0, input.count).wellFormedString().string == "héllo")
      #expect(input.slice(1, 3).wellFormedString().string == "é")
      #expect(input.slice(1, 3).wellFormedString(keyTableEntry: 7).string == "é")
      var copied: [UInt8] = []
      input.copy(0, 0, to: &copied)
      input.copy(input.count - 1, input.count, to: &copied)
      #expect(copied == Array("o".utf8))
      var buffer = _Buffer<UInt8>(capacity: 1)
      defer { buffer.deallocate() }
      buffer.appendBytes(input.slice(0, 0))
      buffer.appendBytes(input)
      #expect(buffer.array() == Array("héllo".utf8))
    }
  }

  @Test("any sequence as an input: contiguous, not, and empty")
  func withContentsOf() {
    #expect(_ScanInput.with(contentsOf: [UInt8]()) { $0 == nil })
    #expect(
      _ScanInput.with(contentsOf: Array("ab".utf8)) { $0.map { [$0[0], $0[1]] } } == [97, 98])
    // A sequence without contiguous storage is copied first.
    let lazy = (0..<3).lazy.map { UInt8($0 + 1) }
    #expect(_ScanInput.with(contentsOf: lazy) { $0.map { ($0.count, $0[2]) } }! == (3, 3))
    #expect(_ScanInput.with(_: Array("x".utf8)) { $0.count } == 1)
  }

  @Test("finding a byte: at the start, at the last byte, from the end, and absent")
  func firstIndex() {
    withScanInput(Array("a\nb\n".utf8)) { input in
      #expect(input.firstIndex(of: 0x61, from: 0) == 0)
      #expect(input.firstIndex(of: 0x0A, from: 0) == 1)
      #expect(input.firstIndex(of: 0x0A, from: 2) == 3)
      #expect(input.firstIndex(of: 0x0A, from: 4) == nil)
      #expect(input.firstIndex(of: 0x7A, from: 0) == nil)
    }
  }
}
