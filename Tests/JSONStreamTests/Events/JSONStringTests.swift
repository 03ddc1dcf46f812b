import JSONStream
import JSONStreamTestSupport
import Testing

@Suite("JSONString views")
struct JSONStringTests {
  struct Keys: JSONEventHandler {
    var matches: [Bool] = []
    var quoted: [String] = []
    mutating func key(_ key: borrowing JSONString) {
      matches.append(key == "id" && key.equals("id") && key == String("id") && key.count == 2)
      var out: [UInt8] = []
      key.appendQuoted(to: &out)
      quoted.append(String(decoding: out, as: UTF8.self))
    }
  }

  @Test("compare to known keys without making a String, escaped or not")
  func comparison() throws {
    let keys = try JSONParser.parse(
      Array(#"{"id": 1, "\u0069d": 2, "idx": 3, "": 4, "i": 5}"#.utf8), handler: Keys())
    #expect(keys.matches == [true, true, false, false, false])
  }

  /// The documented way to `switch` on a key: on its `string` (a literal pattern cannot match
  /// the noncopyable view itself).
  struct Fields: JSONEventHandler {
    enum Field: Equatable { case id, name, other }
    var fields: [Field] = []
    mutating func key(_ key: borrowing JSONString) {
      switch key.string {
      case "id": fields.append(.id)
      case "name", "title": fields.append(.name)
      default: fields.append(.other)
      }
    }
  }

  @Test("switch on key.string inside a handler")
  func switchOnString() throws {
    let handler = try JSONParser.parse(
      Array(#"{"id": 1, "title": "a", "n\u0061me": "b", "idx": [{"id": 2}], "é": 3}"#.utf8),
      handler: Fields())
    #expect(handler.fields == [.id, .name, .name, .other, .id, .other])
  }

  @Test("appendQuoted writes a JSON string literal")
  func quoting() throws {
    let keys = try JSONParser.parse(
      Array(#"{"a\"b\\c\/d\n\t\u0001\u001f\u007fé😀": 0}"#.utf8), handler: Keys())
    #expect(keys.quoted == ["\"a\\\"b\\\\c/d\\n\\t\\u0001\\u001f\u{7F}é😀\""])
  }
}
