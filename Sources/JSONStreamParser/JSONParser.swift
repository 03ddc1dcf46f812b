import JSONStreamCore

/// An incremental push parser: feed it JSON text in chunks of any size, and it calls your
/// ``JSONEventHandler`` for each token as soon as the token is complete.
///
/// ```swift
/// var parser = JSONParser(handler: MyHandler())
/// while let chunk = try source.read(maxBytes: 65_536) {   // a file, a socket, an HTTP body…
///   if try parser.feed(chunk) == .stopped { break }
/// }
/// try parser.finish()                                     // end of input: complete or an error
/// let result = parser.handler
/// ```
///
/// Tokens may be split anywhere between chunks — inside strings, escapes, surrogate pairs,
/// multi-byte characters and numbers — and the events are identical for every split. A chunk
/// boundary inside a token costs only the bytes of that token seen so far; nothing is rescanned,
/// so even 1-byte chunks parse in linear time.
///
/// The parser is strict RFC 8259 by default (see ``JSONParseOptions``) and never recurses:
/// nesting is kept on an explicit stack, bounded by ``JSONParseLimits/maxDepth``.
///
/// After an error — from the input or thrown by the handler — the parser stays failed and
/// throws the same error from every later call.
public struct JSONParser<Handler: JSONEventHandler> {
  /// The handler receiving events. Read it after ``finish()`` for its results.
  public var handler: Handler

  /// The options this parser was made with.
  public let options: JSONParseOptions

  // MARK: Position

  /// Offset of the current chunk's first byte (during a scan), or of the next unread byte.
  @usableFromInline var _consumed = 0
  /// Where the scan was when the handler was last called (for errors thrown by the handler).
  @usableFromInline var _cursor = 0
  @usableFromInline var _line = 1
  @usableFromInline var _lineStart = 0
  /// UTF-8 continuation bytes on the current line before the scan position: columns count
  /// characters, so these are subtracted from the byte distance.
  @usableFromInline var _continuationBytes = 0
  @usableFromInline var _lastLineBreakWasCR = false

  // MARK: Structure

  @usableFromInline var _expect = _Expect.value
  /// Open containers.
  @usableFromInline var _stack = _ContainerStack()
  /// Whether the innermost open container is an object.
  @inlinable
  var _inObject: Bool { _stack.innermostIsObject }
  @usableFromInline var _valueCount = 0
  @usableFromInline var _phase = _Phase.running
  @usableFromInline var _failure: (any Error)? = nil

  // MARK: A token split across chunks

  @usableFromInline var _token = _Token.none
  /// Offset of the current string's or number's first byte, and the continuation-byte count
  /// there: limit errors point at the token's start, wherever the chunks were cut.
  @usableFromInline var _tokenStart = 0
  @usableFromInline var _tokenStartContinuationBytes = 0
  /// Decoded string bytes or number text when a token has escapes or spans chunks.
  @usableFromInline var _scratch: [UInt8] = []
  @usableFromInline var _tokenInScratch = false
  /// Bytes copied into `_scratch` so far: the work of split and escaped tokens, for tests that
  /// it stays linear in the input (each byte copied once, however it is chunked).
  @usableFromInline var _scratchCopied = _WorkCounter()
  /// Open containers inside one the handler asked to skip (see
  /// ``JSONEventHandler/skipsContainerContents``), counting it: while above 0, input is checked
  /// but nothing is decoded, kept or delivered.
  @usableFromInline var _skipDepth = 0
  /// Decoded length of the current string or number inside a skipped container, counted where
  /// `_scratch` would grow: skipped tokens are held to the same length limits as delivered
  /// ones, without being copied.
  @usableFromInline var _skippedTokenLength = 0

  /// Inside a skipped container. Constant false, and so compiled away, for handlers that
  /// never skip (``JSONEventHandler/canSkipContainers``).
  @inlinable
  var _skipping: Bool { Handler.canSkipContainers && _skipDepth > 0 }
  @usableFromInline var _stringIsKey = false
  /// 0: no escape; 1: after `\`; 2…5: after `\u` and that many hex digits minus 2.
  @usableFromInline var _escape: UInt8 = 0
  @usableFromInline var _escapeValue: UInt32 = 0
  /// A high surrogate escape waiting for its low half; 0 when none.
  @usableFromInline var _pendingHighSurrogate: UInt32 = 0
  /// Offsets of the `\` of the escape in progress and of the pending high surrogate's escape:
  /// errors about a `\u` escape point at its start, wherever the chunks were cut.
  @usableFromInline var _escapeStart = 0
  @usableFromInline var _highSurrogateStart = 0
  @usableFromInline var _utf8 = _UTF8Sequence()
  @usableFromInline var _numberState = _NumberState.start
  @usableFromInline var _literal = _Literal.true
  @usableFromInline var _literalIndex = 0
  @usableFromInline var _commentSawStar = false

  /// A parser that delivers events to `handler`.
  ///
  /// Invalid options (see ``JSONParseOptions/validate()``) leave the parser failed from the
  /// start: its first call throws the error, and parsing never sees a bad limit.
  public init(handler: Handler, options: JSONParseOptions = JSONParseOptions()) {
    self.handler = handler
    self.options = options
    if let error = options.limits._validationError {
      _phase = .failed
      _failure = error
    }
  }

  /// Bytes consumed so far. After ``JSONParseStatus/stopped`` or ``JSONParseStatus/finished``,
  /// the offset just past the last token delivered; after an error, the error's offset.
  public var offset: Int { _consumed }

  /// Line (from 1) of ``offset``.
  public var line: Int { _line }

  /// Column (from 1, in characters) of ``offset``.
  public var column: Int { _consumed - _lineStart - _continuationBytes + 1 }

  /// Feeds a chunk (nil when it is empty): the body of the public `feed` methods, which only
  /// wrap their bytes (see JSONParser+Input.swift), and the way in for a reader that has its
  /// input as a view already.
  @inlinable
  @discardableResult
  package mutating func feed(_ chunk: _ScanInput?) throws -> JSONParseStatus {
    switch _phase {
    case .running: break
    case .stopped: return .stopped
    case .finished: return .finished
    case .failed: throw _failure!
    case .ended:
      if chunk == nil { return .needsMoreInput }
      throw _fail(_inputAfterFinish())
    }
    guard var input = chunk else { return .needsMoreInput }
    let overLimit = input.count > options.limits.maxInputLength - _consumed
    if overLimit { input = input.prefix(options.limits.maxInputLength - _consumed) }
    handler.beginEventRun()
    defer { handler.endEventRun() }
    do {
      let status = try _scan(input)
      if overLimit && status == .needsMoreInput {
        throw _limitError(.inputLength, offset: _consumed)
      }
      return status
    } catch {
      throw _fail(error)
    }
  }

  /// Declares the end of input: completes a pending top-level number, and throws if the input
  /// ended inside a token or container, or held no value at all. Calling it again does nothing.
  @inlinable
  public mutating func finish() throws {
    switch _phase {
    case .running: break
    case .stopped, .finished, .ended: return
    case .failed: throw _failure!
    }
    handler.beginEventRun()
    defer { handler.endEventRun() }
    do {
      try _finishInput()
      // Even when the last number finished the value: input after finish() is a mistake.
      if _phase != .stopped { _phase = .ended }
    } catch {
      throw _fail(error)
    }
  }

  /// Parses a whole buffer in one call and returns the handler with everything it gathered.
  ///
  /// ```swift
  /// let counter = try JSONParser.parse(bytes, handler: KeyCounter())
  /// ```
  @inlinable
  public static func parse<Bytes: Sequence>(
    _ bytes: Bytes, handler: Handler, options: JSONParseOptions = JSONParseOptions()
  ) throws -> Handler where Bytes.Element == UInt8 {
    var parser = JSONParser(handler: handler, options: options)
    try parser.feed(bytes)
    try parser.finish()
    return parser.handler
  }
}

// MARK: - Internal state types

/// What the grammar allows next, outside tokens.
@usableFromInline
enum _Expect: UInt8 {
  /// A value: at the start, after `:`.
  case value
  /// A value or `]`: right after `[`.
  case valueOrEndArray
  /// A value after `,` in an array (`]` too, with trailing commas).
  case valueAfterComma
  /// A key or `}`: right after `{`.
  case keyOrEndObject
  /// A key after `,` in an object (`}` too, with trailing commas).
  case keyAfterComma
  /// `:` after a key.
  case colon
  /// `,` or the closer of the innermost container.
  case afterValue
  /// The top-level value is complete.
  case afterTopLevel
}

/// The token a chunk ended inside.
@usableFromInline
enum _Token: UInt8 {
  case none, string, number, literal
  /// After `/`, deciding between `//` and `/*`.
  case slash
  case lineComment, blockComment
  /// Inside a multi-byte Unicode newline (allowUnicodeNewlines).
  case unicodeNewline
  /// Inside a UTF-8 byte order mark (allowByteOrderMark).
  case byteOrderMark
}

@usableFromInline
enum _NumberState: UInt8 {
  case start, afterMinus, afterLeadingZero, integer, afterPoint, fraction
  case afterE, afterExponentSign, exponent

  /// JSONNumber's flags for a number that ended in this state.
  @inlinable var _flags: UInt8 {
    self == .fraction || self == .exponent ? JSONNumber._hasFractionOrExponent : 0
  }

  /// States in which the text so far is a complete number.
  @inlinable var isComplete: Bool {
    switch self {
    case .afterLeadingZero, .integer, .fraction, .exponent: return true
    default: return false
    }
  }
}

@usableFromInline
enum _Literal: UInt8 {
  case `true`, `false`, null, nan, infinity, negativeInfinity

  /// The literal's bytes, for matching it byte by byte and for a non-finite number's text.
  @inlinable var utf8: [UInt8] { _Literal._bytes[Int(rawValue)] }

  /// Every literal's bytes, made once: made per call, matching `NaN` or a literal cut by a
  /// chunk's end allocated an array each time.
  @usableFromInline static let _bytes: [[UInt8]] = [
    Array("true".utf8), Array("false".utf8), Array("null".utf8), Array("NaN".utf8),
    Array("Infinity".utf8), Array("-Infinity".utf8),
  ]

  @inlinable var text: StaticString {
    switch self {
    case .true: return "true"
    case .false: return "false"
    case .null: return "null"
    case .nan: return "NaN"
    case .infinity: return "Infinity"
    case .negativeInfinity: return "-Infinity"
    }
  }
}

/// U+0000 or a noncharacter: U+FDD0…U+FDEF and the last two code points of every plane.
@inlinable
func _isNullOrNoncharacter(_ scalar: UInt32) -> Bool {
  scalar == 0 || (scalar >= 0xFDD0 && scalar <= 0xFDEF) || (scalar & 0xFFFE) == 0xFFFE
}
