// libFuzzer target for the tree: JSONTreeBuilder, JSONValue's views and one-pass writing. Build
// and run it with `Tests/Fuzz/run.sh tree SECONDS`.
//
// Built against the library's modules, imported `@testable` for their internal API, with
// `-parse-as-library` so that this file defines no `main` of its own: libFuzzer supplies it.
//
// Input layout: two header bytes, then the JSON text.
//
//   byte 0, bit 0…7  allowComments, allowTrailingText, allowMultipleValues, looseUnicode,
//                    replaceUnpairedSurrogates, allowUnicodeNewlines, allowTrailingCommas,
//                    allowNonFiniteNumbers
//   byte 1, bit 0…1  duplicate keys: last wins, first wins, error, error
//           bit 2…3  chunking: whole, 1 byte, 7 bytes, 61 bytes (each chunk its own allocation)
//           bit 4    write pretty
//           bit 5    write with escapeUnicode and escapeSlash
//
// Checked, with `fatalError` on a violation:
// - chunked and whole-buffer parses give equal values, or both fail;
// - writing a value in one pass gives the bytes its event replay into a writer gives, as JSON
//   and as binary;
// - the written text parses back to an equal value (when it holds no NaN, which equals nothing);
// - with duplicate keys refused, the values written one per line are the bytes the input
//   streamed straight through a writer gives;
// - every member of every object is found by its key (at its own position when keys are
//   unique), every element by its index;
// - a value with containers changed in place (a child set to itself through a JSON Pointer,
//   which turns every container on the way into Swift values) writes the same bytes, as JSON
//   and as binary, and replays the same events.
//
// Snapshots of incomplete documents have a target of their own (Tests/Fuzz/Snapshot).

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTreeTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let byte0 = data[0]
  let byte1 = data[1]
  func bit(_ byte: UInt8, _ n: UInt8) -> Bool { byte >> n & 1 == 1 }
  let options = fuzzParseOptions(byte0)
  let policy: JSONDuplicateKeyPolicy = [.lastWins, .firstWins, .error, .error][Int(byte1 & 3)]
  let chunk = [0, 1, 7, 61][Int(byte1 >> 2 & 3)]
  var writeOptions: JSONWriteOptions = bit(byte1, 4) ? .pretty : .compact
  writeOptions.escapeUnicode = bit(byte1, 5)
  writeOptions.escapeSlash = bit(byte1, 5)
  writeOptions.allowNonFiniteNumbers = options.allowNonFiniteNumbers
  let input = UnsafeBufferPointer(start: data + 2, count: size - 2)

  let whole = try? treeParse(input, options, policy, chunk: 0)
  let chunked = try? treeParse(input, options, policy, chunk: chunk)
  fuzzCheck((whole == nil) == (chunked == nil), "whole and chunked parses disagree on failing")
  guard let whole, let chunked else { return 0 }
  fuzzCheck(whole == chunked || options.allowNonFiniteNumbers, "chunked parse differs")

  var written: [UInt8] = []
  for value in chunked {
    let direct = try? value.jsonBytes(options: writeOptions)
    var writer = JSONWriter(options: writeOptions)
    let replayed: [UInt8]? = (try? value.replay(into: &writer)).flatMap {
      (try? writer.finish()).map { writer.bytes }
    }
    fuzzCheck(direct == replayed, "one-pass writing differs from replay")
    var binaryWriter = JSONBinaryWriter()
    let binaryReplayed: [UInt8]? = (try? value.replay(into: &binaryWriter)).flatMap {
      (try? binaryWriter.finish()).map { binaryWriter.bytes }
    }
    fuzzCheck(
      binaryReplayed != nil && (try? value.binaryBytes()) == binaryReplayed,
      "one-pass binary writing differs from replay")
    guard let direct else { return 0 }
    if !written.isEmpty { written.append(0x0A) }
    written.append(contentsOf: direct)
    var reread = JSONParseOptions()
    reread.allowNonFiniteNumbers = options.allowNonFiniteNumbers
    guard let back = try? JSONValue(parsing: direct, options: reread, duplicateKeys: .error) else {
      fatalError("written text does not parse back")
    }
    fuzzCheck(back == value || options.allowNonFiniteNumbers, "written text reads back different")
    // Every policy leaves each key once in an object.
    treeCheckAccess(value, uniqueKeys: true)
    treeCheckEdits(value, writeOptions, json: direct)
  }
  if policy == .error {
    var streamingOptions = writeOptions
    streamingOptions.allowMultipleValues = true
    var parser = JSONParser(handler: JSONWriter(options: streamingOptions), options: options)
    if (try? parser.feed(input)) != nil, (try? parser.finish()) != nil,
      (try? parser.handler.finish()) != nil
    {
      fuzzCheck(parser.handler.bytes == written, "tree writing differs from streaming")
    }
  }
  return 0
}

/// Parses `input` into values, fed whole or in chunks each copied into its own allocation
/// (freed right after its `feed`, so AddressSanitizer sees any later read of it).
private func treeParse(
  _ input: UnsafeBufferPointer<UInt8>, _ options: JSONParseOptions,
  _ policy: JSONDuplicateKeyPolicy, chunk: Int
) throws -> [JSONValue] {
  var parser = JSONParser(handler: JSONTreeBuilder(duplicateKeyPolicy: policy), options: options)
  try fuzzFeed(input, chunk: chunk) { _ = try parser.feed($0) }
  try parser.finish()
  return parser.handler.values
}

/// Every member found by its key, every element by its index, walked without recursion.
private func treeCheckAccess(_ root: JSONValue, uniqueKeys: Bool) {
  var pending = [root]
  while let value = pending.popLast() {
    switch value {
    case .array(let array):
      for (index, element) in array.enumerated() {
        // Compared as text: NaN equals nothing, itself included.
        fuzzCheck(
          value[index]?.description == element.description, "element \(index) not found by index")
        pending.append(element)
      }
      fuzzCheck(value[array.count] == nil, "an element past the end")
    case .object(let object):
      for (position, member) in object.enumerated() {
        guard let found = object.index(forKey: member.key) else {
          fatalError("key \(member.key) not found")
        }
        fuzzCheck(!uniqueKeys || found == position, "key \(member.key) found elsewhere")
        fuzzCheck(object[found].key == member.key, "key \(member.key) found at another key")
        pending.append(member.value)
      }
    default: break
    }
  }
}

/// Sets up to 16 children to themselves, each through a JSON Pointer on a fresh copy, and
/// checks that the changed value writes the bytes the parsed one does: untouched members,
/// number text included, are written back as they were.
private func treeCheckEdits(_ root: JSONValue, _ options: JSONWriteOptions, json: [UInt8]) {
  let binary = try? root.binaryBytes()
  var pending: [(JSONValue, JSONPointer)] = [(root, JSONPointer(tokens: []))]
  var edits = 0
  while let (value, pointer) = pending.popLast(), edits < 16 {
    var children: [(JSONValue, JSONPointer)] = []
    switch value {
    case .array(let array):
      for (index, element) in array.enumerated() {
        children.append((element, pointer.appending(String(index))))
      }
    case .object(let object):
      for (key, member) in object { children.append((member, pointer.appending(key))) }
    default: continue
    }
    // The child read through the pointer, which keeps a number's text (`-0`); the
    // subscripts give its value alone.
    guard let childPointer = children.last?.1, let child = root.value(at: childPointer) else {
      continue
    }
    var edited = root
    do {
      try edited.set(child, at: childPointer)
    } catch {
      fatalError("setting \(childPointer) to itself failed: \(error)")
    }
    edits += 1
    fuzzCheck((try? edited.jsonBytes(options: options)) == json, "an edit changed other bytes")
    fuzzCheck((try? edited.binaryBytes()) == binary, "an edit changed other binary bytes")
    pending.append(contentsOf: children)
  }
}
