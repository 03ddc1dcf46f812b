import Foundation
import NumberBench

/// A large, deterministic JSON file: a top-level array of records shaped like real exports
/// (nested objects and arrays, ASCII and non-ASCII strings, escapes, integers and doubles).
/// The same seed and size always give the same bytes.
enum LargeFile {
  static func generate(at path: String, targetBytes: Int) throws {
    guard let file = fopen(path, "w") else {
      throw BenchmarkFailure(description: "cannot create \(path)")
    }
    defer { fclose(file) }
    var random = SplitMix(seed: 0x4A53_4F4E)
    let words = [
      "alpha", "beta", "gamma", "delta", "Zürich", "東京", "naïve", "façade", "Ελλάδα", "😀",
      "quote \\\"inside\\\"", "tab\\tand\\nnewline", "\\u00e9scape", "plain", "streaming",
    ]
    var buffer: [UInt8] = Array("[\n".utf8)
    var written = 0
    var index = 0
    while written + buffer.count < targetBytes {
      if index > 0 { buffer.append(contentsOf: ",\n".utf8) }
      let tags = (0..<Int(random.next() % 5)).map { _ in
        "\"\(words[Int(random.next() % UInt64(words.count))])\""
      }
      let price = Double(random.next() % 1_000_000) / 100
      let latitude = Double(Int64(random.next() % 180_000_000) - 90_000_000) / 1_000_000
      let record = """
        {"id":\(index),"name":"\(words[Int(random.next() % UInt64(words.count))]) \(random.next() % 10_000)",\
        "active":\(random.next() % 2 == 0),"score":\(price),"location":{"lat":\(latitude),"lon":\(-latitude / 2),\
        "city":"\(words[Int(random.next() % UInt64(words.count))])"},"tags":[\(tags.joined(separator: ","))],\
        "parent":null,"counts":[\(random.next() % 1000),\(random.next() % 100000),\(random.next())]}
        """
      buffer.append(contentsOf: record.utf8)
      index += 1
      if buffer.count > 1 << 20 {
        fwrite(buffer, 1, buffer.count, file)
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
      }
    }
    buffer.append(contentsOf: "\n]\n".utf8)
    fwrite(buffer, 1, buffer.count, file)
  }
}
