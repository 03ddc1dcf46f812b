import Foundation
import JSONStreamFoundation
import Testing

/// The coding paths a type sees while it decodes, and those errors carry, are Foundation's:
/// through keyed and unkeyed containers, nested containers, super decoders, and after a
/// child has decoded (its key is gone again).
@Suite("Coding paths")
struct CodingPathTests {
  /// Where each `init(from:)` was, and what its containers said, in decoding order.
  final class Seen: @unchecked Sendable {
    var paths: [String] = []
    func note(_ label: String, _ path: [any CodingKey]) {
      paths.append(
        label + " "
          + path.map { $0.intValue.map(String.init) ?? $0.stringValue }
          .joined(separator: "/"))
    }
  }
  static let seenKey = CodingUserInfoKey(rawValue: "seen")!

  struct Leaf: Decodable {
    init(from decoder: any Decoder) throws {
      let seen = decoder.userInfo[CodingPathTests.seenKey] as! Seen
      seen.note("leaf", decoder.codingPath)
      let value = try decoder.singleValueContainer()
      seen.note("leaf value", value.codingPath)
      _ = try value.decode(Int.self)
    }
  }

  struct Node: Decodable {
    enum Keys: String, CodingKey { case leaf, list, nested, sup, after }
    enum Inner: String, CodingKey { case deep }
    init(from decoder: any Decoder) throws {
      let seen = decoder.userInfo[CodingPathTests.seenKey] as! Seen
      seen.note("node", decoder.codingPath)
      let keyed = try decoder.container(keyedBy: Keys.self)
      _ = try keyed.decode(Leaf.self, forKey: .leaf)
      seen.note("node after leaf", keyed.codingPath)
      var list = try keyed.nestedUnkeyedContainer(forKey: .list)
      seen.note("list", list.codingPath)
      while !list.isAtEnd { _ = try list.decode(Leaf.self) }
      let nested = try keyed.nestedContainer(keyedBy: Inner.self, forKey: .nested)
      seen.note("nested", nested.codingPath)
      _ = try nested.decode([Leaf].self, forKey: .deep)
      let sup = try keyed.superDecoder(forKey: .sup)
      seen.note("super", sup.codingPath)
      _ = try Leaf(from: sup)
      if keyed.contains(.after) { _ = try keyed.decode(Node.self, forKey: .after) }
      seen.note("node end", decoder.codingPath)
    }
  }

  static let document = #"""
    {"leaf": 1, "list": [2, 3], "nested": {"deep": [4]}, "sup": 5,
     "after": {"leaf": 6, "list": [], "nested": {"deep": [7, 8]}, "sup": 9}}
    """#

  func paths(_ decode: (Data, [CodingUserInfoKey: any Sendable]) throws -> Void) throws -> [String]
  {
    let seen = Seen()
    try decode(Data(Self.document.utf8), [Self.seenKey: seen])
    return seen.paths
  }

  @Test("init(from:) and its containers see the paths Foundation gives")
  func sameAsFoundation() throws {
    let foundation = try paths { data, info in
      let decoder = JSONDecoder()
      decoder.userInfo = info
      _ = try decoder.decode(Node.self, from: data)
    }
    let ours = try paths { data, info in
      let decoder = JSONStreamDecoder()
      decoder.userInfo = info
      _ = try decoder.decode(Node.self, from: data)
    }
    #expect(ours == foundation)
    #expect(ours.contains("leaf after/nested/deep/1"))
  }

  struct Outer: Decodable {
    var items: [Item]
    struct Item: Decodable {
      var name: String
      var tags: [String: Int]
    }
  }

  @Test(
    "an error deep inside is at Foundation's path",
    arguments: [
      #"{"items": [{"name": "a", "tags": {}}, {"name": "b", "tags": {"x": "one"}}]}"#,
      #"{"items": [{"name": "a", "tags": {}}, {"tags": {}}]}"#,
      #"{"items": [{"name": 3, "tags": {}}]}"#,
      #"{"items": [{"name": "a", "tags": {"y": null}}]}"#,
    ])
  func errorPaths(_ text: String) throws {
    func path(_ body: () throws -> Void) -> [String] {
      do {
        try body()
      } catch let DecodingError.typeMismatch(_, context),
        let DecodingError.valueNotFound(_, context),
        let DecodingError.keyNotFound(_, context)
      {
        return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      } catch {
        return ["unexpected: \(error)"]
      }
      return ["no error"]
    }
    let data = Data(text.utf8)
    let foundation = path { _ = try JSONDecoder().decode(Outer.self, from: data) }
    let ours = path { _ = try JSONStreamDecoder().decode(Outer.self, from: data) }
    #expect(ours == foundation)
    #expect(foundation.count >= 2)
  }
}
