// The scanner's main loop: structure (brackets, commas, colons) and dispatch to the token
// scanners. State that must survive a chunk boundary lives in the parser (`_expect`, `_stack`,
// `_token`); everything else is a local, so the loop keeps it in registers.

import JSONStreamCore

extension JSONParser {
  @inlinable
  func _offset(_ p: UnsafePointer<UInt8>) -> Int {
    _bias &+ Int(bitPattern: p)
  }

  /// Scans one chunk. Leaves `_consumed` at the offset where scanning stopped.
  @inlinable
  mutating func _scan(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> JSONParseStatus
  {
    _bias = _consumed &- Int(bitPattern: start)
    var p = start
    if _token != .none {
      p = try _resumeToken(p, end)
      if let status = _checkStop(p) { return status }
    }
    while p < end {
      let c = p.pointee
      if c <= ._space {
        // Whitespace by bit mask, not by comparisons LLVM may lower to a jump table (an
        // indirect jump per byte, which mispredicts on indented input). Runs of spaces —
        // indentation — get a loop of their own.
        let bit = UInt64(1) &<< UInt64(c)
        if bit & 0x1_0000_0200 != 0 {  // space, tab
          p = _skipSpaceRun(p + 1, end)
          continue
        }
        if bit & 0x2400 != 0 {  // \n, \r
          _lineBreak(c, at: p)
          p += 1
          continue
        }
      }
      switch _expect {
      case .value, .valueOrEndArray, .valueAfterComma:
        p = try _scanValue(c, p, end)
      case .keyOrEndObject, .keyAfterComma:
        if c == ._quote {
          _stringIsKey = true
          _markTokenStart(p)
          p = try _scanNewString(p + 1, end, isKey: true)
        } else if c == ._closeBrace
          && (_expect == .keyOrEndObject || options.allowTrailingCommas)
        {
          p = try _endContainer(p)
        } else {
          p = try _scanExtendedWhitespace(p, end)
        }
      case .colon:
        if c == ._colon {
          _expect = .value
          p += 1
        } else {
          p = try _scanExtendedWhitespace(p, end)
        }
      case .afterValue:
        if c == ._comma {
          _expect = _inObject ? .keyAfterComma : .valueAfterComma
          p += 1
        } else if c == (_inObject ? ._closeBrace : ._closeBracket) {
          p = try _endContainer(p)
        } else {
          p = try _scanExtendedWhitespace(p, end)
        }
      case .afterTopLevel:
        if options.allowMultipleValues && c != ._slash && c != ._recordSeparator
          && c >= 0x20 && c < 0x80
        {
          // The next value of a sequence: dispatch this byte again as a value start.
          _expect = .value
          continue
        }
        p = try _scanExtendedWhitespace(p, end)
      }
      p = try _scanSteady(p, end)
      if let status = _checkStop(p) { return status }
    }
    _consumed = _offset(end)
    return .needsMoreInput
  }

  /// Takes the tokens that follow in the usual shapes — `,` then a key or a value, a key then
  /// `:` and a value, a closer — with spaces and tabs between. The dispatch on `_expect` in the
  /// main loop is an indirect jump whose target follows the data's shape and so mispredicts;
  /// here the grammar's order is the code's order, and what is left are branches on bytes.
  /// Returns at the first byte the main loop must see (line breaks, comments, errors, what
  /// follows the top-level value), at `end`, or once the handler asks to stop.
  @inlinable @inline(__always)
  mutating func _scanSteady(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    var p = start
    while _phase == .running && !handler.isDone {
      p = _skipSpaces(p, end)
      guard p < end else { return p }
      let c = p.pointee
      let expect = _expect
      if expect == .afterValue {
        if c == ._comma {
          p = _skipSpaces(p + 1, end)
          if _inObject {
            _expect = .keyAfterComma
            guard p < end && p.pointee == ._quote else { continue }
            p = try _scanMember(p, end)
          } else {
            _expect = .valueAfterComma
            guard p < end && p.pointee > ._space else { continue }
            p = try _scanValue(p.pointee, p, end)
          }
        } else if c == (_inObject ? ._closeBrace : ._closeBracket) {
          p = try _endContainer(p)
        } else {
          return p
        }
      } else if expect == .keyAfterComma || expect == .keyOrEndObject {
        guard c == ._quote else { return p }
        p = try _scanMember(p, end)
      } else if expect == .colon {
        guard c == ._colon else { return p }
        _expect = .value
        p += 1
      } else if expect != .afterTopLevel && c > ._space {
        p = try _scanValue(c, p, end)
      } else {
        return p
      }
    }
    return p
  }

  /// From a key's opening quote: the key, and the `:` and value after it as far as they are
  /// in the usual shape, then the members that follow while their values are scalars (a
  /// record's members, without a return to the caller and its dispatch for each). Leaves
  /// `_expect` wherever it got to.
  @inlinable @inline(__always)
  mutating func _scanMember(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    var p = start
    while true {
      _stringIsKey = true
      _markTokenStart(p)
      p = try _scanNewString(p + 1, end, isKey: true)
      // Short of `end`, the key is complete and `_expect` is `.colon`.
      guard p < end && !handler.isDone else { return p }
      p = _skipSpaces(p, end)
      guard p < end && p.pointee == ._colon else { return p }
      _expect = .value
      p = _skipSpaces(p + 1, end)
      guard p < end && p.pointee > ._space else { return p }
      p = try _scanValue(p.pointee, p, end)
      // After a scalar (a container leaves `_expect` at its first token): `,` and a key.
      guard _expect == .afterValue && _phase == .running && !handler.isDone,
        p < end && p.pointee == ._comma
      else { return p }
      let next = _skipSpaces(p + 1, end)
      guard next < end && next.pointee == ._quote else { return p }
      _expect = .keyAfterComma
      p = next
    }
  }

  /// Past spaces and tabs: the whitespace that needs no counting.
  @inlinable @inline(__always)
  func _skipSpaces(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
    -> UnsafePointer<UInt8>
  {
    var p = start
    while p < end && (p.pointee == ._space || p.pointee == ._tab) { p += 1 }
    return p
  }

  /// After a token: has the handler asked to stop, or is the value finished?
  @inlinable @inline(__always)
  mutating func _checkStop(_ p: UnsafePointer<UInt8>) -> JSONParseStatus? {
    if _phase == .running && !handler.isDone { return nil }
    _consumed = _offset(p)
    if handler.isDone {
      _phase = .stopped
      return .stopped
    }
    if _phase == .finished { return .finished }
    return nil
  }

  /// A byte where a value is expected.
  @usableFromInline @_transparent
  mutating func _scanValue(
    _ c: UInt8, _ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
  ) throws -> UnsafePointer<UInt8> {
    switch c {
    case ._openBrace:
      try _push(isObject: true, at: p)
      _cursor = _offset(p)
      if !_skipping {
        try handler.startObject()
        if Handler.canSkipContainers && handler.skipsContainerContents { _skipDepth = 1 }
      } else {
        _skipDepth &+= 1
      }
      _expect = .keyOrEndObject
      return p + 1
    case ._openBracket:
      try _push(isObject: false, at: p)
      _cursor = _offset(p)
      if !_skipping {
        try handler.startArray()
        if Handler.canSkipContainers && handler.skipsContainerContents { _skipDepth = 1 }
      } else {
        _skipDepth &+= 1
      }
      _expect = .valueOrEndArray
      return p + 1
    case ._quote:
      _stringIsKey = false
      _markTokenStart(p)
      return try _scanNewString(p + 1, end, isKey: false)
    case ._minus, ._zero ... ._nine:
      _markTokenStart(p)
      return try _scanNewNumber(p, end)
    case UInt8(ascii: "t"):
      return try _startLiteral(.true, p, end)
    case UInt8(ascii: "f"):
      return try _startLiteral(.false, p, end)
    case UInt8(ascii: "n"):
      return try _startLiteral(.null, p, end)
    case UInt8(ascii: "N") where options.allowNonFiniteNumbers:
      return try _startLiteral(.nan, p, end)
    case UInt8(ascii: "I") where options.allowNonFiniteNumbers:
      return try _startLiteral(.infinity, p, end)
    case ._closeBracket
    where _expect == .valueOrEndArray
      || (_expect == .valueAfterComma && options.allowTrailingCommas):
      return try _endContainer(p)
    default:
      return try _scanExtendedWhitespace(p, end)
    }
  }

  @inlinable @inline(__always)
  mutating func _markTokenStart(_ p: UnsafePointer<UInt8>) {
    _tokenStart = _offset(p)
    _tokenStartContinuationBytes = _continuationBytes
  }

  @inlinable @inline(__always)
  mutating func _push(isObject: Bool, at p: UnsafePointer<UInt8>) throws {
    if _stack.depth >= options.limits.maxDepth {
      throw _limitError(.depth, at: p)
    }
    _stack.push(isObject: isObject)
  }

  /// `}` or `]` that closes the innermost container (the caller checked it matches).
  @inlinable @inline(__always)
  mutating func _endContainer(_ p: UnsafePointer<UInt8>) throws -> UnsafePointer<UInt8> {
    let isObject = _stack.pop()
    _cursor = _offset(p)
    if _skipping && _skipDepth > 1 {
      _skipDepth &-= 1
    } else {
      // The end of a skipped container is delivered, so the handler's structure stays whole.
      if Handler.canSkipContainers { _skipDepth = 0 }
      if isObject {
        try handler.endObject()
      } else {
        try handler.endArray()
      }
    }
    _valueCompleted()
    return p + 1
  }

  /// A value (scalar or container) just ended.
  @inlinable @inline(__always)
  mutating func _valueCompleted() {
    if _stack.isEmpty {
      _expect = .afterTopLevel
      _valueCount &+= 1
      if options.allowTrailingText { _phase = .finished }
    } else {
      _expect = .afterValue
    }
  }

  /// Continues the token the previous chunk ended inside.
  @inlinable
  mutating func _resumeToken(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    switch _token {
    case .none: return p
    case .string: return try _scanString(p, end, fresh: false)
    case .number: return try _scanNumber(p, end)
    case .literal: return try _scanLiteral(p, end)
    case .slash, .lineComment, .blockComment: return try _scanComment(p, end)
    case .unicodeNewline: return try _scanUnicodeNewline(p, end)
    case .byteOrderMark: return try _scanByteOrderMark(p, end)
    }
  }

  /// End of input: completes a pending top-level number, or explains what is missing.
  @inlinable
  mutating func _finishInput() throws {
    let endOffset = _consumed
    switch _token {
    case .none, .lineComment:
      _token = .none
    // Only a top-level number ends at the end of input. Inside a container the input ended
    // before its delimiter: the number is not delivered (the same for every consumer: an item
    // streamer has no item to return beside the error), and the containers are what is missing.
    case .number where _numberState.isComplete && !_stack.isEmpty:
      _token = .none
      _expect = .afterValue
    case .number where _numberState.isComplete:
      _cursor = _tokenStart
      try _emitScratchNumber()
      _valueCompleted()
      if handler.isDone { _phase = .stopped }
    default:
      throw _endOfInputError(at: endOffset)
    }
    if !_stack.isEmpty {
      throw _endOfInputError(at: endOffset)
    }
    if _valueCount == 0 && !options.allowMultipleValues {
      throw _endOfInputError(at: endOffset)
    }
  }
}
