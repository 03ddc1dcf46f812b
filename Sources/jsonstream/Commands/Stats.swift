import JSONStream

/// `jsonstream stats`: what the input holds, in one streaming pass and bounded memory.
func runStats(_ arguments: Arguments, input: ByteInput, output: ByteOutput) throws -> Int32 {
  let clock = ContinuousClock()
  let start = clock.now
  var parser = JSONParser(handler: StatsCollector(), options: arguments.options)
  if let error = try parseInput(input, into: &parser) {
    report(error, in: input, arguments)
    return 1
  }
  let elapsed = clock.now - start
  let seconds =
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let report = StatsReport(
    name: input.name, bytes: input.bytesRead, seconds: seconds, stats: parser.handler,
    top: arguments.top)
  output.write(arguments.json ? report.json() : report.text())
  output.flush()
  return 0
}

/// Counts as the events go by. Memory: the open containers' frames and the key counter's
/// bounded table.
struct StatsCollector: JSONEventHandler {
  struct Frame {
    var isArray: Bool
    /// Elements or members so far.
    var count = 0
    /// The key of the member being read (objects).
    var key = ""
  }

  /// A size and where it is (a JSON Pointer); size -1 when none was seen.
  struct Largest {
    var size = -1
    var pointer = ""
  }

  var objects = 0
  var arrays = 0
  var strings = 0
  var numbers = 0
  var integers = 0
  var booleans = 0
  var nulls = 0
  var keys = 0
  var topLevelValues = 0
  var maxDepth = 0
  var longestString = Largest()
  var largestArray = Largest()
  var largestObject = Largest()
  var keyCounts = KeyCounter()
  var frames: [Frame] = []

  /// A value begins: it is the next element of an array, or a top-level value.
  mutating func beginValue() {
    if frames.isEmpty {
      topLevelValues += 1
    } else if frames[frames.count - 1].isArray {
      frames[frames.count - 1].count += 1
    }
  }

  /// The pointer of the value being read (the innermost frame's current element or member).
  func pointer() -> String {
    frames.map { $0.isArray ? JSONPathComponent.index($0.count - 1) : .key($0.key) }.jsonPointer
  }

  mutating func startContainer(isArray: Bool) {
    beginValue()
    if isArray { arrays += 1 } else { objects += 1 }
    frames.append(Frame(isArray: isArray))
    maxDepth = max(maxDepth, frames.count)
  }

  mutating func endContainer() {
    let frame = frames.removeLast()
    if frame.isArray {
      if frame.count > largestArray.size {
        largestArray = Largest(size: frame.count, pointer: pointer())
      }
    } else if frame.count > largestObject.size {
      largestObject = Largest(size: frame.count, pointer: pointer())
    }
  }

  mutating func startObject() { startContainer(isArray: false) }
  mutating func startArray() { startContainer(isArray: true) }
  mutating func endObject() { endContainer() }
  mutating func endArray() { endContainer() }

  mutating func key(_ key: borrowing JSONString) {
    keys += 1
    let text = key.string
    keyCounts.add(text)
    frames[frames.count - 1].count += 1
    frames[frames.count - 1].key = text
  }

  mutating func string(_ value: borrowing JSONString) {
    beginValue()
    strings += 1
    if value.count > longestString.size {
      longestString = Largest(size: value.count, pointer: pointer())
    }
  }

  mutating func number(_ value: borrowing JSONNumber) {
    beginValue()
    numbers += 1
    if value.isIntegerLiteral { integers += 1 }
  }

  mutating func bool(_ value: Bool) {
    beginValue()
    booleans += 1
  }

  mutating func null() {
    beginValue()
    nulls += 1
  }
}

/// Key frequencies in bounded memory (Misra–Gries): exact while there are at most `capacity`
/// distinct keys; beyond, every count is a lower bound within `total / (capacity + 1)` of the
/// truth, and the keys more frequent than that are all kept.
struct KeyCounter {
  let capacity = 65_536
  private(set) var counts: [String: Int] = [:]
  private(set) var approximate = false

  mutating func add(_ key: String) {
    if let count = counts[key] {
      counts[key] = count + 1
    } else if counts.count < capacity {
      counts[key] = 1
    } else {
      // Full: this key and one of each kept key cancel out.
      approximate = true
      counts = counts.compactMapValues { $0 > 1 ? $0 - 1 : nil }
    }
  }

  /// The `n` most frequent keys, most frequent first (ties in key order).
  func top(_ n: Int) -> [(key: String, count: Int)] {
    counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .prefix(n).map { ($0.key, $0.value) }
  }
}

/// The report, as text or JSON.
struct StatsReport {
  let name: String
  let bytes: Int
  let seconds: Double
  let stats: StatsCollector
  let top: Int

  var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1e6 / seconds : 0 }

  func text() -> String {
    let s = stats
    func row(_ label: String, _ value: String) -> String { "  " + label.padding(16) + value + "\n" }
    func located(_ largest: StatsCollector.Largest, _ unit: String) -> String {
      largest.size < 0
        ? "none"
        : "\(largest.size) \(unit) at \(largest.pointer.isEmpty ? "the top" : largest.pointer)"
    }
    var text = "\(name)\n"
    text += row("bytes", "\(bytes) in \(format(seconds)) s (\(format(megabytesPerSecond)) MB/s)")
    text += row(
      "values",
      "\(s.objects + s.arrays + s.strings + s.numbers + s.booleans + s.nulls)"
        + (s.topLevelValues > 1 ? " in \(s.topLevelValues) top-level values" : ""))
    text += row("  objects", "\(s.objects)")
    text += row("  arrays", "\(s.arrays)")
    text += row("  strings", "\(s.strings)")
    text += row("  numbers", "\(s.numbers) (\(s.integers) integers)")
    text += row("  booleans", "\(s.booleans)")
    text += row("  nulls", "\(s.nulls)")
    let distinct =
      s.keyCounts.approximate ? "over \(s.keyCounts.capacity)" : "\(s.keyCounts.counts.count)"
    text += row("keys", "\(s.keys) (\(distinct) distinct)")
    text += row("max depth", "\(s.maxDepth)")
    text += row("longest string", located(s.longestString, "bytes"))
    text += row("largest array", located(s.largestArray, "elements"))
    text += row("largest object", located(s.largestObject, "members"))
    let frequent = s.keyCounts.top(top)
    if !frequent.isEmpty {
      text +=
        "  most frequent keys" + (s.keyCounts.approximate ? " (approximate counts)" : "") + ":\n"
      for (key, count) in frequent {
        text += "    " + String(count).padding(10) + key.jsonStringLiteral() + "\n"
      }
    }
    return text
  }

  func json() -> String {
    let s = stats
    func largest(_ value: StatsCollector.Largest) -> String {
      value.size < 0
        ? "null" : "{\"size\":\(value.size),\"pointer\":\(value.pointer.jsonStringLiteral())}"
    }
    var text = "{\"file\":\(name.jsonStringLiteral()),\"bytes\":\(bytes),"
    text += "\"seconds\":\(format(seconds)),"
    text += "\"values\":{\"objects\":\(s.objects),\"arrays\":\(s.arrays),\"strings\":\(s.strings),"
    text += "\"numbers\":\(s.numbers),\"integers\":\(s.integers),\"booleans\":\(s.booleans),"
    text += "\"nulls\":\(s.nulls)},\"topLevelValues\":\(s.topLevelValues),"
    text += "\"keys\":\(s.keys),"
    text +=
      "\"distinctKeys\":\(s.keyCounts.approximate ? "null" : String(s.keyCounts.counts.count)),"
    text += "\"maxDepth\":\(s.maxDepth),\"longestString\":\(largest(s.longestString)),"
    text += "\"largestArray\":\(largest(s.largestArray)),"
    text += "\"largestObject\":\(largest(s.largestObject)),"
    text += "\"keyCountsApproximate\":\(s.keyCounts.approximate),\"topKeys\":["
    text += s.keyCounts.top(top).map {
      "{\"key\":\($0.key.jsonStringLiteral()),\"count\":\($0.count)}"
    }
    .joined(separator: ",")
    text += "]}\n"
    return text
  }

  /// Three decimals.
  func format(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
