import JSONStream
import JSONStreamTestSupport
import Testing

/// Editing one member writes every other member back byte for byte, number text included: on
/// the corpus documents, each container is edited at its positions and written, and the
/// output must be the container's original text with that one stretch replaced.
@Suite(
  "number text survives editing",
  .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"))
struct EditedNumberTextTests {
  @Test(
    "each position of each container, edited alone",
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func everyPosition(name: String) throws {
    let document = try JSONValue(parsing: SharedData.corpusFile(name))
    var containers = 0
    var edits = 0
    var pending = [document]
    while let container = pending.popLast() {
      guard let parts = try Parts(container) else { continue }
      containers += 1
      #expect(try parts.text() == container.jsonString(), "\(name): a view writes its text")
      for position in Self.positions(count: parts.pieces.count) {
        var edited = container
        let key = parts.keys[position]
        if let key { edited[key] = Self.marker } else { edited[position] = Self.marker }
        let expected = try parts.text(replacing: position, with: Self.markerText)
        #expect(try edited.jsonString() == expected, "\(name): position \(position)")
        edits += 1
      }
      switch container {
      case .array(let array): pending.append(contentsOf: array)
      case .object(let object): pending.append(contentsOf: object.values)
      default: break
      }
    }
    #expect(containers > 1000)
    #expect(edits > containers)
  }

  @Test(
    "deep edits from the root, through nested subscripts",
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func deepEdits(name: String) throws {
    let document = try JSONValue(parsing: SharedData.corpusFile(name))
    var generator = SplitMix(seed: 0x5EED)
    for _ in 0..<6 {
      // A random path from the root down to a scalar.
      var path: [Step] = []
      var node = document
      while true {
        switch node {
        case .array(let array) where !array.isEmpty:
          let index = Int(generator.next() % UInt64(array.count))
          path.append(.index(index))
          node = array[index]
          continue
        case .object(let object) where !object.isEmpty:
          let key = object[Int(generator.next() % UInt64(object.count))].key
          path.append(.key(key))
          node = object[key]!
          continue
        default: break
        }
        break
      }
      var edited = document
      Self.set(&edited, path[...])
      #expect(
        try edited.jsonString() == Self.expectedText(document, path[...]),
        "\(name): \(path)")
    }
  }

  static let marker: JSONValue = ["edited": true]
  static let markerText = #"{"edited":true}"#

  /// Every position of a container of up to 100, else 8 spread evenly, first and last
  /// included: a container's edit turns every untouched child alike, whichever was edited.
  static func positions(count: Int) -> [Int] {
    guard count > 100 else { return Array(0..<count) }
    return (0..<8).map { $0 * (count - 1) / 7 }
  }

  enum Step: CustomStringConvertible {
    case key(String)
    case index(Int)
    var description: String {
      switch self {
      case .key(let key): return "[\"\(key)\"]"
      case .index(let index): return "[\(index)]"
      }
    }
  }

  /// Sets the value at `path` through the subscripts' in-place accessors.
  static func set(_ value: inout JSONValue, _ path: ArraySlice<Step>) {
    guard let step = path.first else {
      value = marker
      return
    }
    switch step {
    case .key(let key): set(&value[key]!, path.dropFirst())
    case .index(let index): set(&value[index]!, path.dropFirst())
    }
  }

  /// The text of `value` with the value at `path` replaced by the marker.
  static func expectedText(_ value: JSONValue, _ path: ArraySlice<Step>) throws -> String {
    guard let step = path.first, let parts = try Parts(value) else { return markerText }
    let position: Int
    let child: JSONValue
    switch step {
    case .key(let key):
      position = value.objectValue!.index(forKey: key)!
      child = value[key]!
    case .index(let index):
      position = index
      child = value[index]!
    }
    return try parts.text(
      replacing: position, with: expectedText(child, path.dropFirst()))
  }
}

/// A container's compact text in parts: each child's text (with its key, for an object), as
/// the writer writes them.
private struct Parts {
  var open: String
  var close: String
  var keys: [String?]
  var pieces: [String]

  init?(_ value: JSONValue) throws {
    switch value {
    case .array(let array):
      (open, close) = ("[", "]")
      keys = Array(repeating: nil, count: array.count)
      pieces = try array.map { try $0.jsonString() }
    case .object(let object):
      (open, close) = ("{", "}")
      keys = object.keys
      pieces = try object.map {
        try JSONValue.string($0.key).jsonString() + ":" + $0.value.jsonString()
      }
    default:
      return nil
    }
  }

  func text(replacing position: Int? = nil, with replacement: String = "") throws -> String {
    var pieces = pieces
    if let position {
      let keyText = try keys[position].map { try JSONValue.string($0).jsonString() + ":" } ?? ""
      pieces[position] = keyText + replacement
    }
    return open + pieces.joined(separator: ",") + close
  }
}
