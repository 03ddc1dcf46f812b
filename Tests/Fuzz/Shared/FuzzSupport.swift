// Helpers every fuzz target shares (Tests/Fuzz/run.sh compiles this folder into each).

import JSONStream

/// `precondition`, but with its message in optimized builds too.
func fuzzCheck(
  _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
  line: UInt = #line
) {
  if !condition { fatalError(message(), file: file, line: line) }
}

/// The parse options of a header byte, bit 0…7: allowComments, allowTrailingText,
/// allowMultipleValues, looseUnicode, replaceUnpairedSurrogates, allowUnicodeNewlines,
/// allowTrailingCommas, allowNonFiniteNumbers.
func fuzzParseOptions(_ byte: UInt8) -> JSONParseOptions {
  func bit(_ n: UInt8) -> Bool { byte >> n & 1 == 1 }
  var options = JSONParseOptions()
  options.allowComments = bit(0)
  options.allowTrailingText = bit(1)
  options.allowMultipleValues = bit(2)
  options.looseUnicode = bit(3)
  options.replaceUnpairedSurrogates = bit(4)
  options.allowUnicodeNewlines = bit(5)
  options.allowTrailingCommas = bit(6)
  options.allowNonFiniteNumbers = bit(7)
  return options
}

/// Calls `body` with `count` bytes of `input` from `start`, copied into an allocation of
/// exactly that size that is freed right after: AddressSanitizer then catches any read past
/// the chunk, or of it once it is gone.
func fuzzWithCopy<R>(
  _ input: UnsafeBufferPointer<UInt8>, start: Int, count: Int,
  _ body: (UnsafeRawBufferPointer) throws -> R
) rethrows -> R {
  let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
  defer { chunk.deallocate() }
  chunk.copyMemory(
    from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[start..<start + count])))
  return try body(UnsafeRawBufferPointer(chunk))
}

/// Calls `feed` with `input` whole (`chunk` 0), or in chunks of `chunk` bytes each copied
/// into an allocation of its own, freed right after (see `fuzzWithCopy`).
func fuzzFeed(
  _ input: UnsafeBufferPointer<UInt8>, chunk: Int, _ feed: (UnsafeRawBufferPointer) throws -> Void
) rethrows {
  if chunk == 0 {
    try feed(UnsafeRawBufferPointer(input))
    return
  }
  var start = 0
  while start < input.count {
    let count = min(chunk, input.count - start)
    try fuzzWithCopy(input, start: start, count: count, feed)
    start += count
  }
}
