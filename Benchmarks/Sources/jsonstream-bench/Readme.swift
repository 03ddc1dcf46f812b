import Foundation

// The tables in Benchmarks/README.md are written by the runs that measured them, each between
// its markers and under a line saying when and on what: no figure there is typed by hand.

enum Readme {
  /// `Benchmarks/README.md` of this package.
  static var path: String { packageRoot.appendingPathComponent("Benchmarks/README.md").path }
  /// The package's own README, which quotes a few rows of the main table.
  static var packageReadme: String { packageRoot.appendingPathComponent("README.md").path }

  /// Replaces the text between `<!-- NAME: written by COMMAND -->` and `<!-- end of NAME -->`
  /// of the file at `path` with `lines` in a code block, under the date and the machine.
  static func write(
    table name: String, command: String, lines: [String], in path: String = Readme.path
  ) throws {
    let begin = "<!-- \(name): written by \(command) -->"
    let end = "<!-- end of \(name) -->"
    var text = try String(contentsOfFile: path, encoding: .utf8)
    guard let start = text.range(of: begin), let stop = text.range(of: end) else {
      throw BenchmarkFailure(
        description: "\(path) has no markers for the \(name); add these lines where it goes:\n"
          + "\(begin)\n\(end)")
    }
    let block = "\n\(measuredLine())\n\n```\n\(lines.joined(separator: "\n"))\n```\n"
    text.replaceSubrange(start.upperBound..<stop.lowerBound, with: block)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    print("(written into \(path))")
  }

  /// `Measured on 2026-11-28: CPU (2 cores, 23 GiB), OS, Swift 6.3.1.`
  static func measuredLine() -> String {
    "Measured on \(today()): \(machine())."
  }

  /// The processor, its cores and memory, the operating system and the toolchain.
  static func machine() -> String {
    let info = ProcessInfo.processInfo
    let cpu =
      firstValue(in: "/proc/cpuinfo", key: "model name")
      ?? "\(info.processorCount)-core processor"
    var parts = ["\(cpu) (\(info.processorCount) cores, \(info.physicalMemory >> 30) GiB)"]
    let system =
      firstValue(in: "/etc/os-release", key: "PRETTY_NAME")?.trimmingCharacters(
        in: CharacterSet(charactersIn: "\""))
      ?? info.operatingSystemVersionString
    parts.append(system)
    parts.append(swiftVersion())
    return parts.joined(separator: ", ")
  }

  /// The date, as `yyyy-MM-dd` in UTC.
  static func today() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }

  /// The value of the first `key: value` (or `key=value`) line of a text file.
  static func firstValue(in file: String, key: String) -> String? {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(key) {
      let rest = line.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
      guard let separator = rest.first, separator == ":" || separator == "=" else { continue }
      return rest.dropFirst().trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  /// The Swift compiler this benchmark was built with.
  static func swiftVersion() -> String {
    #if compiler(>=6.4)
      return "Swift 6.4 or later"
    #elseif compiler(>=6.3)
      return "Swift 6.3"
    #elseif compiler(>=6.2)
      return "Swift 6.2"
    #elseif compiler(>=6.1)
      return "Swift 6.1"
    #else
      return "Swift 6.0"
    #endif
  }
}
