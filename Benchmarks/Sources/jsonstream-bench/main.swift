import Foundation
import JSONStream
import JSONStreamFoundation
import NumberBench

// Every operation of ours next to the matching peer operation, measured in the same run on
// the same bytes: medians of repeated runs after warm-up, MB/s of input JSON, and the
// project's target ratio where it has one.
//
//   jsonstream-bench [--runs N] [--corpus DIR] [--large-mb N] [--large PATH]
//   jsonstream-bench --smoke          every benchmark once on a small input (CI)
//   jsonstream-bench --only TEXT      only the operations whose name contains TEXT
//   jsonstream-bench --write-readme   everything, and each table written into
//                                     Benchmarks/README.md, dated, with the machine named
//   jsonstream-bench --machine        the line saying when and on what (for Benchmarks/cli.sh)
//   jsonstream-bench --only mutation --write-readme
//                                     the mutation figures, written into Benchmarks/README.md
//   jsonstream-bench --only codable --write-readme
//                                     Codable with strategies, written into Benchmarks/README.md
//   jsonstream-bench --only async --write-readme
//                                     the async adapters, written into Benchmarks/README.md

struct Ignore: JSONEventHandler {}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  defer { arguments.removeSubrange(index...(index + 1)) }
  return arguments[index + 1]
}

if let job = option("--stream-job") {
  try StreamJob.run(job, path: arguments[0])
  try String(StreamJob.peakResidentBytes()).write(
    toFile: arguments[1], atomically: true, encoding: .utf8)
  exit(0)
}

if arguments.contains("--machine") {
  print(Readme.measuredLine())
  exit(0)
}

if let megabytes = option("--generate") {
  // --generate MB PATH: only write the generated large file (for Benchmarks/cli.sh).
  guard let megabytes = Int(megabytes), let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: --generate MB PATH\n".utf8))
    exit(2)
  }
  try LargeFile.generate(at: path, targetBytes: megabytes << 20)
  exit(0)
}

if let operation = option("--profile") {
  // Repeats one of our operations on FILE for a profiler: --profile OPERATION FILE [N], where
  // OPERATION is tokenize, tokenize4k, doubles, tree, foundation, jsonserialization, write
  // (value.jsonBytes(), the one-pass JSON writer), binarybytes (value.binaryBytes(), the
  // one-pass binary writer), binarytree (JSONBinaryReader into a tree), binaryvalue
  // (JSONValue(binary:)), binarytojson (JSONBinaryReader into JSONWriter: the work of
  // `jsonstream convert --to json`), binarywrite or eventwrite (a tree's events into JSONBinaryWriter or
  // JSONWriter), transcode (JSONParser into JSONBinaryWriter), chainwrite / directwrite (JSON
  // text through a select filter, or not, into JSONWriter), chaintree (binarytree through a
  // path tracker), chainbinarywrite (binarywrite through a transform),
  // ndjson / ndjsonparallel (FILE's statuses as NDJSON lines, decoded on one core; the same
  // lines repeated to 16 MB, decoded on all cores),
  // shipmentlines / shipments (the Codable suite's records as NDJSON or one array, decoded),
  // encodeshipments / decodeshipments (the records, encoded or decoded with the default
  // strategies),
  // decode (JSONStreamDecoder) or jsondecoder (Foundation's) into FILE's model, decodebinary
  // (JSONStreamDecoder from the model's binary, encoded once beforehand), or encode
  // (JSONStreamEncoder), encodebinary (its binary format), encodevalue (a JSONValue, no text),
  // encodeparse (its text, parsed into a JSONValue) or jsonencoder (Foundation's) of that
  // model, decoded once beforehand;
  // asyncchunks / asyncbytes / asyncitembytes (FILE's events from 64 KiB chunks, or its
  // events or items from single bytes, through the async adapters), asyncdocumentbytes
  // (FILE's statuses as NDJSON lines, read as documents from single bytes), syncevents (the
  // parser's events from 64 KiB chunks, the async rows' peer);
  // the models are of twitter.json, citm_catalog.json and canada.json.
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[0])))
  let data = Data(bytes)
  let value = try JSONValue(parsing: bytes)
  let model = corpusModel(forFile: arguments[0])
  // The operations that start from a decoded model value (decodebinary encodes it first).
  let startsFromModelValue = [
    "encode", "encodebinary", "encodevalue", "encodeparse", "jsonencoder", "decodebinary",
  ]
  let usesModel = (["decode", "jsondecoder"] + startsFromModelValue).contains(operation)
  if usesModel, model == nil {
    FileHandle.standardError.write(
      Data("--profile \(operation): no model for \(arguments[0]); pass a corpus file\n".utf8))
    exit(2)
  }
  let modelValue: (any CorpusDocument)? =
    startsFromModelValue.contains(operation) ? try JSONDecoder().decode(model!, from: data) : nil
  // For decodebinary: the model in the binary format.
  let modelBinary =
    operation == "decodebinary" ? try JSONStreamEncoder().encodeBinary(modelValue!) : Data()
  // For ndjson: twitter.json's statuses, one per line.
  var lines: [UInt8] = []
  // For shipmentlines / shipments: the Codable suite's records, as NDJSON lines or one array,
  // ISO 8601 dates and snake_case keys (FILE is not read for these).
  let shipmentDecoder = JSONStreamDecoder()
  shipmentDecoder.dateDecodingStrategy = .iso8601
  shipmentDecoder.keyDecodingStrategy = .convertFromSnakeCase
  var shipmentText = Data()
  // For encodeshipments: the records, encoded with the default strategies.
  let shipmentRecords = operation == "encodeshipments" ? Shipment.generate(count: 2_000) : []
  let shipmentEncoder = JSONStreamEncoder()
  if operation == "decodeshipments" {
    shipmentText = try JSONEncoder().encode(Shipment.generate(count: 2_000))
  }
  if operation == "shipmentlines" || operation == "shipments" {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let records = Shipment.generate(count: 2_000)
    shipmentText =
      operation == "shipments"
      ? try encoder.encode(records)
      : Data(try records.map { try encoder.encode($0) }.joined(separator: [0x0A]))
  }
  if ["ndjson", "ndjsonparallel", "asyncdocumentbytes"].contains(operation) {
    repeat {
      for status in try JSONDecoder().decode(Twitter.self, from: data).statuses {
        lines += try JSONEncoder().encode(status) + [0x0A]
      }
    } while operation == "ndjsonparallel" && lines.count < 16 << 20
  }
  // For binarytree: the input in the binary format.
  var binaryOfInput: [UInt8] = []
  if ["binarytree", "binaryvalue", "binarytojson", "chaintree"].contains(operation) {
    var writer = JSONBinaryWriter()
    try value.replay(into: &writer)
    try writer.finish()
    binaryOfInput = writer.bytes
  }
  let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 300 : 300
  for _ in 0..<iterations {
    switch operation {
    case "binarytree":
      blackHole(try JSONBinaryReader.tree(binaryOfInput))
    case "binaryvalue":
      blackHole(try JSONValue(binary: binaryOfInput))
    case "binarytojson":
      var reader = JSONBinaryReader(handler: JSONWriter())
      try reader.feed(binaryOfInput)
      try reader.finish()
      try reader.handler.finish()
      blackHole(reader.handler.bytes)
    case "binarywrite":
      var writer = JSONBinaryWriter()
      try value.replay(into: &writer)
      try writer.finish()
      blackHole(writer.bytes)
    case "binarybytes": blackHole(try value.binaryBytes())
    case "transcode":
      var writer = try JSONParser.parse(bytes, handler: JSONBinaryWriter())
      try writer.finish()
      blackHole(writer.bytes)
    case "chainwrite": blackHole(try chainWrite(bytes, select: [try JSONPath("$")]))
    case "directwrite": blackHole(try chainWrite(bytes, select: nil))
    case "chaintree": blackHole(try chainTree(binaryOfInput, tracked: true))
    case "chainbinarywrite": blackHole(try chainBinaryWrite(value, transformed: true))
    case "eventwrite":
      var writer = JSONWriter()
      try value.replay(into: &writer)
      try writer.finish()
      blackHole(writer.bytes)
    case "ndjson":
      blackHole(try JSONStreamDecoder().decodeLines(Twitter.Status.self, from: lines))
    case "ndjsonparallel":
      blackHole(try JSONStreamDecoder().decodeLinesInParallel(Twitter.Status.self, from: lines))
    case "shipmentlines":
      blackHole(try shipmentDecoder.decodeLines(Shipment.self, from: shipmentText))
    case "shipments":
      blackHole(try shipmentDecoder.decode([Shipment].self, from: shipmentText))
    case "decodeshipments":
      blackHole(try JSONStreamDecoder().decode([Shipment].self, from: shipmentText))
    case "encodeshipments":
      blackHole(try shipmentEncoder.encode(shipmentRecords))
    case "tokenize": blackHole(try JSONParser.parse(bytes, handler: Ignore()))
    case "tokenize4k", "tokenize64k", "tokenize256":
      var parser = JSONParser(handler: Ignore())
      try bytes.withUnsafeBytes { all in
        let size = operation == "tokenize64k" ? 65536 : (operation == "tokenize256" ? 256 : 4096)
        for start in stride(from: 0, to: all.count, by: size) {
          try parser.feed(
            UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + size)]))
        }
      }
      try parser.finish()
    case "asyncchunks", "asyncbytes", "asyncitembytes":
      blackHole(try AsyncBenchmarks.profile(operation, bytes))
    case "asyncdocumentbytes": blackHole(try AsyncBenchmarks.profile(operation, lines))
    case "syncevents": blackHole(try AsyncBenchmarks.syncEvents(AsyncBenchmarks.chunks(bytes)))
    case "doubles": blackHole(try sumOfDoubles(bytes))
    case "rapidjson": blackHole(PeerInput(bytes).rapidjsonSAX())
    case "rapidjson-doubles": blackHole(PeerInput(bytes).rapidjsonSAXDoubles())
    case "yajl": blackHole(PeerInput(bytes).yajl(chunk: 0))
    case "tree": blackHole(try JSONValue(parsing: bytes))
    case "foundation": blackHole(try JSONFoundation.object(with: Data(bytes)))
    case "jsonserialization":
      blackHole(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
    case "decode": blackHole(try JSONStreamDecoder().decode(model!, from: bytes))
    case "jsondecoder": blackHole(try JSONDecoder().decode(model!, from: data))
    case "decodebinary": blackHole(try JSONStreamDecoder().decode(model!, fromBinary: modelBinary))
    case "encode": blackHole(try JSONStreamEncoder().encode(modelValue!))
    case "encodebinary": blackHole(try JSONStreamEncoder().encodeBinary(modelValue!))
    case "encodevalue": blackHole(try JSONStreamEncoder().encodeToValue(modelValue!))
    case "encodeparse":
      blackHole(try JSONValue(parsing: JSONStreamEncoder().encodeToBytes(modelValue!)))
    case "jsonencoder": blackHole(try JSONEncoder().encode(modelValue!))
    default: blackHole(try value.jsonBytes())
    }
  }
  exit(0)
}

let smoke = arguments.contains("--smoke")
let doubleChecks = Int(option("--check-doubles") ?? "") ?? (smoke ? 100_000 : 10_000_000)
let runs = Int(option("--runs") ?? "") ?? (smoke ? 1 : 15)
let only = option("--only")
let harness = Harness(runs: runs, warmups: smoke ? 0 : 3)
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let corpusDirectory =
  option("--corpus")
  ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
let largeMB = Int(option("--large-mb") ?? "") ?? (smoke ? 2 : 1024)
let largePath =
  option("--large")
  ?? FileManager.default.temporaryDirectory.appendingPathComponent(
    "jsonstream-bench-\(largeMB)mb.json"
  ).path

var inputs: [(name: String, bytes: [UInt8])] = []
if smoke {
  inputs.append(
    (
      "orders.json",
      [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("Samples/orders.json")))
    ))
} else {
  for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
    let url = URL(fileURLWithPath: corpusDirectory).appendingPathComponent(name)
    if let data = try? Data(contentsOf: url) { inputs.append((name, [UInt8](data))) }
  }
  if inputs.isEmpty { print("no corpus at \(corpusDirectory); pass --corpus DIR") }
}

/// What the run prints, kept for the README's main table (`--write-readme`).
var transcript: [String] = []
@MainActor func say(_ line: String) {
  transcript.append(line)
  print(line)
}
say(
  "JSONStream benchmarks: \(runs) timed run(s) per figure, median, \(harness.warmups) warm-up run(s)"
)
say("machine: \(Readme.machine())")
say(Row.header)
var rows: [Row] = []
@MainActor func report(_ row: Row) {
  rows.append(row)
  say(row.line)
}

/// Feeds `bytes` in chunks of `chunk` bytes to a parser with a no-op handler.
func tokenize(_ bytes: [UInt8], chunk: Int) throws {
  var parser = JSONParser(handler: Ignore())
  try bytes.withUnsafeBytes { all in
    var start = 0
    while start < all.count {
      let end = min(all.count, start + chunk)
      try parser.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]))
      start = end
    }
  }
  try parser.finish()
}

/// JSON text → (a select filter →) a writer: the output.
func chainWrite(_ bytes: [UInt8], select paths: [JSONPath]?) throws -> [UInt8] {
  if let paths {
    var filter = try JSONParser.parse(
      bytes, handler: JSONSelectFilter(paths: paths, downstream: JSONWriter()))
    try filter.downstream.finish()
    return filter.downstream.bytes
  }
  var writer = try JSONParser.parse(bytes, handler: JSONWriter())
  try writer.finish()
  return writer.bytes
}

/// The binary format → (a path tracker →) a tree builder: the tree.
func chainTree(_ binary: [UInt8], tracked: Bool) throws -> JSONValue? {
  if tracked {
    var reader = JSONBinaryReader(handler: JSONPathTracker(downstream: JSONTreeBuilder()))
    try reader.feed(binary)
    try reader.finish()
    return reader.handler.downstream.value
  }
  var reader = JSONBinaryReader(handler: JSONTreeBuilder())
  try reader.feed(binary)
  try reader.finish()
  return reader.handler.value
}

/// A tree's events → (a transform without rules →) the binary writer: the bytes.
func chainBinaryWrite(_ value: JSONValue, transformed: Bool) throws -> [UInt8] {
  if transformed {
    var transform = JSONTransform(rules: [], downstream: JSONBinaryWriter())
    try value.replay(into: &transform)
    try transform.downstream.finish()
    return transform.downstream.bytes
  }
  var writer = JSONBinaryWriter()
  try value.replay(into: &writer)
  try writer.finish()
  return writer.bytes
}

/// Times ours against a peer, interleaved, and reports the row.
@MainActor
func row(
  _ operation: String, _ input: String, _ bytes: Int, target: Double? = nil,
  ours: () throws -> Void, peer peerName: String, measuring peer: () throws -> Void
) rethrows {
  if let only, !operation.contains(only) { return }
  let (oursTime, peerTime) = try harness.compare(ours, peer)
  report(
    Row(
      operation: operation, input: input, bytes: bytes, ours: oursTime, peerName: peerName,
      peer: peerTime, target: target))
}

/// Decodes `bytes` into `model` with JSONStreamDecoder and with Foundation's JSONDecoder,
/// checks that both give the same value, then times both.
@MainActor
func decodeRow<Model: CorpusDocument>(_ model: Model.Type, _ input: String, _ bytes: [UInt8])
  throws
{
  let operation = "decode → models"
  if let only, !operation.contains(only) { return }
  let data = Data(bytes)
  let ours = try JSONStreamDecoder().decode(model, from: bytes)
  let theirs = try JSONDecoder().decode(model, from: data)
  try require(ours == theirs, "JSONStreamDecoder and JSONDecoder decode \(input) differently")
  try row(
    operation, input, bytes.count, target: 4.0,
    ours: { blackHole(try JSONStreamDecoder().decode(model, from: bytes)) },
    peer: "JSONDecoder", measuring: { blackHole(try JSONDecoder().decode(model, from: data)) })
}

/// The binary format against Foundation's binary property lists on the same model (decoded
/// once from `bytes`, the JSON): decoding, then encoding. MB/s are of the JSON input's size,
/// as on every row.
@MainActor
func binaryCodableRows<Model: CorpusDocument>(
  _ model: Model.Type, _ input: String, _ bytes: [UInt8]
) throws {
  let value = try JSONDecoder().decode(model, from: Data(bytes))
  let binary = try JSONStreamEncoder().encodeBinary(value)
  let plistEncoder = PropertyListEncoder()
  plistEncoder.outputFormat = .binary
  let plist = try plistEncoder.encode(value)
  try require(
    try JSONStreamDecoder().decode(model, fromBinary: binary) == value,
    "the binary of \(input)'s model decodes to another value")
  try require(
    try PropertyListDecoder().decode(model, from: plist) == value,
    "the property list of \(input)'s model decodes to another value")
  if !smoke {
    say("  \(input) model: binary \(binary.count) bytes, binary plist \(plist.count) bytes")
  }
  try row(
    "decode binary → models", input, bytes.count, target: 3.0,
    ours: { blackHole(try JSONStreamDecoder().decode(model, fromBinary: binary)) },
    peer: "PropertyListDecoder (binary)",
    measuring: { blackHole(try PropertyListDecoder().decode(model, from: plist)) })
  try row(
    "encode models → binary", input, bytes.count,
    ours: { blackHole(try JSONStreamEncoder().encodeBinary(value)) },
    peer: "PropertyListEncoder (binary)", measuring: { blackHole(try plistEncoder.encode(value)) })
}

/// Encodes the model of `bytes` (decoded once, by JSONDecoder, before timing) with
/// JSONStreamEncoder and with Foundation's JSONEncoder, both to `Data` so that both pay the final
/// copy; checks that each output decodes back to the same model, then times both. MB/s are of
/// the input file's size, as on every other row (MB/s of input JSON), so both sides divide the
/// same byte count.
@MainActor
func encodeRow<Model: CorpusDocument>(_ model: Model.Type, _ input: String, _ bytes: [UInt8])
  throws
{
  let operation = "encode models → JSON"
  if let only, !operation.contains(only) { return }
  let value = try JSONDecoder().decode(model, from: Data(bytes))
  let ours = try JSONStreamEncoder().encode(value)
  let theirs = try JSONEncoder().encode(value)
  try require(
    JSONDecoder().decode(model, from: ours) == value,
    "JSONStreamEncoder's output for \(input) decodes to another value")
  try require(
    JSONDecoder().decode(model, from: theirs) == value,
    "JSONEncoder's output for \(input) decodes to another value")
  // With sorted keys the two outputs are the same bytes (numbers, escapes and all).
  let sortedOurs = JSONStreamEncoder()
  sortedOurs.outputFormatting = .sortedKeys
  let sortedTheirs = JSONEncoder()
  sortedTheirs.outputFormatting = .sortedKeys
  try require(
    sortedOurs.encode(value) == sortedTheirs.encode(value),
    "JSONStreamEncoder's sorted output for \(input) differs from JSONEncoder's")
  try row(
    operation, input, bytes.count, target: 4.0,
    ours: { blackHole(try JSONStreamEncoder().encode(value)) },
    peer: "JSONEncoder", measuring: { blackHole(try JSONEncoder().encode(value)) })
}

/// Encodes the model of `bytes` into a `JSONValue` directly (the encoder's tree output), against
/// encoding its text and parsing that: checks that both give the same value, written as the same
/// bytes, and that it decodes back to the model, then times both.
@MainActor
func encodeValueRow<Model: CorpusDocument>(
  _ model: Model.Type, _ input: String, _ bytes: [UInt8]
) throws {
  let operation = "encode models → JSONValue"
  if let only, !operation.contains(only) { return }
  let value = try JSONDecoder().decode(model, from: Data(bytes))
  let direct = try JSONStreamEncoder().encodeToValue(value)
  let parsed = try JSONValue(parsing: JSONStreamEncoder().encodeToBytes(value))
  try require(
    direct == parsed && (try direct.jsonBytes()) == (try parsed.jsonBytes()),
    "the JSONValue encoded from \(input)'s model differs from its text's")
  try require(
    try direct.decode(model) == value, "the JSONValue of \(input)'s model decodes to another value")
  try row(
    operation, input, bytes.count,
    ours: { blackHole(try JSONStreamEncoder().encodeToValue(value)) },
    peer: "encode, then JSONValue(parsing:)",
    measuring: {
      blackHole(try JSONValue(parsing: JSONStreamEncoder().encodeToBytes(value)))
    })
}

for (name, bytes) in inputs {
  let data = Data(bytes)
  let peers = PeerInput(bytes)
  let size = bytes.count
  try require(
    peers.rapidjsonSAX() > 0 && peers.rapidjsonSAXO3() == peers.rapidjsonSAX()
      && peers.yajl(chunk: 0) > 0 && peers.simdjsonDOM() >= 0 && !peers.simdjsonOnDemand().isNaN,
    "a peer rejected \(name)")

  // Tokenize.
  try row(
    "tokenize", name, size, target: 1.0, ours: { try tokenize(bytes, chunk: size) },
    peer: "RapidJSON SAX Reader", measuring: { blackHole(peers.rapidjsonSAX()) }
  )
  try row(
    "tokenize", name, size, ours: { try tokenize(bytes, chunk: size) },
    peer: "RapidJSON SAX Reader -O3", measuring: { blackHole(peers.rapidjsonSAXO3()) }
  )
  try row(
    "tokenize", name, size, target: 1.5, ours: { try tokenize(bytes, chunk: size) },
    peer: "yajl, whole buffer", measuring: { blackHole(peers.yajl(chunk: 0)) }
  )
  // simdjson's DOM parse runs the vector kernel it picks for this CPU at run time.
  try row(
    "tokenize", name, size, target: name == "canada.json" ? nil : 0.6,
    ours: { try tokenize(bytes, chunk: size) },
    peer: "simdjson DOM parse", measuring: { blackHole(peers.simdjsonDOM()) }
  )
  try row(
    "tokenize, 64 KiB chunks", name, size, ours: { try tokenize(bytes, chunk: 65_536) },
    peer: "yajl, 64 KiB chunks", measuring: { blackHole(peers.yajl(chunk: 65_536)) }
  )
  try row(
    "tokenize, 4 KiB chunks", name, size, ours: { try tokenize(bytes, chunk: 4096) },
    peer: "yajl, 4 KiB chunks", measuring: { blackHole(peers.yajl(chunk: 4096)) }
  )
  try row(
    "tokenize, 64 KiB chunks", name, size, target: 0.95,
    ours: { try tokenize(bytes, chunk: 65_536) },
    peer: "ours, whole buffer", measuring: { try tokenize(bytes, chunk: size) }
  )
  try row(
    "tokenize, 4 KiB chunks", name, size, target: 0.9, ours: { try tokenize(bytes, chunk: 4096) },
    peer: "ours, whole buffer", measuring: { try tokenize(bytes, chunk: size) }
  )
  if name == "twitter.json" || smoke {
    // 1-byte chunks: the cost per byte stays flat (linear), a small multiple of the whole-buffer cost.
    try row(
      "tokenize, 1-byte chunks", name, size, ours: { try tokenize(bytes, chunk: 1) },
      peer: "yajl, 1-byte chunks", measuring: { blackHole(peers.yajl(chunk: 1)) }
    )
  }
  try row(
    "tokenize + every Double", name, size, target: name == "canada.json" ? 1.0 : nil,
    ours: { blackHole(try sumOfDoubles(bytes)) },
    peer: "RapidJSON full precision", measuring: { blackHole(peers.rapidjsonSAXDoubles()) }
  )
  try row(
    "tokenize + every Double", name, size, ours: { blackHole(try sumOfDoubles(bytes)) },
    peer: "RapidJSON full precision -O3",
    measuring: { blackHole(peers.rapidjsonSAXDoublesO3()) }
  )
  // On-Demand reads every value too (keys and strings unescaped, numbers as doubles), with
  // the kernel compiled into the shim: the portable scalar one ("fallback") on x86-64.
  try row(
    "tokenize + every Double", name, size, target: 1.5,
    ours: { blackHole(try sumOfDoubles(bytes)) },
    peer: "simdjson On-Demand, \(PeerInput.simdjsonOnDemandKernel)",
    measuring: { blackHole(peers.simdjsonOnDemand()) }
  )

  // Trees.
  try row(
    "tree build (JSONValue)", name, size, target: 4,
    ours: { blackHole(try JSONValue(parsing: bytes)) },
    peer: "JSONSerialization",
    measuring: {
      blackHole(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }
  )
  try row(
    "tree build (JSONValue)", name, size, target: 0.8,
    ours: { blackHole(try JSONValue(parsing: bytes)) },
    peer: "RapidJSON Document", measuring: { blackHole(peers.rapidjsonDocument()) }
  )
  try row(
    "tree build (JSONValue)", name, size, ours: { blackHole(try JSONValue(parsing: bytes)) },
    peer: "RapidJSON Document -O3", measuring: { blackHole(peers.rapidjsonDocumentO3()) }
  )
  try row(
    "Foundation containers", name, size, target: 1.5,
    ours: { blackHole(try JSONFoundation.object(with: data)) },
    peer: "JSONSerialization",
    measuring: {
      blackHole(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }
  )

  // Writing from a tree.
  let value = try JSONValue(parsing: bytes)
  let foundationTree = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
  try row(
    "write compact from tree", name, size, target: 0.8, ours: { blackHole(try value.jsonBytes()) },
    peer: "RapidJSON Writer", measuring: { blackHole(peers.rapidjsonWrite(pretty: false)) }
  )
  try row(
    "write compact from tree", name, size, target: 5, ours: { blackHole(try value.jsonBytes()) },
    peer: "JSONSerialization.data",
    measuring: {
      blackHole(
        try JSONSerialization.data(withJSONObject: foundationTree, options: [.fragmentsAllowed]))
    }
  )
  try row(
    "write pretty from tree", name, size,
    ours: { blackHole(try value.jsonBytes(options: .pretty)) },
    peer: "RapidJSON PrettyWriter", measuring: { blackHole(peers.rapidjsonWrite(pretty: true)) }
  )
  try row(
    "write pretty from tree", name, size,
    ours: { blackHole(try value.jsonBytes(options: .pretty)) },
    peer: "JSONSerialization pretty",
    measuring: {
      blackHole(
        try JSONSerialization.data(
          withJSONObject: foundationTree, options: [.fragmentsAllowed, .prettyPrinted]))
    }
  )

  // The binary format: its size, reading it into a tree, writing it (events from the tree).
  var toBinary = try JSONParser.parse(bytes, handler: JSONBinaryWriter())
  try toBinary.finish()
  let binary = toBinary.bytes
  let minified = try value.jsonBytes()
  try require(
    try JSONBinaryReader.tree(binary) == value, "the binary of \(name) reads back another value")
  say(
    "  binary format: \(name) is \(binary.count) bytes, "
      + String(format: "%.2f", Double(binary.count) / Double(minified.count))
      + "× its minified JSON (\(minified.count) bytes; target ≤ 0.75× on twitter and citm)")
  try require(
    try JSONValue(binary: binary) == value, "JSONValue(binary:) reads \(name) as another value")
  try row(
    "tree from binary", name, size, target: 2.0,
    ours: { blackHole(try JSONValue(binary: binary)) },
    peer: "tree from JSON text (ours)", measuring: { blackHole(try JSONValue(parsing: bytes)) })
  // The streaming reader into a tree builder: the same work in chunks of any size.
  try row(
    "tree from binary, streamed", name, size,
    ours: { blackHole(try JSONBinaryReader.tree(binary)) },
    peer: "tree from JSON text (ours)", measuring: { blackHole(try JSONValue(parsing: bytes)) })
  // Each format's one-pass writer from the same tree: value.binaryBytes() and value.jsonBytes().
  // The writing target is for twitter and citm: canada's numbers cost the binary writer a
  // conversion each, where the JSON writer copies their text.
  let writeTarget: Double? = name.hasPrefix("canada") ? nil : 1.5
  try require(
    try value.binaryBytes() == binary, "value.binaryBytes() of \(name) is not the events' bytes")
  try row(
    "write binary from tree", name, size, target: writeTarget,
    ours: { blackHole(try value.binaryBytes()) },
    peer: "write JSON from tree (ours)", measuring: { blackHole(try value.jsonBytes()) })
  try row(
    "write binary from events", name, size, target: writeTarget,
    ours: {
      var writer = JSONBinaryWriter()
      try value.replay(into: &writer)
      try writer.finish()
      blackHole(writer.bytes)
    },
    peer: "write JSON from events (ours)",
    measuring: {
      var writer = JSONWriter()
      try value.replay(into: &writer)
      try writer.finish()
      blackHole(writer.bytes)
    })

  // Chains: a forwarding handler between producer and consumer passes the fast paths on, so
  // a chain runs about as fast as its direct path (target: within 10%).
  let everything = [try JSONPath("$")]
  try row(
    "chain: parser → select $ → writer", name, size, target: 0.9,
    ours: { blackHole(try chainWrite(bytes, select: everything)) },
    peer: "parser → writer (ours)", measuring: { blackHole(try chainWrite(bytes, select: nil)) })
  try row(
    "chain: binary → path tracker → tree", name, size, target: 0.9,
    ours: { blackHole(try chainTree(binary, tracked: true)) },
    peer: "binary → tree (ours)", measuring: { blackHole(try chainTree(binary, tracked: false)) })
  try row(
    "chain: tree → transform → binary writer", name, size, target: 0.9,
    ours: { blackHole(try chainBinaryWrite(value, transformed: true)) },
    peer: "tree → binary writer (ours)",
    measuring: { blackHole(try chainBinaryWrite(value, transformed: false)) })

  // Streaming reformat: parser → writer.
  for prettyOutput in [false, true] {
    let options: JSONWriteOptions = prettyOutput ? .pretty : .compact
    let reformat = {
      var writer = try JSONParser.parse(bytes, handler: JSONWriter(options: options))
      try writer.finish()
      blackHole(writer.bytes)
    }
    let label = prettyOutput ? "reformat pretty" : "reformat compact"
    try row(
      label, name, size, ours: reformat, peer: "RapidJSON Reader → Writer",
      measuring: {
        blackHole(peers.rapidjsonReformat(pretty: prettyOutput))
      })
    try row(
      label, name, size, ours: reformat, peer: "yajl → yajl_gen",
      measuring: {
        blackHole(peers.yajlReformat(pretty: prettyOutput))
      })
  }
}

// Codable: each corpus document into its typed model (small documents of the same shapes under
// --smoke).
let modelInputs =
  smoke
  ? smokeDocuments
  : inputs.compactMap { input in
    corpusModel(forFile: input.name).map { (input.name, input.bytes, $0) }
  }
for (name, bytes, model) in modelInputs {
  try decodeRow(model, name, bytes)
}
for (name, bytes, model) in modelInputs {
  try encodeRow(model, name, bytes)
}
for (name, bytes, model) in modelInputs {
  try encodeValueRow(model, name, bytes)
}
for (name, bytes, model) in modelInputs {
  try binaryCodableRows(model, name, bytes)
}

// NDJSON: twitter's statuses one per line (repeated to ~16 MB; once under --smoke), decoded in
// parallel across the cores and on one; and on one core against JSONDecoder line by line.
if let twitter = modelInputs.first(where: { $0.name.hasPrefix("twitter") }) {
  let statuses = try JSONDecoder().decode(Twitter.self, from: Data(twitter.bytes)).statuses
  var lines: [UInt8] = []
  repeat {
    for status in statuses { lines += try JSONEncoder().encode(status) + [0x0A] }
  } while !smoke && lines.count < 16 << 20
  let name = "statuses.ndjson"
  let decoder = JSONStreamDecoder()
  let parallel = try decoder.decodeLinesInParallel(Twitter.Status.self, from: lines)
  try require(
    parallel == (try decoder.decodeLines(Twitter.Status.self, from: lines)),
    "parallel and one-core NDJSON decoding differ")
  // The calls alone are timed: the caller frees the result on one thread, the same work for
  // both sides, which is not decoding.
  let operation = "decode NDJSON lines, all cores"
  if only == nil || operation.contains(only!) {
    let (oursTime, peerTime) = try harness.compareCalls(
      { try decoder.decodeLinesInParallel(Twitter.Status.self, from: lines) },
      { try decoder.decodeLines(Twitter.Status.self, from: lines) })
    report(
      Row(
        operation: operation, input: name, bytes: lines.count, ours: oursTime,
        peerName: "the same on one core", peer: peerTime,
        target: ProcessInfo.processInfo.activeProcessorCount == 2 ? 1.8 : nil))
  }
  let lineData = lines.split(separator: 0x0A).map { Data($0) }
  try row(
    "decode NDJSON lines, one core", name, lines.count,
    ours: { blackHole(try decoder.decodeLines(Twitter.Status.self, from: lines)) },
    peer: "JSONDecoder per line",
    measuring: {
      let foundation = JSONDecoder()
      blackHole(try lineData.map { try foundation.decode(Twitter.Status.self, from: $0) })
    })
}

// Changing a tree in place, next to Swift's collections; `--write-readme` puts the table in
// Benchmarks/README.md.
if only == nil || "mutation".contains(only!) {
  let mutationRows = try MutationBenchmarks.run(harness: harness, smoke: smoke)
  if arguments.contains("--write-readme") {
    try MutationBenchmarks.writeReadme(mutationRows)
  }
}

// Codable with strategies on a model of our own; `--write-readme` puts the table in
// Benchmarks/README.md.
if only == nil || "codable".contains(only!) {
  let codableRows = try CodableStrategyBenchmarks.run(harness: harness, smoke: smoke)
  if arguments.contains("--write-readme") {
    try CodableStrategyBenchmarks.writeReadme(codableRows)
  }
}

// The async adapters against the parser with the same consumer; `--write-readme` puts the
// table in Benchmarks/README.md.
if only == nil || "async".contains(only!) || only!.hasPrefix("async") {
  let asyncInputs = inputs
  let asyncRuns = harness
  let asyncOnly = only
  print("\n" + Row.header)
  let asyncRows = try runBlocking {
    try await AsyncBenchmarks.run(harness: asyncRuns, inputs: asyncInputs, only: asyncOnly)
  }
  rows += asyncRows
  if arguments.contains("--write-readme") {
    try Readme.write(
      table: "async table", command: "jsonstream-bench --only async --write-readme",
      lines: [Row.header] + asyncRows.map(\.line))
  }
}

// A subset of operations was asked for: the rest (scale, double check) is skipped.
if only != nil { exit(0) }

// At scale: a generated file, streamed from disk in 64 KiB chunks by a child process each.
if !FileManager.default.fileExists(atPath: largePath) {
  print("generating \(largeMB) MB at \(largePath) …")
  try LargeFile.generate(at: largePath, targetBytes: largeMB << 20)
}
let largeSize = (try FileManager.default.attributesOfItem(atPath: largePath)[.size] as? Int) ?? 0
say(
  "\nstreaming \(largePath) (\(largeSize >> 20) MiB) from disk, 64 KiB chunks, one child process per job:"
)
var memoryOK = true
// Each job's best time and highest peak RSS. Pretty output sorted and not run alternately, 3
// times each: the sorted-keys target is their time ratio.
var streamBest: [String: (seconds: Double, peak: Int)] = [:]
let streamJobs =
  ["validate", "reformat"]
  + Array(repeating: ["reformat-pretty", "reformat-pretty-sorted"], count: 3).joined()
for job in streamJobs {
  let (seconds, peak) = try StreamJob.measure(job, path: largePath)
  let best = streamBest[job] ?? (seconds, peak)
  streamBest[job] = (Swift.min(best.seconds, seconds), Swift.max(best.peak, peak))
}
for job in ["validate", "reformat", "reformat-pretty", "reformat-pretty-sorted"] {
  let (seconds, peak) = streamBest[job]!
  let peakMB = Double(peak) / 1_048_576
  if peakMB >= 64 { memoryOK = false }
  say(
    "  \(job.padding(22)) \(String(format: "%6.0f MB/s", Double(largeSize) / seconds / 1e6))   peak RSS \(String(format: "%.1f", peakMB)) MiB (target < 64 MiB: \(peakMB < 64 ? "met" : "NOT MET"))"
  )
}
let sortedRatio =
  streamBest["reformat-pretty-sorted"]!.seconds / streamBest["reformat-pretty"]!.seconds
say(
  "  sorted keys: \(String(format: "%.2f×", sortedRatio)) the time of reformat-pretty, best of 3 alternate runs each (target ≤ 2×: \(sortedRatio <= 2 ? "met" : "NOT MET"))"
)

// Correct rounding: JSONNumber.double against strtod.
let checkStart = ContinuousClock.now
let mismatches = try DoubleCheck.run(count: doubleChecks)
let checkTime = (ContinuousClock.now - checkStart).components
let checkSeconds = Double(checkTime.seconds) + Double(checkTime.attoseconds) / 1e18
say(
  "\ndoubles: \(doubleChecks) generated inputs checked against strtod in \(String(format: "%.1f", checkSeconds)) s: \(mismatches.isEmpty ? "all correctly rounded" : "\(mismatches.count)+ MISMATCHES")"
)
for mismatch in mismatches { say("  \(mismatch)") }

let targeted = rows.filter { $0.meetsTarget != nil }
let unmet = targeted.filter { $0.meetsTarget == false }
say(
  "\ntargets: \(targeted.count - unmet.count) of \(targeted.count) met\(memoryOK ? "" : "; peak RSS target NOT MET")"
)
for row in unmet {
  let measured =
    row.rateTarget != nil
    ? row.format(row.oursRate) + " MB/s"
    : "vs \(row.peerName!): " + String(format: "%.2f×", row.ratio!)
  say("  NOT MET: \(row.operation) on \(row.input) \(measured), target \(row.targetText!)")
}

if arguments.contains("--write-readme") {
  try Readme.write(
    table: "main table", command: "jsonstream-bench --write-readme", lines: transcript)
  // The rows the package's README quotes, from this run.
  let headlines = [
    ("tokenize", "RapidJSON SAX Reader"), ("tree build (JSONValue)", "RapidJSON Document"),
    ("write compact from tree", "RapidJSON Writer"), ("decode → models", "JSONDecoder"),
  ]
  let quoted = headlines.compactMap { operation, peer in
    rows.first { $0.operation == operation && $0.peerName == peer && $0.input == "twitter.json" }
  }
  try Readme.write(
    table: "headline rows", command: "jsonstream-bench --write-readme",
    lines: [Row.header] + quoted.map(\.line), in: Readme.packageReadme)
}

if !mismatches.isEmpty { exit(1) }

extension JSONBinaryReader where Handler == JSONTreeBuilder {
  /// The value of a whole binary document.
  static func tree(_ bytes: [UInt8]) throws -> JSONValue? {
    var reader = JSONBinaryReader(handler: JSONTreeBuilder())
    try reader.feed(bytes)
    try reader.finish()
    return reader.handler.value
  }
}
