import Foundation
import JSONStream
import JSONStreamFoundation

// Side-by-side figures for the consumers: each operation of ours is timed in the same run as
// the matching Foundation operation on the same bytes. Medians of repeated runs after warm-up.

struct NoOp: JSONEventHandler {}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 15
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count {
  runs = Int(arguments[index + 1]) ?? runs
  arguments.removeSubrange(index...(index + 1))
}
var only: String?
if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
  // Repeats one of our operations for a profiler: --profile minify|tree|write FILE
  only = arguments[index + 1]
  arguments.removeSubrange(index...(index + 1))
}
let corpus = URL(
  fileURLWithPath: arguments.first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpus").path)
let harness = Harness(runs: runs)

if let only {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments.last!)))
  let value = try JSONValue(parsing: bytes)
  for _ in 0..<200 {
    switch only {
    case "minify":
      var writer = try JSONParser.parse(bytes, handler: JSONWriter())
      try writer.finish()
      blackHole(writer.bytes)
    case "tree": blackHole(try JSONValue(parsing: bytes))
    default: blackHole(try value.jsonBytes())
    }
  }
  exit(0)
}

print("corpus: \(corpus.path), \(runs) timed runs per figure (median), 3 warm-up runs")
print(Row.header())
for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
  let data = try Data(contentsOf: corpus.appendingPathComponent(name))
  let bytes = [UInt8](data)
  var rows: [Row] = []

  // Tokenize: the parser alone, every event ignored.
  rows.append(
    Row(
      operation: "tokenize (no-op handler)", file: name, bytes: bytes.count,
      ours: try harness.median { blackHole(try JSONParser.parse(bytes, handler: NoOp())) }))

  // Tree building: JSONValue vs JSONSerialization's Foundation tree.
  let foundationParse = try harness.median {
    blackHole(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }
  rows.append(
    Row(
      operation: "tree build (JSONValue)", file: name, bytes: bytes.count,
      ours: try harness.median { blackHole(try JSONValue(parsing: bytes)) },
      peerName: "JSONSerialization.jsonObject", peer: foundationParse))

  // Foundation containers: ours vs JSONSerialization's (equal trees, see the tests).
  rows.append(
    Row(
      operation: "Foundation containers", file: name, bytes: bytes.count,
      ours: try harness.median { blackHole(try JSONFoundation.object(with: data)) },
      peerName: "JSONSerialization.jsonObject", peer: foundationParse))
  rows.append(
    Row(
      operation: "Foundation mutable containers", file: name, bytes: bytes.count,
      ours: try harness.median {
        blackHole(
          try JSONFoundation.object(with: data, options: [.mutableContainers, .mutableLeaves]))
      },
      peerName: ".mutableContainers+Leaves",
      peer: try harness.median {
        blackHole(
          try JSONSerialization.jsonObject(
            with: data, options: [.mutableContainers, .mutableLeaves]))
      }))

  // What the key cache saves: a builder reused across documents, with and without it.
  var cached = JSONTreeBuilder()
  var uncached = JSONTreeBuilder(cachesKeys: false)
  rows.append(
    Row(
      operation: "tree build, reused builder", file: name, bytes: bytes.count,
      ours: try harness.median {
        cached.reset()
        cached = try JSONParser.parse(bytes, handler: cached)
        blackHole(cached.value)
      },
      peerName: "same, key cache off",
      peer: try harness.median {
        uncached.reset()
        uncached = try JSONParser.parse(bytes, handler: uncached)
        blackHole(uncached.value)
      }))

  // Minify: parser → compact writer vs parse + serialize with Foundation.
  rows.append(
    Row(
      operation: "minify (parse → write)", file: name, bytes: bytes.count,
      ours: try harness.median {
        var writer = try JSONParser.parse(bytes, handler: JSONWriter())
        try writer.finish()
        blackHole(writer.bytes)
      },
      peerName: "JSONSerialization read+write",
      peer: try harness.median {
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        blackHole(try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))
      }))

  // Writing from a tree: JSONValue → compact bytes vs Foundation tree → data.
  let value = try JSONValue(parsing: bytes)
  let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
  rows.append(
    Row(
      operation: "write compact from tree", file: name, bytes: bytes.count,
      ours: try harness.median { blackHole(try value.jsonBytes()) },
      peerName: "JSONSerialization.data",
      peer: try harness.median {
        blackHole(try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))
      }))
  rows.append(
    Row(
      operation: "write Foundation tree", file: name, bytes: bytes.count,
      ours: try harness.median { blackHole(try JSONFoundation.bytes(withJSONObject: object)) },
      peerName: "JSONSerialization.data",
      peer: try harness.median {
        blackHole(try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]))
      }))
  rows.append(
    Row(
      operation: "write pretty from tree", file: name, bytes: bytes.count,
      ours: try harness.median { blackHole(try value.jsonBytes(options: .pretty)) },
      peerName: "JSONSerialization .prettyPrinted",
      peer: try harness.median {
        blackHole(
          try JSONSerialization.data(
            withJSONObject: object, options: [.fragmentsAllowed, .prettyPrinted]))
      }))

  for row in rows { print(row.line) }
}

// The key cache on keys long enough to be heap-allocated Strings: 20,000 records with the
// same six 20-to-30-byte keys.
var records: [String] = []
for i in 0..<20_000 {
  records.append(
    #"{"customer_identifier_key":\#(i),"shipping_address_line_one":"x","billing_address_line_one":"y","#
      + #""order_placed_timestamp_utc":1,"payment_method_description":"card","loyalty_program_member":true}"#
  )
}
let longKeys = Array(("[" + records.joined(separator: ",") + "]").utf8)
var cachedLong = JSONTreeBuilder()
var uncachedLong = JSONTreeBuilder(cachesKeys: false)
print(
  Row(
    operation: "tree build, reused builder", file: "long keys (synthetic)", bytes: longKeys.count,
    ours: try harness.median {
      cachedLong.reset()
      cachedLong = try JSONParser.parse(longKeys, handler: cachedLong)
      blackHole(cachedLong.value)
    },
    peerName: "same, key cache off",
    peer: try harness.median {
      uncachedLong.reset()
      uncachedLong = try JSONParser.parse(longKeys, handler: uncachedLong)
      blackHole(uncachedLong.value)
    }
  ).line)
