// libFuzzer target for snapshots of incomplete documents (`JSONParser.snapshot`, what follows
// an LLM's streamed tool-call arguments). Build and run it with
// `Tests/Fuzz/run.sh snapshot SECONDS`.
//
// Built against the library's modules, imported `@testable` for their internal API, with
// `-parse-as-library` so that this file defines no `main` of its own: libFuzzer supplies it.
//
// Input layout: two header bytes, then the JSON text, fed in chunks with a snapshot after
// each.
//
//   byte 0, bit 0…7  parse options, as fuzzParseOptions reads them
//   byte 1, bit 0…1  snapshots show: partial strings, also partial numbers, containers only,
//                    partial numbers only
//           bit 2…3  chunking: 1 byte, 3 bytes, 7 bytes, 1…16 bytes from a generator seeded
//                    by the header (each chunk its own allocation)
//           bit 4…5  duplicate keys: last wins, first wins, error, error
//
// Checked, with `fatalError` on a violation:
// - every snapshot equals the snapshot of a fresh parser fed the same prefix at once;
// - every snapshot writes valid JSON that reads back equal, and is unchanged by later input;
// - after the whole document the snapshot is the complete value;
// - the snapshot work (nodes and bytes built) stays linear in the input: at most a constant
//   per byte and per open container per snapshot, not the quadratic of re-parsing each prefix.
// Documents with non-finite numbers (NaN equals nothing) or several values are parsed and
// snapshotted, without the equality checks.

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshotTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let options = fuzzParseOptions(data[0])
  let byte1 = data[1]
  let including: JSONSnapshotOptions =
    [.partialStrings, [.partialStrings, .partialNumbers], [], .partialNumbers][Int(byte1 & 3)]
  let policy: JSONDuplicateKeyPolicy = [.lastWins, .firstWins, .error, .error][
    Int(byte1 >> 4 & 3)]
  let input = UnsafeBufferPointer(start: data + 2, count: size - 2)
  let check = !options.allowNonFiniteNumbers && !options.allowMultipleValues
  var sizes = SnapshotChunkSizes(mode: Int(byte1 >> 2 & 3), seed: UInt64(data[0]) << 8 | 0x5EED)

  var parser = JSONParser(handler: JSONTreeBuilder(duplicateKeyPolicy: policy), options: options)
  // Snapshots taken, with their text when taken (the first 64, to bound the work).
  var taken: [(JSONValue, [UInt8])] = []
  // Bytes fed to fresh parsers so far (at most about 64 KiB, to bound the work).
  var freshBytes = 0
  var snapshots = 0
  var maxDepth = 0
  var depth = 0
  var start = 0
  while start < input.count {
    let count = min(sizes.next(), input.count - start)
    // Open containers after this chunk, as far as the bytes tell (strings aside, an upper
    // bound is enough): for the work bound.
    for byte in input[start..<start + count] {
      if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
      maxDepth = max(maxDepth, depth)
    }
    guard (try? fuzzWithCopy(input, start: start, count: count) { try parser.feed($0) }) != nil
    else { return 0 }
    start += count
    let value = parser.snapshot(including: including)
    snapshots += 1
    guard check else { continue }
    if freshBytes < 1 << 16 {
      // A parser fed the same prefix at once, sharing nothing with earlier snapshots, shows
      // the same.
      freshBytes += start
      var fresh = JSONParser(
        handler: JSONTreeBuilder(duplicateKeyPolicy: policy), options: options)
      guard
        (try? fresh.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[..<start]))))
          != nil
      else {
        fatalError("a prefix fed at once fails")
      }
      fuzzCheck(
        fresh.snapshot(including: including) == value, "a snapshot differs from a fresh one")
    }
    guard let value, taken.count < 64 else { continue }
    guard let text = try? value.jsonBytes() else { fatalError("a snapshot does not write") }
    guard let back = try? JSONValue(parsing: text) else {
      fatalError("a snapshot's text does not parse: \(String(decoding: text, as: UTF8.self))")
    }
    fuzzCheck(back == value, "a snapshot reads back different")
    taken.append((value, text))
  }
  guard (try? parser.finish()) != nil else { return 0 }
  fuzzCheck(
    parser.handler._snapshotWork <= 8 * input.count + 8 * snapshots * (maxDepth + 2),
    "snapshot work \(parser.handler._snapshotWork) for \(input.count) bytes, \(snapshots) "
      + "snapshots, depth \(maxDepth)")
  guard check else { return 0 }
  for (value, text) in taken {
    fuzzCheck((try? value.jsonBytes()) == text, "a snapshot changed")
  }
  if let value = parser.handler.values.first {
    fuzzCheck(parser.snapshot(including: including) == value, "the last snapshot is not the value")
  }
  return 0
}

/// Chunk sizes: fixed, or 1…16 from a generator (splitmix64) seeded by the header.
private struct SnapshotChunkSizes {
  let mode: Int
  var state: UInt64

  init(mode: Int, seed: UInt64) {
    self.mode = mode
    state = seed
  }

  mutating func next() -> Int {
    guard mode == 3 else { return [1, 3, 7][mode] }
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % 16) + 1
  }
}
