import Foundation

/// Times an operation: warm-up runs, then `runs` timed runs; reports the median.
struct Harness {
  var runs: Int
  var warmups = 3

  /// Median seconds of one call of `body`.
  func median(_ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<warmups { try body() }
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
      let elapsed = try clock.measure { try body() }
      samples.append(
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    samples.sort()
    return samples[samples.count / 2]
  }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// One line of the report: our figure next to the peer's, measured in the same run.
struct Row {
  var operation: String
  var file: String
  var bytes: Int
  var ours: Double
  var peerName: String?
  var peer: Double?

  static func header() -> String {
    "operation".padding(34) + "file".padding(18) + "ours MB/s".padding(12) + "peer".padding(28)
      + "peer MB/s".padding(12) + "ratio"
  }

  var line: String {
    let oursRate = Double(bytes) / ours / 1e6
    var text =
      operation.padding(34) + file.padding(18) + String(format: "%.0f", oursRate).padding(12)
    if let peer, let peerName {
      let peerRate = Double(bytes) / peer / 1e6
      text += peerName.padding(28) + String(format: "%.0f", peerRate).padding(12)
      text += String(format: "%.2f×", oursRate / peerRate)
    }
    return text
  }
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
