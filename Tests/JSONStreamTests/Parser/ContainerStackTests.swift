import JSONStreamTestSupport
import Testing

@testable import JSONStream
@testable import JSONStreamBinary
@testable import JSONStreamCore
@testable import JSONStreamParser
@testable import JSONStreamPath
@testable import JSONStreamValue
@testable import JSONStreamWriter

/// The bit-packed container stack against an `[Bool]`, across the 64-level word boundaries.
@Suite("Container stack")
struct ContainerStackTests {
  @Test("push and pop agree with an array model, up and down across every word boundary")
  func againstModel() {
    var random = SplitMix(seed: 0x5354_4143_4B)
    var stack = _ContainerStack()
    var model: [Bool] = []
    // Climb to 300 levels and back down twice, with random turns on the way, so every depth
    // around 64, 128, 192 and 256 is entered from below and from above.
    for target in [300, 0, 200, 0] {
      while model.count != target {
        let goUp = model.count < target ? random.next() % 4 != 0 : random.next() % 4 == 0
        if goUp || model.isEmpty {
          let isObject = random.next() % 2 == 0
          stack.push(isObject: isObject)
          model.append(isObject)
        } else {
          #expect(stack.pop() == model.removeLast())
        }
        #expect(stack.depth == model.count)
        #expect(stack.isEmpty == model.isEmpty)
        #expect(stack.innermostIsObject == (model.last ?? false))
      }
    }
  }

  @Test("a document nested across word boundaries parses, and its errors count the open containers")
  func deepDocuments() throws {
    for depth in [63, 64, 65, 127, 128, 129] {
      let opening = (0..<depth).map { $0 % 3 == 0 ? "{\"k\":" : "[" }.joined()
      let closing = (0..<depth).reversed().map { $0 % 3 == 0 ? "}" : "]" }.joined()
      let recorder = try JSONParser.parse(
        Array((opening + "1" + closing).utf8), handler: EventRecorder())
      // An object level is start, key and end; an array level start and end; then the number.
      let expected = (0..<depth).map { $0 % 3 == 0 ? 3 : 2 }.reduce(1, +)
      #expect(recorder.events.count == expected)
      #expect(throws: JSONParseError.self) {
        try JSONParser.parse(Array((opening + "1").utf8), handler: EventRecorder())
      }
      do {
        _ = try JSONParser.parse(Array((opening + "1").utf8), handler: EventRecorder())
      } catch let error as JSONParseError {
        #expect(error.message.contains("\(depth) open containers"))
      }
    }
  }
}
