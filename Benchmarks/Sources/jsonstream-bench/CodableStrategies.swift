import Foundation
import JSONStreamFoundation

// Codable on a model of our own, with the strategies people switch on: default strategies,
// ISO 8601 dates with snake_case keys, pretty sorted output, and NDJSON of dated records.
// Each row times JSONStreamDecoder/JSONStreamEncoder against Foundation's coders with the same
// settings on the same bytes, after checking that both give the same value (or bytes).

/// A shipment record: integers, doubles, booleans, strings, dates (one optional), a nested
/// object, an array of objects and an array of strings.
struct Shipment: Codable, Equatable {
  var shipmentId: Int
  var trackingCode: String
  var createdAt: Date
  var deliveredAt: Date?
  var weightKg: Double
  var isExpress: Bool
  var recipient: Address
  var items: [Item]
  var tags: [String]

  struct Address: Codable, Equatable {
    var fullName: String
    var streetLine: String
    var postalCode: String
    var countryCode: String
  }

  struct Item: Codable, Equatable {
    var sku: String
    var quantity: Int
    var unitPrice: Double
  }

  /// `count` records from a fixed seed, dates in whole seconds (what every date format
  /// writes back exactly).
  static func generate(count: Int) -> [Shipment] {
    var state: UInt64 = 0x5348_4950
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let names = ["Ada Lovelace", "Grace Hopper", "Zoë Müller", "Jürgen Groß", "Łukasz Król"]
    let streets = ["1 Infinite Loop", "221B Baker Street", "Kurfürstendamm 21", "Rue de Rivoli 5"]
    return (0..<count).map { index in
      let created = 1_700_000_000 + next(60_000_000)
      return Shipment(
        shipmentId: 100_000 + index, trackingCode: "TRK\(next(1_000_000_000))",
        createdAt: Date(timeIntervalSince1970: Double(created)),
        deliveredAt: next(3) == 0
          ? nil : Date(timeIntervalSince1970: Double(created + next(900_000))),
        weightKg: Double(next(100_000)) / 100, isExpress: next(2) == 0,
        recipient: Address(
          fullName: names[next(names.count)], streetLine: streets[next(streets.count)],
          postalCode: String(10_000 + next(90_000)), countryCode: ["DE", "FR", "GB", "US"][next(4)]),
        items: (0..<(1 + next(4))).map { _ in
          Item(
            sku: "SKU-\(next(100_000))", quantity: 1 + next(9),
            unitPrice: Double(next(50_000)) / 100)
        },
        tags: (0..<next(3)).map { ["fragile", "gift", "priority", "return"][$0] })
    }
  }
}

enum CodableStrategyBenchmarks {
  /// The settings of one row, applied alike to both coders.
  struct Setup {
    var name: String
    var iso8601AndSnakeCase: Bool
    var prettySorted: Bool

    func decoders() -> (JSONStreamDecoder, JSONDecoder) {
      let ours = JSONStreamDecoder()
      let theirs = JSONDecoder()
      if iso8601AndSnakeCase {
        ours.dateDecodingStrategy = .iso8601
        ours.keyDecodingStrategy = .convertFromSnakeCase
        theirs.dateDecodingStrategy = .iso8601
        theirs.keyDecodingStrategy = .convertFromSnakeCase
      }
      return (ours, theirs)
    }

    func encoders() -> (JSONStreamEncoder, JSONEncoder) {
      let ours = JSONStreamEncoder()
      let theirs = JSONEncoder()
      if iso8601AndSnakeCase {
        ours.dateEncodingStrategy = .iso8601
        ours.keyEncodingStrategy = .convertToSnakeCase
        theirs.dateEncodingStrategy = .iso8601
        theirs.keyEncodingStrategy = .convertToSnakeCase
      }
      if prettySorted {
        ours.outputFormatting = [.prettyPrinted, .sortedKeys]
        theirs.outputFormatting = [.prettyPrinted, .sortedKeys]
      }
      return (ours, theirs)
    }
  }

  /// Every row; `smoke` runs each once on a few records.
  static func run(harness: Harness, smoke: Bool) throws -> [Row] {
    let records = Shipment.generate(count: smoke ? 50 : 20_000)
    var rows: [Row] = []
    func measure(
      _ operation: String, _ bytes: Int, target: Double, ours: () throws -> Void,
      peer: String, _ measuring: () throws -> Void
    ) rethrows {
      let (oursTime, peerTime) = try harness.compare(ours, measuring)
      let row = Row(
        operation: operation, input: "shipments", bytes: bytes, ours: oursTime, peerName: peer,
        peer: peerTime, target: target)
      print(row.line)
      rows.append(row)
    }
    print("\n" + Row.header)
    let setups = [
      Setup(name: "default strategies", iso8601AndSnakeCase: false, prettySorted: false),
      Setup(name: "ISO 8601, snake_case", iso8601AndSnakeCase: true, prettySorted: false),
      Setup(
        name: "ISO 8601, snake_case, pretty sorted", iso8601AndSnakeCase: true, prettySorted: true),
    ]
    for setup in setups {
      let target = setup.iso8601AndSnakeCase ? 2.0 : 4.0
      let (ourEncoder, theirEncoder) = setup.encoders()
      let text = try theirEncoder.encode(records)
      let (ourDecoder, theirDecoder) = setup.decoders()
      // Foundation reads our output back to the same records (pretty output differs in its
      // spaces: `"key": value`, Foundation's `"key" : value`).
      try require(
        try theirDecoder.decode([Shipment].self, from: ourEncoder.encode(records)) == records,
        "JSONEncoder's reading of JSONStreamEncoder's output differs (\(setup.name))")
      try measure(
        "encode (\(setup.name))", text.count, target: target,
        ours: { blackHole(try ourEncoder.encode(records)) }, peer: "JSONEncoder",
        { blackHole(try theirEncoder.encode(records)) })
      if setup.prettySorted { continue }
      try require(
        try ourDecoder.decode([Shipment].self, from: text) == records
          && theirDecoder.decode([Shipment].self, from: text) == records,
        "the shipments do not decode back (\(setup.name))")
      try measure(
        "decode (\(setup.name))", text.count, target: target,
        ours: { blackHole(try ourDecoder.decode([Shipment].self, from: text)) },
        peer: "JSONDecoder", { blackHole(try theirDecoder.decode([Shipment].self, from: text)) })
    }
    // NDJSON of dated records: ours over the whole input, Foundation's line by line (it has no
    // line API), both with ISO 8601 dates.
    let (ourDecoder, theirDecoder) = Setup(
      name: "", iso8601AndSnakeCase: true, prettySorted: false
    ).decoders()
    let (_, lineEncoder) = Setup(name: "", iso8601AndSnakeCase: true, prettySorted: false)
      .encoders()
    let lines = try records.map { try lineEncoder.encode($0) }
    let ndjson = Data(lines.joined(separator: [0x0A]))
    try require(
      try ourDecoder.decodeLines(Shipment.self, from: ndjson) == records,
      "the NDJSON shipments do not decode back")
    try measure(
      "decode NDJSON lines (ISO 8601)", ndjson.count, target: 3.0,
      ours: { blackHole(try ourDecoder.decodeLines(Shipment.self, from: ndjson)) },
      peer: "JSONDecoder per line",
      { blackHole(try lines.map { try theirDecoder.decode(Shipment.self, from: $0) }) })
    return rows
  }

  /// Replaces the Codable table in Benchmarks/README.md with `rows`.
  static func writeReadme(_ rows: [Row]) throws {
    try Readme.write(
      table: "codable table", command: "jsonstream-bench --only codable --write-readme",
      lines: [Row.header] + rows.map(\.line))
  }
}
