/// Why and where the input is not acceptable JSON.
///
/// `description` reads like a compiler diagnostic:
/// `line 3, column 17: expected ',' or '}' after an object member, found ']'`. Where the
/// error is, is its ``location`` (see ``JSONLocation``).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, for code that reacts to specific errors.
  public enum Kind: Sendable, Equatable {
    /// A byte that cannot appear here (the message says what was expected).
    case unexpectedByte
    /// The input ended inside a value, string, comment or open container.
    case unexpectedEndOfInput
    /// No value at all: empty or whitespace-only input.
    case emptyInput
    /// Something other than whitespace after the top-level value.
    case trailingText
    /// A comma right before `]` or `}`.
    case trailingComma
    /// A number that breaks the JSON grammar (leading zero, missing digits, …).
    case invalidNumber
    /// A misspelled `true`, `false` or `null` (or `NaN`/`Infinity`).
    case invalidLiteral
    /// A backslash followed by something other than `" \ / b f n r t u`.
    case invalidEscape
    /// `\u` not followed by four hex digits.
    case invalidUnicodeEscape
    /// A high surrogate escape without its low half, reported at the `\` of the high
    /// surrogate's escape (`"\uD800x"` at offset 1, not at the `x`); or a lone low surrogate
    /// escape, reported at its own `\`.
    case unpairedSurrogate
    /// Ill-formed UTF-8: a bad lead byte, bad continuation, overlong form, encoded surrogate,
    /// value above U+10FFFF, or a truncated sequence.
    case invalidUTF8
    /// A raw byte below 0x20 inside a string (must be escaped).
    case controlCharacterInString
    /// U+0000 or a noncharacter, under ``JSONParseOptions/rejectNullAndNoncharacters``;
    /// reported at the character's first byte, or at the `\` of the escape that writes it (of
    /// the high surrogate's escape, for a pair).
    case disallowedCharacter
    /// A UTF-8 byte order mark at the start, without ``JSONParseOptions/allowByteOrderMark``.
    case byteOrderMark
    /// A configured limit (see ``JSONParseLimits``) was exceeded; the message names it.
    case limitExceeded(JSONParseLimits.Limit)
    /// An object repeated a key, and the tree builder's policy is to refuse that.
    case duplicateKey
    /// `feed` was called after `finish()`.
    case inputAfterFinish
    /// Binary input (``JSONBinaryReader``) that is not the binary format: a bad header, an
    /// unknown tag, a reference to no earlier entry, a value or key out of place.
    case invalidBinary
    /// The options are invalid (a negative limit): reported at offset 0 by the first call of
    /// a parser or reader made with them, before any input is read; the message names the
    /// option and its value. See ``JSONParseOptions/validate()``.
    case invalidOption
  }

  /// What went wrong.
  public let kind: Kind
  /// Where: the offending byte (or the end of input), and the path when it is known.
  public let location: JSONLocation
  /// A readable explanation without the position, e.g. `expected ':' after an object key, found '}'`.
  public let message: String

  /// Byte offset of the offending byte (or of the end of input), from 0: `location.offset`.
  public var offset: Int { location.offset }
  /// Line of `offset`, from 1; 0 for binary input, which has no lines: `location.line`.
  public var line: Int { location.line }
  /// Column of `offset` in characters, from 1: `location.column`.
  public var column: Int { location.column }
  /// Where in the document, when a ``JSONPathTracker`` knew it: `location.path`.
  public var path: [JSONPathComponent]? { location.path }

  /// An error of `kind` at `location`, explained by `message`.
  public init(kind: Kind, location: JSONLocation, message: String) {
    self.kind = kind
    self.location = location
    self.message = message
  }

  /// An error of `kind` at byte `offset`, `line` and `column`, explained by `message`, with the
  /// path when it is known.
  public init(
    kind: Kind, offset: Int, line: Int, column: Int, message: String,
    path: [JSONPathComponent]? = nil
  ) {
    self.init(
      kind: kind, location: JSONLocation(offset: offset, line: line, column: column, path: path),
      message: message)
  }

  /// `line L, column C: message`, or `byte N: message` for binary input; with the path as a
  /// JSON Pointer after the position when there is one (`line 1, column 9 (at /a): …`).
  public var description: String { "\(location): \(message)" }
}

extension JSONParseLimits {
  /// Which of the limits was exceeded, in ``JSONParseError/Kind/limitExceeded(_:)``.
  public enum Limit: Sendable, Equatable {
    /// ``JSONParseLimits/maxDepth``.
    case depth
    /// ``JSONParseLimits/maxStringLength``, for strings and keys.
    case stringLength
    /// ``JSONParseLimits/maxNumberLength``.
    case numberLength
    /// ``JSONParseLimits/maxInputLength``.
    case inputLength
  }
}

/// The old name of ``JSONParseLimits/Limit``, too close to ``JSONParseLimits``.
@available(*, deprecated, renamed: "JSONParseLimits.Limit")
public typealias JSONParseLimit = JSONParseLimits.Limit
