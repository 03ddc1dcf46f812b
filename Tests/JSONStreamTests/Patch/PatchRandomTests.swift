import JSONStream
import JSONStreamTestSupport
import Testing

/// Random operations over random documents, with a fixed seed: nothing traps, a failure
/// changes nothing, a success does what the pointer functions say.
@Suite("JSON Patch, random operations")
struct PatchRandomTests {
  @Test("thousands of random operations: no trap, and a failure leaves the document as it was")
  func randomOperations() throws {
    var generator = PatchGenerator(seed: 0x5EED_27_04)
    var applied = 0
    var failed = 0
    for _ in 0..<800 {
      var document = generator.value()
      for _ in 0..<10 {
        let before = document
        let count = generator.int(1..<4)
        var operations: [JSONPatch.Operation] = []
        var shadow = document
        for _ in 0..<count { operations.append(generator.operation(on: shadow)) }
        do {
          try document.apply(JSONPatch(operations))
          applied += 1
          // The same, one operation at a time.
          for operation in operations { try shadow.apply([operation]) }
          #expect(shadow == document, "\(operations)")
        } catch {
          failed += 1
          #expect(document == before, "\(operations): \(error)")
          #expect(error.operationIndex != nil && !error.description.isEmpty)
        }
        // The pointer functions: set then read back; remove then it is gone (or failed).
        let path = generator.pointer(in: document)
        var copy = document
        let value = generator.value(depth: 1)
        do {
          try copy.set(value, at: path)
          if path.lastToken != "-" { #expect(copy.value(at: path) == value, "\(path)") }
        } catch {
          #expect(copy == document)
        }
        copy = document
        do {
          let removed = try copy.removeValue(at: path)
          #expect(document.value(at: path) == removed)
        } catch {
          #expect(copy == document)
          #expect(path.isRoot || document.value(at: path) == nil)
        }
      }
    }
    #expect(applied > 500 && failed > 2000, "\(applied) applied, \(failed) failed")
  }
}
