import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// The arena's short-copy kernel, at every length across its 4, 8, 16 and 32-byte cases, at
/// every alignment of source and target: exactly the bytes asked for, nothing around them.
@Suite("Byte copy kernel")
struct CopyBytesTests {
  @Test("copies 0 to 40 bytes exactly, at any alignment, touching nothing else")
  func everyLengthAndAlignment() {
    let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    let guardByte: UInt8 = 0xEE
    for count in 0...40 {
      for sourceOffset in 0..<8 {
        for targetOffset in 0..<8 {
          var target = [UInt8](repeating: guardByte, count: 64)
          source.withUnsafeBytes { source in
            target.withUnsafeMutableBytes { target in
              _copyBytes(
                target.baseAddress! + targetOffset, source.baseAddress! + sourceOffset,
                count: count)
            }
          }
          let expected =
            [UInt8](repeating: guardByte, count: targetOffset)
            + source[sourceOffset..<sourceOffset + count]
            + [UInt8](repeating: guardByte, count: 64 - targetOffset - count)
          #expect(target == expected, "count \(count), offsets \(sourceOffset) → \(targetOffset)")
        }
      }
    }
  }
}
