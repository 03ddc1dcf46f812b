import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

/// A node of a linked structure: a chain, a shared instance or a cycle.
private final class LinkedNode: Encodable {
  var name: String
  var next: LinkedNode?
  init(_ name: String, next: LinkedNode? = nil) {
    self.name = name
    self.next = next
  }

  /// A chain of `count` nodes.
  static func chain(_ count: Int) -> LinkedNode {
    var head = LinkedNode("0")
    for index in 1..<count { head = LinkedNode("\(index)", next: head) }
    return head
  }
}

/// The debug description of the `EncodingError.invalidValue` that `body` throws, with its
/// coding path's keys; nil when it throws nothing or another error.
private func invalidValue(_ body: () throws -> Void) -> (message: String, path: [String])? {
  do {
    try body()
    return nil
  } catch EncodingError.invalidValue(_, let context) {
    return (context.debugDescription, context.codingPath.map(\.stringValue))
  } catch {
    return nil
  }
}

/// Values the stack cannot hold: the encoder refuses a reference cycle and a value nested
/// past `maxDepth` with an error, in every output, where Foundation's encoder overflows the
/// stack.
@Suite("JSONStreamEncoder: cycles and depth")
struct EncoderLimitTests {
  @Test("a reference cycle is refused at once, naming the type and the path, in every output")
  func cycle() throws {
    let first = LinkedNode("a")
    let second = LinkedNode("b", next: first)
    first.next = second
    let encoder = JSONStreamEncoder()
    let outputs: [(String, () throws -> Void)] = [
      ("JSON", { _ = try encoder.encode(first) }),
      ("bytes", { _ = try encoder.encodeToBytes(first) }),
      ("binary", { _ = try encoder.encodeBinary(first) }),
      ("JSONValue", { _ = try encoder.encodeToValue(first) }),
      ("in an array", { _ = try encoder.encode([first]) }),
    ]
    for (output, encode) in outputs {
      let error = try #require(invalidValue(encode), "\(output)")
      #expect(error.message.contains("reference cycle"), "\(output)")
      #expect(error.message.contains("LinkedNode"), "\(output)")
      #expect(error.path.suffix(2) == ["next", "next"], "\(output)")
    }
    // A node that refers to itself.
    let alone = LinkedNode("self")
    alone.next = alone
    #expect(invalidValue { _ = try encoder.encode(alone) }?.path == ["next"])
    first.next = nil
    alone.next = nil
  }

  @Test("one instance in two places is no cycle: it is written twice")
  func sharedInstance() throws {
    let shared = LinkedNode("shared")
    let pair = [LinkedNode("a", next: shared), LinkedNode("b", next: shared)]
    let text = try JSONStreamEncoder().encode(pair)
    #expect(
      String(decoding: text, as: UTF8.self)
        == #"[{"name":"a","next":{"name":"shared"}},{"name":"b","next":{"name":"shared"}}]"#)
    // Encoded again after an error, the same encoder starts afresh.
    let loop = LinkedNode("loop")
    loop.next = loop
    #expect(invalidValue { _ = try JSONStreamEncoder().encode(loop) } != nil)
    #expect(try JSONStreamEncoder().encode(pair) == text)
    loop.next = nil
  }

  @Test("nesting up to maxDepth is written; one level more is refused, and the limit can move")
  func depth() throws {
    let encoder = JSONStreamEncoder()
    #expect(encoder.maxDepth == 1_000)
    encoder.maxDepth = 50
    _ = try encoder.encode(LinkedNode.chain(50))
    let error = try #require(invalidValue { _ = try encoder.encode(LinkedNode.chain(51)) })
    #expect(error.message.contains("50 levels"))
    #expect(error.path.count == 50)
    #expect(invalidValue { _ = try encoder.encodeBinary(LinkedNode.chain(51)) } != nil)
    #expect(invalidValue { _ = try encoder.encodeToValue(LinkedNode.chain(51)) } != nil)
    encoder.maxDepth = 60
    _ = try encoder.encode(LinkedNode.chain(51))
    // The default holds the parser's default depth.
    _ = try JSONStreamEncoder().encode(LinkedNode.chain(1_000))
    #expect(invalidValue { _ = try JSONStreamEncoder().encode(LinkedNode.chain(1_001)) } != nil)
  }
}
