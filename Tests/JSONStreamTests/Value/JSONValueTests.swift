import JSONStream
import JSONStreamTestSupport
import Testing

@Suite("JSONValue")
struct JSONValueTests {
  @Test("parse, subscripts and typed accessors")
  func access() throws {
    let value = try JSONValue(
      parsing: #"{"id": 7, "name": "Zoë", "ok": true, "none": null, "items": [{"sku": "A1"}, 2.5]}"#
    )
    #expect(value["id"]?.int64Value == 7)
    #expect(value["id"]?.intValue == 7)
    #expect(value["name"]?.stringValue == "Zoë")
    #expect(value["ok"]?.boolValue == true)
    #expect(value["none"]?.isNull == true)
    #expect(value["items"]?[0]?["sku"]?.stringValue == "A1")
    #expect(value["items"]?[1]?.doubleValue == 2.5)
    #expect(value["items"]?[2] == nil)
    #expect(value["missing"] == nil)
    #expect(value["items"]?.arrayValue?.count == 2)
    #expect(value.objectValue?.keys == ["id", "name", "ok", "none", "items"])
  }

  @Test("literals build the same values as parsing")
  func literals() throws {
    let built: JSONValue = [
      "a": 1, "b": [true, false, nil], "c": "text", "d": 2.5, "e": [:], "f": [],
    ]
    let parsed = try JSONValue(
      parsing: #"{"a":1,"b":[true,false,null],"c":"text","d":2.5,"e":{},"f":[]}"#)
    #expect(built == parsed)
    #expect(built.hashValue == parsed.hashValue)
    #expect(built.description == #"{"a":1,"b":[true,false,null],"c":"text","d":2.5,"e":{},"f":[]}"#)
  }

  @Test("numbers keep their exact value, and parsed ones their text")
  func exactNumbers() throws {
    // (text, the Number's own form)
    let cases: [(String, String)] = [
      ("0", "0"), ("-0", "0"), ("42", "42"), ("-9223372036854775808", "-9223372036854775808"),
      ("18446744073709551615", "18446744073709551615"), ("1.5", "1.5"), ("0.1", "0.1"),
      ("1e400", "1e400"), ("123456789012345678901234567890", "123456789012345678901234567890"),
      ("0.10000000000000000001", "0.10000000000000000001"), ("1E2", "100.0"),
      ("-65.613616999999977", "-65.613616999999977"), ("2.5e-3", "0.0025"), ("1.50", "1.5"),
    ]
    for (text, canonical) in cases {
      let value = try JSONValue(parsing: text)
      // A parsed number is written back as written, alone or in a container.
      #expect(value.description == text, "\(text)")
      #expect(try JSONValue(parsing: "[\(text)]").description == "[\(text)]", "\(text)")
      // Its value: the same whatever the form, and so is its hash.
      let number = try JSONValue(parsing: "[\(text)]")[0]!.numberValue!
      #expect(number.description == canonical, "\(text)")
      #expect(value.numberValue == number, "\(text)")
      #expect(value.hashValue == JSONValue.number(number).hashValue, "\(text)")
      // Writing and reading back gives the same value.
      #expect(try JSONValue(parsing: value.jsonString()) == value, "\(text)")
    }
    // -65.613616999999977 has 17 digits and the double's shortest form is another decimal
    // (…98): the text is kept, so writing it loses nothing; the double is still at hand.
    #expect(try JSONValue(parsing: "-65.613616999999977").doubleValue == -65.613616999999977)
    #expect(try JSONValue(parsing: "1E2").intValue == 100)
  }

  @Test("number equality is numeric across representations")
  func numberEquality() throws {
    #expect(JSONValue(1) == JSONValue(1.0))
    #expect(JSONValue(1).hashValue == JSONValue(1.0).hashValue)
    #expect(try JSONValue(parsing: "1e0") == JSONValue(1))
    #expect(JSONValue(1) != JSONValue(1.5))
    #expect(try JSONValue(parsing: "1e400") == JSONValue(parsing: "1e400"))
    #expect(try JSONValue(parsing: "1e400") != JSONValue(parsing: "2e400"))
    #expect(JSONValue.Number(text: "1.50") == JSONValue.Number(1.5))
    #expect(JSONValue.Number(text: "1.") == nil)
    #expect(JSONValue.Number(text: "NaN") == nil)
    // Long numbers are kept as text, yet equal (and hash like) the double they denote.
    let long = try JSONValue(parsing: "0.30000000000000004")
    #expect(long == JSONValue(0.1 + 0.2))
    #expect(long.hashValue == JSONValue(0.1 + 0.2).hashValue)
    #expect(try JSONValue(parsing: "0.300000000000000040") == long)
    #expect(
      try JSONValue(parsing: "1234567890123456789012")
        == JSONValue(parsing: "1.234567890123456789012e21"))
    #expect(try JSONValue(parsing: "12345678901234567.0") == JSONValue(12_345_678_901_234_567))
    #expect(try JSONValue(parsing: "1e-400") != JSONValue(0.0))
    #expect(try JSONValue(parsing: "4.9e-324").description == "4.9e-324")
    #expect(JSONValue.Number(UInt64.max).uint64 == .max)
    #expect(JSONValue.Number(UInt64.max).int64 == nil)
  }

  @Test("objects keep order, compare unordered, and look up fast when large")
  func objects() throws {
    let a = try JSONValue(parsing: #"{"b":1,"a":2}"#)
    let b = try JSONValue(parsing: #"{"a":2,"b":1}"#)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a.objectValue?.keys == ["b", "a"])
    var members = "{"
    for i in 0..<1000 { members += "\(i == 0 ? "" : ",")\"k\(i)\":\(i)" }
    let large = try JSONValue(parsing: members + "}")
    #expect(large["k999"]?.intValue == 999)
    #expect(large["k0"]?.intValue == 0)
    #expect(large["k1000"] == nil)
    var object = large.objectValue!
    object["k5"] = nil
    #expect(object["k5"] == nil)
    #expect(object["k6"]?.intValue == 6)
    #expect(object.count == 999)
    object["new"] = "x"
    #expect(object.keys.last == "new")
  }

  @Test("the key index of large objects finds every key, misses absent ones, survives growth")
  func keyIndex() {
    var object = JSONObject()
    var keys: [String] = []
    for i in 0..<3000 {
      // Short, long, non-ASCII and empty keys, so hashing sees every length.
      let key =
        i == 0 ? "" : (i % 3 == 0 ? "k\(i)" : (i % 3 == 1 ? "a long key number \(i) é😀" : "\(i)"))
      keys.append(key)
      object[key] = JSONValue(i)
      if [9, 17, 100, 2999].contains(i) {
        for (position, known) in keys.enumerated() {
          #expect(object.index(forKey: known) == position)
        }
        #expect(object["absent"] == nil)
        #expect(object["k1"] == nil)
      }
    }
    #expect(object.count == 3000)
    for removed in stride(from: 2999, to: 0, by: -7) { object[keys[removed]] = nil }
    for (i, key) in keys.enumerated() {
      #expect((object[key] == nil) == (i != 0 && (2999 - i) % 7 == 0))
    }
    var copy = object
    copy["new"] = true
    #expect(object["new"] == nil)
    #expect(copy["new"] == true)
  }

  @Test("duplicate keys: last wins (default), first wins, or an error at the key")
  func duplicateKeys() throws {
    let text = "{\"a\": 1, \"b\": 2,\n \"a\": 3}"
    let last = try JSONValue(parsing: text)
    #expect(last["a"]?.intValue == 3)
    #expect(last.objectValue?.keys == ["a", "b"])
    #expect(try JSONValue(parsing: text, duplicateKeys: .firstWins)["a"]?.intValue == 1)
    #expect(try JSONValue(parsing: text, duplicateKeys: .firstWins).objectValue?.count == 2)
    do {
      _ = try JSONValue(parsing: text, duplicateKeys: .error)
      Issue.record("expected an error")
    } catch let error as JSONParseError {
      #expect(error.kind == .duplicateKey)
      #expect(error.description == "line 2, column 2: duplicate key \"a\" in an object")
    }
    // Nested containers as the repeated value, and large objects (indexed lookup).
    var many = "{"
    for i in 0..<20 { many += "\"k\(i)\":[\(i)]," }
    many += "\"k3\":{\"x\":[1]}}"
    #expect(try JSONValue(parsing: many)["k3"] == ["x": [1]])
    #expect(try JSONValue(parsing: many, duplicateKeys: .firstWins)["k3"] == [3])
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: many, duplicateKeys: .error) }
  }

  @Test(
    "containers of every size around the builder's inline move (up to four nodes) keep their values"
  )
  func smallContainers() throws {
    // Arrays of 0 to 6 values and objects of 0 to 3 members, nested in each other and side by
    // side: each closed container's nodes are moved to the document's memory, the small ones
    // without a call.
    func array(_ count: Int, _ base: Int) -> String {
      "[" + (0..<count).map { String(base + $0) }.joined(separator: ",") + "]"
    }
    func object(_ count: Int, _ base: Int) -> String {
      "{" + (0..<count).map { "\"k\($0)\":\(array($0 + 1, base + $0))" }.joined(separator: ",")
        + "}"
    }
    let text =
      "[" + (0...6).map { array($0, $0 * 10) }.joined(separator: ",") + ","
      + (0...3).map { object($0, $0 * 100) }.joined(separator: ",") + "]"
    let value = try JSONValue(parsing: text)
    #expect(try value.jsonString() == text)
    for count in 0...6 {
      #expect(value[count]?.arrayValue?.count == count)
      #expect(value[count]?[count - 1]?.int64Value == (count == 0 ? nil : Int64(count * 11 - 1)))
    }
    #expect(value[10]?["k2"]?[2]?.int64Value == 304)
  }

  @Test("the tree builder works chunked, across documents, and with multiple values")
  func builder() throws {
    let text = #"{"a":[1,"é😀",{"b":null}]} [true] "s" 12"#
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    let whole = try JSONParser.parse(Array(text.utf8), handler: JSONTreeBuilder(), options: options)
    #expect(whole.values.count == 4)
    for size in 1...5 {
      var parser = JSONParser(handler: JSONTreeBuilder(), options: options)
      let bytes = Array(text.utf8)
      var start = 0
      while start < bytes.count {
        try parser.feed(bytes[start..<min(bytes.count, start + size)])
        start += size
      }
      try parser.finish()
      #expect(parser.handler.values == whole.values)
    }
    // Reuse: the same builder, reset between documents.
    var builder = JSONTreeBuilder()
    for document in [#"{"k":1}"#, #"{"k":2}"#] {
      builder.reset()
      builder = try JSONParser.parse(Array(document.utf8), handler: builder)
      #expect(builder.value?["k"] != nil)
    }
  }

  @Test("replay gives the events a parse of the value's text gives")
  func replay() throws {
    let value: JSONValue = ["a": [1, 2.5, "x\n", nil, true], "b": ["c": [:]], "d": []]
    var recorder = EventRecorder()
    try value.replay(into: &recorder)
    #expect(recorder.events == parse(try value.jsonString()).events)
    // Deep values replay without recursion.
    var options = JSONParseOptions()
    options.limits.maxDepth = 20_000
    let deep = try JSONValue(
      parsing: String(repeating: "[", count: 10_000) + "1" + String(repeating: "]", count: 10_000),
      options: options)
    var counter = EventRecorder()
    try deep.replay(into: &counter)
    #expect(counter.events.count == 20_001)
  }
}
