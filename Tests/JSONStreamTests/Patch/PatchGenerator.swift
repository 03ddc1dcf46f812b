import JSONStream
import JSONStreamTestSupport

/// Random documents and patch operations, from a seeded generator: some operations succeed,
/// many fail in every way there is (missing members, bad indexes, scalars on the way).
struct PatchGenerator {
  var random: SplitMix

  init(seed: UInt64) { random = SplitMix(seed: seed) }

  /// Keys that differ in ways that matter: escapes, empty, a precomposed and a decomposed é,
  /// one that looks like an index.
  static let keys = ["a", "b", "c", "", "~", "/", "a/b", "\u{E9}", "e\u{301}", "0", "-"]

  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
  mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

  mutating func scalar() -> JSONValue {
    switch int(0..<7) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return .number(JSONValue.Number(Int64(int(-3..<4))))
    case 3: return try! JSONValue(parsing: ["1.0", "1e0", "-0", "2.50", "1e400"][int(0..<5)])
    default: return .string(Self.keys[int(0..<Self.keys.count)])
    }
  }

  /// A document of at most `depth` levels.
  mutating func value(depth: Int = 4) -> JSONValue {
    guard depth > 0, chance(70) else { return scalar() }
    if chance(50) {
      return .array(JSONArray((0..<int(0..<4)).map { _ in value(depth: depth - 1) }))
    }
    var members: [(key: String, value: JSONValue)] = []
    for _ in 0..<int(0..<4) {
      let key = Self.keys[int(0..<Self.keys.count)]
      if !members.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) {
        members.append((key, value(depth: depth - 1)))
      }
    }
    return .object(JSONObject(members))
  }

  /// A pointer into `document`: mostly to a value there, sometimes past it, or to a member or
  /// index that is not there, or through a scalar.
  mutating func pointer(in document: JSONValue) -> JSONPointer {
    var pointer = JSONPointer.root
    var current = document
    while chance(75) {
      switch current {
      case .object(let object) where !object.isEmpty && chance(85):
        let (key, value) = object[int(0..<object.count)]
        pointer = pointer.appending(key)
        current = value
      case .array(let array) where !array.isEmpty && chance(85):
        let index = int(0..<array.count)
        pointer = pointer.appending(index)
        current = array[index]
      default:
        // Somewhere that may not be there.
        let tokens = Self.keys + ["1", "2", "3", "01", "1e0", "-1", "99999999999999999999"]
        return pointer.appending(tokens[int(0..<tokens.count)])
      }
    }
    return pointer
  }

  /// An operation on `document`; only `add`, `remove`, `replace` and `test` when
  /// `streamable`.
  mutating func operation(on document: JSONValue, streamable: Bool = false)
    -> JSONPatch.Operation
  {
    let path = pointer(in: document)
    switch int(0..<(streamable ? 4 : 6)) {
    case 0: return .add(path: path, value: value(depth: 2))
    case 1: return .remove(path: path)
    case 2: return .replace(path: path, value: value(depth: 2))
    case 3:
      // Often the value that is there, so that tests pass too.
      let expected = chance(60) ? (document.value(at: path) ?? .null) : value(depth: 2)
      return .test(path: path, value: expected)
    case 4: return .move(from: pointer(in: document), path: path)
    default: return .copy(from: pointer(in: document), path: path)
    }
  }
}
