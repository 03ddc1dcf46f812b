import Foundation
import JSONStream
import JSONStreamFoundation
import JSONStreamTestSupport
import Testing

@Suite("Builder: the trees JSONSerialization makes")
struct BuilderTests {
  /// Documents that exercise every corner: each must give JSONSerialization's tree exactly.
  static let awkwardDocuments = [
    #"{"esc":"\"\\\/\b\f\n\r\t","u":"\u00e9\u0041\u20AC","pair":"\ud83d\ude00","raw":"é😀日本語","#
      + #""nul":"a\u0000b","nonchar":"\uFFFF\uFDD0","combining":"e\u0301","":"empty key"}"#,
    #"[0,-0,1,-1,1.5,-1.5,0.1,1.0,1e2,1E2,1e+2,1E-2,-0.0,5e-324,1e-400,1.7976931348623157e308]"#,
    #"[12345678901234567890,18446744073709551615,18446744073709551616,9223372036854775807,"#
      + #"9223372036854775808,-9223372036854775808,-9223372036854775809,-999999999999999999,"#
      + #"-1000000000000000000,99999999999999999999,123456789012345678901234567890]"#,
    #"[-65.613616999999977,65.613616999999977,0.12345678901234567,12345678901234567.0,"#
      + #"1234567890123456789E-5,1234567890123456789e-5,-0.0000000000000001,100000000000000000000000,"#
      + #"0.000000000000000000000000000001234,12345678901234567890123456789012345678901234567890,"#
      + #"0.00000000000000000,-0.000000000000000000,123456789012345678e200,1.00000000000000000e-130,"#
      + #"99999999999999999999e-1,1.234567890123456789e10,-1.234567890123456789E+10]"#,
    #"{"a":{},"b":[],"c":[[]],"d":[{}],"e":{"f":{"g":[[],{}]}},"h":[[[[[]]]]]}"#,
    #"[true,false,1,0,{"t":true,"f":false,"one":1,"zero":0,"n":null},[null,true]]"#,
    #"{"dup":1,"dup":2,"nested":{"x":[1],"x":{"y":true}},"dup":"last"}"#,
    "[]", "{}", "  [ 1 ,\n\t2 ]\r\n",
  ]

  @Test("awkward documents give JSONSerialization's tree", arguments: awkwardDocuments)
  func awkwardDocument(text: String) throws {
    let ours = try ourTree(text)
    let theirs = try serializationTree(text)
    expectSameTree(ours, theirs)
    #expect(typeTree(ours) == typeTree(theirs))
  }

  @Test(
    "corpus files give JSONSerialization's tree",
    .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"),
    arguments: SharedData.corpusNames)
  func corpus(name: String) throws {
    let data = try SharedData.corpusData(name)
    let ours = try JSONFoundation.object(with: data)
    let theirs = try JSONSerialization.jsonObject(with: data)
    let directlyEqual = (ours as! NSObject).isEqual(theirs)
    #expect(directlyEqual)
    let equal = foundationEqual(ours, theirs)
    #expect(equal)
    expectSameTree(ours, theirs)
  }

  @Test("many distinct keys (the key cache replaces entries) and repeated ones")
  func manyKeys() throws {
    let members = (0..<2000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    let records = Array(repeating: #"{"id":1,"name":"x","k1999":[]}"#, count: 50)
      .joined(separator: ",")
    let text = "[{\(members)},\(records)]"
    let ours = try ourTree(text)
    expectSameTree(ours, try serializationTree(text))
  }

  // MARK: Booleans

  @Test("true and false are the boolean NSNumbers, distinct from 1 and 0")
  func booleans() throws {
    let array = try ourTree("[true,false,1,0]") as! NSArray
    let stored = Node.storedElements(array)
    #expect(isBooleanNumber(stored[0], true))
    #expect(isBooleanNumber(stored[1], false))
    #expect(!isBooleanNumber(stored[2], true))
    #expect(!isBooleanNumber(stored[3], false))
    #expect(stored[0] as? Bool == true)
    #expect(stored[1] as? Bool == false)
    #expect(String(cString: (stored[0] as! NSNumber).objCType) == "c")
    #expect(String(cString: (stored[2] as! NSNumber).objCType) != "c")
    // Written back, they stay booleans and the numbers stay numbers.
    let written = try JSONSerialization.data(withJSONObject: array)
    #expect(String(decoding: written, as: UTF8.self) == "[true,false,1,0]")
    let object = try ourTree(#"{"t":true,"one":1}"#)
    let writtenObject = try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
    #expect(String(decoding: writtenObject, as: UTF8.self) == #"{"one":1,"t":true}"#)
  }

  // MARK: Numbers

  @Test("number kinds follow JSONSerialization")
  func numberKinds() throws {
    let array = try ourTree(
      "[1,-1,1.5,12345678901234567890,-9223372036854775808,123456789012345678901234567890,1e2]")
    #expect(
      Node(array)
        == .array([
          .integer(1), .integer(-1), .double(1.5.bitPattern), .unsigned(12_345_678_901_234_567_890),
          .decimal("-9223372036854775808"), .decimal("123456789012345678901234567890"),
          .double(100.0.bitPattern),
        ]))
  }

  @Test("a number beyond every Foundation type is an error, as in JSONSerialization")
  func hugeNumber() throws {
    #expect(throws: (any Error).self) { try serializationTree("[1e400]") }
    let error = try #require(throws: JSONFoundationError.self) { try ourTree("[1,\n  1e400]") }
    #expect(error.kind == .numberNotRepresentable)
    #expect(error.location?.line == 2)
    #expect(error.description.hasPrefix("line 2, column "))
    #expect(error.description.contains("1e400"))
  }

  @Test("NaN and Infinity, when the parser accepts them, become Double NSNumbers")
  func nonFinite() throws {
    var options = JSONParseOptions()
    options.allowNonFiniteNumbers = true
    let array = try ourTree("[NaN,Infinity,-Infinity]", parseOptions: options) as! NSArray
    let doubles = Node.storedElements(array).map { ($0 as! NSNumber).doubleValue }
    #expect(doubles[0].isNaN)
    #expect(doubles[1] == .infinity)
    #expect(doubles[2] == -.infinity)
  }

  // MARK: Options

  @Test("immutable by default: the Swift containers and strings JSONSerialization returns")
  func immutableByDefault() throws {
    let text = #"{"a":[{"b":"s"},[],1,2.5,true,null],"c":{},"d":"t"}"#
    let tree = try ourTree(text)
    #expect(type(of: tree) == [String: Any].self)
    #expect(typeTree(tree) == typeTree(try serializationTree(text)))
    #expect(
      typeTree(tree) == #"{a:[{b:String},[],NSNumber,NSNumber,__NSCFBoolean,NSNull],c:{},d:String}"#
    )
  }

  @Test(".mutableContainers: NSMutableDictionary and NSMutableArray all the way down")
  func mutableContainers() throws {
    let tree = try ourTree(#"{"a":[{"b":"s"},[]],"c":{},"d":"t"}"#, options: .mutableContainers)
    let stored = storedObjects(tree)
    #expect(stored.containers.count == 5)
    for container in stored.containers {
      #expect(
        type(of: container) == NSMutableDictionary.self
          || type(of: container) == NSMutableArray.self)
    }
    for string in stored.strings { #expect(type(of: string) == NSString.self) }
    // And they really are mutable.
    let root = tree as! NSMutableDictionary
    root["new"] = NSNumber(value: 1)
    #expect(root.count == 4)
    let inner = Node.storedPairs(root).first { $0.key as? String == "a" }!.value as! NSMutableArray
    inner.add(NSNull())
    #expect(
      Node(root)
        == Node(try serializationTree(#"{"a":[{"b":"s"},[],null],"c":{},"d":"t","new":1}"#)))
  }

  @Test(".mutableLeaves: string values are NSMutableString, as JSONSerialization makes them")
  func mutableLeaves() throws {
    let text = #"{"a":["x",{"b":"y"}],"c":"z"}"#
    let tree = try ourTree(text, options: .mutableLeaves)
    #expect(typeTree(tree) == #"{a:[NSMutableString,{b:NSMutableString}],c:NSMutableString}"#)
    let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .mutableLeaves)
    #expect(typeTree(tree) == typeTree(theirs))
    let leaf = (tree as! [String: Any])["c"] as! NSMutableString
    leaf.append("!")
    #expect(leaf.hasSuffix("!"))
  }

  @Test("both mutable options together")
  func bothMutable() throws {
    let tree = try ourTree(#"["x"]"#, options: [.mutableContainers, .mutableLeaves])
    #expect(type(of: tree) == NSMutableArray.self)
    #expect(type(of: Node.storedElements(tree as! NSArray)[0]) == NSMutableString.self)
  }

  @Test(
    "top-level scalars need .fragmentsAllowed",
    arguments: [#""text""#, "42", "-1.5", "true", "false", "null", #"  "x"  "#])
  func fragments(text: String) throws {
    let error = try #require(throws: JSONFoundationError.self) { try ourTree(text) }
    #expect(error.kind == .fragmentNotAllowed)
    #expect(error.location?.line == 1)
    #expect(throws: (any Error).self) { try serializationTree(text) }

    let ours = try ourTree(text, options: .fragmentsAllowed)
    let theirs = try serializationTree(text, fragments: true)
    #expect(Node(ours) == Node(theirs))
    if text.contains("\"") {
      #expect(type(of: ours) == String.self)
      #expect(type(of: ours) == type(of: theirs))
      let mutable = try ourTree(text, options: [.fragmentsAllowed, .mutableLeaves])
      #expect(type(of: mutable) == NSMutableString.self)
    }
  }

  @Test("a fragment error says where, on later lines too")
  func fragmentPosition() throws {
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    let error = try #require(throws: JSONFoundationError.self) {
      try JSONFoundation.objects(with: Array("{}\n[1]\n  7\n".utf8), parseOptions: options)
    }
    #expect(error.kind == .fragmentNotAllowed)
    #expect(error.location?.line == 3)
    #expect(error.description.hasPrefix("line 3, column "))
  }

  // MARK: Parsing

  @Test("syntax errors are JSONParseErrors with their position")
  func syntaxError() throws {
    let error = try #require(throws: JSONParseError.self) { try ourTree("{\"a\":\n  [1,]}") }
    #expect(error.line == 2)
    #expect(error.kind == .trailingComma)
  }

  @Test("1-byte chunks give the same tree", arguments: awkwardDocuments)
  func byteChunks(text: String) throws {
    var parser = JSONParser(handler: JSONFoundationBuilder())
    for byte in text.utf8 { try parser.feed(CollectionOfOne(byte)) }
    try parser.finish()
    let value = try #require(parser.handler.value)
    #expect(Node(value) == Node(try ourTree(text)))
  }

  @Test(
    "corpus files fed in small chunks give the same tree",
    .enabled(if: SharedData.hasCorpus, "corpus not found at ../shared/corpus; skipped"))
  func corpusChunks() throws {
    let bytes = [UInt8](try SharedData.corpusFile("citm_catalog.json"))
    var parser = JSONParser(handler: JSONFoundationBuilder())
    var start = 0
    var size = 1
    while start < bytes.count {
      let end = min(bytes.count, start + size)
      try parser.feed(bytes[start..<end])
      start = end
      size = size % 13 + 1
    }
    try parser.finish()
    expectSameTree(try #require(parser.handler.value), try JSONFoundation.object(with: bytes))
  }

  // MARK: Reuse and several values

  @Test("reset() makes the builder reusable")
  func reset() throws {
    var parser = JSONParser(handler: JSONFoundationBuilder(options: .mutableContainers))
    try parser.feed(Array(#"{"a":[1,"#.utf8))  // abandoned halfway
    var builder = parser.handler
    builder.reset()
    #expect(builder.value == nil)
    #expect(builder.values.isEmpty)
    builder = try JSONParser.parse(Array(#"[{"b":2}]"#.utf8), handler: builder)
    #expect(builder.values.count == 1)
    #expect(type(of: builder.value!) == NSMutableArray.self)
    #expect(Node(builder.value!) == Node(try serializationTree(#"[{"b":2}]"#)))
  }

  @Test("several top-level values with allowMultipleValues")
  func multipleValues() throws {
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    let text = "{\"a\":1}\n[2]\n\"x\"\n3\n"
    let values = try JSONFoundation.objects(
      with: Array(text.utf8), options: .fragmentsAllowed, parseOptions: options)
    #expect(values.count == 4)
    #expect(Node(values[0]) == .object(["a": .integer(1)]))
    #expect(Node(values[1]) == .array([.integer(2)]))
    #expect(Node(values[2]) == .string("x"))
    #expect(Node(values[3]) == .integer(3))

    // object(with:) gives the first; with no value at all, an empty-input error.
    let first = try JSONFoundation.object(
      with: Array(text.utf8), options: .fragmentsAllowed, parseOptions: options)
    #expect(Node(first) == Node(values[0]))
    let error = try #require(throws: JSONParseError.self) {
      try JSONFoundation.object(with: Array(" \n".utf8), parseOptions: options)
    }
    #expect(error.kind == .emptyInput)
  }

  @Test("takeValues() hands over the values complete so far, for streams")
  func takeValues() throws {
    var options = JSONParseOptions()
    options.allowMultipleValues = true
    var parser = JSONParser(handler: JSONFoundationBuilder(), options: options)
    try parser.feed(Array("{\"a\":1}\n{\"b\":".utf8))
    let first = parser.handler.takeValues()
    #expect(first.count == 1)
    #expect(Node(first[0]) == .object(["a": .integer(1)]))
    try parser.feed(Array("2}\n[]".utf8))
    try parser.finish()
    let rest = parser.handler.takeValues()
    #expect(rest.count == 2)
    #expect(Node(rest[0]) == .object(["b": .integer(2)]))
    #expect(parser.handler.values.isEmpty)
  }

  @Test("Data and byte sequences give the same tree")
  func inputs() throws {
    let text = #"{"k":[1,"v"]}"#
    let fromData = try JSONFoundation.object(with: Data(text.utf8))
    let fromUTF8View = try JSONFoundation.object(with: text.utf8)
    let fromArray = try JSONFoundation.object(with: Array(text.utf8))
    #expect(Node(fromData) == Node(fromArray))
    #expect(Node(fromUTF8View) == Node(fromArray))
  }

  @Test("a tree 100,000 levels deep builds without recursion")
  func deepNesting() throws {
    let depth = 100_000
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    var limits = JSONParseOptions()
    limits.limits.maxDepth = depth
    let options = limits
    try onLargeStack {
      let tree = try ourTree(text, parseOptions: options)
      var level = 0
      var current = tree
      while type(of: current) == [Any].self, let array = current as? [Any], array.count == 1 {
        current = array[0]
        level += 1
      }
      #expect(level == depth - 1)
      // Releasing the tree recurses through deinit: done here, on the large stack.
    }
  }
}

/// Runs `body` on a thread with a 512 MiB stack: releasing a deeply nested Foundation tree
/// recurses (one `deinit` per level), however the tree was built.
func onLargeStack(_ body: @escaping @Sendable () throws -> Void) throws {
  let done = DispatchSemaphore(value: 0)
  final class Outcome: @unchecked Sendable {
    var error: (any Error)?  // written by the thread before it signals
  }
  let outcome = Outcome()
  let thread = Thread {
    do { try body() } catch { outcome.error = error }
    done.signal()
  }
  thread.stackSize = 512 << 20
  thread.start()
  done.wait()
  if let error = outcome.error { throw error }
}
