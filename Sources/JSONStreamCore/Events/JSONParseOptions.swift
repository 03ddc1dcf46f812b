/// How strict the parser is, and its limits.
///
/// The default is strict RFC 8259: every extension below is off. Turn on what your input needs:
///
/// ```swift
/// var options = JSONParseOptions()
/// options.allowComments = true
/// options.allowTrailingCommas = true
/// options.limits.maxDepth = 10_000
/// var parser = JSONParser(handler: MyHandler(), options: options)
/// ```
public struct JSONParseOptions: Sendable, Equatable {
  /// Accept `// line` and `/* block */` comments wherever whitespace may appear.
  public var allowComments = false

  /// Stop after the first complete value and ignore whatever follows it (JSONKit's
  /// PermitTextAfterValidJSON). ``JSONParser/offset`` then tells where the value ended, and
  /// ``JSONParser/feed(_:)-(UnsafeRawBufferPointer)`` returns ``JSONParseStatus/finished``.
  /// A top-level number needs a delimiter (or ``JSONParser/finish()``) to be complete.
  public var allowTrailingText = false

  /// Accept any number of top-level values, one after another: NDJSON / JSON Lines,
  /// concatenated JSON (`{}{}`, `1 2`), and RFC 7464 JSON text sequences (record separator
  /// 0x1E counts as whitespace between values). Empty input is then zero values, not an error.
  public var allowMultipleValues = false

  /// Replace ill-formed UTF-8 and unpaired surrogate escapes in strings by U+FFFD, one per
  /// maximal ill-formed subpart (Unicode 3.9, as JSONKit's LooseUnicode). With
  /// ``rejectNullAndNoncharacters`` those are replaced too, as JSONKit does.
  public var looseUnicode = false

  /// Replace unpaired surrogate escapes (`"\uD800"`) by U+FFFD instead of rejecting them.
  /// The default rejects them: a string with a lone surrogate has no UTF-8 form, and
  /// silently changing it would lose data. ``looseUnicode`` implies this.
  public var replaceUnpairedSurrogates = false

  /// Treat the Unicode newlines U+000B, U+000C, U+0085, U+2028 and U+2029 as whitespace, and
  /// count them as line breaks (JSONKit's UnicodeNewlines).
  public var allowUnicodeNewlines = false

  /// Accept one trailing comma before `]` or `}` (`[1, 2,]`).
  public var allowTrailingCommas = false

  /// Accept the literals `NaN`, `Infinity` and `-Infinity`, delivered as numbers.
  public var allowNonFiniteNumbers = false

  /// Skip a UTF-8 byte order mark (EF BB BF) at the very start of the input. Without this, a
  /// byte order mark is an error (RFC 8259 §8.1 forbids sending one).
  public var allowByteOrderMark = false

  /// Reject U+0000 and the Unicode noncharacters (U+FDD0–U+FDEF and U+xFFFE, U+xFFFF in every
  /// plane) in strings, raw or escaped: JSONKit's stricter policy. RFC 8259 allows them, so
  /// the default accepts them.
  public var rejectNullAndNoncharacters = false

  /// Size limits, each with its own error.
  public var limits = JSONParseLimits()

  /// Strict RFC 8259 with the default limits.
  public init() {}

  /// Checks the options (only ``limits`` can be invalid; see ``JSONParseLimits/validate()``).
  /// Setters cannot throw, so a parser or reader made with invalid options fails instead:
  /// its first `feed` or `finish` throws this error. Call this to find out sooner.
  ///
  /// - Throws: ``JSONParseError`` of kind ``JSONParseError/Kind/invalidOption``.
  public func validate() throws {
    try limits.validate()
  }

  /// The error of an API that reads one document when ``allowMultipleValues`` is on: it cannot
  /// honour the option, and saying so beats ignoring it.
  @usableFromInline
  package func oneDocumentError(_ api: String, instead: String) -> JSONParseError? {
    guard allowMultipleValues else { return nil }
    return JSONParseError(
      kind: .invalidOption, offset: 0, line: 1, column: 1,
      message: "invalid option: allowMultipleValues, but \(api) reads one document; \(instead)")
  }
}

/// Limits that protect a program from hostile or runaway input. Exceeding one is an error of
/// kind ``JSONParseError/Kind/limitExceeded(_:)``, naming the limit, at the same place whatever
/// reads the input (the parser, a tree, a filter that skips what it does not need, a document
/// reader, a decoder, the tool) and however it is chunked.
public struct JSONParseLimits: Sendable, Equatable {
  /// Deepest nesting of arrays and objects. The parser never recurses, so this is a policy,
  /// not a stack-safety limit: raise it as far as memory allows (one byte per level).
  public var maxDepth = 1_000

  /// Longest string or key, in bytes of decoded UTF-8. 128 MiB by default.
  public var maxStringLength = 128 * 1024 * 1024

  /// Longest number, in characters.
  public var maxNumberLength = 1_000

  /// Longest input, in bytes, over all chunks: the whole input for every way in, all the
  /// documents of a stream (NDJSON lines, records, values one after another) and their
  /// separators included. Unlimited by default.
  public var maxInputLength = Int.max

  /// The default limits.
  public init() {}

  /// Checks that no limit is negative. Zero is valid and allows none of what the limit
  /// counts: `maxDepth` 0 allows only a scalar document, `maxStringLength` 0 only empty
  /// strings, `maxNumberLength` 0 no numbers, `maxInputLength` 0 no input.
  ///
  /// - Throws: ``JSONParseError`` of kind ``JSONParseError/Kind/invalidOption`` at offset 0,
  ///   naming the limit and its value.
  public func validate() throws {
    if let error = _validationError { throw error }
  }

  /// The error ``validate()`` throws, or nil: for the parser to hold from the start.
  @usableFromInline
  package var _validationError: JSONParseError? {
    if maxDepth < 0 { return Self._negative("maxDepth", maxDepth) }
    if maxStringLength < 0 { return Self._negative("maxStringLength", maxStringLength) }
    if maxNumberLength < 0 { return Self._negative("maxNumberLength", maxNumberLength) }
    if maxInputLength < 0 { return Self._negative("maxInputLength", maxInputLength) }
    return nil
  }

  static func _negative(_ name: String, _ value: Int) -> JSONParseError {
    JSONParseError(
      kind: .invalidOption, offset: 0, line: 1, column: 1,
      message: "invalid option: limits.\(name) is \(value); it must be 0 or more")
  }
}
