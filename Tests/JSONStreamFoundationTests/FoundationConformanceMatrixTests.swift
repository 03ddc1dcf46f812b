import Foundation
import JSONStream
import JSONStreamFoundation
import JSONStreamTestSupport
import Testing

// The conformance matrix for the Foundation module's ways in (see the core module's matrix):
// Foundation trees and Codable keep values but not number text or key order, so outcomes are
// compared in canonical form.

/// Any JSON value, decoded through `Decodable` only.
enum AnyJSON: Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([AnyJSON])
  case object([String: AnyJSON])

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var elements: [AnyJSON] = []
      while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self)) }
      self = .array(elements)
    } else if let object = try? decoder.container(keyedBy: Key.self) {
      var members: [String: AnyJSON] = [:]
      for key in object.allKeys {
        members[key.stringValue] = try object.decode(AnyJSON.self, forKey: key)
      }
      self = .object(members)
    } else {
      let value = try decoder.singleValueContainer()
      if value.decodeNil() {
        self = .null
      } else if let bool = try? value.decode(Bool.self) {
        self = .bool(bool)
      } else if let number = try? value.decode(Double.self) {
        self = .number(number)
      } else {
        self = .string(try value.decode(String.self))
      }
    }
  }

  /// Its events, numbers written as their `Double`.
  var events: [Event] {
    switch self {
    case .null: return [.null]
    case .bool(let value): return [.bool(value)]
    case .number(let value): return [.number("\(value)")]
    case .string(let value): return [.string(value)]
    case .array(let elements): return [.startArray] + elements.flatMap(\.events) + [.endArray]
    case .object(let members):
      return [.startObject] + members.flatMap { [.key($0.key)] + $0.value.events } + [.endObject]
    }
  }
}

/// Any JSON value through `decode(_:from:configuration:)`.
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
struct ConfiguredAnyJSON: DecodableWithConfiguration {
  var value: AnyJSON
  init(from decoder: any Decoder, configuration: Void) throws {
    value = try AnyJSON(from: decoder)
  }
}

/// A way in of the Foundation module (see `EntryPoint` in the core module's matrix).
struct FoundationEntryPoint: Sendable, CustomStringConvertible {
  let name: String
  /// The reference, or nil for a case not this entry point's to take.
  let reference: @Sendable (ConformanceCase) -> ConformanceOutcome?
  var wholeOnly = false
  var allOrNothing = false
  /// Codable keeps the first of a repeated key (as Foundation's decoder does).
  var firstKeyWins = false
  let run: @Sendable (ConformanceCase, [[UInt8]]) async throws -> ConformanceOutcome

  var description: String { name }
}

/// Whether every number of the case fits a `Double` (Foundation trees and `Double` fields
/// refuse the others, by design): no huge exponents, no NaN or infinities, and no nonzero
/// number so small it would round to zero (`Double` fields refuse those, as JSONDecoder does).
@Sendable func finiteNumbers(_ test: ConformanceCase) -> Bool {
  !referenceOutcome(test, units: .events).units[0].contains { event in
    guard case .number(let text) = event else { return false }
    guard let double = Double(text), double.isFinite else { return true }
    let mantissa = text.prefix { $0 != "e" && $0 != "E" }
    return double == 0 && mantissa.contains { ("1"..."9").contains($0) }
  }
}

/// The reference for Foundation trees and Codable: top-level values, or `$[*]` items, or NDJSON
/// lines; nil for duplicate-key cases (no policy) and numbers no `Double` holds.
@Sendable func foundationReference(_ units: ConformanceUnits)
  -> @Sendable (ConformanceCase) -> ConformanceOutcome?
{
  { test in
    test.rejectsDuplicateKeys || !finiteNumbers(test)
      ? nil : referenceOutcome(test, units: units, asWritten: true)
  }
}

@Sendable func foundationLinesReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  test.rejectsDuplicateKeys || !finiteNumbers(test)
    ? nil : referenceLinesOutcome(test, asWritten: true)
}

/// The lines of a case, the bad ones passed over (see `skippedUnit`).
@Sendable func foundationSkippingLinesReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  test.rejectsDuplicateKeys || !finiteNumbers(test)
    ? nil : referenceLinesOutcome(test, asWritten: true, skipping: true)
}

/// `JSONFoundation.object`: several values are `objects(with:)`'s to read.
@Sendable func firstObjectReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  test.options.allowMultipleValues ? nil : foundationReference(.topLevelValues)(test)
}

/// `JSONStreamDecoder.decode` reads one document: `allowMultipleValues` is an error.
@Sendable func decodeReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  if test.options.allowMultipleValues {
    return ConformanceOutcome(
      units: [], error: ErrorPlace(kind: .invalidOption, offset: 0, line: 1, column: 1))
  }
  return foundationReference(.topLevelValues)(test)
}

/// `JSONStreamDecoder.decode` from bytes, which passes a UTF-8 byte order mark over and reads
/// UTF-16 and UTF-32, as JSONDecoder does. Input it takes for UTF-16 or UTF-32 (a zero among
/// the first four bytes, or a UTF-16 byte order mark) is not the UTF-8 parser's to judge:
/// `CoderParityTests` compares it with JSONDecoder.
@Sendable func bytesDecodeReference(_ test: ConformanceCase) -> ConformanceOutcome? {
  if test.bytes.prefix(4).contains(0) || test.bytes.starts(with: [0xFE, 0xFF])
    || test.bytes.starts(with: [0xFF, 0xFE])
  {
    return nil
  }
  guard test.bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return decodeReference(test) }
  return decodeReference(test.with { $0.allowByteOrderMark = true })
}

/// The place of an error from these entry points: a parse error, alone or under a decoding
/// error or a document reader's failure.
func foundationPlace(_ error: any Error) throws -> ErrorPlace {
  switch error {
  case let error as JSONParseError: return ErrorPlace(error)
  case DecodingError.dataCorrupted(let context):
    guard let underlying = context.underlyingError else { throw error }
    return try foundationPlace(underlying)
  case let failure as JSONDocumentReader.Failure:
    let error = try #require(failure.error as? JSONParseError, "\(failure)")
    let position = try #require(failure.location)
    return ErrorPlace(
      kind: error.kind, offset: position.offset, line: position.line, column: position.column)
  default: throw error
  }
}

/// Events of a Foundation tree.
func events(ofFoundation object: Any) throws -> [Event] {
  var recorder = EventRecorder()
  try JSONFoundation.replay(object, into: &recorder, sortedKeys: true)
  return recorder.events
}

/// Decoder options for a case.
func decoder(_ test: ConformanceCase) -> JSONStreamDecoder {
  let decoder = JSONStreamDecoder()
  decoder.parseOptions = test.options
  return decoder
}

/// A decoder for a case's lines: one document per line (the framing, not the option, says
/// where they end).
func lineDecoder(_ test: ConformanceCase) -> JSONStreamDecoder {
  let lines = decoder(test)
  lines.parseOptions.allowMultipleValues = false
  return lines
}

/// The lines an async stream passed over, by their index among the lines.
final class SkippedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var failures: [Int: JSONDocumentReader.Failure] = [:]

  @Sendable func add(_ failure: JSONDocumentReader.Failure) {
    lock.withLock { failures[failure.index] = failure }
  }

  var count: Int { lock.withLock { failures.count } }

  /// The unit of the line at `index` if it was passed over.
  func unit(_ index: Int) throws -> [Event]? {
    guard let failure = lock.withLock({ failures[index] }) else { return nil }
    return skippedUnit(try foundationPlace(failure.error))
  }
}

/// Every output until the end or an error, checking that it returns nil after throwing.
func drainChecked<S: AsyncSequence>(_ sequence: S) async throws -> ([S.Element], (any Error)?) {
  let drained = try await drain(sequence)
  #expect(drained.endsAfterError, "an async iterator must return nil after it threw")
  return (drained.outputs, drained.error)
}

enum FoundationMatrix {
  /// The names are what `EntryPointInventoryTests` matches.
  static let entryPoints: [FoundationEntryPoint] = [
    FoundationEntryPoint(
      name: "JSONFoundationBuilder", reference: foundationReference(.topLevelValues)
    ) {
      test, chunks in
      var parser = JSONParser(
        handler: JSONFoundationBuilder(options: .fragmentsAllowed), options: test.options)
      var place: ErrorPlace? = nil
      do {
        for chunk in chunks { try parser.feed(chunk) }
        try parser.finish()
      } catch {
        place = try foundationPlace(error)
      }
      return ConformanceOutcome(
        units: try parser.handler.values.map(events(ofFoundation:)), error: place)
    },
    FoundationEntryPoint(
      name: "JSONFoundation.objects", reference: foundationReference(.topLevelValues),
      wholeOnly: true, allOrNothing: true
    ) { test, _ in
      do {
        let objects = try JSONFoundation.objects(
          with: test.bytes, options: .fragmentsAllowed, parseOptions: test.options)
        return ConformanceOutcome(units: try objects.map(events(ofFoundation:)), error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONFoundation.object",
      reference: firstObjectReference, wholeOnly: true, allOrNothing: true
    ) { test, _ in
      do {
        let object = try JSONFoundation.object(
          with: test.bytes, options: .fragmentsAllowed, parseOptions: test.options)
        return ConformanceOutcome(units: [try events(ofFoundation: object)], error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    // Returns its handler or throws: all or nothing.
    FoundationEntryPoint(
      name: "JSONFileReader.parse", reference: foundationReference(.topLevelValues),
      allOrNothing: true
    ) { test, chunks in
      // The file is read in chunks of the chunking's first size.
      let chunkSize = chunks.count <= 1 ? 64 * 1024 : max(1, chunks[0].count)
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("matrix-\(UUID().uuidString).json").path
      try Data(test.bytes).write(to: URL(fileURLWithPath: path))
      defer { try? FileManager.default.removeItem(atPath: path) }
      do {
        let handler = try JSONFileReader.parse(
          path: path, handler: JSONFoundationBuilder(options: .fragmentsAllowed),
          options: test.options, chunkSize: chunkSize)
        return ConformanceOutcome(units: try handler.values.map(events(ofFoundation:)), error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decode",
      reference: bytesDecodeReference, wholeOnly: true, allOrNothing: true, firstKeyWins: true
    ) { test, _ in
      do {
        let value = try decoder(test).decode(AnyJSON.self, from: test.bytes)
        return ConformanceOutcome(units: [value.events], error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decode configuration",
      reference: bytesDecodeReference, wholeOnly: true, allOrNothing: true, firstKeyWins: true
    ) { test, _ in
      guard #available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *) else {
        return bytesDecodeReference(test)!
      }
      do {
        let value = try decoder(test).decode(
          ConfiguredAnyJSON.self, from: test.bytes, configuration: ())
        return ConformanceOutcome(units: [value.value.events], error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONValue.decode",
      reference: decodeReference, wholeOnly: true, allOrNothing: true, firstKeyWins: true
    ) { test, _ in
      do {
        // The tree the decoder makes of the bytes (a repeated key keeps its first value), then
        // decoded from the value.
        let value = try JSONValue(
          parsing: test.bytes, options: test.options, duplicateKeys: .firstWins)
        let decoded = try value.decode(AnyJSON.self, decoder: decoder(test))
        return ConformanceOutcome(units: [decoded.events], error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.ItemDecoder", reference: foundationReference(.rootElements),
      firstKeyWins: true
    ) { test, chunks in
      var items = try JSONStreamDecoder.ItemDecoder(AnyJSON.self, decoder: decoder(test))
      var units: [[Event]] = []
      do {
        for chunk in chunks { units += try items.feed(chunk).map(\.events) }
        units += try items.finish().map(\.events)
        return ConformanceOutcome(units: units, error: nil)
      } catch {
        let place = try foundationPlace(error)
        // Every later call throws it again.
        let again = #expect(throws: (any Error).self) { _ = try items.finish() }
        #expect(try again.map(foundationPlace) == place)
        return ConformanceOutcome(units: units, error: place)
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.ItemDecoder skipping", reference: foundationReference(.rootElements),
      firstKeyWins: true
    ) { test, chunks in
      // Every item decodes (AnyJSON takes any value): skipping changes nothing, and bad JSON
      // still ends the items.
      var items = try JSONStreamDecoder.ItemDecoder(AnyJSON.self, decoder: decoder(test)) {
        Issue.record("skipped \($0)")
      }
      var units: [[Event]] = []
      do {
        for chunk in chunks { units += try items.feed(chunk).map(\.events) }
        units += try items.finish().map(\.events)
        return ConformanceOutcome(units: units, error: nil)
      } catch {
        return ConformanceOutcome(units: units, error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decodeItems skipping", reference: foundationReference(.rootElements),
      wholeOnly: true, allOrNothing: true, firstKeyWins: true
    ) { test, _ in
      do {
        let values = try decoder(test).decodeValidItems(AnyJSON.self, from: test.bytes) {
          Issue.record("skipped \($0)")
        }
        return ConformanceOutcome(units: values.map(\.events), error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decodeLines skipping", reference: foundationSkippingLinesReference,
      wholeOnly: true, allOrNothing: true, firstKeyWins: true
    ) { test, _ in
      var skipped: [Int: [Event]] = [:]
      do {
        let values = try lineDecoder(test).decodeValidLines(AnyJSON.self, from: test.bytes) {
          skipped[$0.index] = skippedUnit(try foundationPlace($0.error))
        }
        // The values in line order, among the skipped lines' units.
        var next = values.makeIterator()
        let units = (0..<(values.count + skipped.count)).map { skipped[$0] ?? next.next()!.events }
        return ConformanceOutcome(units: units, error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decodeItems", reference: foundationReference(.rootElements),
      wholeOnly: true, firstKeyWins: true
    ) { test, _ in
      var units: [[Event]] = []
      do {
        try decoder(test).decodeItems(AnyJSON.self, from: test.bytes) { units.append($0.events) }
        return ConformanceOutcome(units: units, error: nil)
      } catch {
        return ConformanceOutcome(units: units, error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decodeLines", reference: foundationLinesReference,
      wholeOnly: true, firstKeyWins: true
    ) { test, _ in
      var units: [[Event]] = []
      let lines = lineDecoder(test)
      do {
        try lines.decodeLines(AnyJSON.self, from: test.bytes) { units.append($0.events) }
        return ConformanceOutcome(units: units, error: nil)
      } catch {
        return ConformanceOutcome(units: units, error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "JSONStreamDecoder.decodeLinesInParallel", reference: foundationLinesReference,
      wholeOnly: true, allOrNothing: true, firstKeyWins: true
    ) { test, _ in
      let lines = lineDecoder(test)
      do {
        let values = try lines.decodeLinesInParallel(AnyJSON.self, from: test.bytes)
        return ConformanceOutcome(units: values.map(\.events), error: nil)
      } catch {
        return ConformanceOutcome(units: [], error: try foundationPlace(error))
      }
    },
    FoundationEntryPoint(
      name: "AsyncSequence.decodeItems", reference: foundationReference(.rootElements),
      firstKeyWins: true
    ) { test, chunks in
      let (values, error) = try await drainChecked(
        try AsyncChunks(chunks: chunks).decodeItems(AnyJSON.self, decoder: decoder(test)))
      return ConformanceOutcome(units: values.map(\.events), error: try error.map(foundationPlace))
    },
    FoundationEntryPoint(
      name: "AsyncSequence.decodeLines skipping", reference: foundationSkippingLinesReference,
      firstKeyWins: true
    ) { test, chunks in
      let skipped = SkippedLines()
      let (values, error) = try await drainChecked(
        AsyncChunks(chunks: chunks).decodeValidLines(
          AnyJSON.self, decoder: lineDecoder(test), skipping: skipped.add))
      var next = values.makeIterator()
      let units = try (0..<(values.count + skipped.count)).map {
        try skipped.unit($0) ?? next.next()!.events
      }
      return ConformanceOutcome(units: units, error: try error.map(foundationPlace))
    },
    FoundationEntryPoint(
      name: "AsyncSequence.decodeItems skipping", reference: foundationReference(.rootElements),
      firstKeyWins: true
    ) { test, chunks in
      let (values, error) = try await drainChecked(
        try AsyncChunks(chunks: chunks).decodeValidItems(
          AnyJSON.self, decoder: decoder(test), skipping: { Issue.record("skipped \($0)") }))
      return ConformanceOutcome(units: values.map(\.events), error: try error.map(foundationPlace))
    },
    FoundationEntryPoint(
      name: "AsyncSequence.decodeLines", reference: foundationLinesReference, firstKeyWins: true
    ) { test, chunks in
      let lines = lineDecoder(test)
      let (values, error) = try await drainChecked(
        AsyncChunks(chunks: chunks).decodeLines(AnyJSON.self, decoder: lines))
      return ConformanceOutcome(units: values.map(\.events), error: try error.map(foundationPlace))
    },
  ]
}

@Suite("Conformance matrix: Foundation")
struct FoundationConformanceMatrixTests {
  @Test(
    "every way in gives the reference's values and error, at every chunking",
    arguments: FoundationMatrix.entryPoints)
  func matrix(_ entryPoint: FoundationEntryPoint) async throws {
    var cases = ConformanceCase.written
    if SharedData.hasJSONTestSuite {
      for file in try SharedData.files(in: SharedData.jsonTestSuite, prefix: "") {
        cases.append(ConformanceCase(file.name, file.bytes))
      }
    }
    var compared = 0
    for test in cases {
      guard var expected = entryPoint.reference(test) else { continue }
      if entryPoint.allOrNothing && expected.error != nil { expected.units = [] }
      for chunking in entryPoint.wholeOnly ? [.whole] : Chunking.allCases {
        if chunking == .oneByte && test.bytes.count > 4096 { continue }
        let outcome = try await entryPoint.run(test, chunking.chunks(test.bytes))
        #expect(
          outcome.canonical(firstKeyWins: entryPoint.firstKeyWins)
            == expected.canonical(firstKeyWins: entryPoint.firstKeyWins),
          "\(entryPoint), \(test), \(chunking)")
        compared += 1
      }
    }
    #expect(compared > 0)
  }
}

@Suite("Entry point inventory: Foundation")
struct FoundationEntryPointInventoryTests {
  /// Each public way in of the Foundation module, and the matrix entries that run it.
  static let covered: [String: [String]] = [
    "JSONFoundation.object": ["JSONFoundation.object"],
    "JSONFoundation.objects": ["JSONFoundation.objects"],
    "JSONFileReader.parse": ["JSONFileReader.parse"],
    "JSONStreamDecoder.decode": [
      "JSONStreamDecoder.decode", "JSONStreamDecoder.decode configuration",
    ],
    "JSONValue.decode": ["JSONValue.decode"],
    "JSONStreamDecoder.decodeItems": ["JSONStreamDecoder.decodeItems"],
    "JSONStreamDecoder.decodeLines": ["JSONStreamDecoder.decodeLines"],
    "JSONStreamDecoder.decodeLinesInParallel": ["JSONStreamDecoder.decodeLinesInParallel"],
    "ItemDecoder.feed": [
      "JSONStreamDecoder.ItemDecoder", "JSONStreamDecoder.ItemDecoder skipping",
    ],
    "AsyncSequence.decodeItems": ["AsyncSequence.decodeItems"],
    "JSONStreamDecoder.decodeValidItems": ["JSONStreamDecoder.decodeItems skipping"],
    "JSONStreamDecoder.decodeValidLines": ["JSONStreamDecoder.decodeLines skipping"],
    "AsyncSequence.decodeValidItems": ["AsyncSequence.decodeItems skipping"],
    "AsyncSequence.decodeValidLines": ["AsyncSequence.decodeLines skipping"],
    "AsyncSequence.decodeLines": ["AsyncSequence.decodeLines"],
  ]

  @Test("every public way in of the Foundation module is in the conformance matrix")
  func everyWayInIsInTheMatrix() throws {
    let found = try EntryPointInventory.entryPoints(inModules: ["JSONStreamFoundation"])
    let names = Set(FoundationMatrix.entryPoints.map(\.name))
    for entryPoint in found {
      let runs = try #require(
        Self.covered[entryPoint], "\(entryPoint) is a way in that the conformance matrix lacks")
      for name in runs { #expect(names.contains(name), "no matrix entry named \(name)") }
    }
    for listed in Self.covered.keys {
      #expect(found.contains(listed), "\(listed) is listed but no longer declared")
    }
  }
}
