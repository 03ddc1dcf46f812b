// libFuzzer target for JSONPath: the query parser, and the streamed selection against the
// tree's. Build and run it with `Tests/Fuzz/run.sh path SECONDS`.
//
// Input layout: two header bytes, then the input.
//
//   byte 0           the query: one of `queries` (byte 0 modulo their count), or, when bit 7
//                    is set, the input's text up to its first line break (the rest is the
//                    document)
//   byte 1, bit 0…1  chunking: whole, 1 byte, 7 bytes, 61 bytes (each chunk its own allocation)
//
// Checked, with `fatalError` on a violation:
// - any query text compiles or throws a `JSONPathError` at an offset inside it; a compiled
//   query's normalized description compiles to the same query;
// - on a document without repeated keys, the select filter and the item streamer, at the
//   chunking, give the tree evaluation's values and normalized paths: in the same order, or,
//   with a descendant segment, the same ones in some order;
// - on any input, both consumers fail exactly when the parser does.

@testable import JSONStream
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue

let queries = [
  "$[*]", "$..*", "$..[0]", "$[-1]", "$[1:-1:2]", "$[::-1]", "$[?@.a]", "$..[?@ > 1]",
  "$[?@.a == 'x' || length(@) > 2]", "$['a','b',0,-1]", "$..a", "$.a..b[*]", "$[0,0,-2:]",
  "$..[?match(@, '[a-z]+')]", "$[?count(@.*) >= 2].*", "$..['a'][1:]",
  // Projected filters: members read by name, then names, indexes and wildcards.
  "$[?@.a > 1].b", "$[?@.a.b == 'x' && !@.c][0]", "$..x[?@.y].z", "$[?match(@.a, 'a.*')].*",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPathTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let byte0 = data[0]
  let chunk = [0, 1, 7, 61][Int(data[1] & 3)]
  var input = UnsafeBufferPointer(start: data + 2, count: size - 2)
  let text: String
  if byte0 & 0x80 != 0 {
    guard let newline = input.firstIndex(of: 0x0A) else { return 0 }
    text = String(decoding: input[..<newline], as: UTF8.self)
    input = UnsafeBufferPointer(rebasing: input[(newline + 1)...])
  } else {
    text = queries[Int(byte0) % queries.count]
  }
  let path: JSONPath
  do {
    path = try JSONPath(text)
  } catch let error as JSONPathError {
    fuzzCheck(error.offset >= 0 && error.offset <= text.utf8.count, "offset outside the query")
    return 0
  } catch {
    fatalError("JSONPath threw \(error)")
  }
  let reread = try? JSONPathQuery(path.query.description)
  fuzzCheck(reread == path.query, "\(text): normalized \(path.query) reads back differently")
  guard path.isStreamable else { return 0 }

  var strict = JSONParser(handler: JSONTreeBuilder(duplicateKeyPolicy: .error))
  let document: JSONValue? = {
    do {
      try fuzzFeed(input, chunk: 0) { try strict.feed($0) }
      try strict.finish()
      return strict.handler.value
    } catch {
      return nil
    }
  }()
  var parser = JSONParser(handler: EmptyHandler())
  var valid = true
  do {
    try fuzzFeed(input, chunk: 0) { try parser.feed($0) }
    try parser.finish()
  } catch {
    valid = false
  }

  let streamed = selectStreamed(path, input, chunk: chunk)
  let items = itemsStreamed(path, input, chunk: chunk)
  fuzzCheck((streamed != nil) == valid, "\(text): the select filter and the parser disagree")
  fuzzCheck((items != nil) == valid, "\(text): the item streamer and the parser disagree")
  guard let document, let streamed, let items else { return 0 }
  let expected = path.selectWithPaths(in: document)
  let ordered = !path.query.segments.contains(where: \.isDescendant)
  for (name, found) in [("select filter", streamed), ("item streamer", items)] {
    fuzzCheck(
      same(found, expected, ordered: ordered),
      "\(text), \(name), chunks of \(chunk): \(found.map(\.0)) where the tree gives "
        + "\(expected.map(\.path))")
  }
  return 0
}

struct EmptyHandler: JSONEventHandler {
  mutating func startObject() {}
  mutating func endObject() {}
  mutating func startArray() {}
  mutating func endArray() {}
  mutating func key(_ key: borrowing JSONString) {}
  mutating func string(_ value: borrowing JSONString) {}
  mutating func number(_ value: borrowing JSONNumber) {}
  mutating func bool(_ value: Bool) {}
  mutating func null() {}
}

/// Values equal as the tree sees them: NaN cannot occur (strict parsing), -0 and 0 differ in
/// text only.
func same(
  _ found: [(String, JSONValue)], _ expected: [(path: String, value: JSONValue)], ordered: Bool
) -> Bool {
  guard found.count == expected.count else { return false }
  var left = found.map { ($0.0, $0.1) }
  var right = expected.map { ($0.path, $0.value) }
  if !ordered {
    left.sort { $0.0 < $1.0 }
    right.sort { $0.0 < $1.0 }
  }
  return left.map(\.0) == right.map(\.0) && left.map(\.1) == right.map(\.1)
}

final class Found {
  var paths: [String] = []
}

func selectStreamed(_ path: JSONPath, _ input: UnsafeBufferPointer<UInt8>, chunk: Int)
  -> [(String, JSONValue)]?
{
  let found = Found()
  var parser = JSONParser(
    handler: JSONSelectFilter(paths: [path], downstream: JSONTreeBuilder(), reportsPaths: true) {
      found.paths.append($0.normalizedPath ?? "?")
    })
  do {
    try fuzzFeed(input, chunk: chunk) { try parser.feed($0) }
    try parser.finish()
  } catch {
    return nil
  }
  let values = parser.handler.downstream.values
  fuzzCheck(values.count == found.paths.count, "one onMatch per value")
  return Array(zip(found.paths, values))
}

func itemsStreamed(_ path: JSONPath, _ input: UnsafeBufferPointer<UInt8>, chunk: Int)
  -> [(String, JSONValue)]?
{
  var parser = JSONParser(handler: JSONItemStreamer(paths: [path], reportsPaths: true))
  do {
    try fuzzFeed(input, chunk: chunk) { try parser.feed($0) }
    try parser.finish()
  } catch {
    return nil
  }
  return parser.handler.takeItems().map { ($0.match.normalizedPath ?? "?", $0.value) }
}
