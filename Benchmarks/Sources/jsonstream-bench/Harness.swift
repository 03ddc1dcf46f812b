import Foundation

/// Times an operation: warm-up runs, then `runs` timed runs; reports the median.
struct Harness {
  var runs: Int
  var warmups: Int

  /// Median seconds of `ours` and of `peer`, timed alternately sample by sample, so that the
  /// machine's drift (other tenants, frequency changes) affects both alike.
  func compare(_ ours: () throws -> Void, _ peer: () throws -> Void) rethrows -> (
    ours: Double, peer: Double
  ) {
    try compareCalls(ours, peer)
  }

  /// ``compare(_:_:)`` of operations that return what they made, timing the calls alone: each
  /// result is freed after its clock has stopped. For work spread over the cores whose result
  /// one thread frees (the same for both sides), which would otherwise bound the ratio.
  func compareCalls<Result>(_ ours: () throws -> Result, _ peer: () throws -> Result) rethrows
    -> (ours: Double, peer: Double)
  {
    let clock = ContinuousClock()
    var kept: Result? = nil
    func time(_ call: () throws -> Result) rethrows -> Double {
      let start = clock.now
      let result = try call()
      let end = clock.now
      kept = result  // frees the previous result, untimed
      return seconds(end - start)
    }
    for _ in 0..<warmups {
      _ = try time(ours)
      _ = try time(peer)
    }
    var oursSamples: [Double] = []
    var peerSamples: [Double] = []
    for _ in 0..<max(1, runs) {
      oursSamples.append(try time(ours))
      peerSamples.append(try time(peer))
    }
    blackHole(kept)
    return (median(oursSamples), median(peerSamples))
  }

  /// ``compare(_:_:)`` of an async operation of ours with a synchronous peer, both timed on
  /// the calling task.
  func compareAsync<R>(_ ours: () async throws -> R, _ peer: () throws -> R) async rethrows -> (
    ours: Double, peer: Double
  ) {
    let clock = ContinuousClock()
    var oursSamples: [Double] = []
    var peerSamples: [Double] = []
    for run in 0..<(warmups + max(1, runs)) {
      var start = clock.now
      blackHole(try await ours())
      let oursTime = seconds(clock.now - start)
      start = clock.now
      blackHole(try peer())
      let peerTime = seconds(clock.now - start)
      if run >= warmups {
        oursSamples.append(oursTime)
        peerSamples.append(peerTime)
      }
    }
    return (median(oursSamples), median(peerSamples))
  }

  /// The middle sample (the upper middle for an even count).
  func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

  func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

/// Keeps a result alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// A failed check: a parse that a peer or we rejected, or a result that makes no sense.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw BenchmarkFailure(description: message()) }
}

/// One line of the report: our figure next to a peer's, measured in the same run, and the
/// target ratio when the project has one.
struct Row {
  var operation: String
  var input: String
  var bytes: Int
  var ours: Double
  var peerName: String? = nil
  var peer: Double? = nil
  var target: Double? = nil
  /// A target for our own speed, in MB/s, where there is no peer ratio to meet.
  var rateTarget: Double? = nil

  var oursRate: Double { Double(bytes) / ours / 1e6 }
  var peerRate: Double? { peer.map { Double(bytes) / $0 / 1e6 } }
  var ratio: Double? { peerRate.map { oursRate / $0 } }
  var meetsTarget: Bool? {
    if let rateTarget { return oursRate >= rateTarget }
    guard let target, let ratio else { return nil }
    return ratio >= target
  }

  /// The target as the table writes it.
  var targetText: String? {
    if let rateTarget { return String(format: "≥ %.0f MB/s", rateTarget) }
    // One decimal unless the target has two (0.95).
    return target.map {
      String(format: ($0 * 10).rounded() == $0 * 10 ? "≥ %.1f×" : "≥ %.2f×", $0)
    }
  }

  static var header: String {
    "operation".padding(30) + "input".padding(16) + "ours MB/s".padding(11) + "peer".padding(30)
      + "peer MB/s".padding(11) + "ratio".padding(8) + "target"
  }

  var line: String {
    var text = operation.padding(30) + input.padding(16) + format(oursRate).padding(11)
    if let peerName, let peerRate, let ratio {
      text += peerName.padding(30) + format(peerRate).padding(11)
      text += String(format: "%.2f×", ratio).padding(8)
      if let targetText, let meets = meetsTarget {
        text += targetText + (meets ? " met" : " NOT MET")
      }
    }
    return text
  }

  func format(_ rate: Double) -> String {
    rate >= 100 ? String(format: "%.0f", rate) : String(format: "%.1f", rate)
  }
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
