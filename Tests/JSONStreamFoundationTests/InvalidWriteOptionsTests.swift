import Foundation
import JSONStream
import JSONStreamFoundation
import Testing

/// The encoder writes through `JSONWriter`, so an invalid indent is an error, not a crash.
@Suite("Encoder invalid options")
struct InvalidWriteOptionsTests {
  struct Model: Codable {
    var name: String
    var items: [Int]
    var nested: [String: [Double]]
  }

  @Test("an invalid indent makes encode throw the writer's invalidOption error")
  func invalidIndent() {
    let model = Model(name: "x", items: [1, 2], nested: ["a": [1.5]])
    for indent in [-3, -1, Int.min, JSONWriteOptions.maxIndent + 1, Int.max] {
      let encoder = JSONStreamEncoder()
      encoder.writeOptions.indent = indent
      for sortKeys in [false, true] {
        encoder.writeOptions.sortKeys = sortKeys
        for encode in [
          { try encoder.encodeToBytes(model) }, { try encoder.encodeToBytes([model, model]) },
          { try encoder.encodeToBytes(7) }, { try encoder.encodeToBytes(["k": [1, 2]]) },
        ] as [() throws -> [UInt8]] {
          do {
            _ = try encode()
            Issue.record("no error for indent \(indent)")
          } catch let error as JSONWriterError {
            #expect(error.kind == .invalidOption)
            #expect(error.message.contains("indent is \(indent)"))
          } catch {
            Issue.record("unexpected error \(error)")
          }
        }
      }
    }
  }
}
