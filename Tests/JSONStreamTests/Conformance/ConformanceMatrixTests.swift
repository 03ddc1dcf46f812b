import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

// The conformance matrix: every public way in × every case × every chunking gives the values
// and the error (kind, offset, line, column) of `JSONParser` with a recording handler. The
// Foundation module's ways in are in its own test target's matrix; the tool's commands are in
// `ToolConformanceTests`. `EntryPointInventoryTests` fails for a public way in that no matrix
// lists.

/// A public way in: what it delivers, and how to run it on a case at a chunking.
struct EntryPoint: Sendable, CustomStringConvertible {
  let name: String
  let units: ConformanceUnits
  /// The case the reference reads for this entry point's case (an entry point may set an
  /// option, as the document reader's framing does), or nil when the case is not its to take.
  var reference: @Sendable (ConformanceCase) -> ConformanceOutcome?
  /// Only the whole input (an API that takes one buffer, or reads byte by byte itself).
  var wholeOnly = false
  /// Delivers nothing when it fails (it returns one result or throws): the reference's units
  /// are dropped when it has an error.
  var allOrNothing = false
  let run: @Sendable (ConformanceCase, [[UInt8]]) async throws -> ConformanceOutcome

  var description: String { name }
}

extension EntryPoint {
  /// An entry point whose reference is `JSONParser` on the same case, cut into `units`;
  /// `takes` says which cases it takes (all but duplicate-key ones, by default).
  init(
    _ name: String, _ units: ConformanceUnits, wholeOnly: Bool = false, allOrNothing: Bool = false,
    takes: @escaping @Sendable (ConformanceCase) -> Bool = { !$0.rejectsDuplicateKeys },
    run: @escaping @Sendable (ConformanceCase, [[UInt8]]) async throws -> ConformanceOutcome
  ) {
    self.name = name
    self.units = units
    self.wholeOnly = wholeOnly
    self.allOrNothing = allOrNothing
    self.reference = { test in takes(test) ? referenceOutcome(test, units: units) : nil }
    self.run = run
  }
}

/// The error of an option an entry point cannot honour, at the call.
let cannotHonour = ErrorPlace(kind: .invalidOption, offset: 0, line: 1, column: 1)

/// The reference of an API that reads one document: `allowMultipleValues` is an error.
@Sendable func oneDocumentReference(_ test: ConformanceCase) -> ConformanceOutcome {
  test.options.allowMultipleValues
    ? ConformanceOutcome(units: [], error: cannotHonour)
    : referenceOutcome(test, units: .topLevelValues)
}

/// The reference for a case read as one record of a text sequence: the case's own outcome,
/// one byte (the separator) later, the record delivered whole or not at all; not for several
/// values (a record holds one) or for no value at all (an empty record is not a document).
@Sendable func oneRecordReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  if test.options.allowMultipleValues || test.options.limits.maxInputLength != .max {
    return nil  // the separator would count against the input limit
  }
  var outcome = referenceOutcome(test, units: .topLevelValues)
  guard var error = outcome.error else { return outcome }
  if error.kind == .emptyInput { return nil }
  outcome.units = []  // a record that fails is no document, whatever it began with
  if error.kind != .invalidOption {
    if error.line == 1 { error.column += 1 }
    error.offset += 1
  }
  outcome.error = error
  return outcome
}

/// The reference of `JSONPatch(parsing:)`: one document, not the duplicate-key cases (a
/// patch is read with the last value of a repeated key winning).
@Sendable func patchDocumentReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  test.rejectsDuplicateKeys ? nil : oneDocumentReference(test)
}

/// Takes every case, duplicate-key ones too (for consumers with a duplicate-key policy).
@Sendable func everyCase(_ test: ConformanceCase) -> Bool { true }

/// The duplicate-key policy a case asks for.
func policy(_ test: ConformanceCase) -> JSONDuplicateKeyPolicy {
  test.rejectsDuplicateKeys ? .error : .lastWins
}

/// Feeds `chunks`, then finishes: the error's place, or nil. Errors that are not
/// `JSONParseError`s are rethrown (an entry point must not throw them for bad input).
func drive<Handler: JSONEventHandler>(_ parser: inout JSONParser<Handler>, _ chunks: [[UInt8]])
  throws -> ErrorPlace?
{
  do {
    for chunk in chunks where try parser.feed(chunk) != .needsMoreInput { break }
    try parser.finish()
    return nil
  } catch let error as JSONParseError {
    return ErrorPlace(error)
  }
}

/// The events of a value.
func events(_ value: JSONValue) throws -> [Event] {
  var recorder = EventRecorder()
  try value.replay(into: &recorder)
  return recorder.events
}

/// A document reader's failure, placed in the whole stream.
func place(_ failure: JSONDocumentReader.Failure) throws -> ErrorPlace {
  let error = try #require(failure.error as? JSONParseError, "\(failure)")
  let position = try #require(failure.location)
  return ErrorPlace(
    kind: error.kind, offset: position.offset, line: position.line, column: position.column)
}

/// Takes every output of an async sequence until it ends or throws, checking that it returns
/// nil after throwing.
func drainChecked<S: AsyncSequence>(_ sequence: S) async throws -> (
  outputs: [S.Element], error: (any Error)?
) {
  let drained = try await drain(sequence)
  #expect(drained.endsAfterError, "an async iterator must return nil after it threw")
  return (drained.outputs, drained.error)
}

/// A document reader's results, stopping at a thrown failure (checked to be thrown again).
func readDocuments(_ reader: inout JSONDocumentReader, _ chunks: [[UInt8]]) throws
  -> ConformanceOutcome
{
  var units: [[Event]] = []
  func take(_ results: [Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>]) throws {
    for result in results { units.append(try events(try result.get().value)) }
  }
  do {
    for chunk in chunks { try take(try reader.feed(chunk)) }
    try take(try reader.finish())
    return ConformanceOutcome(units: units, error: nil)
  } catch let failure as JSONDocumentReader.Failure {
    let again = #expect(throws: JSONDocumentReader.Failure.self) { _ = try reader.finish() }
    #expect(again.map { try? place($0) } == (try place(failure)), "the same failure again")
    return ConformanceOutcome(units: units, error: try place(failure))
  }
}

enum Matrix {
  /// The ways in of the core module. The names are what `EntryPointInventoryTests` matches.
  static let entryPoints: [EntryPoint] = [
    EntryPoint("JSONParser.feed", .events) { test, chunks in
      var parser = JSONParser(handler: EventRecorder(), options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(units: [parser.handler.events], error: error)
    },
    EntryPoint("JSONParser.parse", .events, wholeOnly: true, allOrNothing: true) { test, _ in
      do {
        let recorder = try JSONParser.parse(
          test.bytes, handler: EventRecorder(), options: test.options)
        return ConformanceOutcome(units: [recorder.events], error: nil)
      } catch let error as JSONParseError {
        return ConformanceOutcome(units: [], error: ErrorPlace(error))
      }
    },
    EntryPoint("JSONTreeBuilder", .topLevelValues, takes: everyCase) { test, chunks in
      var parser = JSONParser(
        handler: JSONTreeBuilder(duplicateKeyPolicy: policy(test)), options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(units: try parser.handler.values.map(events), error: error)
    },
    EntryPoint(
      name: "JSONValue(parsing:)", units: .topLevelValues,
      reference: oneDocumentReference, wholeOnly: true, allOrNothing: true
    ) { test, _ in
      do {
        let value = try JSONValue(
          parsing: test.bytes, options: test.options, duplicateKeys: policy(test))
        return ConformanceOutcome(units: [try events(value)], error: nil)
      } catch let error as JSONParseError {
        return ConformanceOutcome(units: [], error: ErrorPlace(error))
      }
    },
    // A patch document is read as one value: the text's errors are JSONValue(parsing:)'s,
    // and text that is JSON but not a patch (most cases) says so with a JSONPatchError; the
    // values are then those the tree reads.
    EntryPoint(
      name: "JSONPatch(parsing:)", units: .topLevelValues, reference: patchDocumentReference,
      wholeOnly: true, allOrNothing: true
    ) { test, _ in
      do {
        _ = try JSONPatch(parsing: test.bytes, options: test.options)
      } catch let error as JSONParseError {
        return ConformanceOutcome(units: [], error: ErrorPlace(error))
      } catch is JSONPatchError {
      }
      let value = try JSONValue(parsing: test.bytes, options: test.options)
      return ConformanceOutcome(units: [try events(value)], error: nil)
    },
    EntryPoint("JSONPathTracker", .events) { test, chunks in
      var parser = JSONParser(
        handler: JSONPathTracker(downstream: EventRecorder()), options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(units: [parser.handler.downstream.events], error: error)
    },
    EntryPoint("JSONPathTracker over a tree builder", .topLevelValues, takes: everyCase) {
      test, chunks in
      var parser = JSONParser(
        handler: JSONPathTracker(downstream: JSONTreeBuilder(duplicateKeyPolicy: policy(test))),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(
        units: try parser.handler.downstream.values.map(events), error: error)
    },
    EntryPoint("JSONSelectFilter", .events) { test, chunks in
      var parser = JSONParser(
        handler: JSONSelectFilter(paths: [try JSONPath("$")], downstream: EventRecorder()),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(units: [parser.handler.downstream.events], error: error)
    },
    // A filter that selects nothing skips every container: the same errors, no events.
    EntryPoint(
      name: "JSONSelectFilter selecting nothing", units: .events,
      reference: { test in
        if test.rejectsDuplicateKeys { return nil }
        return ConformanceOutcome(units: [[]], error: referenceOutcome(test, units: .events).error)
      },
      run: { test, chunks in
        var parser = JSONParser(
          handler: JSONSelectFilter(paths: [try JSONPath("$.none")], downstream: EventRecorder()),
          options: test.options)
        let error = try drive(&parser, chunks)
        return ConformanceOutcome(units: [parser.handler.downstream.events], error: error)
      }),
    EntryPoint("JSONExcludeFilter", .events) { test, chunks in
      var parser = JSONParser(
        handler: JSONExcludeFilter(paths: [try JSONPath("$.none")], downstream: EventRecorder()),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(units: [parser.handler.downstream.events], error: error)
    },
    EntryPoint("JSONTransform", .events) { test, chunks in
      var parser = JSONParser(
        handler: JSONTransform(rules: [], downstream: EventRecorder()), options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(units: [parser.handler.downstream.events], error: error)
    },
    EntryPoint("JSONItemStreamer", .rootElements, takes: everyCase) { test, chunks in
      var parser = JSONParser(
        handler: JSONItemStreamer(paths: [try JSONPath("$[*]")], duplicateKeys: policy(test)),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(
        units: try parser.handler.takeItems().map { try events($0.value) }, error: error)
    },
    // A filter holds each candidate until it ends: what is complete is delivered, as `$[*]`.
    EntryPoint("JSONItemStreamer with a filter", .rootElements, takes: everyCase) { test, chunks in
      var parser = JSONParser(
        handler: JSONItemStreamer(paths: [try JSONPath("$[?@]")], duplicateKeys: policy(test)),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(
        units: try parser.handler.takeItems().map { try events($0.value) }, error: error)
    },
    EntryPoint("JSONSelectFilter with a filter", .rootElements) { test, chunks in
      var parser = JSONParser(
        handler: JSONSelectFilter(paths: [try JSONPath("$[?@]")], downstream: JSONTreeBuilder()),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(
        units: try parser.handler.downstream.values.map(events), error: error)
    },
    EntryPoint("JSONItemStreamer at the root", .topLevelValues, takes: everyCase) { test, chunks in
      var parser = JSONParser(
        handler: JSONItemStreamer(paths: [try JSONPath("$")], duplicateKeys: policy(test)),
        options: test.options)
      let error = try drive(&parser, chunks)
      return ConformanceOutcome(
        units: try parser.handler.takeItems().map { try events($0.value) }, error: error)
    },
    // parser → writer: what was written before an error is a prefix of the output, and holds
    // the complete values.
    EntryPoint("JSONWriter", .topLevelValues) { test, chunks in
      var writeOptions = JSONWriteOptions()
      writeOptions.allowMultipleValues = true
      writeOptions.allowNonFiniteNumbers = test.options.allowNonFiniteNumbers
      var parser = JSONParser(handler: JSONWriter(options: writeOptions), options: test.options)
      let error = try drive(&parser, chunks)
      if error == nil { try parser.handler.finish() } else { try parser.handler.flush() }
      var readOptions = JSONParseOptions()
      readOptions.allowMultipleValues = true
      readOptions.allowNonFiniteNumbers = test.options.allowNonFiniteNumbers
      readOptions.limits.maxNumberLength = .max
      var reader = JSONParser(handler: JSONTreeBuilder(), options: readOptions)
      try reader.feed(parser.handler.bytes)
      if error == nil {
        try reader.finish()
      } else {
        // A prefix of valid JSON: it may end inside a value, but never in error.
        do { try reader.finish() } catch let cut as JSONParseError {
          #expect(cut.kind == .unexpectedEndOfInput, "the output is not a prefix: \(cut)")
        }
      }
      return ConformanceOutcome(units: try reader.handler.values.map(events), error: error)
    },
    EntryPoint(
      name: "JSONDocumentReader, concatenated", units: .topLevelValues,
      reference: { test in
        if test.options.allowTrailingText { return nil }  // no end to a value's trailing text
        return referenceOutcome(test.with { $0.allowMultipleValues = true }, units: .topLevelValues)
      },
      run: { test, chunks in
        var reader = JSONDocumentReader(
          framing: .concatenated, options: test.options, duplicateKeys: policy(test))
        return try readDocuments(&reader, chunks)
      }),
    EntryPoint(
      name: "JSONDocumentReader, lines", units: .topLevelValues,
      reference: { test in referenceLinesOutcome(test) },
      run: { test, chunks in
        var options = test.options
        options.allowMultipleValues = false
        var reader = JSONDocumentReader(
          framing: .lines, options: options, duplicateKeys: policy(test))
        return try readDocuments(&reader, chunks)
      }),
    // Each case as one record of an RFC 7464 text sequence: a record separator before it.
    EntryPoint(
      name: "JSONDocumentReader, text sequence", units: .topLevelValues,
      reference: oneRecordReference,
      run: { test, _ in
        var options = test.options
        options.allowMultipleValues = false
        var reader = JSONDocumentReader(
          framing: .textSequence, options: options, duplicateKeys: policy(test))
        let record = Chunking.random.chunks([0x1E] + test.bytes)
        return try readDocuments(&reader, record)
      }),
    EntryPoint("jsonEvents, chunks", .events) { test, chunks in
      let (events, error) = try await drainChecked(
        AsyncChunks(chunks: chunks).jsonEvents(options: test.options))
      var recorder = EventRecorder()
      for event in events { try event.send(to: &recorder) }
      return ConformanceOutcome(units: [recorder.events], error: try asyncPlace(error))
    },
    EntryPoint("jsonEvents, bytes", .events, wholeOnly: true) { test, _ in
      let (events, error) = try await drainChecked(
        AsyncBytes(bytes: test.bytes).jsonEvents(options: test.options))
      var recorder = EventRecorder()
      for event in events { try event.send(to: &recorder) }
      return ConformanceOutcome(units: [recorder.events], error: try asyncPlace(error))
    },
    EntryPoint("jsonItems, chunks", .rootElements, takes: everyCase) { test, chunks in
      let (items, error) = try await drainChecked(
        AsyncChunks(chunks: chunks).jsonItems(
          paths: [try JSONPath("$[*]")], options: test.options, duplicateKeys: policy(test)))
      return ConformanceOutcome(
        units: try items.map { try events($0.value) }, error: try asyncPlace(error))
    },
    EntryPoint("jsonItems, bytes", .rootElements, wholeOnly: true, takes: everyCase) { test, _ in
      let (items, error) = try await drainChecked(
        AsyncBytes(bytes: test.bytes).jsonItems(
          paths: [try JSONPath("$[*]")], options: test.options, duplicateKeys: policy(test)))
      return ConformanceOutcome(
        units: try items.map { try events($0.value) }, error: try asyncPlace(error))
    },
    EntryPoint(
      name: "jsonDocuments, chunks", units: .topLevelValues,
      reference: { test in referenceLinesOutcome(test) },
      run: { test, chunks in
        var options = test.options
        options.allowMultipleValues = false
        let (results, error) = try await drainChecked(
          AsyncChunks(chunks: chunks).jsonDocuments(options: options, duplicateKeys: policy(test)))
        return ConformanceOutcome(
          units: try results.map { try events(try $0.get().value) }, error: try asyncPlace(error))
      }),
    EntryPoint(
      name: "jsonDocuments, bytes", units: .topLevelValues,
      reference: { test in referenceLinesOutcome(test) }, wholeOnly: true,
      run: { test, _ in
        var options = test.options
        options.allowMultipleValues = false
        let (results, error) = try await drainChecked(
          AsyncBytes(bytes: test.bytes).jsonDocuments(options: options, duplicateKeys: policy(test))
        )
        return ConformanceOutcome(
          units: try results.map { try events(try $0.get().value) }, error: try asyncPlace(error))
      }),
  ]
}

/// An async adapter's error, placed.
func asyncPlace(_ error: (any Error)?) throws -> ErrorPlace? {
  switch error {
  case nil: return nil
  case let error as JSONParseError: return ErrorPlace(error)
  case let failure as JSONDocumentReader.Failure: return try place(failure)
  case let error?: throw error
  }
}

/// Every case of the matrix: the written ones, and the JSONTestSuite's files when present.
func matrixCases() throws -> [ConformanceCase] {
  var cases = ConformanceCase.written
  if SharedData.hasJSONTestSuite {
    for file in try SharedData.files(in: SharedData.jsonTestSuite, prefix: "") {
      cases.append(ConformanceCase(file.name, file.bytes))
    }
  }
  return cases
}

@Suite("Conformance matrix")
struct ConformanceMatrixTests {
  @Test(
    "every way in gives the reference's values and error, at every chunking",
    arguments: Matrix.entryPoints)
  func matrix(_ entryPoint: EntryPoint) async throws {
    if !SharedData.hasJSONTestSuite {
      print("JSONTestSuite not found at \(SharedData.jsonTestSuite.path): its files are left out")
    }
    var compared = 0
    for test in try matrixCases() {
      guard var expected = entryPoint.reference(test) else { continue }
      if entryPoint.allOrNothing && expected.error != nil { expected.units = [] }
      for chunking in entryPoint.wholeOnly ? [.whole] : Chunking.allCases {
        // Byte by byte, large inputs only cost time: the small cases cover every split.
        if chunking == .oneByte && test.bytes.count > 4096 { continue }
        let outcome = try await entryPoint.run(test, chunking.chunks(test.bytes))
        #expect(outcome == expected, "\(entryPoint), \(test), \(chunking)")
        compared += 1
      }
    }
    #expect(compared > 0)
  }
}

@Suite("Seams between the layers")
struct SeamTests {
  @Test("a path tracker keeps its consumer's skipping")
  func trackerKeepsSkipping() throws {
    #expect(JSONPathTracker<SkippingRecorder>.canSkipContainers)
    let all = try parsedEvents(SkipTests.text)
    for depth in 1...3 {
      var parser = JSONParser(
        handler: JSONPathTracker(downstream: SkippingRecorder(skipDepth: depth)))
      try parser.feed(SkipTests.text.utf8)
      try parser.finish()
      #expect(parser.handler.downstream.recorder.events == withoutContents(all, at: depth))
    }
  }

  @Test("a repeated key is a located parse error from every consumer; a tracker adds its path")
  func duplicateKeys() async throws {
    let text = "[{\"a\":1},\n {\"b\":{\"k\":1,\"k\":2}}]"
    let expected = ErrorPlace(kind: .duplicateKey, offset: 23, line: 2, column: 14)
    let direct = try #require(throws: JSONParseError.self) {
      try JSONValue(parsing: text, duplicateKeys: .error)
    }
    #expect(ErrorPlace(direct) == expected && direct.path == nil)
    #expect(direct.description == #"line 2, column 14: duplicate key "k" in an object"#)

    var tracked = JSONParser(
      handler: JSONPathTracker(downstream: JSONTreeBuilder(duplicateKeyPolicy: .error)))
    let located = try #require(throws: JSONParseError.self) {
      try tracked.feed(text.utf8)
    }
    #expect(ErrorPlace(located) == expected)
    #expect(located.path == [.index(1), .key("b"), .key("k")])
    #expect(located.description.hasPrefix("line 2, column 14 (at /1/b/k): duplicate key"))

    var items = JSONParser(
      handler: JSONItemStreamer(paths: [try JSONPath("$[*]")], duplicateKeys: .error))
    let fromItems = try #require(throws: JSONParseError.self) { try items.feed(text.utf8) }
    #expect(ErrorPlace(fromItems) == expected)
    #expect(items.handler.takeItems().map(\.value) == [["a": 1]])

    var reader = JSONDocumentReader(framing: .concatenated, duplicateKeys: .error)
    let failure = try #require(throws: JSONDocumentReader.Failure.self) {
      _ = try reader.feed(Array(text.utf8))
    }
    #expect(try place(failure) == expected)
  }

  @Test("after an error, every later call throws the same error; async iterators end")
  func stickyErrors() async throws {
    let text = #"[{"a":1},{"a":2}, x]"#
    var items = AsyncChunks(chunks: [Array(text.utf8)]).jsonItems(paths: [try JSONPath("$[*]")])
      .makeAsyncIterator()
    #expect(try await items.next()?.value == ["a": 1])
    #expect(try await items.next()?.value == ["a": 2])
    await #expect(throws: JSONParseError.self) { try await items.next() }
    #expect(try await items.next() == nil)
    #expect(try await items.next() == nil)

    var reader = JSONDocumentReader()
    let documents = try reader.feed(Array("[1]\n[2]\n{bad\n[4]\n".utf8))
    #expect(try documents.map { try $0.get().value } == [[1], [2]])
    for _ in 0..<2 {
      let failure = try #require(throws: JSONDocumentReader.Failure.self) {
        _ = try reader.feed(Array("[5]\n".utf8))
      }
      #expect(failure.line == 3 && failure.index == 2)
    }
    #expect(throws: JSONDocumentReader.Failure.self) { _ = try reader.finish() }
  }
}

@Suite("Entry point inventory")
struct EntryPointInventoryTests {
  /// Each public way in of the core module, and the matrix entry that runs it.
  static let covered: [String: [String]] = [
    "JSONParser.feed": ["JSONParser.feed"],
    "JSONParser.parse": ["JSONParser.parse"],
    "JSONValue.init": ["JSONValue(parsing:)"],
    "JSONPatch.init": ["JSONPatch(parsing:)"],
    "JSONDocumentReader.feed": [
      "JSONDocumentReader, concatenated", "JSONDocumentReader, lines",
      "JSONDocumentReader, text sequence",
    ],
    "AsyncSequence.jsonEvents": ["jsonEvents, chunks", "jsonEvents, bytes"],
    "AsyncSequence.jsonItems": ["jsonItems, chunks", "jsonItems, bytes"],
    "AsyncSequence.jsonDocuments": ["jsonDocuments, chunks", "jsonDocuments, bytes"],
  ]

  /// Ways in that the matrix does not run, and why.
  static let excluded: [String: String] = [
    "JSONBinaryReader.feed":
      "binary input, not JSON text: BinaryFormatTests and the binary fuzz target hold it to the parser's rules"
  ]

  @Test("every public way in of the core module is in the conformance matrix")
  func everyWayInIsInTheMatrix() throws {
    let found = try EntryPointInventory.entryPoints(inModules: EntryPointInventory.coreModules)
    #expect(found.count >= Self.covered.count, "the inventory found \(found)")
    let names = Set(Matrix.entryPoints.map(\.name))
    for entryPoint in found where Self.excluded[entryPoint] == nil {
      let runs = try #require(
        Self.covered[entryPoint], "\(entryPoint) is a way in that the conformance matrix lacks")
      for name in runs { #expect(names.contains(name), "no matrix entry named \(name)") }
    }
    for listed in Array(Self.covered.keys) + Array(Self.excluded.keys) {
      #expect(found.contains(listed), "\(listed) is listed but no longer declared")
    }
  }

  @Test("the inventory finds ways in inside nested types and extensions")
  func inventoryReadsScopes() {
    let source = """
      public struct Outer {
        public mutating func feed(_ x: Int) {}
        public struct Inner {
          public func decodeItems() {} // "{" in a comment
        }
        public static func parse(_ s: String = "}") {}
      }
      extension AsyncSequence where Element == UInt8 {
        public func jsonItems() {}
      }
      extension Outer {
        public init<Bytes: Sequence>(
          parsing bytes: Bytes
        ) {}
      }
      """
    #expect(
      EntryPointInventory.entryPoints(inSource: source)
        == [
          "Outer.feed", "Inner.decodeItems", "Outer.parse", "AsyncSequence.jsonItems", "Outer.init",
        ])
  }
}

/// Forwards events to a writer and stops after `limit` of them: a chain cut in the middle.
struct StoppingWriter: JSONEventHandler {
  var writer = JSONWriter(options: JSONWriteOptions())
  let limit: Int
  var count = 0
  var isDone: Bool { count >= limit }

  init(limit: Int) { self.limit = limit }

  mutating func startObject() throws {
    count += 1
    try writer.startObject()
  }
  mutating func endObject() throws {
    count += 1
    try writer.endObject()
  }
  mutating func startArray() throws {
    count += 1
    try writer.startArray()
  }
  mutating func endArray() throws {
    count += 1
    try writer.endArray()
  }
  mutating func key(_ key: borrowing JSONString) throws {
    count += 1
    try writer.key(key)
  }
  mutating func string(_ value: borrowing JSONString) throws {
    count += 1
    try writer.string(value)
  }
  mutating func number(_ value: borrowing JSONNumber) throws {
    count += 1
    try writer.number(value)
  }
  mutating func bool(_ value: Bool) throws {
    count += 1
    try writer.bool(value)
  }
  mutating func null() throws {
    count += 1
    try writer.null()
  }
}

extension SeamTests {
  @Test("a chain stopped or failed midway: the writer's output is the start of valid JSON")
  func cutChains() throws {
    let text = #"{"a":[1,{"b":"x"},[]],"c":{"d":null,"e":true},"f":-1.5e3}"#
    let events = try parsedEvents(text).count
    for limit in 1..<events {
      var parser = JSONParser(handler: JSONPathTracker(downstream: StoppingWriter(limit: limit)))
      #expect(try parser.feed(text.utf8) == .stopped)
      var writer = parser.handler.downstream.writer
      try writer.flush()
      // A prefix of the document: reading it only misses its end.
      var reader = JSONParser(handler: EventRecorder())
      try reader.feed(writer.bytes)
      let cut = try #require(throws: JSONParseError.self) { try reader.finish() }
      #expect(cut.kind == .unexpectedEndOfInput, "stopped after \(limit) events")
      // All the events written, but for a number last: the end of input does not end a number
      // inside a container.
      var written = Array(try parsedEvents(text).prefix(limit))
      if case .number = written.last { written.removeLast() }
      #expect(reader.handler.events == written, "stopped after \(limit) events")
      let unfinished = try #require(throws: JSONWriterError.self) { try writer.finish() }
      #expect(unfinished.kind == .incompleteDocument)
      #expect(unfinished.message.contains("the start of a JSON document, cut short"))
    }
  }
}
