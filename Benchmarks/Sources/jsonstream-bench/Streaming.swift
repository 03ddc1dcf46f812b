import Foundation
import JSONStream

/// Streaming jobs over a file, run in a child process so that its peak resident set is the
/// job's alone: `jsonstream-bench --stream-job validate|reformat|reformat-pretty|
/// reformat-pretty-sorted FILE`.
enum StreamJob {
  struct Ignore: JSONEventHandler {}

  /// Reads `path` in 64 KiB chunks through the parser (and a writer to nowhere, for reformat).
  static func run(_ job: String, path: String) throws {
    guard let file = fopen(path, "r") else {
      throw BenchmarkFailure(description: "cannot open \(path)")
    }
    defer { fclose(file) }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
      while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n == 0 { return }
        try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
      }
    }
    switch job {
    case "validate":
      var parser = JSONParser(handler: Ignore())
      try forEachChunk { try parser.feed($0) }
      try parser.finish()
    default:
      var written = 0
      let sink = JSONChunkSink { written &+= $0.count }
      var options = job.hasPrefix("reformat-pretty") ? JSONWriteOptions.pretty : .compact
      options.sortKeys = job == "reformat-pretty-sorted"
      var parser = JSONParser(handler: JSONWriter(sink: sink, options: options))
      try forEachChunk { try parser.feed($0) }
      try parser.finish()
      try parser.handler.finish()
    }
  }

  /// The process's own peak resident set (VmHWM), in bytes. Not `ru_maxrss`: Linux carries the
  /// parent's high-water mark into a spawned child's across exec.
  static func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return -1
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
      return kilobytes * 1024
    }
    return -1
  }

  /// Runs a job in a child process; returns its wall time and its own peak RSS in bytes.
  static func measure(_ job: String, path: String) throws -> (seconds: Double, peakRSS: Int) {
    // posix_spawn + wait4 rather than Process: wait4 hands back the child's own rusage.
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("jsonstream-bench-rss-\(getpid())").path
    let arguments = [CommandLine.arguments[0], "--stream-job", job, path, report]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
    try require(spawned == 0, "cannot start the stream job (\(spawned))")
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let elapsed = ContinuousClock.now - start
    try require(status == 0, "stream job \(job) failed (status \(status))")
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let peak = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Int($0) } ?? -1
    try? FileManager.default.removeItem(atPath: report)
    try require(peak > 0, "stream job \(job) reported no peak RSS")
    return (seconds, peak)
  }
}
