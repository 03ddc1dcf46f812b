import JSONStreamCore
import JSONStreamParser
import JSONStreamPath
import JSONStreamValue

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
///
/// Nothing complete is lost to an error: a `feed` whose chunk holds documents and then an error
/// returns those documents, and the next call (`feed` or `finish`) throws the error; a call
/// with no document before the error throws it at once. After that, every call throws the same
/// failure. The outcome does not depend on how the stream is cut into chunks.
///
/// The limits apply as they do to ``JSONParser``: ``JSONParseLimits/maxInputLength`` bounds
/// the whole stream, the others each token or document.
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
    /// The document's value.
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
    /// The line the document started on, from 1; for a `JSONParseError`, the error's line in
    /// the stream is `line + error.line - 1`.
    public var line: Int
    /// The column the document started at, from 1 (after a record separator, 2): an error on
    /// the document's first line is at column `column + error.column - 1` of the stream.
    public var column: Int
    /// Its position among the documents and failures, from 0.
    public var index: Int
    /// Byte offset of the document's start in the stream.
    public var offset: Int
    /// Why: a ``JSONParseError`` (its position counted within the document), or another error.
    public var error: any Error

    /// The failure of the document at `index`, which started at `line`, `column` and byte `offset`,
    /// for `error`.
    public init(line: Int, column: Int = 1, index: Int, offset: Int, error: any Error) {
      self.line = line
      self.column = column
      self.index = index
      self.offset = offset
      self.error = error
    }

    /// Where a ``JSONParseError`` is in the stream: its byte offset, line and column counted
    /// from the start of the stream, not of the document, and its path (nil for another error).
    public var location: JSONLocation? {
      guard let error = error as? JSONParseError else { return nil }
      return JSONLocation(
        offset: offset + error.offset, line: line + error.line - 1,
        column: error.line == 1 ? column + error.column - 1 : error.column, path: error.path)
    }

    /// ``location`` without its path, under its old name.
    @available(*, deprecated, renamed: "location")
    public var streamPosition: (offset: Int, line: Int, column: Int)? {
      location.map { ($0.offset, $0.line, $0.column) }
    }

    /// `line L, column C: message` for a ``JSONParseError`` (its location in the stream), else
    /// `document at line L: error`.
    public var description: String {
      if let error = error as? JSONParseError, let location {
        return "\(location): \(error.message)"
      }
      return "document at line \(line): \(error)"
    }
  }

  /// How documents are separated.
  public let framing: Framing
  /// The parse options for each document; `allowMultipleValues` is set for ``Framing/concatenated``
  /// only.
  public let options: JSONParseOptions
  /// What a repeated key in an object does.
  public let duplicateKeys: JSONDuplicateKeyPolicy
  /// Whether a document that is not valid JSON is reported and passed over rather than thrown;
  /// always `false` for ``Framing/concatenated``.
  public let skipsInvalidDocuments: Bool

  private var parser: JSONParser<JSONTreeBuilder>
  /// The current document's first line and offset, and whether any byte of it was seen.
  private var documentLine = 1
  private var documentColumn = 1
  private var documentOffset = 0
  /// Lines and bytes of the stream so far.
  private var line = 1
  /// The column (in characters) of the next byte of the stream.
  private var column = 1
  private var offset = 0
  private var index = 0
  /// The current document already failed (skipped until its end).
  private var failed = false
  /// Before the first record separator (text sequences only).
  private var beforeFirstRecord = true
  private var results: [Result<Document, Failure>] = []
  /// The failure that ended the stream (without ``skipsInvalidDocuments``): thrown by every
  /// call after the one that returned the documents before it.
  private var failure: Failure? = nil

  /// - Parameters:
  ///   - framing: how documents are separated; NDJSON by default.
  ///   - options: parse options for each document. `allowMultipleValues` is implied by
  ///     ``Framing/concatenated`` and an error for the other framings (thrown by the first call).
  ///   - duplicateKeys: what a repeated key in an object does.
  ///   - skipsInvalidDocuments: report a bad line or record and go on, instead of throwing.
  public init(
    framing: Framing = .lines, options: JSONParseOptions = JSONParseOptions(),
    duplicateKeys: JSONDuplicateKeyPolicy = .lastWins, skipsInvalidDocuments: Bool = false
  ) {
    self.framing = framing
    var options = options
    // Invalid options fail the stream before it starts, skipping or not: no document is bad,
    // the call is.
    if let error = options.limits._validationError {
      failure = Failure(line: 1, index: 0, offset: 0, error: error)
    } else if framing != .concatenated,
      let error = options.oneDocumentError(
        "a JSONDocumentReader of lines or records", instead: "its framing makes each one document")
    {
      failure = Failure(line: 1, index: 0, offset: 0, error: error)
    }
    options.allowMultipleValues = framing == .concatenated
    self.options = options
    self.duplicateKeys = duplicateKeys
    self.skipsInvalidDocuments = skipsInvalidDocuments && framing != .concatenated
    parser = JSONParser(
      handler: JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys), options: options)
  }

  /// Reads the next bytes (`[UInt8]`, `Data`, a slice, an `UnsafeRawBufferPointer`…);
  /// returns the documents (and, when skipping, failures) they complete, in order. An error
  /// after some of them is thrown by the next call (see above).
  public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> [Result<Document, Failure>]
  where Bytes.Element == UInt8 {
    try _ScanInput.with(contentsOf: bytes) { try feed(input: $0) }
  }

  /// ``feed(_:)`` of a view of the bytes (nil when there are none).
  package mutating func feed(input: _ScanInput?) throws -> [Result<Document, Failure>] {
    try throwPendingFailure()
    do {
      if let input { try read(input) }
    } catch let failure as Failure {
      self.failure = failure
      if framing == .concatenated { collectConcatenated() }
      if results.isEmpty { throw failure }
    }
    defer { results.removeAll() }
    return results
  }

  /// Throws the failure that ended the stream, if there was one.
  mutating func throwPendingFailure() throws {
    if let failure { throw failure }
  }

  /// Reads `input` into `results`; throws the first failure when not skipping, and always for
  /// a stream over ``JSONParseLimits/maxInputLength``.
  private mutating func read(_ input: _ScanInput) throws {
    let limit = options.limits.maxInputLength
    guard input.count > limit - offset else { return try readWithinLimit(input) }
    // As the parser does: what comes before the limit is read, then the limit is the error,
    // at the position the current document's parser has reached.
    try readWithinLimit(input.prefix(limit - offset))
    let error = JSONParseError(
      kind: .limitExceeded(.inputLength), offset: parser.offset, line: parser.line,
      column: parser.column, message: "input is longer than the limit of \(limit) bytes")
    throw Failure(
      line: documentLine, column: documentColumn, index: index, offset: documentOffset,
      error: error)
  }

  private mutating func readWithinLimit(_ input: _ScanInput) throws {
    switch framing {
    case .concatenated:
      try feedDocument(input)
      collectConcatenated()
    case .lines, .textSequence:
      let separator: UInt8 = framing == .lines ? 0x0A : 0x1E
      var start = 0
      while start < input.count {
        guard let end = input.firstIndex(of: separator, from: start) else {
          try feedDocument(input.slice(start, input.count))
          break
        }
        try feedDocument(input.slice(start, end))
        // The separator: a line break ends the document, a record separator starts one.
        countLines(input.slice(end, end + 1))
        offset += 1
        try endDocument()
        beforeFirstRecord = false
        start = end + 1
      }
    }
  }

  /// The end of the stream: the last document, if it was not followed by a separator.
  public mutating func finish() throws -> [Result<Document, Failure>] {
    try throwPendingFailure()
    do {
      switch framing {
      case .concatenated:
        do {
          try parser.finish()
        } catch {
          throw Failure(
            line: documentLine, column: documentColumn, index: index, offset: documentOffset,
            error: error)
        }
        collectConcatenated()
      case .lines, .textSequence:
        try endDocument()
      }
    } catch let failure as Failure {
      // The end of input completes no document before an error: nothing is left to return.
      self.failure = failure
      throw failure
    }
    defer { results.removeAll() }
    return results
  }

  // MARK: Documents

  /// Bytes of the current document (no separator among them).
  private mutating func feedDocument(_ input: _ScanInput) throws {
    defer {
      countLines(input)
      offset += input.count
    }
    if failed || input.count == 0 { return }
    if framing == .textSequence && beforeFirstRecord {
      // Only whitespace may come before the first record separator.
      let isWhitespace = { (byte: UInt8) in
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
      }
      if (0..<input.count).allSatisfy({ isWhitespace(input[$0]) }) { return }
      try fail(
        JSONParseError(
          kind: .unexpectedByte, offset: 0, line: 1, column: 1,
          message: "text before the first record separator (0x1E)"))
      return
    }
    do {
      try parser.feed(input)
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
      failed = false
      documentLine = line
      documentColumn = column
      documentOffset = offset
      parser = JSONParser(handler: builder, options: options)
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
    let failure = Failure(
      line: documentLine, column: documentColumn, index: index, offset: documentOffset,
      error: error)
    guard skipsInvalidDocuments else { throw failure }
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

  /// Moves the stream's line and column past `input` (columns count characters: UTF-8
  /// continuation bytes do not start one).
  private mutating func countLines(_ input: _ScanInput) {
    for position in 0..<input.count {
      let byte = input[position]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
  }

}
