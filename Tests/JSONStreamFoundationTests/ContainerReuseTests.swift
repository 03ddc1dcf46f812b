import Foundation
import JSONStream
import Testing

@testable import JSONStreamFoundation

/// Keyed containers share the decoder, and per depth the hint of where to look for the next
/// key (see `_KeyedContainer`). These models hold containers past the usual `init(from:)`
/// pattern: each must keep reading its own object.
@Suite("Keyed containers read their own objects, however long they are kept")
struct ContainerReuseTests {
  /// A tree: each node's container is busy while its children, with the same keys, decode.
  final class Node: Codable, Equatable {
    let name: String
    let children: [Node]
    let weight: Int

    static func == (a: Node, b: Node) -> Bool {
      a.name == b.name && a.children == b.children && a.weight == b.weight
    }
  }

  @Test("a recursive type decodes as Foundation decodes it")
  func recursive() throws {
    let json = Data(
      #"""
      {"name":"root","weight":1,"children":[
        {"name":"a","weight":2,"children":[{"name":"a1","weight":3,"children":[]}]},
        {"name":"b","weight":4,"children":[]},
        {"name":"c","weight":5,"children":[{"name":"c1","weight":6,"children":[
          {"name":"c11","weight":7,"children":[]}]}]}]}
      """#.utf8)
    let ours = try JSONStreamDecoder().decode(Node.self, from: json)
    #expect(ours == (try JSONDecoder().decode(Node.self, from: json)))
    #expect(ours.children[2].children[0].children[0].name == "c11")
  }

  /// Keeps its container and reads it later, after other values with the same keys decoded.
  struct Deferred: Decodable {
    enum Keys: String, CodingKey { case name, size }
    let container: KeyedDecodingContainer<Keys>

    init(from decoder: any Decoder) throws {
      container = try decoder.container(keyedBy: Keys.self)
    }

    func read() throws -> String {
      "\(try container.decode(String.self, forKey: .name))/\(try container.decode(Int.self, forKey: .size))"
    }
  }

  /// Reads its members' kept containers only after all of them decoded.
  struct Deferrals: Decodable {
    let readings: [String]

    init(from decoder: any Decoder) throws {
      var elements = try decoder.unkeyedContainer()
      var deferred: [Deferred] = []
      while !elements.isAtEnd { deferred.append(try elements.decode(Deferred.self)) }
      readings = try deferred.map { try $0.read() }
    }
  }

  @Test("a container kept by its value reads its own object, not the next one's")
  func keptContainers() throws {
    let json = Data(#"[{"name":"x","size":1},{"size":2,"name":"y"},{"name":"z","size":3}]"#.utf8)
    #expect(
      try JSONStreamDecoder().decode(Deferrals.self, from: json).readings == ["x/1", "y/2", "z/3"])
    #expect(try JSONDecoder().decode(Deferrals.self, from: json).readings == ["x/1", "y/2", "z/3"])
  }

  /// Keeps its root container: read after the decode call returned, and after other
  /// documents were decoded, it still reads its own document.
  @Test("a container kept past the decode call reads its document")
  func keptPastTheCall() throws {
    let decoder = JSONStreamDecoder()
    let kept = try decoder.decode(Deferred.self, from: Data(#"{"name":"root","size":7}"#.utf8))
    let list = try decoder.decode([Deferred].self, from: Data(#"[{"name":"a","size":1}]"#.utf8))
    for index in 0..<100 {
      _ = try decoder.decode(
        [String: Int].self, from: Data(#"{"n\#(index)":\#(index),"name":0,"size":1}"#.utf8))
    }
    #expect(try kept.read() == "root/7")
    #expect(try list[0].read() == "a/1")
  }

  /// Asks for a keyed container twice, and decodes a value of its own type between.
  struct Twice: Decodable, Equatable {
    enum Keys: String, CodingKey { case first, inner, last }
    let first: Int
    let inner: [Twice]
    let last: Int

    init(from decoder: any Decoder) throws {
      let one = try decoder.container(keyedBy: Keys.self)
      first = try one.decode(Int.self, forKey: .first)
      inner = try one.decodeIfPresent([Twice].self, forKey: .inner) ?? []
      let two = try decoder.container(keyedBy: Keys.self)
      last = try two.decode(Int.self, forKey: .last)
      // The first container still reads this object.
      guard try one.decode(Int.self, forKey: .last) == last else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: one.codingPath, debugDescription: "moved"))
      }
    }
  }

  @Test("two containers of one value, with values of the same type between")
  func twice() throws {
    let json = Data(
      #"{"first":1,"inner":[{"first":2,"last":3},{"first":4,"inner":[{"first":5,"last":6}],"last":7}],"last":8}"#
        .utf8)
    let ours = try JSONStreamDecoder().decode(Twice.self, from: json)
    #expect(ours == (try JSONDecoder().decode(Twice.self, from: json)))
    #expect(ours.inner[1].inner[0].last == 6)
  }

  /// A chain as deep as the parser allows by default: each link's container is busy while
  /// the next decodes, deeper than the decoder has hint slots.
  final class Link: Decodable {
    let depth: Int
    let next: Link?
  }

  @Test("a deep recursive chain: each link its own object")
  func deepChain() throws {
    let depth = 400
    var json = ""
    for index in 0..<depth { json += #"{"depth":\#(index),"next":"# }
    json += "null" + String(repeating: "}", count: depth)
    var link: Link? = try JSONStreamDecoder().decode(Link.self, from: Data(json.utf8))
    var expected = 0
    while let current = link {
      #expect(current.depth == expected)
      expected += 1
      link = current.next
    }
    #expect(expected == depth)
  }

  @Test("many containers kept by their values")
  func manyKept() throws {
    let count = 5_000
    let json =
      "[" + (0..<count).map { #"{"name":"n\#($0)","size":\#($0)}"# }.joined(separator: ",")
      + "]"
    let readings = try JSONStreamDecoder().decode(Deferrals.self, from: Data(json.utf8)).readings
    #expect(readings == (0..<count).map { "n\($0)/\($0)" })
  }

  /// Keeps its container, and watches its decoder.
  final class Watched: Decodable {
    let container: KeyedDecodingContainer<Deferred.Keys>
    weak var decoder: _Decoder?

    init(from decoder: any Decoder) throws {
      container = try decoder.container(keyedBy: Deferred.Keys.self)
      self.decoder = decoder as? _Decoder
    }
  }

  /// A container holds its decoder, and nothing holds the containers: a kept container holds
  /// the decoder until it is dropped, and no longer.
  @Test("a decoder lives as long as a container kept past the call, and no longer")
  func keptThenDropped() throws {
    var kept: Watched? = try JSONStreamDecoder().decode(
      Watched.self, from: Data(#"{"name":"kept","size":1}"#.utf8))
    #expect(kept?.decoder != nil)
    #expect(try kept?.container.decode(String.self, forKey: .name) == "kept")
    weak let decoder = kept?.decoder
    kept = nil
    #expect(decoder == nil)
  }

  /// With a key strategy the container has extras (its converted keys), which then hold the
  /// decoder for it: the same lifetime either way.
  @Test("with a key strategy, a kept container holds its decoder until it is dropped")
  func keptWithExtrasThenDropped() throws {
    let decoder = JSONStreamDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    var kept: Watched? = try decoder.decode(
      Watched.self, from: Data(#"{"name":"kept","size":2}"#.utf8))
    for index in 0..<50 {
      _ = try decoder.decode(
        [Deferred].self, from: Data(#"[{"name":"n\#(index)","size":\#(index)}]"#.utf8))
    }
    #expect(kept?.decoder != nil)
    #expect(try kept?.container.decode(String.self, forKey: .name) == "kept")
    #expect(try kept?.container.decode(Int.self, forKey: .size) == 2)
    weak let watched = kept?.decoder
    kept = nil
    #expect(watched == nil)
  }

  /// Reads a super decoder during the call, and watches both decoders.
  final class WatchedSuper: Decodable {
    weak var decoder: _Decoder?
    weak var inner: _Decoder?

    init(from decoder: any Decoder) throws {
      let inner = try decoder.container(keyedBy: Deferred.Keys.self).superDecoder(forKey: .name)
      // The container holds the super decoder while it lives.
      _ = try inner.container(keyedBy: Deferred.Keys.self).decode(String.self, forKey: .name)
      self.decoder = decoder as? _Decoder
      self.inner = inner as? _Decoder
    }
  }

  @Test("the decoder and its super decoders are freed once the call returns")
  func freedAfterTheCall() throws {
    let watched = try JSONStreamDecoder().decode(
      WatchedSuper.self, from: Data(#"{"name":{"name":"x"}}"#.utf8))
    #expect(watched.decoder == nil)
    #expect(watched.inner == nil)
  }

  /// Keeps a super decoder and reads it after the call: its containers are made then.
  struct KeptSuper: Decodable {
    enum Keys: String, CodingKey { case inner }
    let inner: any Decoder

    init(from decoder: any Decoder) throws {
      inner = try decoder.container(keyedBy: Keys.self).superDecoder(forKey: .inner)
    }

    func read() throws -> String {
      let container = try inner.container(keyedBy: ContainerReuseTests.Deferred.Keys.self)
      let nested = try container.nestedContainer(
        keyedBy: ContainerReuseTests.Deferred.Keys.self, forKey: .name)
      return try nested.decode(String.self, forKey: .name) + "/"
        + String(try container.decode(Int.self, forKey: .size))
    }
  }

  @Test("containers made after the call, from a kept super decoder, read their objects")
  func madeAfterTheCall() throws {
    let kept = try JSONStreamDecoder().decode(
      KeptSuper.self, from: Data(#"{"inner":{"name":{"name":"deep"},"size":5}}"#.utf8))
    for _ in 0..<3 { #expect(try kept.read() == "deep/5") }
  }

  /// Many key types, interleaved.
  @Test("forty key types, interleaved, each read from its own object")
  func manyKeyTypes() throws {
    let json = Data(
      ("[" + (0..<200).map { #"{"a\#($0 % 40)":\#($0)}"# }.joined(separator: ",") + "]").utf8)
    let values = try JSONStreamDecoder().decode([OneOfForty].self, from: json)
    #expect(values.map(\.value) == Array(0..<200))
  }

  /// The encoder finds each key type's container type in a table too.
  @Test("forty key types, interleaved, each written under its own key")
  func manyKeyTypesEncoded() throws {
    let values = (0..<200).map { OneOfForty(value: $0) }
    let ours = try JSONStreamEncoder().encode(values)
    #expect(ours == (try JSONEncoder().encode(values)))
    #expect(
      try JSONStreamDecoder().decode([OneOfForty].self, from: ours).map(\.value) == Array(0..<200))
  }

  /// A record whose members come in orders of their own: the hint of where to look for the
  /// next key is right for some keys and wrong for others.
  struct Record: Codable, Equatable {
    var id: Int
    var name: String
    var note: String?
    var size: Double
    var tags: [String]
    var flag: Bool?
    var inner: Inner?

    struct Inner: Codable, Equatable {
      var a: Int
      var b: String?
    }
  }

  /// The text of `record`, its members in `order` (names of `Record`'s keys, or others the
  /// type does not know), absent optionals left out.
  static func text(_ record: Record, order: [String]) -> String {
    var members: [String] = []
    for name in order {
      switch name {
      case "id": members.append(#""id":\#(record.id)"#)
      case "name": members.append(#""name":"\#(record.name)""#)
      case "note": if let note = record.note { members.append(#""note":"\#(note)""#) }
      case "size": members.append(#""size":\#(record.size)"#)
      case "tags":
        members.append(#""tags":["# + record.tags.map { #""\#($0)""# }.joined(separator: ",") + "]")
      case "flag": if let flag = record.flag { members.append(#""flag":\#(flag)"#) }
      case "inner":
        if let inner = record.inner {
          let b = inner.b.map { #","b":"\#($0)""# } ?? ""
          members.append(#""inner":{"a":\#(inner.a)\#(b)}"#)
        }
      default: members.append(#""\#(name)":0"#)
      }
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  @Test(
    "records in changing member orders, with absent and unknown members, decode as Foundation's")
  func memberOrders() throws {
    var state: UInt64 = 0x4F52_4445_5253
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    // Each run of records keeps one order, as a document from one encoder does; the runs
    // differ, and so do which optionals are present. Some orders carry unknown members, and
    // one is longer than the decoder remembers.
    let names = ["id", "name", "note", "size", "tags", "flag", "inner"]
    var parts: [String] = []
    var expected: [Record] = []
    for run in 0..<60 {
      var order = names
      for index in order.indices.reversed() { order.swapAt(index, next(index + 1)) }
      if run % 3 == 1 { order.insert("x\(run)", at: next(order.count + 1)) }
      if run % 10 == 7 { order += (0..<40).map { "pad\($0)" } }
      if run % 10 == 9 { order = (0..<40).map { "pad\($0)" } + order }
      for _ in 0..<(1 + next(6)) {
        let record = Record(
          id: expected.count, name: "r\(next(1000))", note: next(3) == 0 ? nil : "n\(next(9))",
          size: Double(next(1000)) / 4, tags: (0..<next(3)).map { "t\($0)" },
          flag: next(2) == 0 ? nil : next(2) == 0,
          inner: next(4) == 0 ? nil : Record.Inner(a: next(50), b: next(2) == 0 ? nil : "b"))
        parts.append(Self.text(record, order: order))
        expected.append(record)
      }
    }
    let json = Data(("[" + parts.joined(separator: ",") + "]").utf8)
    let ours = try JSONStreamDecoder().decode([Record].self, from: json)
    #expect(ours == expected)
    #expect(ours == (try JSONDecoder().decode([Record].self, from: json)))
  }
}

/// A value whose coding keys are one of 40 types, picked by the member's name (`a0`…`a39`).
struct OneOfForty: Codable {
  let value: Int

  init(value: Int) { self.value = value }

  func encode(to encoder: any Encoder) throws {
    try Self.writers[value % 40](encoder, value)
  }

  init(from decoder: any Decoder) throws {
    let name = try decoder.container(keyedBy: AnyKey.self).allKeys.first!.stringValue
    let index = Int(name.dropFirst())!
    value = try Self.readers[index](decoder)
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// A key type of its own per index, through a generic type over a marker.
  struct Key<Marker>: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  static func reader<Marker>(_ marker: Marker.Type, _ index: Int)
    -> @Sendable (any Decoder)
    throws -> Int
  {
    { decoder in
      try decoder.container(keyedBy: Key<Marker>.self).decode(
        Int.self, forKey: Key<Marker>(stringValue: "a\(index)"))
    }
  }

  static func writer<Marker>(_ marker: Marker.Type, _ index: Int)
    -> @Sendable (any Encoder, Int) throws -> Void
  {
    { encoder, value in
      var container = encoder.container(keyedBy: Key<Marker>.self)
      try container.encode(value, forKey: Key<Marker>(stringValue: "a\(index)"))
    }
  }

  static let writers: [@Sendable (any Encoder, Int) throws -> Void] = (0..<40).map { index in
    writer(marker(index), index)
  }

  static let readers: [@Sendable (any Decoder) throws -> Int] = (0..<40).map { index in
    reader(marker(index), index)
  }

  /// Forty distinct marker types: tuples of different arity and element types.
  static func marker(_ index: Int) -> Any.Type {
    let markers: [Any.Type] = [
      Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self,
      UInt32.self, UInt64.self, Float.self, Double.self, String.self, Bool.self, Character.self,
      Substring.self, [Int].self, [String].self, [Bool].self, [Double].self, Set<Int>.self,
      Set<String>.self, [Int: Int].self, [String: Int].self, Int?.self, String?.self, Bool?.self,
      Double?.self, (Int, Int).self, (Int, String).self, (String, Int).self, (Bool, Bool).self,
      [[Int]].self, [[String]].self, [Int?].self, [String?].self, Range<Int>.self,
      ClosedRange<Int>.self, Data.self, Date.self,
    ]
    return markers[index]
  }
}
