import Foundation
import JSONStream

// Changing a JSONValue in place, next to the same changes to Swift's own collections: each
// figure is nanoseconds per operation at two counts ten times apart, so that a cost that
// grows with the size (a copy per change) shows as a rise with the count.

/// One mutation figure: ours and Swift's collections', per operation.
struct MutationRow {
  var operation: String
  var count: Int
  var ours: Double
  var peerName: String
  var peer: Double

  static var header: String {
    "operation".padding(34) + "count".padding(11) + "ours ns/op".padding(12)
      + "Swift collections".padding(34) + "ns/op".padding(9) + "ratio"
  }

  var line: String {
    operation.padding(34) + String(count).padding(11) + String(format: "%.1f", ours).padding(12)
      + peerName.padding(34) + String(format: "%.1f", peer).padding(9)
      + String(format: "%.2f×", peer / ours)
  }
}

enum MutationBenchmarks {
  /// Runs every mutation figure; `smoke` runs each once at small counts.
  static func run(harness: Harness, smoke: Bool) throws -> [MutationRow] {
    var rows: [MutationRow] = []
    func measure(
      _ operation: String, _ count: Int, ours: () throws -> Void, peer peerName: String,
      _ peer: () throws -> Void
    ) rethrows {
      let (oursTime, peerTime) = try harness.compare(ours, peer)
      let row = MutationRow(
        operation: operation, count: count, ours: oursTime / Double(count) * 1e9,
        peerName: peerName, peer: peerTime / Double(count) * 1e9)
      print(row.line)
      rows.append(row)
    }
    print("\n" + MutationRow.header)
    let keys = (0..<(smoke ? 2_000 : 200_000)).map { "key\($0)" }
    for count in smoke ? [200, 2_000] : [20_000, 200_000] {
      let names = keys[..<count]
      try measure(
        "set members of an object", count,
        ours: {
          var object = JSONObject()
          for (index, key) in names.enumerated() { object[key] = JSONValue(index) }
          try require(object.count == count, "object has \(object.count) members")
          blackHole(object)
        },
        peer: "[String: JSONValue]",
        {
          var dictionary: [String: JSONValue] = [:]
          for (index, key) in names.enumerated() { dictionary[key] = JSONValue(index) }
          blackHole(dictionary)
        })
    }
    for count in smoke ? [1_000, 10_000] : [100_000, 1_000_000] {
      try measure(
        "append elements to an array", count,
        ours: {
          var array = JSONArray()
          for index in 0..<count { array.append(JSONValue(index)) }
          try require(array.count == count, "array has \(array.count) elements")
          blackHole(array)
        },
        peer: "[JSONValue]",
        {
          var array: [JSONValue] = []
          for index in 0..<count { array.append(JSONValue(index)) }
          blackHole(array)
        })
    }
    for count in smoke ? [1_000, 10_000] : [100_000, 1_000_000] {
      let list = Array(repeating: JSONValue(0), count: 1_000)
      let parsed = try JSONValue(
        parsing: #"{"data": {"list": \#(JSONValue.array(JSONArray(list)).description)}}"#)
      measure(
        #"v["data"]?["list"]?[i] = x"#, count,
        ours: {
          var value = parsed
          for index in 0..<count { value["data"]?["list"]?[index % 1_000] = JSONValue(index) }
          blackHole(value)
        },
        peer: "[String: [String: [JSONValue]]]",
        {
          var value: [String: [String: [JSONValue]]] = ["data": ["list": list]]
          for index in 0..<count { value["data"]?["list"]?[index % 1_000] = JSONValue(index) }
          blackHole(value)
        })
    }
    return rows
  }

  /// Replaces the mutation table in Benchmarks/README.md with `rows`.
  static func writeReadme(_ rows: [MutationRow]) throws {
    try Readme.write(
      table: "mutation table", command: "jsonstream-bench --only mutation --write-readme",
      lines: [MutationRow.header] + rows.map(\.line))
  }
}
