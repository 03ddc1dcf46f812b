import JSONStreamSIMD
import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// The byte kernels at every boundary: each special byte at each position of a run that spans
/// the eight-byte steps and the tail.
@Suite("UTF-8 kernels")
struct KernelTests {
  @Test("_skipUnescapedBytes stops at the first byte a string literal must escape")
  func skipUnescaped() {
    let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F]
    let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
    for length in 0..<20 {
      for position in 0...length {
        for special in specials {
          for filler in plain {
            var bytes = [UInt8](repeating: filler, count: length)
            if position < length { bytes[position] = special }
            let stop = bytes.withUnsafeBufferPointer { buffer in
              let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
              return _skipUnescapedBytes(base, base + length) - base
            }
            #expect(stop == position, "length \(length), \(special) at \(position) among \(filler)")
            // `/` stops it only when slashes are escaped.
            var slashed = [UInt8](repeating: filler, count: length)
            if position < length { slashed[position] = ._slash }
            let (plainStop, slashStop) = slashed.withUnsafeBufferPointer { buffer in
              let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
              return (
                _skipUnescapedBytes(base, base + length) - base,
                _skipUnescapedBytes(base, base + length, escapeSlash: true) - base
              )
            }
            #expect(plainStop == length && slashStop == position, "/ at \(position) of \(length)")
          }
        }
      }
    }
  }

  @Test("_skipPlainStringBytes stops exactly at the first byte a string scan must look at")
  func skipPlain() {
    // Specials after the first one too: a word's mask may flag bytes above a true one, and
    // the scan must still stop at the first.
    let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x80, 0xC3, 0xFF]
    let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F]
    for length in 0..<20 {
      for position in 0...length {
        for special in specials {
          for filler in plain {
            var bytes = [UInt8](repeating: filler, count: length)
            for index in position..<length { bytes[index] = special &+ UInt8(index & 1) }
            if position < length { bytes[position] = special }
            // The dispatch (vectors on this CPU, where it has them) and the word loop.
            let stops = bytes.withUnsafeBufferPointer { buffer in
              let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
              return [
                _skipPlainStringBytes(base, base + length) - base,
                _skipPlainStringBytesByWords(base, base + length) - base,
              ]
            }
            #expect(
              stops == [position, position],
              "length \(length), \(special) at \(position) among \(filler)")
          }
        }
      }
    }
  }

  @Test("_skipSpaceRun stops exactly at the first byte that is not a space")
  func skipSpaceRun() {
    for length in 0..<20 {
      for position in 0...length {
        for other: UInt8 in [0x09, 0x0A, 0x21, 0x22, 0x00, 0xA0, 0xFF] {
          var bytes = [UInt8](repeating: 0x20, count: length)
          // Spaces after the first other byte too: the scan must stop at the first.
          for index in position..<length where index & 1 == 0 { bytes[index] = other }
          if position < length { bytes[position] = other }
          let stops = bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            return [
              _skipSpaceRun(base, base + length) - base,
              _skipSpaceRunByWords(base, base + length) - base,
            ]
          }
          #expect(stops == [position, position], "length \(length), \(other) at \(position)")
        }
      }
    }
  }

  /// Runs `scan` over `length` bytes of `bytes` (which holds more after them) from the start,
  /// and returns where it stopped.
  static func stop(
    _ bytes: [UInt8], _ length: Int,
    _ scan: (UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> UnsafePointer<UInt8>
  ) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      return scan(base, base + length) - base
    }
  }

  /// Every byte value at every position of runs up to three vector blocks and a tail long,
  /// through the vector kernel (where this CPU has one), the word loop and the dispatch: each
  /// stops where a byte loop stops. The bytes past the run's end are ones that would not stop
  /// it, so a scan that looked past the end would report a later stop.
  static func checkRunScans(
    filler: UInt8, stopper: UInt8, stops: (UInt8) -> Bool,
    _ scans: [(String, (UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> UnsafePointer<UInt8>)]
  ) {
    for length in 0..<52 {
      for position in 0...length {
        for byte in UInt8.min...UInt8.max {
          var bytes = [UInt8](repeating: filler, count: length + 24)
          if position < length {
            bytes[position] = byte
            // A stopping byte right after it: the scan must stop at the first.
            if position + 1 < length { bytes[position + 1] = stopper }
          }
          let expected = bytes[..<length].firstIndex(where: stops) ?? length
          for (name, scan) in scans {
            let stop = Self.stop(bytes, length, scan)
            if stop != expected {
              Issue.record("\(name): length \(length), \(byte) at \(position): \(stop)")
              return
            }
          }
        }
      }
    }
  }

  @Test("string-byte scans by vectors and by words stop where a byte loop stops")
  func plainStringScans() {
    #expect(jsonstream_simd_has_blocks() == 1 || !Self.vectorsExpected)
    Self.checkRunScans(
      filler: 0x61, stopper: ._quote,
      stops: { $0 < 0x20 || $0 == ._quote || $0 == ._backslash || $0 >= 0x80 },
      [
        ("vectors", { jsonstream_skip_plain_string_blocks($0, $1) }),
        ("words", { _skipPlainStringBytesByWords($0, $1) }),
        ("dispatch", { _skipPlainStringBytes($0, $1) }),
      ])
  }

  @Test("space scans by vectors and by words stop where a byte loop stops")
  func spaceScans() {
    Self.checkRunScans(
      filler: ._space, stopper: ._tab, stops: { $0 != ._space },
      [
        ("vectors", { jsonstream_skip_spaces_blocks($0, $1) }),
        ("words", { _skipSpaceRunByWords($0, $1) }),
        ("dispatch", { _skipSpaceRun($0, $1) }),
      ])
  }

  /// Whether this build's CPU family has the vector kernels (x86-64 and 64-bit ARM do), so
  /// that the tests above check them rather than a byte loop.
  static var vectorsExpected: Bool {
    #if arch(x86_64) || arch(arm64)
      return true
    #else
      return false
    #endif
  }

  @Test("_skipDigits stops exactly at the first byte that is not an ASCII digit")
  func skipDigits() {
    let nonDigits = (0...255).map(UInt8.init).filter { !(0x30...0x39).contains($0) }
    for length in 0..<20 {
      for position in 0...length {
        for nonDigit in nonDigits {
          // Digits of every value before the stop, and more bytes after it.
          var bytes = (0..<length).map { UInt8(0x30 + $0 % 10) }
          if position < length {
            bytes[position] = nonDigit
            for index in (position + 1)..<length { bytes[index] = UInt8(0x30 + index % 10) }
          }
          let stop = bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            return _skipDigits(base, base + length) - base
          }
          #expect(stop == position, "length \(length), \(nonDigit) at \(position)")
        }
      }
    }
  }

  @Test("_findByte stops at the first occurrence of the byte, and at the end when it is absent")
  func findByte() {
    for target: UInt8 in [0x0A, 0x00, 0x01, 0x7F, 0x80, 0xFF] {
      // Every other byte value fills the bytes before the stop, the near misses among them
      // (a bit away, or with the high bit flipped).
      let others = (0...255).map(UInt8.init).filter { other in
        other != target && (other % 17 == 0 || other ^ target < 4 || other ^ target == 0x80)
      }
      for length in 0..<20 {
        for position in 0...length {
          for other in others {
            var bytes = [UInt8](repeating: other, count: length)
            // A second occurrence after the first must not be the one found.
            if position < length {
              bytes[position] = target
              if position + 3 < length { bytes[position + 3] = target }
            }
            let stop = bytes.withUnsafeBufferPointer { buffer in
              let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
              return _findByte(target, base, base + length) - base
            }
            #expect(
              stop == position, "length \(length), \(target) at \(position) among \(other)")
          }
        }
      }
    }
  }

  @Test("_bytesEqual finds a difference at every position of every length, at every alignment")
  func bytesEqual() {
    var storage = [UInt8](repeating: 0, count: 96)
    for count in 0...40 {
      for offset in 0..<8 {
        let base = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        storage.withUnsafeMutableBufferPointer { memory in
          let a = UnsafeMutableBufferPointer(rebasing: memory[offset..<(offset + count)])
          let b = UnsafeMutableBufferPointer(rebasing: memory[48..<(48 + count)])
          _ = a.initialize(from: base)
          _ = b.initialize(from: base)
          #expect(_bytesEqual(UnsafeBufferPointer(a), UnsafeBufferPointer(b)), "\(count) \(offset)")
          for position in 0..<count {
            b[position] ^= 0x40
            #expect(
              !_bytesEqual(UnsafeBufferPointer(a), UnsafeBufferPointer(b)),
              "\(count) \(offset) \(position)")
            b[position] ^= 0x40
          }
          // A different length is never equal, even with equal bytes as far as both go.
          if count > 0 {
            #expect(
              !_bytesEqual(
                UnsafeBufferPointer(rebasing: a[0..<(count - 1)]), UnsafeBufferPointer(b)))
          }
        }
      }
    }
  }

  @Test("_prefixWord reads the first eight bytes of every length, at every alignment, no further")
  func prefixWord() {
    // The bytes after the string are set, so that a read past its end would show.
    var storage = [UInt8](repeating: 0xEE, count: 64)
    for count in 0...12 {
      let base = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      var expected: UInt64 = 0
      for (index, byte) in base.prefix(8).enumerated() { expected |= UInt64(byte) << (8 * index) }
      #expect(_prefixWord(of: base, in: 0..<count) == expected, "stored, \(count)")
      #expect(_prefixWord(of: [0xEE] + base, in: 1..<(count + 1)) == expected, "range, \(count)")
      for offset in 0..<8 {
        storage.withUnsafeMutableBufferPointer { memory in
          let bytes = UnsafeMutableBufferPointer(rebasing: memory[offset..<(offset + count)])
          _ = bytes.initialize(from: base)
          #expect(_prefixWord(UnsafeBufferPointer(bytes)) == expected, "\(count) at \(offset)")
          for index in bytes.indices { bytes[index] = 0xEE }
        }
      }
    }
  }

  @Test("_isASCII finds a byte over 0x7F at every position of every length, and no other")
  func isASCII() {
    for count in 0...40 {
      var bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) & 0x7F }
      // Bytes just past the end are not looked at.
      bytes.append(0xFF)
      bytes.withUnsafeBufferPointer {
        #expect(_isASCII(UnsafeBufferPointer(rebasing: $0[..<count])))
      }
      for position in 0..<count {
        for high: UInt8 in [0x80, 0xC3, 0xFF] {
          let saved = bytes[position]
          bytes[position] = high
          bytes.withUnsafeBufferPointer {
            #expect(!_isASCII(UnsafeBufferPointer(rebasing: $0[..<count])), "\(count) \(position)")
          }
          bytes[position] = saved
        }
      }
    }
  }

  @Test("_Buffer.replaceTail writes a view over the end, growing as needed; string reads a range")
  func bufferTail() {
    var buffer = _Buffer<UInt8>(capacity: 4)
    defer { buffer.deallocate() }
    var expected: [UInt8] = []
    // Keys of every length up to 40, each written over the last from a start that moves.
    for length in 0...40 {
      let key = String(repeating: "k", count: length) + "é"
      let start = expected.count / 2
      JSONString.withWellFormed(Array(key.utf8)) { view in
        buffer.replaceTail(from: start, with: view)
      }
      expected = Array(expected[..<start]) + Array(key.utf8)
      #expect(buffer.count == expected.count)
      #expect(buffer.string(0..<buffer.count) == String(decoding: expected, as: UTF8.self))
      #expect(buffer.string(start..<buffer.count) == key)
    }
    #expect(buffer.string(0..<0) == "")
  }

  @Test("_storeWord stores eight bytes, the lowest first, at every index, into its own copy")
  func storeWord() {
    let word: UInt64 = 0x0807_0605_0403_0201
    for index in 0...8 {
      let shared = [UInt8](repeating: 0xFF, count: 16)
      var bytes = shared
      bytes._storeWord(word, at: index)
      #expect(Array(bytes[index..<index + 8]) == [1, 2, 3, 4, 5, 6, 7, 8])
      #expect(bytes[..<index].allSatisfy { $0 == 0xFF })
      #expect(bytes[(index + 8)...].allSatisfy { $0 == 0xFF })
      #expect(shared == [UInt8](repeating: 0xFF, count: 16), "the shared copy is unchanged")
    }
  }

  @Test("_storeWord outside the array stops the program")
  func storeWordOutside() async {
    await #expect(processExitsWith: .failure) {
      var bytes = [UInt8](repeating: 0, count: 16)
      bytes._storeWord(1, at: 9)
    }
    await #expect(processExitsWith: .failure) {
      var bytes = [UInt8](repeating: 0, count: 16)
      bytes._storeWord(1, at: -1)
    }
  }

  @Test("strings made from well-formed bytes are those String(decoding:) makes")
  func stringOfWellFormedUTF8() {
    for text in [
      "", "a", "id", "created_at", String(repeating: "x", count: 100), "é", "aé", "日本語テキスト",
      "😀 emoji 😀", "mixed ascii then é at the end",
    ] {
      var copy = text
      copy.withUTF8 { bytes in
        let made = _stringOfWellFormedUTF8(bytes)
        #expect(made == text)
        #expect(made.hashValue == text.hashValue)
        #expect(Array(made.utf8) == Array(text.utf8))
      }
    }
  }

  @Test("_copyBytes copies exactly count bytes at every length, and nothing around them")
  func copyBytes() {
    for count in 0..<40 {
      let source = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
      var destination = [UInt8](repeating: 0xEE, count: count + 16)
      source.withUnsafeBufferPointer { from in
        destination.withUnsafeMutableBufferPointer { to in
          let base = from.baseAddress ?? UnsafePointer(bitPattern: 1)!
          _copyBytes(from: base, to: to.baseAddress! + 8, count: count)
        }
      }
      #expect(Array(destination[8..<(8 + count)]) == source, "count \(count)")
      #expect(destination[..<8].allSatisfy { $0 == 0xEE }, "count \(count): bytes before")
      #expect(destination[(8 + count)...].allSatisfy { $0 == 0xEE }, "count \(count): after")
    }
  }

  @Test("_checkUTF8ForJSON: a quote, backslash or control byte anywhere needs escaping")
  func checkForJSON() {
    func check(_ bytes: [UInt8]) -> _UTF8Check { bytes.withUnsafeBufferPointer(_checkUTF8ForJSON) }
    // Every length from 1 to 17 (the byte loop, one word, a word and the overlapping last),
    // ASCII and with non-ASCII characters before the special byte, and each special byte at
    // every position.
    for count in 1...17 {
      for prefix in [[], Array("é".utf8), Array("😀€".utf8)] {
        let plain = prefix + Array(repeating: UInt8(ascii: "a"), count: count)
        #expect(check(plain) == .needsNoEscaping, "\(plain)")
        for position in prefix.count..<plain.count {
          for special: UInt8 in [0x22, 0x5C, 0x00, 0x1F, 0x0A] {
            var bytes = plain
            bytes[position] = special
            #expect(check(bytes) == .wellFormed, "\(special) at \(position) of \(bytes)")
          }
          var broken = plain
          broken[position] = 0xFF
          #expect(check(broken) == .illFormed, "0xFF at \(position)")
        }
      }
    }
    #expect(check([]) == .needsNoEscaping)
    #expect(check(Array("/ é 😀 DEL\u{7F}".utf8)) == .needsNoEscaping)
    // Random bytes: the standard library's verdict on UTF-8, and a byte-by-byte escape test.
    var random = SplitMix(seed: 11)
    for _ in 0..<20_000 {
      let bytes = (0..<Int(random.next() % 20)).map { _ in
        UInt8(
          truncatingIfNeeded: random.next() % 4 == 0
            ? random.next() : random.next() % 0x60 + 0x1C)
      }
      let expected: _UTF8Check =
        String(validating: bytes, as: UTF8.self) == nil
        ? .illFormed
        : bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ? .wellFormed : .needsNoEscaping
      #expect(check(bytes) == expected, "\(bytes)")
    }
  }

  @Test("_isWellFormedUTF8 accepts exactly the well-formed sequences")
  func wellFormed() {
    let good: [[UInt8]] = [
      [], Array("plain ascii text, longer than eight".utf8), Array("é😀€x".utf8),
      [0xEF, 0xBF, 0xBD], [0xF4, 0x8F, 0xBF, 0xBF],
    ]
    let bad: [[UInt8]] = [
      [0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0x80], Array("12345678".utf8) + [0xC3],
    ]
    for bytes in good {
      #expect(bytes.withUnsafeBufferPointer(_isWellFormedUTF8), "\(bytes)")
      #expect(String(validating: bytes, as: UTF8.self) != nil)
    }
    for bytes in bad {
      #expect(!bytes.withUnsafeBufferPointer(_isWellFormedUTF8), "\(bytes)")
      #expect(String(validating: bytes, as: UTF8.self) == nil)
    }
    // Random bytes: the same verdict as the standard library's.
    var random = SplitMix(seed: 7)
    for _ in 0..<20_000 {
      let bytes = (0..<Int(random.next() % 12)).map { _ in
        UInt8(
          truncatingIfNeeded: random.next() % 3 == 0
            ? random.next() : random.next() % 0x80 | 0xC0 & random.next())
      }
      #expect(
        bytes.withUnsafeBufferPointer(_isWellFormedUTF8)
          == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
    // ASCII of 8 to 40 bytes with one byte at any position replaced: the all-ASCII first pass
    // (whole words, the last overlapping) must see it wherever it is.
    for _ in 0..<20_000 {
      var bytes = (0..<(8 + Int(random.next() % 33))).map { _ in UInt8(random.next() % 0x80) }
      bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
      #expect(
        bytes.withUnsafeBufferPointer(_isWellFormedUTF8)
          == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
    // An ASCII start of any length, then characters of several bytes, whole or cut, then
    // ASCII: the checks resume at the first word the first pass found not ASCII.
    let middles: [[UInt8]] = [
      Array("é😀€日本".utf8), Array("日本語のテキスト".utf8), [0xE6, 0x97], [0xF0, 0x9F, 0x98],
      [0xC3, 0x41], [0xED, 0xA0, 0x80], [0x80],
    ]
    for _ in 0..<20_000 {
      var bytes = (0..<Int(random.next() % 41)).map { _ in UInt8(random.next() % 0x80) }
      bytes += middles[Int(random.next() % UInt64(middles.count))]
      bytes += (0..<Int(random.next() % 17)).map { _ in UInt8(random.next() % 0x80) }
      #expect(
        bytes.withUnsafeBufferPointer(_isWellFormedUTF8)
          == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
  }

  @Test("_wellFormedCharacterLength agrees with the standard library on every lead byte")
  func wellFormedCharacterLength() {
    // Every lead byte from 0x80 with every second byte around the continuation range (where
    // the limits of overlong forms, surrogates and U+10FFFF lie), the bytes after it at the
    // range's edges, and every cut-off by `end`.
    let seconds = [0x00, 0x41, 0xFF] + Array(0x7E...0xC1)
    for lead in 0x80...0xFF {
      for second in seconds {
        for third: UInt8 in [0x41, 0x80, 0xBF, 0xC0] {
          for fourth in [UInt8(0x80), 0xBF, 0x41] {
            let bytes: [UInt8] = [UInt8(lead), UInt8(second), third, fourth]
            for available in 1...4 {
              let want =
                (2...4).first(where: {
                  $0 <= available && String(validating: bytes[..<$0], as: UTF8.self) != nil
                }) ?? 0
              let got = bytes.withUnsafeBufferPointer {
                _wellFormedCharacterLength($0.baseAddress!, $0.baseAddress! + available)
              }
              if got != want {
                Issue.record("\(bytes) in \(available): \(got), want \(want)")
                return
              }
            }
          }
        }
      }
    }
  }

  @Test("_skipWellFormedCharacters stops at ASCII, at an ill-formed or cut-off character, at end")
  func skipWellFormedCharacters() {
    // The reference: one whole character at a time, as the standard library validates it (UTF-8
    // is prefix-free, so at most one length fits).
    func expected(_ bytes: [UInt8]) -> (count: Int, continuationBytes: Int) {
      var p = 0
      var continuationBytes = 0
      while p < bytes.count && bytes[p] >= 0x80 {
        guard
          let length = (2...4).first(where: {
            p + $0 <= bytes.count && String(validating: bytes[p..<(p + $0)], as: UTF8.self) != nil
          })
        else { break }
        continuationBytes += length - 1
        p += length
      }
      return (p, continuationBytes)
    }
    func check(_ bytes: [UInt8]) {
      bytes.withUnsafeBufferPointer { buffer in
        let start = buffer.baseAddress ?? UnsafePointer(bitPattern: 8)!
        let run = _skipWellFormedCharacters(start, start + buffer.count)
        let want = expected(bytes)
        #expect(run.end - start == want.count, "\(bytes)")
        #expect(run.continuationBytes == want.continuationBytes, "\(bytes)")
      }
    }
    let samples: [[UInt8]] = [
      [], Array("ascii".utf8), Array("日本語".utf8), Array("日本語 then ascii".utf8),
      Array("é😀€".utf8), Array("é😀€".utf8) + [0xC0, 0x80], Array("日本".utf8) + [0xE8, 0xAA],
      [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xE0, 0x9F, 0xBF], [0xE0, 0xA0, 0x80],
      [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xC2, 0x80, 0x80], [0xFF],
    ]
    for bytes in samples {
      check(bytes)
      // Cut off at every length: a character cut by the end stops the run before it.
      for count in 0..<bytes.count { check(Array(bytes[..<count])) }
    }
    // Pairs of three-byte characters, checked a word at a time: every lead byte with second
    // bytes at the edges of the overlong (E0) and surrogate (ED) limits, as the first and as
    // the second of a pair, with enough text after them for the word, cut at every length.
    let edges: [UInt8] = [0x80, 0x9F, 0xA0, 0xBF, 0x7F, 0xC0]
    let good = Array("語".utf8)
    for lead: UInt8 in 0xE0...0xEF {
      for second in edges {
        for last: UInt8 in [0x80, 0xBF, 0x41] {
          let odd = [lead, second, last]
          for pair in [good + odd, odd + good, odd + odd] {
            let bytes = pair + Array("日本".utf8)
            for count in 0...bytes.count { check(Array(bytes[..<count])) }
          }
        }
      }
    }
    var random = SplitMix(seed: 11)
    for _ in 0..<20_000 {
      let bytes = (0..<Int(random.next() % 16)).map { _ in
        UInt8(
          truncatingIfNeeded: random.next() % 4 == 0
            ? random.next() : random.next() % 0x40 | (random.next() % 2 == 0 ? 0x80 : 0xE0))
      }
      check(bytes)
    }
  }

  @Test("the well-formed escape writes what the checking escape writes")
  func escapesAgree() {
    let samples = [
      "", "plain", "quote \" and \\ backslash", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
      "é😀€ mixed \n with escapes / slash", String(repeating: "ab\"", count: 50),
      "https://example.com/a/b/c?d=e/f", String(repeating: "/", count: 19), "日本語/テキスト/",
    ]
    for sample in samples {
      var text = sample
      text.withUTF8 { bytes in
        let room = bytes.count * _maxEscapedBytesPerByte
        let fast = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, room))
        let checked = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, room))
        defer {
          fast.deallocate()
          checked.deallocate()
        }
        for escapeSlash in [false, true] {
          let fastEnd = _writeEscapedWellFormedContent(bytes, to: fast, escapeSlash: escapeSlash)
          let checkedEnd = _writeEscapedJSONStringContent(
            bytes, to: checked, escapeUnicode: false, escapeSlash: escapeSlash)!
          #expect(
            Array(UnsafeBufferPointer(start: fast, count: fastEnd - fast))
              == Array(UnsafeBufferPointer(start: checked, count: checkedEnd - checked)))
        }
      }
    }
  }
}
