/// Reads a stream of many JSON documents, delivering each as a ``JSONValue`` as soon as it is
/// complete: NDJSON / JSON Lines (one document per line), RFC 7464 JSON text sequences (each
/// document after a record separator, 0x1E), or values simply one after another.
///
/// ```swift
/// var reader = JSONDocumentReader(framing: .lines, skipsInvalidDocuments: true)
/// for chunk in chunks {
///   for result in try reader.feed(chunk) {
///     switch result {
///     case .success(let document): handle(document.value)
///     case .failure(let failure): log(failure)     // "line 17: expected ':' …", then goes on
///     }
///   }
/// }
/// for result in try reader.finish() { … }
/// ```
///
/// Memory holds the document being read, not the stream. Blank lines (and empty records) are
/// not documents and are passed over. With ``skipsInvalidDocuments``, a line or record that is
/// not valid JSON is reported as a failure in order among the documents, and reading goes on
/// with the next one; without it, the first failure is thrown. Values one after another
/// (``Framing/concatenated``) have no boundary to resume from, so their first error is always
/// thrown.
public struct JSONDocumentReader {
  /// How documents are separated.
  public enum Framing: Sendable {
    /// NDJSON / JSON Lines: each line (ended by `\n`; a `\r` before it is whitespace) is one
    /// document.
    case lines
    /// RFC 7464: each document follows a record separator (0x1E), usually ending with `\n`.
    case textSequence
    /// Values one after another, separated by whitespace or nothing (`{}{}`, `1 2`).
    case concatenated
  }

  /// A document and where it started.
  public struct Document: Sendable, Equatable {
    public var value: JSONValue
    /// The line its first byte is on, from 1 (0 for ``Framing/concatenated``, which does not
    /// track lines).
    public var line: Int
    /// Its position among the documents and failures, from 0.
    public var index: Int
    /// Byte offset of its start in the stream (0 for ``Framing/concatenated``).
    public var offset: Int
  }

  /// A document that is not valid JSON (or that the handler refused), with where it is.
  public struct Failure: Error, CustomStringConvertible {
    /// The line the document started on, from 1; for a `JSONParseError`, the error's own line
    /// within the document is `line + error.line - 1`.
    public var line: Int
    /// Its position among the documents and failures, from 0.
    public var index: Int
    /// Byte offset of the document's start in the stream.
    public var offset: Int
    /// Why: a ``JSONParseError`` (its position counted within the document), or another error.
    public var error: any Error

    public init(line: Int, index: Int, offset: Int, error: any Error) {
      self.line = line
      self.index = index
      self.offset = offset
      self.error = error
    }

    public var description: String {
      if let error = error as? JSONParseError {
        return "line \(line + error.line - 1), column \(error.column): \(error.message)"
      }
      return "document at line \(line): \(error)"
    }
  }

  public let framing: Framing
  public let options: JSONParseOptions
  public let duplicateKeys: JSONDuplicateKeyPolicy
  public let skipsInvalidDocuments: Bool

  private var parser: JSONParser<JSONTreeBuilder>
  /// The current document's first line and offset, and whether any byte of it was seen.
  private var documentLine = 1
  private var documentOffset = 0
  /// Lines and bytes of the stream so far.
  private var line = 1
  private var offset = 0
  private var index = 0
  /// The current document already failed (skipped until its end).
  private var failed = false
  /// Before the first record separator (text sequences only).
  private var beforeFirstRecord = true
  private var results: [Result<Document, Failure>] = []

  /// - Parameters:
  ///   - framing: how documents are separated; NDJSON by default.
  ///   - options: parse options for each document (`allowMultipleValues` is set by the framing).
  ///   - duplicateKeys: what a repeated key in an object does.
  ///   - skipsInvalidDocuments: report a bad line or record and go on, instead of throwing.
  public init(
    framing: Framing = .lines, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, skipsInvalidDocuments: Bool = false
  ) {
    self.framing = framing
    var options = options
    options.allowMultipleValues = framing == .concatenated
    self.options = options
    self.duplicateKeys = duplicateKeys
    self.skipsInvalidDocuments = skipsInvalidDocuments && framing != .concatenated
    parser = JSONParser(
      handler: JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys), options: options)
  }

  /// Reads the next bytes; returns the documents (and, when skipping, failures) they complete,
  /// in order.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> [Result<Document, Failure>] {
    let all = bytes.bindMemory(to: UInt8.self)
    switch framing {
    case .concatenated:
      try feedDocument(all)
      collectConcatenated()
    case .lines, .textSequence:
      let separator: UInt8 = framing == .lines ? 0x0A : 0x1E
      var start = 0
      while start < all.count {
        guard let end = all[start...].firstIndex(of: separator) else {
          try feedDocument(UnsafeBufferPointer(rebasing: all[start...]))
          break
        }
        try feedDocument(UnsafeBufferPointer(rebasing: all[start..<end]))
        // The separator: a line break ends the document, a record separator starts one.
        countLines(UnsafeBufferPointer(rebasing: all[end..<end + 1]))
        offset += 1
        try endDocument()
        beforeFirstRecord = false
        start = end + 1
      }
    }
    defer { results.removeAll() }
    return results
  }

  /// Reads the next bytes of any sequence (`[UInt8]`, `Data`, a slice).
  public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> [Result<Document, Failure>]
  where Bytes.Element == UInt8 {
    if let results = try bytes.withContiguousStorageIfAvailable({
      try feed(UnsafeRawBufferPointer($0))
    }) {
      return results
    }
    return try Array(bytes).withUnsafeBytes { try feed($0) }
  }

  /// The end of the stream: the last document, if it was not followed by a separator.
  public mutating func finish() throws -> [Result<Document, Failure>] {
    switch framing {
    case .concatenated:
      do {
        try parser.finish()
      } catch {
        throw Failure(line: documentLine, index: index, offset: documentOffset, error: error)
      }
      collectConcatenated()
    case .lines, .textSequence:
      try endDocument()
    }
    defer { results.removeAll() }
    return results
  }

  // MARK: Documents

  /// Bytes of the current document (no separator among them).
  private mutating func feedDocument(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    defer {
      countLines(bytes)
      offset += bytes.count
    }
    if failed || bytes.isEmpty { return }
    if framing == .textSequence && beforeFirstRecord {
      // Only whitespace may come before the first record separator.
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return }
      try fail(
        JSONParseError(
          kind: .unexpectedByte, offset: 0, line: 1, column: 1,
          message: "text before the first record separator (0x1E)"))
      return
    }
    do {
      try parser.feed(UnsafeRawBufferPointer(bytes))
    } catch {
      try fail(error)
    }
  }

  /// A separator or the end of the stream: the current document is complete.
  private mutating func endDocument() throws {
    defer {
      // A complete document leaves the builder empty, ready for the next one (and its memory
      // allocated once, not per line); after a failure it may hold a partial value.
      let builder = failed ? JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys) : parser.handler
      parser = JSONParser(handler: builder, options: options)
      failed = false
      documentLine = line
      documentOffset = offset
    }
    if failed { return }
    if framing == .textSequence && beforeFirstRecord { return }
    do {
      try parser.finish()
    } catch let error as JSONParseError where error.kind == .emptyInput {
      return  // a blank line or an empty record: not a document
    } catch {
      try fail(error)
      return
    }
    results.append(
      .success(
        Document(
          value: parser.handler.takeValues()[0], line: documentLine, index: index,
          offset: documentOffset)))
    index += 1
  }

  private mutating func fail(_ error: any Error) throws {
    let failure = Failure(line: documentLine, index: index, offset: documentOffset, error: error)
    // Invalid options fail every document alike: no document to skip, but a mistake to report.
    let invalidOptions = (error as? JSONParseError)?.kind == .invalidOption
    guard skipsInvalidDocuments && !invalidOptions else { throw failure }
    failed = true
    results.append(.failure(failure))
    index += 1
  }

  private mutating func collectConcatenated() {
    for value in parser.handler.takeValues() {
      results.append(.success(Document(value: value, line: 0, index: index, offset: 0)))
      index += 1
    }
  }

  private mutating func countLines(_ bytes: UnsafeBufferPointer<UInt8>) {
    for byte in bytes where byte == 0x0A { line += 1 }
  }
}
