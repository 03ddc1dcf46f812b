import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

@Suite("Snapshots of incomplete documents")
struct SnapshotTests {
  /// Feeds `text` in chunks of `chunkSize` bytes, taking a snapshot after each chunk; returns
  /// the snapshots with their text when taken, and the builder's snapshot work. With
  /// `reference`, each snapshot's third part is the snapshot of a parser fed the same prefix
  /// in one piece, which shares nothing with earlier snapshots.
  func followed(
    _ text: String, _ options: JSONSnapshotOptions = .partialStrings, chunkSize: Int = 1,
    reference: Bool = false
  ) throws -> (snapshots: [(JSONValue?, String?, JSONValue?)], work: Int, final: JSONValue?) {
    var parser = JSONParser(handler: JSONTreeBuilder())
    var snapshots: [(JSONValue?, String?, JSONValue?)] = []
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: chunkSize) {
      let end = min(start + chunkSize, bytes.count)
      try parser.feed(bytes[start..<end])
      let snapshot = parser.snapshot(including: options)
      var expected: JSONValue? = nil
      if reference {
        var fresh = JSONParser(handler: JSONTreeBuilder())
        try fresh.feed(bytes[..<end])
        expected = fresh.snapshot(including: options)
      }
      snapshots.append((snapshot, try snapshot?.jsonString(), expected))
    }
    try parser.finish()
    return (snapshots, parser.handler._snapshotWork, parser.handler.value)
  }

  static let documents = [
    #"{"city":"Paris","days":[1,2,3],"notes":"a \"quoted\" word, é and 😀","nested":{"a":[{"b":null}],"c":true}}"#,
    #"[["x","y"],[],{},[{"k":"v"}],"last"]"#,
    #"[{"b":[true,false,null],"a":{"x":9,"k30":30,"k31":31},"c":[[1,2],[3,4,5],{"y":[6]}]}]"#,
    #""a top-level string""#,
    #"{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18,"k19":19,"k20":20,"k21":21,"k22":22,"k23":23,"k24":24,"k25":25,"k26":26,"k27":27,"k28":28,"k29":29,"k30":30,"k31":31,"k32":32,"k33":"last"}"#,
  ]

  @Test(
    "every prefix gives a valid snapshot, snapshots never change, and they converge",
    arguments: documents)
  func prefixes(text: String) throws {
    // Chunks of more than one byte close a container and open the next at its level between
    // two snapshots: the mirror of the closed one must not be reused.
    let optionSets: [JSONSnapshotOptions] = [
      .partialStrings, [], [.partialStrings, .partialNumbers],
    ]
    for options in optionSets {
      for chunkSize in [1, 2, 3, 7, 13] {
        let (snapshots, _, final) = try followed(
          text, options, chunkSize: chunkSize, reference: true)
        for (value, written, expected) in snapshots {
          // What a parser fed the prefix at once shows…
          #expect(value == expected)
          guard let value else { continue }
          // Valid JSON that reads back as the same value…
          #expect(try JSONValue(parsing: written!) == value)
          // …and unchanged by everything parsed after it.
          #expect(try value.jsonString() == written)
        }
        #expect(snapshots.last?.0 == final)
        #expect(final == (try JSONValue(parsing: text)))
      }
    }
  }

  @Test("what shows while a document streams in")
  func stages() throws {
    var parser = JSONParser(handler: JSONTreeBuilder())
    func after(_ chunk: String, _ options: JSONSnapshotOptions = .partialStrings) throws -> String?
    {
      try parser.feed(Array(chunk.utf8))
      return try parser.snapshot(including: options)?.jsonString()
    }
    #expect(try after("") == nil)
    #expect(try after(#"{"ci"#) == "{}")  // an incomplete key: its member is left out
    #expect(try after(#"ty":"#) == "{}")  // a key without a value yet
    #expect(try after(#""Pa"#) == #"{"city":"Pa"}"#)
    #expect(try after(#"ris","days":[1,2"#) == #"{"city":"Paris","days":[1]}"#)
    #expect(try after("", [.partialNumbers]) == #"{"city":"Paris","days":[1,2]}"#)
    #expect(try after("", []) == #"{"city":"Paris","days":[1]}"#)
    #expect(try after(#"3,{"ok":tr"#) == #"{"city":"Paris","days":[1,23,{}]}"#)
    #expect(try after(#"ue}],"é":"\u00"#) == #"{"city":"Paris","days":[1,23,{"ok":true}],"é":""}"#)
    #expect(try after(#"e9 😀"#) == #"{"city":"Paris","days":[1,23,{"ok":true}],"é":"é 😀"}"#)
    #expect(try after(#""}"#) == #"{"city":"Paris","days":[1,23,{"ok":true}],"é":"é 😀"}"#)
    // Looked up like any object, including the open member.
    try parser.finish()
    #expect(parser.snapshot()?["days"]?[2]?["ok"] == true)
  }

  @Test(
    "a snapshot after every byte costs O(N) in all: the work grows with N, not N²", .hugeInput,
    .tags(.hugeInput))
  func linearCost() throws {
    func shapes(_ size: Int) -> [(String, String)] {
      [
        ("a long string", "\"" + String(repeating: "streamed text ", count: size / 14) + "\""),
        (
          "an array of strings",
          "[" + (0..<size / 8).map { "\"s\($0)\"" }.joined(separator: ",") + "]"
        ),
        (
          "an array of numbers",
          "[" + (0..<size / 6).map { "\($0 * 7)" }.joined(separator: ",") + "]"
        ),
        (
          "a wide object",
          "{" + (0..<size / 12).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        ),
        // 40 levels, then a long array at the bottom: a header per level per snapshot.
        (
          "deep, then wide",
          String(repeating: "[{\"a\":", count: 40) + "["
            + (0..<size / 4).map { "\($0 % 10)" }
            .joined(separator: ",") + "]" + String(repeating: "}]", count: 40)
        ),
      ]
    }
    for ((name, small), (_, large)) in zip(shapes(2_000), shapes(16_000)) {
      let smallWork = try followed(small).work
      let largeWork = try followed(large).work
      let growth = Double(largeWork) / Double(smallWork)
      let bytes = Double(large.utf8.count) / Double(small.utf8.count)
      // Linear: work grows like the input (×8 here); quadratic would be ×64.
      #expect(growth < bytes * 1.5, "\(name): work \(smallWork) → \(largeWork)")
      if !name.hasPrefix("deep") {
        #expect(
          largeWork <= 12 * large.utf8.count, "\(name): \(largeWork) for \(large.utf8.count) bytes")
      }
    }
  }

  @Test("a long number shown as it grows costs its length, not its length squared")
  func longPartialNumber() throws {
    var options = JSONParseOptions()
    options.limits.maxNumberLength = 100_000
    var parser = JSONParser(handler: JSONTreeBuilder(), options: options)
    let digits = Array("[-0.".utf8) + Array(repeating: UInt8(ascii: "7"), count: 20_000)
    var shown = 0
    for byte in digits {
      try parser.feed([byte])
      if case .array(let array) = parser.snapshot(including: .partialNumbers), !array.isEmpty {
        shown += 1
      }
    }
    // Shown at "-0" and after every digit; not before, nor at "-0." (not a number yet).
    #expect(shown == digits.count - 3)
    guard case .array(let array) = parser.snapshot(including: .partialNumbers),
      case .number(let number)? = array.first
    else {
      Issue.record("no number shown")
      return
    }
    #expect(number.description.utf8.count == digits.count - 1)
    try parser.feed(Array("]".utf8))
    try parser.finish()
    // About 6 per byte: the byte, its share of the doubling copies, a header per snapshot.
    #expect(parser.handler._snapshotWork <= 8 * digits.count, "\(parser.handler._snapshotWork)")
  }
}
