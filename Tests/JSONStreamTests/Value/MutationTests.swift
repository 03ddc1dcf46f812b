import JSONStream
import JSONStreamValue
import Testing

@Suite("JSONValue mutation")
struct MutationTests {
  @Test("members are set, replaced and removed through the subscripts")
  func objectMembers() throws {
    var value = try JSONValue(parsing: #"{"a": 1, "b": {"c": [1, 2, 3]}, "d": null}"#)
    value["a"] = 2
    value["e"] = "new"
    value["b"]?["c"]?[1] = true
    value["b"]?["x"] = ["y": 1]
    value["d"] = nil
    #expect(value.description == #"{"a":2,"b":{"c":[1,true,3],"x":{"y":1}},"e":"new"}"#)
    #expect(value.objectValue?.keys == ["a", "b", "e"])
    // Chaining through what is missing, or of another type, changes nothing.
    let before = value
    value["missing"]?["x"] = 1
    value["b"]?["c"]?[7]?["x"] = 1
    value["a"]?["x"] = nil
    #expect(value == before)
    #expect(try value.jsonString() == before.jsonString())
  }

  @Test("null becomes an object when a member is set, and stays null otherwise")
  func nullBecomesObject() {
    var value: JSONValue = nil
    value["a"] = nil
    #expect(value == .null)
    value["a"] = 1
    #expect(value == ["a": 1])
  }

  @Test("a copy is not changed by changes to the original")
  func valueSemantics() throws {
    let original = try JSONValue(parsing: #"{"list": [1, 2], "obj": {"k": "v"}}"#)
    var copy = original
    copy["list"]?[0] = 9
    copy["obj"]?["k"] = nil
    copy["added"] = true
    #expect(original.description == #"{"list":[1,2],"obj":{"k":"v"}}"#)
    #expect(copy.description == #"{"list":[9,2],"obj":{},"added":true}"#)
    var array = try #require(original["list"]?.arrayValue)
    let arrayCopy = array
    array.append(3)
    #expect(arrayCopy.count == 2)
    #expect(array.count == 3)
  }

  @Test("JSONArray is a mutable, range-replaceable collection")
  func arrayOperations() throws {
    var array = try #require(JSONValue(parsing: "[3, 1, 2]").arrayValue)
    array.append(4)
    array.insert("first", at: 0)
    #expect(array.remove(at: 1) == 3)
    array[0] = 0
    array.replaceSubrange(1..<2, with: [10, 11])
    #expect(JSONValue.array(array).description == "[0,10,11,2,4]")
    array.sort { ($0.doubleValue ?? 0) < ($1.doubleValue ?? 0) }
    #expect(JSONValue.array(array).description == "[0,2,4,10,11]")
    array.removeAll()
    #expect(array.isEmpty)
    array.append(contentsOf: [1, 2])
    #expect(array == [1, 2])
  }

  @Test("JSONObject: updateValue, removeValue, merge, merging")
  func objectOperations() throws {
    var object = try #require(JSONValue(parsing: #"{"a": 1, "b": 2, "c": 3}"#).objectValue)
    #expect(object.updateValue(20, forKey: "b") == 2)
    #expect(object.updateValue(4, forKey: "d") == nil)
    #expect(object.removeValue(forKey: "a") == 1)
    #expect(object.removeValue(forKey: "zz") == nil)
    #expect(object.keys == ["b", "c", "d"])
    #expect(object.index(forKey: "d") == 2)
    object.merge(["c": 30, "e": 5] as JSONObject) { _, new in new }
    #expect(JSONValue.object(object).description == #"{"b":20,"c":30,"d":4,"e":5}"#)
    let merged = object.merging(["b": 0] as JSONObject) { old, _ in old }
    #expect(merged["b"] == 20)
    object.removeAll()
    #expect(object.isEmpty)
  }

  @Test("removing members keeps every other member's position")
  func removals() throws {
    var object = JSONObject()
    for index in 0..<2_000 { object["k\(index)"] = JSONValue(index) }
    for index in stride(from: 0, to: 2_000, by: 3) { object["k\(index)"] = nil }
    var expected = 0
    for index in 0..<2_000 where index % 3 != 0 {
      #expect(object.index(forKey: "k\(index)") == expected)
      #expect(object[expected].key == "k\(index)")
      expected += 1
    }
    #expect(object.count == expected)
    #expect(object.removeValue(forKey: "k1") == 1)
    #expect(object.index(forKey: "k2") == 0)
  }

  @Test("keys compare by their bytes: two spellings of é are two keys")
  func keysByBytes() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    var object = try #require(JSONValue(parsing: #"{"\#(composed)": 1}"#).objectValue)
    #expect(object[decomposed] == nil)
    object[decomposed] = 2
    #expect(object.count == 2)
    #expect(object[composed] == 1)
    #expect(object[decomposed] == 2)
    #expect(JSONValue.string(composed) != JSONValue.string(decomposed))
  }

  @Test("reading through the subscripts leaves parsed containers as views")
  func readingConvertsNothing() throws {
    var value = try JSONValue(parsing: #"{"a": {"b": [1, {"c": 2}]}}"#)
    _ = value["a"]?["b"]?[1]?["c"]
    #expect(value.objectValue?._view != nil)
    // A chain that finds nothing to change changes nothing.
    value["a"]?["b"]?[5]?["c"] = 1
    #expect(value["a"]?["b"]?.arrayValue?._view != nil)
    // A change turns only the containers on its path into values.
    value["a"]?["b"]?[0] = 5
    #expect(value.objectValue?._view == nil)
    #expect(value["a"]?.objectValue?._view == nil)
    #expect(value["a"]?["b"]?.arrayValue?._view == nil)
    #expect(value["a"]?["b"]?[1]?.objectValue?._view != nil)
  }

  @Test("changed containers write, replay, encode and compare like parsed ones")
  func changedContainersEverywhere() throws {
    var value = try JSONValue(parsing: #"{"a": [1, 2.50, -0], "b": {"c": 1E2}, "s": "x"}"#)
    value["s"] = "y"
    value["a"]?[0] = 7
    let expected = #"{"a":[7,2.50,-0],"b":{"c":1E2},"s":"y"}"#
    #expect(try value.jsonString() == expected)
    let reparsed = try JSONValue(parsing: expected)
    #expect(value == reparsed)
    #expect(value.hashValue == reparsed.hashValue)
    #expect(try JSONValue(binary: value.binaryBytes()) == reparsed)
    var writer = JSONWriter(options: .pretty)
    try value.replay(into: &writer)
    try writer.finish()
    #expect(try JSONValue(parsing: writer.bytes) == reparsed)
    var sorted = JSONWriteOptions.compact
    sorted.sortKeys = true
    #expect(try value.jsonString(options: sorted) == expected)
  }

  @Test("untouched numbers keep their text through an edit")
  func numberTextSurvives() throws {
    let text =
      #"{"z": -0, "e": 1E2, "f": 1.50, "g": 2.5e-3, "big": 123456789012345678901234567890, "i": 12, "x": 0}"#
    var value = try JSONValue(parsing: text)
    value["x"] = 1
    #expect(
      try value.jsonString()
        == #"{"z":-0,"e":1E2,"f":1.50,"g":2.5e-3,"big":123456789012345678901234567890,"i":12,"x":1}"#
    )
    var array = try JSONValue(parsing: "[-0, 1e5, 0.10, 7]")
    array[3] = 8
    #expect(try array.jsonString() == "[-0,1e5,0.10,8]")
  }

  @Test("a changed tree thousands of levels deep writes, replays and compares")
  func deepChangedTree() throws {
    // Built from the inside out, each level a changed container.
    var value: JSONValue = 1
    for level in 0..<20_000 {
      var object = JSONObject()
      object["k\(level % 3)"] = value
      value = .object(object)
    }
    let text = try value.jsonString()
    #expect(text.utf8.count > 100_000)
    #expect(value == value)
    var counter = EventCounter()
    try value.replay(into: &counter)
    #expect(counter.starts == 20_000)
    // Dismantle level by level: freeing a changed container frees what it holds
    // recursively, which a long chain would take deep.
    while case .object(let object) = value, let inner = object.values.first { value = inner }
  }
}

/// Counts the objects a replay starts.
private struct EventCounter: JSONEventHandler {
  var starts = 0
  mutating func startObject() { starts += 1 }
}
