// Small kernels over UTF-8 bytes shared by the parser and the writer. Each works on a pointer
// range it is given and never reads outside it.

import JSONStreamSIMD

/// A word whose byte high bits say whether `word` holds a `"`, a `\` or a byte below 0x20:
/// the classic "has a zero byte" and "has a byte below n" tests. Exact about whether any byte
/// qualifies (also with bytes from 0x80 present: the `& ~word` terms mask those) and about the
/// lowest one that does: a borrow starts only at a qualifying byte and runs upwards, so false
/// flags appear only above a true one.
@inlinable @inline(__always)
func _escapeBytesMask(_ word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let quote = word ^ (ones &* UInt64(UInt8._quote))
  let backslash = word ^ (ones &* UInt64(UInt8._backslash))
  return ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
    | ((word &- (ones &* 0x20)) & ~word)
}

/// Skips spaces (0x20 only): indentation, most of a pretty-printed file. Sixteen at a time
/// where the CPU compares vectors (JSONStreamSIMD), else a word at a time.
@inlinable @inline(__always)
package func _skipSpaceRun(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
  -> UnsafePointer<UInt8>
{
  if jsonstream_simd_has_blocks() != 0 { return unsafe jsonstream_skip_spaces_blocks(start, end) }
  return unsafe _skipSpaceRunByWords(start, end)
}

/// `_skipSpaceRun` without vectors: eight at a time while eight remain, and the run's end
/// inside a word from its first byte that is not a space (little-endian order puts the first
/// byte lowest), not from a byte loop.
@inlinable @inline(__always)
package func _skipSpaceRunByWords(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
  -> UnsafePointer<UInt8>
{
  var p = unsafe start
  while unsafe end - p >= 8 {
    let others =
      unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
      ^ 0x2020_2020_2020_2020
    if others != 0 { return unsafe p + (others.trailingZeroBitCount &>> 3) }
    unsafe p += 8
  }
  while unsafe p < end && p.pointee == ._space { unsafe p += 1 }
  return unsafe p
}

/// Skips bytes that need no attention inside a JSON string: ASCII from 0x20, except `"` and
/// `\`. Sixteen at a time where the CPU compares vectors (JSONStreamSIMD), else a word at a
/// time.
@inlinable @inline(__always)
package func _skipPlainStringBytes(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
  -> UnsafePointer<UInt8>
{
  if jsonstream_simd_has_blocks() != 0 {
    return unsafe jsonstream_skip_plain_string_blocks(start, end)
  }
  return unsafe _skipPlainStringBytesByWords(start, end)
}

/// `_skipPlainStringBytes` without vectors: eight at a time while eight remain. A word is
/// clean when no byte is below 0x20, `"`, `\`, or 0x80 and up, and otherwise its lowest
/// flagged byte is the one that stops the run.
@inlinable @inline(__always)
package func _skipPlainStringBytesByWords(
  _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
) -> UnsafePointer<UInt8> {
  var p = unsafe start
  while unsafe end - p >= 8 {
    // Little-endian order puts the first byte lowest, where the mask is exact.
    let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
    // Bytes from 0x80 have their high bit set already.
    let flags = (_escapeBytesMask(word) | word) & 0x8080_8080_8080_8080
    if flags != 0 {
      return unsafe p + (flags.trailingZeroBitCount &>> 3)
    }
    unsafe p += 8
  }
  while unsafe p < end {
    let c = unsafe p.pointee
    if c < 0x20 || c == ._quote || c == ._backslash || c >= 0x80 { break }
    unsafe p += 1
  }
  return unsafe p
}

/// Skips bytes a JSON string literal may hold unescaped: everything but `"`, `\` and control
/// characters (below 0x20). For output of text already known to be well-formed UTF-8, so
/// bytes from 0x80 need no attention. Eight at a time while eight remain.
/// With `escapeSlash`, `/` stops it too.
@inlinable
func _skipUnescapedBytes(
  _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, escapeSlash: Bool = false
)
  -> UnsafePointer<UInt8>
{
  var p = unsafe start
  let ones: UInt64 = 0x0101_0101_0101_0101
  while unsafe end - p >= 8 {
    // Little-endian order puts the first byte lowest, where the mask is exact.
    let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
    var mask = _escapeBytesMask(word)
    if escapeSlash {
      let slash = word ^ (ones &* UInt64(UInt8._slash))
      mask |= (slash &- ones) & ~slash
    }
    let flags = mask & 0x8080_8080_8080_8080
    if flags != 0 { return unsafe p + (flags.trailingZeroBitCount &>> 3) }
    unsafe p += 8
  }
  while unsafe p < end {
    let c = unsafe p.pointee
    if c < 0x20 || c == ._quote || c == ._backslash || (escapeSlash && c == ._slash) { break }
    unsafe p += 1
  }
  return unsafe p
}

/// A `String` of `bytes`, which the caller knows to be well-formed UTF-8 (the parser checked
/// them, or `_isWellFormedUTF8` did): copied without `String(decoding:as:)`'s second
/// validation, a third of making a long non-ASCII string. A string over 15 bytes is told
/// whether the bytes are ASCII: without that, it hashes and compares through Unicode
/// normalization, four times slower (a shorter one is stored inline, and finds out itself).
/// `UTF8Span` is new in Swift 6.2 and its platforms' 2025 releases; elsewhere the bytes are
/// validated again. Never inlined: the callers, hot loops among them, keep their size.
@usableFromInline @inline(never)
package func _stringOfWellFormedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  #if compiler(>=6.2)
    if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
      let isASCII = unsafe bytes.count > 15 && _isASCII(bytes)
      return unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
    }
  #endif
  return unsafe String(decoding: bytes, as: UTF8.self)
}

/// Whether every byte is below 0x80, by words (see `_firstNonASCIIWord`).
@usableFromInline
package func _isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let start = bytes.baseAddress else { return true }
  guard bytes.count >= 8 else {
    var any: UInt8 = 0
    for index in 0..<bytes.count { any |= unsafe bytes[index] }
    return any < 0x80
  }
  return unsafe _firstNonASCIIWord(start, start + bytes.count) == nil
}

/// Where the ASCII at the start of `start..<end` (eight bytes or more) ends, eight bytes at a
/// time: nil when every byte is ASCII (the last eight overlapping the ones before), else the
/// start of the first word that holds a byte over 0x7F. `eachASCIIWord` sees every all-ASCII
/// word loaded, the overlapping last one included (`_checkUTF8` looks for escapes in them).
@inlinable @inline(__always)
package func _firstNonASCIIWord(
  _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
  eachASCIIWord: (UInt64) -> Void = { _ in }
) -> UnsafePointer<UInt8>? {
  var q = unsafe start
  while unsafe end - q > 8 {
    let word = unsafe UnsafeRawPointer(q).loadUnaligned(as: UInt64.self)
    if word & 0x8080_8080_8080_8080 != 0 { break }
    eachASCIIWord(word)
    unsafe q += 8
  }
  if unsafe end - q <= 8 {
    let word = unsafe UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self)
    if word & 0x8080_8080_8080_8080 == 0 {
      eachASCIIWord(word)
      return nil
    }
  }
  return unsafe q
}

/// Whether `bytes` are well-formed UTF-8: ASCII eight bytes at a time, each other character
/// checked whole. An all-ASCII string (most keys and values) is first seen as such in one
/// pass of word loads, the last one overlapping, without the byte loop for its tail.
@usableFromInline
package func _isWellFormedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  unsafe _checkUTF8(bytes, findingEscapes: false) != .illFormed
}

/// What `_checkUTF8` found in a string's bytes.
@usableFromInline
package enum _UTF8Check: UInt8 {
  /// Not well-formed UTF-8.
  case illFormed
  /// Well-formed; as JSON string content, they hold a `"`, `\` or control character, or
  /// that was not looked for.
  case wellFormed
  /// Well-formed, and as JSON string content they need no escaping (a writer copies them).
  case needsNoEscaping
}

/// Whether `bytes` are well-formed UTF-8 (as `_isWellFormedUTF8`) and whether, as JSON string
/// content, they need no escaping: one pass over the bytes for both, the escape test folded
/// into the ASCII words the check loads anyway.
@usableFromInline
package func _checkUTF8ForJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> _UTF8Check {
  unsafe _checkUTF8(bytes, findingEscapes: true)
}

/// A word whose byte high bits are set where an ASCII byte (each of `word`'s bytes must be
/// below 0x80) needs no escaping in JSON: from 0x20, not `"`, not `\`. With bytes below 0x80
/// each sum below stays within its byte (no carries), so every byte is exact; cheaper than
/// `_escapeBytesMask`, which also allows bytes from 0x80.
@inline(__always)
func _plainASCIIBytesMask(_ word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let notQuote = (word ^ (ones &* UInt64(UInt8._quote))) &+ ones &* 0x7F
  let notBackslash = (word ^ (ones &* UInt64(UInt8._backslash))) &+ ones &* 0x7F
  let notControl = word &+ ones &* (0x80 - 0x20)
  return notQuote & notBackslash & notControl
}

/// The two checks above; `findingEscapes` is a constant in each, so each gets its own loop.
@inline(__always)
func _checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, findingEscapes: Bool) -> _UTF8Check {
  let found: _UTF8Check = findingEscapes ? .needsNoEscaping : .wellFormed
  guard var p = bytes.baseAddress else { return found }
  let end = unsafe p + bytes.count
  // High bits cleared where an ASCII byte needs escaping (see `_plainASCIIBytesMask`).
  var plain: UInt64 = 0x8080_8080_8080_8080
  @inline(__always) func verdict() -> _UTF8Check {
    plain & 0x8080_8080_8080_8080 == 0x8080_8080_8080_8080 ? found : .wellFormed
  }
  if bytes.count >= 8 {
    // Up to the first word with a non-ASCII byte; the checks below start there, not over
    // again from the first byte (long non-ASCII text went through its ASCII start twice).
    // (The escape test looks at every byte alike, so the words' byte order does not matter.)
    guard
      let q = unsafe _firstNonASCIIWord(
        p, end, eachASCIIWord: { if findingEscapes { plain &= _plainASCIIBytesMask($0) } })
    else { return verdict() }
    unsafe p = unsafe q
  } else if bytes.count >= 4 {
    // Four to seven bytes (most keys) as one word of two overlapping halves.
    let first = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt32.self).littleEndian
    let last = unsafe UnsafeRawPointer(end - 4).loadUnaligned(as: UInt32.self).littleEndian
    let word = UInt64(first) | UInt64(last) &<< 32
    if word & 0x8080_8080_8080_8080 == 0 {
      if findingEscapes { plain &= _plainASCIIBytesMask(word) }
      return verdict()
    }
  }
  while unsafe p < end {
    if unsafe end - p >= 8,
      case let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian,
      word & 0x8080_8080_8080_8080 == 0
    {
      if findingEscapes { plain &= _plainASCIIBytesMask(word) }
      unsafe p += 8
    } else if case let c = unsafe p.pointee, c < 0x80 {
      if findingEscapes { plain &= _plainASCIIBytesMask(UInt64(c) &* 0x0101_0101_0101_0101) }
      unsafe p += 1
    } else {
      let run = unsafe _skipWellFormedCharacters(p, end)
      if unsafe run.end == p { return .illFormed }
      unsafe p = unsafe run.end
    }
  }
  return verdict()
}

/// The length (2…4) of the well-formed UTF-8 character at `p` when it lies entirely before
/// `end`; 0 when it is ill-formed or cut off by `end` (callers then take the careful path).
@usableFromInline @_transparent
func _wellFormedCharacterLength(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int {
  let available = unsafe end - p
  if available >= 4 {
    // Four bytes as one little-endian word (the lead byte lowest): each form's bit pattern is
    // one mask and compare, its range one more. About half the instructions of the byte
    // compares below, on text that is mostly such characters.
    let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt32.self).littleEndian
    if word & 0x00C0_C0F0 == 0x0080_80E0 {
      // 1110xxxx 10xxxxxx 10xxxxxx. The lead's low four bits with the second byte's 0x20
      // bit are 0 for an overlong form (E0 80…9F) and 0x200D for a surrogate (ED A0…BF).
      let bits = word & 0x200F
      return bits != 0 && bits != 0x200D ? 3 : 0
    }
    if word & 0xC0E0 == 0x80C0 {
      // 110xxxxx 10xxxxxx, not C0 or C1 (overlong).
      return word & 0x1E != 0 ? 2 : 0
    }
    if word & 0xC0C0_C0F8 == 0x8080_80F0 {
      // 11110xxx and three continuations: the scalar's top nine bits, 0x10…0x10F for
      // U+10000…U+10FFFF.
      let top = (word & 0x07) << 6 | (word >> 8) & 0x3F
      return top >= 0x10 && top <= 0x10F ? 4 : 0
    }
    return 0
  }
  let c = unsafe p[0]
  @inline(__always) func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
  if c < 0xE0 {
    guard c >= 0xC2, available >= 2, unsafe isContinuation(p[1]) else { return 0 }
    return 2
  }
  if c < 0xF0 {
    guard available >= 3 else { return 0 }
    let c1 = unsafe p[1]
    let low: UInt8 = c == 0xE0 ? 0xA0 : 0x80
    let high: UInt8 = c == 0xED ? 0x9F : 0xBF
    guard c1 >= low, c1 <= high, unsafe isContinuation(p[2]) else { return 0 }
    return 3
  }
  guard c <= 0xF4, available >= 4 else { return 0 }
  let c1 = unsafe p[1]
  let low: UInt8 = c == 0xF0 ? 0x90 : 0x80
  let high: UInt8 = c == 0xF4 ? 0x8F : 0xBF
  guard c1 >= low, c1 <= high, unsafe isContinuation(p[2]), unsafe isContinuation(p[3]) else {
    return 0
  }
  return 4
}

/// Past a run of well-formed multi-byte characters from `start` that lie wholly before `end`:
/// where the run stops (at ASCII, at an ill-formed or cut-off character, or at `end`; `start`
/// when it is none of these) and how many continuation bytes it holds (columns count
/// characters). Text in most scripts but Latin is such runs, so its characters are checked in
/// this loop, not one per trip through a string scanner's loop.
@inlinable @inline(__always)
package func _skipWellFormedCharacters(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
  -> (end: UnsafePointer<UInt8>, continuationBytes: Int)
{
  var p = unsafe start
  var continuationBytes = 0
  while unsafe p < end && p.pointee >= 0x80 {
    if unsafe end - p >= 8 {
      // Two three-byte characters (CJK text is mostly such pairs) checked in one word, as
      // `_wellFormedCharacterLength` checks one: their bit patterns with one mask and compare,
      // then each one's overlong and surrogate test. 9.5 instructions a character, not 19.
      let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
      if word & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 {
        let first = word & 0x200F
        let second = word & 0x20_0F00_0000
        if first != 0 && first != 0x200D && second != 0 && second != 0x20_0D00_0000 {
          continuationBytes &+= 4
          unsafe p += 6
          continue
        }
      }
    }
    let length = unsafe _wellFormedCharacterLength(p, end)
    if length == 0 { break }
    continuationBytes &+= length &- 1
    unsafe p += length
  }
  return unsafe (p, continuationBytes)
}

/// Whether the eight bytes of `word` (little-endian load) are all ASCII digits.
@inlinable @inline(__always)
func _isEightDigits(_ word: UInt64) -> Bool {
  ((word & 0xF0F0_F0F0_F0F0_F0F0)
    | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)) == 0x3333_3333_3333_3333
}

/// The value of eight ASCII digits loaded little-endian (the first digit in the lowest byte),
/// with three multiplications instead of eight.
@inlinable @inline(__always)
func _eightDigitsValue(_ word: UInt64) -> UInt64 {
  var value = word &- 0x3030_3030_3030_3030
  value = (value &* 10) &+ (value >> 8)
  value =
    (((value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32)))
      &+ (((value >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32)))) >> 32
  return value & 0xFFFF_FFFF
}

/// The high bit of each byte of `word` that is not an ASCII digit. Exact for every byte: no
/// carry crosses bytes, so the lowest set bit marks the first non-digit.
@inlinable @inline(__always)
func _nonDigitBytesMask(_ word: UInt64) -> UInt64 {
  // Digits become 0…9; adding 0x76 carries 10 and up into the high bit, and bytes with the
  // high bit set after the XOR are not digits either (masked first, so nothing carries out).
  let offset = word ^ 0x3030_3030_3030_3030
  return (((offset & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | offset)
    & 0x8080_8080_8080_8080
}

/// Skips ASCII digits from `start`: eight at a time while eight remain, the word with the first
/// non-digit located by its mask, one by one in the last seven bytes.
@inlinable @inline(__always)
package func _skipDigits(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
  -> UnsafePointer<UInt8>
{
  var p = unsafe start
  while unsafe end - p >= 8 {
    let mask = unsafe _nonDigitBytesMask(
      UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian)
    if mask != 0 { return unsafe p + (mask.trailingZeroBitCount &>> 3) }
    unsafe p += 8
  }
  while unsafe p < end && p.pointee._isDigit { unsafe p += 1 }
  return unsafe p
}

/// The first `byte` from `start`, or `end`: eight bytes at a time while eight remain (a word
/// XORed with the byte in every lane has a zero byte exactly where it held the byte, and the
/// "has a zero byte" mask is exact for the lowest one), one by one in the last seven.
@inlinable @inline(__always)
package func _findByte(
  _ byte: UInt8, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
) -> UnsafePointer<UInt8> {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let pattern = ones &* UInt64(byte)
  var p = unsafe start
  while unsafe end - p >= 8 {
    let word = unsafe UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian ^ pattern
    let zeros = (word &- ones) & ~word & 0x8080_8080_8080_8080
    if zeros != 0 { return unsafe p + (zeros.trailingZeroBitCount &>> 3) }
    unsafe p += 8
  }
  while unsafe p < end && p.pointee != byte { unsafe p += 1 }
  return unsafe p
}

/// Copies `count` bytes that do not overlap. Tokens are mostly a few bytes long, where a call
/// to `memmove` costs more than the copy: up to 16 bytes are two loads and two stores (which
/// may overlap each other), and only longer runs call the library.
@inlinable @inline(__always)
package func _copyBytes(
  from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int
) {
  let from = unsafe UnsafeRawPointer(source)
  let to = UnsafeMutableRawPointer(destination)
  if count >= 8 {
    if count > 16 {
      unsafe destination.update(from: source, count: count)
      return
    }
    let head = unsafe from.loadUnaligned(as: UInt64.self)
    let tail = unsafe from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    unsafe to.storeBytes(of: head, as: UInt64.self)
    unsafe to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
  } else if count >= 4 {
    let head = unsafe from.loadUnaligned(as: UInt32.self)
    let tail = unsafe from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    unsafe to.storeBytes(of: head, as: UInt32.self)
    unsafe to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
  } else if count > 0 {
    // 1, 2 or 3 bytes: the first, the middle and the last cover them.
    unsafe destination[0] = unsafe source[0]
    unsafe destination[count &>> 1] = unsafe source[count &>> 1]
    unsafe destination[count &- 1] = unsafe source[count &- 1]
  }
}
