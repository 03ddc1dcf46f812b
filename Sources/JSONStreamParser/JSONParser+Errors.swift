// Building errors: cold code, kept out of line so the scanning loops stay small. Every message
// says what was expected and what was found, in terms of the JSON text.

import JSONStreamCore

extension JSONParser {
  /// Enters the failed state; every later call throws `error` again.
  @usableFromInline
  mutating func _fail(_ error: any Error) -> any Error {
    if _phase == .failed, let failure = _failure { return failure }
    _phase = .failed
    _failure = error
    _token = .none
    if let parseError = error as? JSONParseError {
      _consumed = parseError.offset
    } else {
      // The handler threw: point at the token of the event it was handling.
      _consumed = _cursor
      if _cursor == _tokenStart { _continuationBytes = _tokenStartContinuationBytes }
      if let located = JSONParseError(content: error, offset: offset, line: line, column: column) {
        _failure = located
      }
    }
    return _failure!
  }

  @usableFromInline
  @inline(never)
  func _error(_ kind: JSONParseError.Kind, _ message: String, offset: Int) -> JSONParseError {
    JSONParseError(
      kind: kind, offset: offset, line: _line,
      column: max(1, offset - _lineStart - _continuationBytes + 1), message: message)
  }

  /// What the grammar wants in the current state, as words.
  @usableFromInline
  var _expectation: String {
    switch _expect {
    case .value: return _stack.isEmpty ? "expected a JSON value" : "expected a value"
    case .valueOrEndArray: return "expected a value or ']'"
    case .valueAfterComma: return "expected a value after ','"
    case .keyOrEndObject: return "expected a string key or '}'"
    case .keyAfterComma: return "expected a string key after ','"
    case .colon: return "expected ':' after an object key"
    case .afterValue:
      return _stack.innermostIsObject
        ? "expected ',' or '}' after an object member"
        : "expected ',' or ']' after an array element"
    case .afterTopLevel:
      // Between values of a sequence, what may come is what may come before the first.
      return options.allowMultipleValues
        ? "expected a JSON value" : "expected end of input after the top-level value"
    }
  }

  @usableFromInline
  @inline(never)
  func _unexpectedByteError(_ c: UInt8, at offset: Int) -> JSONParseError {
    let found = _describe(c)
    if _expect == .valueAfterComma && c == ._closeBracket {
      return _error(.trailingComma, "trailing comma before ']'", offset: offset)
    }
    if _expect == .keyAfterComma && c == ._closeBrace {
      return _error(.trailingComma, "trailing comma before '}'", offset: offset)
    }
    if c == 0xEF && offset == 0 {
      return _error(
        .byteOrderMark, "the input starts with a UTF-8 byte order mark, which JSON text must not",
        offset: offset)
    }
    var hint = ""
    switch c {
    case ._slash: hint = " (comments are not allowed)"
    case ._apostrophe: hint = " (strings must be in double quotes)"
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      if _expect != .afterTopLevel && _expect != .afterValue && _expect != .colon {
        hint = " (NaN and Infinity are not JSON numbers)"
      }
    case ._recordSeparator: hint = " (record separators need multiple values allowed)"
    default: break
    }
    let kind: JSONParseError.Kind =
      _expect == .afterTopLevel && !options.allowMultipleValues ? .trailingText : .unexpectedByte
    return _error(kind, "\(_expectation), found \(found)\(hint)", offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _endOfInputError(at offset: Int) -> JSONParseError {
    switch _token {
    case .string:
      return _error(
        .unexpectedEndOfInput, "unexpected end of input inside a string", offset: offset)
    case .number:
      return _error(
        .unexpectedEndOfInput, "unexpected end of input inside a number, expected a digit",
        offset: offset)
    case .literal:
      return _error(
        .unexpectedEndOfInput, "unexpected end of input inside '\(_literal.text)'", offset: offset)
    case .slash, .blockComment:
      return _error(
        .unexpectedEndOfInput, "unexpected end of input inside a comment", offset: offset)
    case .unicodeNewline, .byteOrderMark:
      return _error(
        .unexpectedEndOfInput, "unexpected end of input inside a multi-byte character",
        offset: offset)
    case .none, .lineComment:
      break
    }
    if _stack.isEmpty && _valueCount == 0 {
      return _error(.emptyInput, "expected a JSON value, found end of input", offset: offset)
    }
    let open = _stack.depth == 1 ? "1 open container" : "\(_stack.depth) open containers"
    return _error(
      .unexpectedEndOfInput, "unexpected end of input (\(open)), \(_expectation)", offset: offset)
  }

  /// `error`, found inside a string — unless the string is already over its length limit.
  /// Lengths only grow, so preferring the limit error gives the same outcome however the
  /// input was chunked (a chunk boundary is also a place where the limit is checked).
  /// `unflushed`: bytes of the current run not yet copied to scratch.
  @usableFromInline
  @inline(never)
  func _stringError(_ error: JSONParseError, unflushed: Int) -> JSONParseError {
    let length = (_tokenInScratch ? _tokenLength : 0) + unflushed
    return length > options.limits.maxStringLength ? _tokenLimitError(.stringLength) : error
  }

  /// `error`, found inside a number — unless the number is already over its length limit.
  @usableFromInline
  @inline(never)
  func _numberTextError(_ error: JSONParseError, unflushed: Int) -> JSONParseError {
    let length = (_tokenInScratch ? _tokenLength : 0) + unflushed
    return length > options.limits.maxNumberLength ? _tokenLimitError(.numberLength) : error
  }

  /// Decoded length of the current token so far: what scratch holds, or counts when skipping.
  @usableFromInline
  var _tokenLength: Int { _skipping ? _skippedTokenLength : _scratch.count }

  /// Throws ``_tokenLimitError(_:)``: out of line, so that a scanning function's hot path
  /// does not make room for the error it would box.
  @usableFromInline
  @inline(never)
  func _throwTokenLimitError(_ limit: JSONParseLimits.Limit) throws -> Never {
    throw _tokenLimitError(limit)
  }

  /// A string or number over its limit, reported at the token's first byte.
  @usableFromInline
  @inline(never)
  func _tokenLimitError(_ limit: JSONParseLimits.Limit) -> JSONParseError {
    let error = _limitError(limit, offset: _tokenStart)
    return JSONParseError(
      kind: error.kind, offset: _tokenStart, line: _line,
      column: max(1, _tokenStart - _lineStart - _tokenStartContinuationBytes + 1),
      message: error.message)
  }

  @usableFromInline
  @inline(never)
  func _limitError(_ limit: JSONParseLimits.Limit, offset: Int) -> JSONParseError {
    let limits = options.limits
    let message: String
    switch limit {
    case .depth: message = "nesting is deeper than the limit of \(limits.maxDepth) levels"
    case .stringLength:
      message = "string is longer than the limit of \(limits.maxStringLength) bytes"
    case .numberLength:
      message = "number is longer than the limit of \(limits.maxNumberLength) characters"
    case .inputLength: message = "input is longer than the limit of \(limits.maxInputLength) bytes"
    }
    return _error(.limitExceeded(limit), message, offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _inputAfterFinish() -> JSONParseError {
    _error(.inputAfterFinish, "input fed after finish()", offset: _consumed)
  }

  @usableFromInline
  @inline(never)
  func _numberError(_ state: _NumberState, _ c: UInt8, at offset: Int) -> JSONParseError {
    let found = _describe(c)
    let message: String
    switch state {
    case .afterLeadingZero: message = "invalid number: leading zeros are not allowed"
    case .afterMinus: message = "invalid number: expected a digit after '-', found \(found)"
    case .afterPoint:
      message = "invalid number: expected a digit after the decimal point, found \(found)"
    case .afterE:
      message = "invalid number: expected a digit or sign in the exponent, found \(found)"
    default: message = "invalid number: expected a digit in the exponent, found \(found)"
    }
    return _error(.invalidNumber, message, offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _literalError(_ c: UInt8, at offset: Int) -> JSONParseError {
    _error(
      .invalidLiteral,
      "invalid literal: expected '\(_literal.text)', found \(_describe(c))",
      offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _commentError(_ c: UInt8, at offset: Int) -> JSONParseError {
    _error(
      .unexpectedByte,
      "expected '/' or '*' after '/' to start a comment, found \(_describe(c))",
      offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _controlCharacterError(_ c: UInt8, at offset: Int) -> JSONParseError {
    let escape: String
    switch c {
    case ._newline: escape = "\\n"
    case ._return: escape = "\\r"
    case ._tab: escape = "\\t"
    default: escape = "\\u00" + _hex(c)
    }
    return _error(
      .controlCharacterInString,
      "control character 0x\(_hex(c)) in a string must be escaped (as \(escape))", offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _invalidEscapeError(_ c: UInt8, at offset: Int) -> JSONParseError {
    _error(
      .invalidEscape,
      "invalid escape: '\\' must be followed by one of \" \\ / b f n r t u, found \(_describe(c))",
      offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _invalidUnicodeEscapeError(_ c: UInt8, at offset: Int) -> JSONParseError {
    _error(
      .invalidUnicodeEscape,
      "invalid \\u escape: expected 4 hex digits, found \(_describe(c))", offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _unpairedSurrogateError(_ unit: UInt32, offset: Int) -> JSONParseError {
    let text = "\\u" + _hex(UInt8(unit >> 8)) + _hex(UInt8(unit & 0xFF))
    let message =
      unit >= 0xDC00
      ? "unpaired surrogate \(text): a low surrogate must follow a high surrogate escape"
      : "unpaired surrogate \(text): a high surrogate must be followed by a low surrogate escape"
    return _error(.unpairedSurrogate, message, offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _invalidUTF8Error(_ c: UInt8, at offset: Int) -> JSONParseError {
    let message =
      _utf8.need > 0
      ? "invalid UTF-8: byte 0x\(_hex(c)) cannot continue the multi-byte sequence"
      : "invalid UTF-8: byte 0x\(_hex(c)) cannot start a character"
    return _error(.invalidUTF8, message, offset: offset)
  }

  @usableFromInline
  @inline(never)
  func _disallowedCharacterError(_ scalar: UInt32, offset: Int) -> JSONParseError {
    var digits = String(scalar, radix: 16, uppercase: true)
    while digits.count < 4 { digits = "0" + digits }
    let what = scalar == 0 ? "U+0000" : "the noncharacter U+\(digits)"
    return _error(.disallowedCharacter, "\(what) is not allowed in strings", offset: offset)
  }
}

/// A byte as a message shows it: `'x'` for printable ASCII, `byte 0xNN` otherwise.
@usableFromInline
func _describe(_ c: UInt8) -> String {
  switch c {
  case ._apostrophe: return "\"'\""
  case ._newline: return "'\\n'"
  case ._return: return "'\\r'"
  case ._tab: return "'\\t'"
  default: break
  }
  if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
  return "byte 0x\(_hex(c))"
}

@usableFromInline
func _hex(_ c: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(c >> 4)], digits[Int(c & 0xF)]])
}
