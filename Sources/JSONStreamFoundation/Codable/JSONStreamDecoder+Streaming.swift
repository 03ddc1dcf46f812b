import Foundation
import JSONStream

// Decoding streams: the items a JSONPath selects (each as soon as its last byte arrives, with
// one item's tree in memory at a time), and NDJSON lines (one at a time, or across cores).

extension JSONStreamDecoder {
  /// Decodes the values a JSONPath selects, as the input arrives in chunks: each item as
  /// soon as its last byte has been parsed, holding one item's tree at a time, however large
  /// the document.
  ///
  /// ```swift
  /// var items = try JSONStreamDecoder.ItemDecoder(Order.self, at: "$.orders[*]")
  /// for chunk in chunks {
  ///   for order in try items.feed(chunk) { handle(order) }
  /// }
  /// for order in try items.finish() { handle(order) }
  /// ```
  ///
  /// A `DecodingError` for an item has a coding path that starts at the item (its index or
  /// key in its container) and says which item it was.
  ///
  /// Nothing complete is lost to an error: a `feed` whose chunk completes items and then meets
  /// an error (bad JSON, or an item that does not decode) returns the items before it, in
  /// order, and the next call throws the error; a call with no item before the error throws it
  /// at once. After that, every call throws the same error, at any chunking.
  public struct ItemDecoder<Item: Decodable> {
    private var parser: JSONParser<JSONItemStreamer>
    private let settings: JSONStreamDecoder.Settings
    /// The error that ended the input, once the items before it were returned.
    private var failure: (any Error)? = nil
    /// Items delivered so far.
    public private(set) var count = 0
    /// Items taken from the input so far, skipped ones included: the next one's number.
    private var taken = 0
    /// Where items that do not decode go, when they are skipped.
    private let skipped: ((DecodingError) -> Void)?
    /// What decoding the items so far found out (types, converted keys).
    private var known = _DecodingKnowledge()
    /// Bytes of tree memory held now: the item in progress (for tests of the bound).
    var heldBytes: Int { parser.handler.heldBytes }

    /// - Parameters:
    ///   - type: the type each item decodes to.
    ///   - path: a JSONPath (see ``JSONStream/JSONPath``); `$[*]` streams the elements of a
    ///     top-level array, `$.results[*]` those of a nested one, `$.rates.*` an object's members.
    ///   - decoder: the decoder whose strategies and options apply to every item.
    /// - Throws: ``JSONStream/JSONPathError`` for a malformed path or one that cannot stream
    ///   (``JSONStream/JSONPath/isStreamable``).
    public init(
      _ type: Item.Type, at path: String = "$[*]", decoder: JSONStreamDecoder = JSONStreamDecoder()
    ) throws {
      try self.init(type, at: path, settings: decoder.settings, skipped: nil)
    }

    /// An item decoder that passes over the items that do not decode, calling `skipped` with
    /// each one's `DecodingError` (whose coding path starts at the item and whose description
    /// says which item it was), and delivers the others. Input that is not valid JSON still
    /// ends the items: nothing after a syntax error can be trusted.
    ///
    /// ```swift
    /// var items = try JSONStreamDecoder.ItemDecoder(Order.self, at: "$.orders[*]") { error in
    ///   log.warning("skipped: \(error)")
    /// }
    /// ```
    public init(
      _ type: Item.Type, at path: String = "$[*]", decoder: JSONStreamDecoder = JSONStreamDecoder(),
      skipping skipped: @escaping (DecodingError) -> Void
    ) throws {
      try self.init(type, at: path, settings: decoder.settings, skipped: skipped)
    }

    init(
      _ type: Item.Type, at path: String, settings: JSONStreamDecoder.Settings,
      skipped: ((DecodingError) -> Void)?
    ) throws {
      self.settings = settings
      self.skipped = skipped
      // A repeated key keeps its first value, as Foundation's decoder reads it.
      parser = JSONParser(
        handler: JSONItemStreamer(
          paths: [try JSONPath.streamable(path)], duplicateKeys: .firstWins),
        options: settings.parseOptions)
    }

    /// Parses the next chunk (any contiguous bytes: `[UInt8]`, `Data`, an
    /// `UnsafeRawBufferPointer`…; other sequences are copied first); returns the items it
    /// completed, decoded. An error after some of them is thrown by the next call.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> [Item]
    where Bytes.Element == UInt8 {
      try _ScanInput.with(contentsOf: bytes) { try feed(input: $0) }
    }

    /// Parses the next chunk (nil when empty); returns the items it completed, decoded.
    mutating func feed(input: _ScanInput?) throws -> [Item] {
      if let failure { throw failure }
      var parseError: (any Error)? = nil
      do {
        try parser.feed(input)
      } catch {
        parseError = error
      }
      return try decodeTaken(before: parseError, last: false)
    }

    /// Ends the input; returns the last items. Throws for an incomplete document, or the
    /// error an earlier call left.
    public mutating func finish() throws -> [Item] {
      if let failure { throw failure }
      var parseError: (any Error)? = nil
      do {
        try parser.finish()
      } catch {
        parseError = error
      }
      return try decodeTaken(before: parseError, last: true)
    }

    /// Decodes the items the parser completed, in order, up to the first that fails; then the
    /// first error (that item's, else `parseError`) ends the input. It is thrown now when no
    /// item comes before it or this is the `last` call, else by the next call.
    private mutating func decodeTaken(before parseError: (any Error)?, last: Bool) throws
      -> [Item]
    {
      let items = parser.handler.takeItems()
      var decoded: [Item] = []
      decoded.reserveCapacity(items.count)
      var error = parseError.map { ($0 as? JSONParseError).map(JSONStreamDecoder.notJSON) ?? $0 }
      for item in items {
        taken += 1
        do {
          decoded.append(
            try settings.decodeItem(Item.self, item, number: taken - 1, known: &known))
          count += 1
        } catch let decodingError as DecodingError where skipped != nil {
          skipped?(decodingError)
        } catch let decodingError {
          error = decodingError
          break
        }
      }
      if let error {
        failure = error
        if decoded.isEmpty || last { throw error }
      }
      return decoded
    }
  }

  /// Decodes every value `path` selects in `bytes`, holding one item's tree at a time: a huge
  /// array decodes in the memory of its elements, not of its text's tree.
  ///
  /// ```swift
  /// let orders = try decoder.decodeItems(Order.self, at: "$.orders[*]", from: data)
  /// ```
  public func decodeItems<T: Decodable, Bytes: Sequence>(
    _ type: T.Type, at path: String = "$[*]", from bytes: Bytes
  ) throws -> [T] where Bytes.Element == UInt8 {
    var result: [T] = []
    try decodeItems(type, at: path, from: bytes) { result.append($0) }
    return result
  }

  /// Decodes every value `path` selects in `bytes`, passing over those that do not decode:
  /// `skipped` is called with each one's `DecodingError` (see
  /// ``ItemDecoder/init(_:at:decoder:skipping:)``). Input that is not valid JSON still
  /// throws, after the items before it.
  public func decodeValidItems<T: Decodable, Bytes: Sequence>(
    _ type: T.Type, at path: String = "$[*]", from bytes: Bytes,
    skipping skipped: (DecodingError) -> Void
  ) throws -> [T] where Bytes.Element == UInt8 {
    try withoutActuallyEscaping(skipped) { skipped in
      var items = try ItemDecoder(type, at: path, settings: settings, skipped: skipped)
      var result: [T] = []
      try feedAll(bytes, into: &items) { result.append($0) }
      return result
    }
  }

  /// Calls `body` with every value `path` selects in `bytes`, decoded, one at a time.
  public func decodeItems<T: Decodable, Bytes: Sequence>(
    _ type: T.Type, at path: String = "$[*]", from bytes: Bytes, _ body: (T) throws -> Void
  ) throws where Bytes.Element == UInt8 {
    var items = try ItemDecoder(type, at: path, decoder: self)
    try feedAll(bytes, into: &items, body)
  }

  /// Feeds `bytes` to `items` and hands each item to `body` as it comes.
  private func feedAll<T: Decodable, Bytes: Sequence>(
    _ bytes: Bytes, into items: inout ItemDecoder<T>, _ body: (T) throws -> Void
  ) throws where Bytes.Element == UInt8 {
    let chunk = 64 * 1024
    try _ScanInput.with(contentsOf: bytes) { input in
      guard let input else {
        for item in try items.feed(input: nil) { try body(item) }
        return
      }
      // In chunks, so that the items found so far are decoded and handed on before the rest
      // is parsed.
      var start = 0
      repeat {
        let end = Swift.min(input.count, start + chunk)
        for item in try items.feed(input: input.slice(start, end)) { try body(item) }
        start = end
      } while start < input.count
    }
    for item in try items.finish() { try body(item) }
  }

  /// Decodes each line of NDJSON (JSON Lines) in `bytes` as a `T`, in order. Blank lines are
  /// skipped. A `DecodingError` gives the position of the failing value in the whole input
  /// (its line, column and offset).
  public func decodeLines<T: Decodable, Bytes: Sequence>(_ type: T.Type, from bytes: Bytes)
    throws -> [T] where Bytes.Element == UInt8
  {
    let settings = self.settings
    return try _ScanInput.with(contentsOf: bytes) { input in
      if input?.count ?? 0 > settings.parseOptions.limits.maxInputLength {
        return try settings.decodeLinesPastLimit(type, input)
      }
      guard let input else { return [] }
      // A map sizes the result once (appending through the body form copied each value
      // once more and regrew the array: 3% of decoding twitter's statuses as lines).
      var documents = _DocumentDecoder(options: settings)
      return try Self.lines(in: input).map { try documents.decodeLine(type, $0, in: input) }
    }
  }

  /// Calls `body` with each line of NDJSON in `bytes`, decoded as a `T`, in order: every line
  /// before a failing one is handed on before its error is thrown.
  public func decodeLines<T: Decodable, Bytes: Sequence>(
    _ type: T.Type, from bytes: Bytes, _ body: (T) throws -> Void
  ) throws where Bytes.Element == UInt8 {
    let settings = self.settings
    try _ScanInput.with(contentsOf: bytes) { input in
      if input?.count ?? 0 > settings.parseOptions.limits.maxInputLength {
        return try settings.decodeLinesPastLimit(type, input, body)
      }
      guard let input else { return }
      var documents = _DocumentDecoder(options: settings)
      for line in Self.lines(in: input) {
        try body(try documents.decodeLine(type, line, in: input))
      }
    }
  }

  /// Decodes each line of NDJSON in `bytes` as a `T`, passing over the lines that are not
  /// valid JSON or do not decode: `skipped` is called with each, in order, as a
  /// ``JSONStream/JSONDocumentReader/Failure`` that gives its line, its index among the lines that
  /// are not blank, its byte offset, and the error ``decodeLines(_:from:)`` would have thrown for
  /// it (which gives the position inside it). Returns the other lines' values, in order.
  ///
  /// ```swift
  /// let events = try decoder.decodeValidLines(Event.self, from: data) { failure in
  ///   log.warning("skipped line \(failure.line): \(failure.error)")
  /// }
  /// ```
  ///
  /// - Throws: only what no line is to blame for: invalid parse options, and input longer
  ///   than ``JSONStream/JSONParseLimits/maxInputLength`` (after the lines before the limit).
  public func decodeValidLines<T: Decodable, Bytes: Sequence>(
    _ type: T.Type, from bytes: Bytes,
    skipping skipped: (JSONDocumentReader.Failure) throws -> Void
  ) throws -> [T] where Bytes.Element == UInt8 {
    let settings = self.settings
    if let error = settings.parseOptions.limits._validationError
      ?? settings.parseOptions.oneDocumentError("decodeLines", instead: Self.oneDocument)
    {
      throw Self.notJSON(error)
    }
    return try _ScanInput.with(contentsOf: bytes) { input in
      if input?.count ?? 0 > settings.parseOptions.limits.maxInputLength {
        return try settings.decodeLinesPastLimit(type, input, skipping: skipped)
      }
      guard let input else { return [] }
      var documents = _DocumentDecoder(options: settings)
      var decoded: [T] = []
      for (index, line) in Self.lines(in: input).enumerated() {
        do {
          decoded.append(try documents.decodeLine(type, line, in: input))
        } catch {
          try skipped(
            JSONDocumentReader.Failure(
              line: line.number, index: index, offset: line.range.lowerBound, error: error))
        }
      }
      return decoded
    }
  }

  /// ``decodeLines(_:from:)`` across all cores: the lines are decoded at the same time, in runs
  /// taken by whichever core is free, and returned in their order. The first failing line (in
  /// line order) is the error thrown.
  ///
  /// ```swift
  /// let events = try decoder.decodeLinesInParallel(Event.self, from: data)
  /// ```
  public func decodeLinesInParallel<T: Decodable & Sendable, Bytes: Sequence>(
    _ type: T.Type, from bytes: Bytes
  ) throws -> [T] where Bytes.Element == UInt8 {
    let settings = self.settings
    return try _ScanInput.with(contentsOf: bytes) { input in
      if input?.count ?? 0 > settings.parseOptions.limits.maxInputLength {
        return try settings.decodeLinesPastLimit(type, input)
      }
      guard let input else { return [] }
      let lines = Self.lines(in: input)
      // Runs of at least 16 lines, eight per core: a core slowed by other work leaves its
      // share to the others.
      let cores = ProcessInfo.processInfo.activeProcessorCount
      let runs = Swift.min(cores * 8, lines.count / 16)
      guard cores > 1, runs > 1 else {
        var documents = _DocumentDecoder(options: settings)
        return try lines.map { try documents.decodeLine(type, $0, in: input) }
      }
      return try _concurrentArray(
        count: lines.count, workers: cores, runs: runs,
        state: _DocumentDecoder(options: settings)
      ) { documents, index in
        try documents.decodeLine(type, lines[index], in: input)
      }
    }
  }

  // MARK: Helpers

  /// A line's bytes and where it starts (line number from 1, byte offset).
  struct _Line {
    var range: Range<Int>
    var number: Int
  }

  /// The lines of `input` that hold more than whitespace. Lines end at `\n`; a `\r` before it
  /// is whitespace to the parser.
  static func lines(in input: _ScanInput) -> [_Line] {
    var lines: [_Line] = []
    var start = 0
    var number = 1
    while start < input.count {
      // A line is blank unless a byte before its end is not whitespace (usually the first).
      let end = input.firstIndex(of: UInt8(ascii: "\n"), from: start) ?? input.count
      var index = start
      while index < end {
        let byte = input[index]
        if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
          break
        }
        index += 1
      }
      if index < end { lines.append(_Line(range: start..<end, number: number)) }
      start = end + 1
      number += 1
    }
    return lines
  }
}

extension JSONStreamDecoder.Settings {
  /// A selected item decoded; its errors name the item.
  func decodeItem<T: Decodable>(_ type: T.Type, _ item: JSONItemStreamer.Item, number: Int)
    throws -> T
  {
    var known = _DecodingKnowledge()
    return try decodeItem(type, item, number: number, known: &known)
  }

  /// A selected item decoded with what earlier items' decoding found out.
  func decodeItem<T: Decodable>(
    _ type: T.Type, _ item: JSONItemStreamer.Item, number: Int, known: inout _DecodingKnowledge
  ) throws -> T {
    do {
      return try decode(type, from: item.value, known: &known)
    } catch let error as DecodingError {
      let head: any CodingKey =
        item.match.key.map { _JSONKey($0) } ?? _IndexKey(item.match.index ?? number)
      throw error.mapContext { context in
        DecodingError.Context(
          codingPath: [head] + context.codingPath,
          debugDescription: context.debugDescription + " (item \(number))",
          underlyingError: context.underlyingError)
      }
    }
  }

  /// ``decodeLinesPastLimit(_:_:_:)``, the lines collected.
  func decodeLinesPastLimit<T: Decodable>(_ type: T.Type, _ input: _ScanInput?) throws -> [T] {
    var result: [T] = []
    try decodeLinesPastLimit(type, input) { result.append($0) }
    return result
  }

  /// Input longer than `maxInputLength`, which bounds it as a whole: the document reader finds
  /// where the limit falls among the lines (its errors placed as the other lines' are).
  func decodeLinesPastLimit<T: Decodable>(
    _ type: T.Type, _ input: _ScanInput?, _ body: (T) throws -> Void
  ) throws {
    if let error = parseOptions.oneDocumentError(
      "decodeLines", instead: JSONStreamDecoder.oneDocument)
    {
      throw JSONStreamDecoder.notJSON(error)
    }
    var reader = JSONDocumentReader(options: parseOptions, duplicateKeys: .firstWins)
    do {
      // The lines before an error come out of `feed`; its error out of `finish`.
      for result in try reader.feed(input: input) {
        try body(try decode(type, from: result.get().value))
      }
      for result in try reader.finish() { try body(try decode(type, from: result.get().value)) }
    } catch let failure as JSONDocumentReader.Failure {
      guard let error = failure.error as? JSONParseError, let location = failure.location
      else { throw failure.error }
      throw JSONStreamDecoder.notJSON(
        JSONParseError(kind: error.kind, location: location, message: error.message))
    }
  }
}

extension JSONStreamDecoder.Settings {
  /// ``decodeLinesPastLimit(_:_:_:)`` that passes over bad lines, reporting each to `skipped`
  /// as the lines within the limit are reported.
  func decodeLinesPastLimit<T: Decodable>(
    _ type: T.Type, _ input: _ScanInput?,
    skipping skipped: (JSONDocumentReader.Failure) throws -> Void
  ) throws -> [T] {
    var reader = JSONDocumentReader(
      options: parseOptions, duplicateKeys: .firstWins, skipsInvalidDocuments: true)
    var decoded: [T] = []
    func take(_ results: [Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>])
      throws
    {
      for result in results {
        do {
          decoded.append(try decodeDocument(type, result))
        } catch let failure as JSONDocumentReader.Failure {
          try skipped(failure.asDecodeLinesFailure)
        }
      }
    }
    do {
      try take(try reader.feed(input: input))
      try take(try reader.finish())
    } catch let failure as JSONDocumentReader.Failure {
      // The limit: no line's fault.
      throw failure.asDecodeLinesFailure.error
    }
    return decoded
  }
}

extension JSONDocumentReader.Failure {
  /// This failure as ``JSONStreamDecoder/decodeValidLines(_:from:skipping:)`` reports a line:
  /// a parse error as the `DecodingError` that `decodeLines` throws for it, placed in the
  /// stream.
  var asDecodeLinesFailure: JSONDocumentReader.Failure {
    guard let parseError = error as? JSONParseError, let location else { return self }
    var failure = self
    failure.error = JSONStreamDecoder.notJSON(
      JSONParseError(kind: parseError.kind, location: location, message: parseError.message))
    return failure
  }
}

extension DecodingError {
  /// The same error with its context changed.
  func mapContext(_ transform: (Context) -> Context) -> DecodingError {
    switch self {
    case .typeMismatch(let type, let context): return .typeMismatch(type, transform(context))
    case .valueNotFound(let type, let context): return .valueNotFound(type, transform(context))
    case .keyNotFound(let key, let context): return .keyNotFound(key, transform(context))
    case .dataCorrupted(let context): return .dataCorrupted(transform(context))
    @unknown default: return self
    }
  }
}

// MARK: - Async

extension AsyncSequence where Element: Sequence, Element.Element == UInt8 {
  /// Each value `path` selects, decoded as a `T` as soon as its last byte arrives (see
  /// ``JSONStreamDecoder/ItemDecoder``).
  ///
  /// ```swift
  /// for try await order in response.decodeItems(Order.self, at: "$.orders[*]") {
  ///   handle(order)
  /// }
  /// ```
  public func decodeItems<T: Decodable & SendableMetatype>(
    _ type: T.Type, at path: String = "$[*]", decoder: JSONStreamDecoder = JSONStreamDecoder()
  ) throws -> AsyncThrowingMapSequence<JSONItemSequence<Self>, T> {
    let settings = decoder.settings
    return jsonItems(
      paths: [try JSONPath.streamable(path)], options: settings.parseOptions,
      duplicateKeys: .firstWins
    ).map { item in
      try settings.decodeItem(T.self, item, number: item.match.index ?? 0)
    }
  }

  /// Each value `path` selects, decoded as a `T` as soon as its last byte arrives, passing
  /// over those that do not decode: `skipped` is called with each one's `DecodingError`. Input
  /// that is not valid JSON still ends the sequence with its error.
  public func decodeValidItems<T: Decodable & SendableMetatype>(
    _ type: T.Type, at path: String = "$[*]", decoder: JSONStreamDecoder = JSONStreamDecoder(),
    skipping skipped: @escaping @Sendable (DecodingError) -> Void
  ) throws -> AsyncThrowingCompactMapSequence<JSONItemSequence<Self>, T> {
    let settings = decoder.settings
    return settings.decodeValidItems(
      jsonItems(
        paths: [try JSONPath.streamable(path)], options: settings.parseOptions,
        duplicateKeys: .firstWins),
      type, skipping: skipped)
  }

  /// Each line of an NDJSON stream, decoded as a `T` as soon as it is complete. A bad line
  /// ends the sequence with its error: a ``JSONStream/JSONDocumentReader/Failure`` naming its line.
  public func decodeLines<T: Decodable & SendableMetatype>(
    _ type: T.Type, decoder: JSONStreamDecoder = JSONStreamDecoder()
  ) -> AsyncThrowingMapSequence<JSONDocumentSequence<Self>, T> {
    let settings = decoder.settings
    return jsonDocuments(options: settings.parseOptions, duplicateKeys: .firstWins).map {
      result in
      try settings.decodeDocument(T.self, result)
    }
  }

  /// Each line of an NDJSON stream, decoded as a `T` as soon as it is complete, passing over
  /// the lines that are not valid JSON or do not decode: `skipped` is called with each (see
  /// ``JSONStreamDecoder/decodeValidLines(_:from:skipping:)``).
  public func decodeValidLines<T: Decodable & SendableMetatype>(
    _ type: T.Type, decoder: JSONStreamDecoder = JSONStreamDecoder(),
    skipping skipped: @escaping @Sendable (JSONDocumentReader.Failure) -> Void
  ) -> AsyncThrowingCompactMapSequence<JSONDocumentSequence<Self>, T> {
    let settings = decoder.settings
    return settings.decodeLines(
      jsonDocuments(
        options: settings.parseOptions, duplicateKeys: .firstWins, skipsInvalidDocuments: true),
      type, skipping: skipped)
  }
}

extension AsyncSequence where Element == UInt8 {
  /// Each value `path` selects, decoded as a `T` as soon as its last byte arrives.
  public func decodeItems<T: Decodable & SendableMetatype>(
    _ type: T.Type, at path: String = "$[*]", decoder: JSONStreamDecoder = JSONStreamDecoder()
  ) throws -> AsyncThrowingMapSequence<JSONItemSequence<Self>, T> {
    let settings = decoder.settings
    return jsonItems(
      paths: [try JSONPath.streamable(path)], options: settings.parseOptions,
      duplicateKeys: .firstWins
    ).map { item in
      try settings.decodeItem(T.self, item, number: item.match.index ?? 0)
    }
  }

  /// Each value `path` selects, decoded as a `T` as soon as its last byte arrives, passing
  /// over those that do not decode: `skipped` is called with each one's `DecodingError`. Input
  /// that is not valid JSON still ends the sequence with its error.
  public func decodeValidItems<T: Decodable & SendableMetatype>(
    _ type: T.Type, at path: String = "$[*]", decoder: JSONStreamDecoder = JSONStreamDecoder(),
    skipping skipped: @escaping @Sendable (DecodingError) -> Void
  ) throws -> AsyncThrowingCompactMapSequence<JSONItemSequence<Self>, T> {
    let settings = decoder.settings
    return settings.decodeValidItems(
      jsonItems(
        paths: [try JSONPath.streamable(path)], options: settings.parseOptions,
        duplicateKeys: .firstWins),
      type, skipping: skipped)
  }

  /// Each line of an NDJSON stream, decoded as a `T` as soon as it is complete.
  public func decodeLines<T: Decodable & SendableMetatype>(
    _ type: T.Type, decoder: JSONStreamDecoder = JSONStreamDecoder()
  ) -> AsyncThrowingMapSequence<JSONDocumentSequence<Self>, T> {
    let settings = decoder.settings
    return jsonDocuments(options: settings.parseOptions, duplicateKeys: .firstWins).map {
      result in
      try settings.decodeDocument(T.self, result)
    }
  }

  /// Each line of an NDJSON stream, decoded as a `T` as soon as it is complete, passing over
  /// the lines that are not valid JSON or do not decode: `skipped` is called with each.
  public func decodeValidLines<T: Decodable & SendableMetatype>(
    _ type: T.Type, decoder: JSONStreamDecoder = JSONStreamDecoder(),
    skipping skipped: @escaping @Sendable (JSONDocumentReader.Failure) -> Void
  ) -> AsyncThrowingCompactMapSequence<JSONDocumentSequence<Self>, T> {
    let settings = decoder.settings
    return settings.decodeLines(
      jsonDocuments(
        options: settings.parseOptions, duplicateKeys: .firstWins, skipsInvalidDocuments: true),
      type, skipping: skipped)
  }
}

extension JSONStreamDecoder.Settings {
  /// The items decoded, those that do not decode reported to `skipped` and passed over.
  func decodeValidItems<Input, T: Decodable & SendableMetatype>(
    _ items: JSONItemSequence<Input>, _ type: T.Type,
    skipping skipped: @escaping @Sendable (DecodingError) -> Void
  ) -> AsyncThrowingCompactMapSequence<JSONItemSequence<Input>, T> {
    let settings = self
    return items.compactMap { item in
      do {
        return try settings.decodeItem(T.self, item, number: item.match.index ?? 0)
      } catch let error as DecodingError {
        skipped(error)
        return nil
      }
    }
  }

  /// The lines of `input` decoded, the bad ones reported to `skipped` and passed over.
  func decodeLines<Input, T: Decodable & SendableMetatype>(
    _ documents: JSONDocumentSequence<Input>, _ type: T.Type,
    skipping skipped: @escaping @Sendable (JSONDocumentReader.Failure) -> Void
  ) -> AsyncThrowingCompactMapSequence<JSONDocumentSequence<Input>, T> {
    let settings = self
    // Invalid options and the input limit end the sequence: no line is to blame.
    let invalid = parseOptions.limits._validationError != nil
    return documents.compactMap { result in
      do {
        return try settings.decodeDocument(T.self, result)
      } catch let failure as JSONDocumentReader.Failure {
        let limit = (failure.error as? JSONParseError)?.kind == .limitExceeded(.inputLength)
        if invalid || limit { throw failure }
        skipped(failure.asDecodeLinesFailure)
        return nil
      }
    }
  }

  /// A document of an NDJSON stream, decoded; a failure (or a decoding error) becomes a
  /// ``JSONStream/JSONDocumentReader/Failure`` with the document's line.
  func decodeDocument<T: Decodable>(
    _ type: T.Type, _ result: Result<JSONDocumentReader.Document, JSONDocumentReader.Failure>
  ) throws -> T {
    let document = try result.get()
    do {
      return try decode(type, from: document.value)
    } catch {
      throw JSONDocumentReader.Failure(
        line: document.line, index: document.index, offset: document.offset, error: error)
    }
  }
}

extension _DocumentDecoder {
  mutating func decodeLine<T: Decodable>(
    _ type: T.Type, _ line: JSONStreamDecoder._Line, in input: _ScanInput
  ) throws -> T {
    try decode(
      type, input.slice(line.range.lowerBound, line.range.upperBound),
      base: _DocumentBase(line: line.number, offset: line.range.lowerBound))
  }
}
