// A large file processed chunk by chunk: each record of a top-level array is delivered as a
// JSONValue as soon as it is complete, with progress on standard error and memory that does
// not grow with the file.
//
//   swift run -c release large-file [FILE]        # FILE: a JSON array of records
//   swift run -c release large-file --generate MB # writes and reads MB megabytes of records
//
// Each record needs a numeric "amount" and a string "country"; the summary totals them.

import Foundation
import JSONStream
import JSONStreamFoundation

/// Peak resident memory of this process, from /proc (Linux), in MiB.
func peakMemoryMiB() -> Double? {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
  else { return nil }
  return kilobytes / 1024
}

/// Writes `megabytes` MB of records to a temporary file.
func generate(megabytes: Int) throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "large-file-sample-\(megabytes)mb.json"
  ).path
  _ = FileManager.default.createFile(atPath: path, contents: nil)
  let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  defer { try? file.close() }
  let countries = ["JP", "DE", "FR", "BR", "IN", "US", "KE", "NZ"]
  var buffer = "[\n"
  var written = 0
  var index = 0
  while written < megabytes * 1_000_000 {
    if index > 0 { buffer += ",\n" }
    let amount = Double((index * 7919) % 100_000) / 100
    buffer += """
      {"id":\(index),"country":"\(countries[index % countries.count])","amount":\(amount),\
      "items":[{"sku":"S-\(index % 97)","qty":\(index % 5 + 1)}],"note":"record \(index)"}
      """
    index += 1
    if buffer.utf8.count > 1 << 20 {
      written += buffer.utf8.count
      file.write(Data(buffer.utf8))
      buffer = ""
    }
  }
  file.write(Data((buffer + "\n]\n").utf8))
  return path
}

var arguments = Array(CommandLine.arguments.dropFirst())
let path: String
if arguments.first == "--generate" {
  let megabytes = arguments.count > 1 ? Int(arguments[1]) ?? 256 : 256
  FileHandle.standardError.write(Data("writing \(megabytes) MB of records…\n".utf8))
  path = try generate(megabytes: megabytes)
} else if let given = arguments.first {
  path = given
} else {
  FileHandle.standardError.write(Data("usage: large-file FILE | large-file --generate MB\n".utf8))
  exit(2)
}

struct Totals {
  var records = 0
  var amount = 0.0
  var byCountry: [String: Int] = [:]
}
var totals = Totals()
let reader = try JSONFileReader(path: path)
var parser = JSONParser(
  handler: JSONItemStreamer(paths: [try JSONPath("$[*]")]) { item in
    totals.records += 1
    totals.amount += item.value["amount"]?.doubleValue ?? 0
    if let country = item.value["country"]?.stringValue {
      totals.byCountry[country, default: 0] += 1
    }
  })
let start = ContinuousClock.now
var nextReport = 0
do {
  unsafe try reader.forEachChunk { chunk, read in
    unsafe try parser.feed(chunk)
    let percent = reader.size > 0 ? read * 100 / reader.size : 0
    if percent >= nextReport {
      FileHandle.standardError.write(
        Data("\r\(percent)%  \(totals.records) records  \(read >> 20) MiB".utf8))
      nextReport = percent + 10
    }
    return true
  }
  try parser.finish()
} catch {
  FileHandle.standardError.write(Data("\n\(path): \(error)\n".utf8))
  exit(1)
}
let seconds =
  Double((ContinuousClock.now - start).components.attoseconds) / 1e18
  + Double((ContinuousClock.now - start).components.seconds)
FileHandle.standardError.write(Data("\n".utf8))
print("\(totals.records) records, total amount \(String(format: "%.2f", totals.amount))")
for (country, count) in totals.byCountry.sorted(by: { $0.key < $1.key }) {
  print("  \(country): \(count)")
}
print(
  String(
    format: "%.0f MB in %.2f s (%.0f MB/s), peak memory %.1f MiB", Double(reader.size) / 1e6,
    seconds, Double(reader.size) / 1e6 / seconds, peakMemoryMiB() ?? 0))
