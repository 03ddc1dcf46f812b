// The scanner's main loop: structure (brackets, commas, colons) and dispatch to the token
// scanners. State that must survive a chunk boundary lives in the parser (`_expect`, `_stack`,
// `_token`); everything else is a local, so the loop keeps it in registers.

import JSONStreamCore

extension JSONParser {
  /// The input offset of `position` in the current chunk.
  @inlinable @inline(__always)
  func _offset(_ position: Int) -> Int {
    _consumed &+ position
  }

  /// Scans one chunk. Leaves `_consumed` at the offset where scanning stopped.
  @inlinable
  mutating func _scan(_ input: _ScanInput) throws -> JSONParseStatus {
    var i = 0
    if _token != .none {
      i = try _resumeToken(input, i)
      if let status = _checkStop(i) { return status }
    }
    while let c = input.byte(at: i) {
      if c <= ._space {
        // Whitespace by bit mask, not by comparisons LLVM may lower to a jump table (an
        // indirect jump per byte, which mispredicts on indented input). Runs of spaces —
        // indentation — get a loop of their own.
        let bit = UInt64(1) &<< UInt64(c)
        if bit & 0x1_0000_0200 != 0 {  // space, tab
          i = input.skipSpaceRun(from: i &+ 1)
          continue
        }
        if bit & 0x2400 != 0 {  // \n, \r
          _lineBreak(c, at: i)
          i &+= 1
          continue
        }
      }
      switch _expect {
      case .value, .valueOrEndArray, .valueAfterComma:
        i = try _scanValue(c, input, i)
      case .keyOrEndObject, .keyAfterComma:
        if c == ._quote {
          _stringIsKey = true
          _markTokenStart(i)
          i = try _scanNewString(input, i &+ 1, isKey: true)
        } else if c == ._closeBrace
          && (_expect == .keyOrEndObject || options.allowTrailingCommas)
        {
          i = try _endContainer(i)
        } else {
          i = try _scanExtendedWhitespace(input, i)
        }
      case .colon:
        if c == ._colon {
          _expect = .value
          i &+= 1
        } else {
          i = try _scanExtendedWhitespace(input, i)
        }
      case .afterValue:
        if c == ._comma {
          _expect = _inObject ? .keyAfterComma : .valueAfterComma
          i &+= 1
        } else if c == (_inObject ? ._closeBrace : ._closeBracket) {
          i = try _endContainer(i)
        } else {
          i = try _scanExtendedWhitespace(input, i)
        }
      case .afterTopLevel:
        if options.allowMultipleValues && c != ._slash && c != ._recordSeparator
          && c >= 0x20 && c < 0x80
        {
          // The next value of a sequence: dispatch this byte again as a value start.
          _expect = .value
          continue
        }
        i = try _scanExtendedWhitespace(input, i)
      }
      i = try _scanSteady(input, i)
      if let status = _checkStop(i) { return status }
    }
    _consumed = _offset(input.count)
    return .needsMoreInput
  }

  /// Takes the tokens that follow in the usual shapes — `,` then a key or a value, a key then
  /// `:` and a value, a closer — with spaces and tabs between. The dispatch on `_expect` in the
  /// main loop is an indirect jump whose target follows the data's shape and so mispredicts;
  /// here the grammar's order is the code's order, and what is left are branches on bytes.
  /// Returns at the first byte the main loop must see (comments, errors, what follows the
  /// top-level value), at the chunk's end, or once the handler asks to stop.
  @inlinable @inline(__always)
  mutating func _scanSteady(_ input: _ScanInput, _ start: Int) throws -> Int {
    var i = start
    while _phase == .running && !handler.isDone {
      i = _skipWhitespace(input, i)
      guard let c = input.byte(at: i) else { return i }
      let expect = _expect
      if expect == .afterValue {
        if c == ._comma {
          i = _skipSpaces(input, i &+ 1)
          if _inObject {
            _expect = .keyAfterComma
            guard input.byte(at: i) == ._quote else { continue }
            i = try _scanMember(input, i)
          } else {
            _expect = .valueAfterComma
            guard let c = input.byte(at: i), c > ._space else { continue }
            i = try _scanValue(c, input, i)
          }
        } else if c == (_inObject ? ._closeBrace : ._closeBracket) {
          i = try _endContainer(i)
        } else {
          return i
        }
      } else if expect == .keyAfterComma || expect == .keyOrEndObject {
        guard c == ._quote else { return i }
        i = try _scanMember(input, i)
      } else if expect == .colon {
        guard c == ._colon else { return i }
        _expect = .value
        i &+= 1
      } else if expect != .afterTopLevel && c > ._space {
        i = try _scanValue(c, input, i)
      } else {
        return i
      }
    }
    return i
  }

  /// From a key's opening quote: the key, and the `:` and value after it as far as they are
  /// in the usual shape, then the members that follow while their values are scalars (a
  /// record's members, without a return to the caller and its dispatch for each). Leaves
  /// `_expect` wherever it got to.
  @inlinable @inline(__always)
  mutating func _scanMember(_ input: _ScanInput, _ start: Int) throws -> Int {
    var i = start
    while true {
      _stringIsKey = true
      _markTokenStart(i)
      i = try _scanNewString(input, i &+ 1, isKey: true)
      // Short of the chunk's end, the key is complete and `_expect` is `.colon`.
      guard input.contains(i) && !handler.isDone else { return i }
      i = _skipSpaces(input, i)
      guard input.byte(at: i) == ._colon else { return i }
      _expect = .value
      i = _skipSpaces(input, i &+ 1)
      guard let c = input.byte(at: i), c > ._space else { return i }
      i = try _scanValue(c, input, i)
      // After a scalar (a container leaves `_expect` at its first token): `,` and a key.
      guard _expect == .afterValue && _phase == .running && !handler.isDone,
        input.byte(at: i) == ._comma
      else { return i }
      let next = _skipSpaces(input, i &+ 1)
      guard input.byte(at: next) == ._quote else { return i }
      _expect = .keyAfterComma
      i = next
    }
  }

  /// Past whitespace, counting line breaks: a line's end and the next line's indentation
  /// without a return to the main loop (its dispatch, and a call of `_scanSteady`, per line).
  @inlinable @inline(__always)
  mutating func _skipWhitespace(_ input: _ScanInput, _ start: Int) -> Int {
    var i = start
    while let c = input.byte(at: i), c <= ._space {
      if c == ._newline || c == ._return {
        _lineBreak(c, at: i)
      } else if c != ._space && c != ._tab {
        break
      }
      i = input.skipSpaceRun(from: i &+ 1)
    }
    return i
  }

  /// Past spaces and tabs: the whitespace that needs no counting.
  @inlinable @inline(__always)
  func _skipSpaces(_ input: _ScanInput, _ start: Int) -> Int {
    var i = start
    while let c = input.byte(at: i), c == ._space || c == ._tab { i &+= 1 }
    return i
  }

  /// After a token: has the handler asked to stop, or is the value finished?
  @inlinable @inline(__always)
  mutating func _checkStop(_ i: Int) -> JSONParseStatus? {
    if _phase == .running && !handler.isDone { return nil }
    _consumed = _offset(i)
    if handler.isDone {
      _phase = .stopped
      return .stopped
    }
    if _phase == .finished { return .finished }
    return nil
  }

  /// A byte where a value is expected.
  @usableFromInline @_transparent
  mutating func _scanValue(_ c: UInt8, _ input: _ScanInput, _ i: Int) throws -> Int {
    switch c {
    case ._openBrace:
      try _push(isObject: true, at: i)
      _cursor = _offset(i)
      if !_skipping {
        try handler.startObject()
        if Handler.canSkipContainers && handler.skipsContainerContents { _skipDepth = 1 }
      } else {
        _skipDepth &+= 1
      }
      _expect = .keyOrEndObject
      return i &+ 1
    case ._openBracket:
      try _push(isObject: false, at: i)
      _cursor = _offset(i)
      if !_skipping {
        try handler.startArray()
        if Handler.canSkipContainers && handler.skipsContainerContents { _skipDepth = 1 }
      } else {
        _skipDepth &+= 1
      }
      _expect = .valueOrEndArray
      return i &+ 1
    case ._quote:
      _stringIsKey = false
      _markTokenStart(i)
      return try _scanNewString(input, i &+ 1, isKey: false)
    case ._minus, ._zero ... ._nine:
      _markTokenStart(i)
      return try _scanNewNumber(input, i)
    case UInt8(ascii: "t"):
      return try _startLiteral(.true, input, i)
    case UInt8(ascii: "f"):
      return try _startLiteral(.false, input, i)
    case UInt8(ascii: "n"):
      return try _startLiteral(.null, input, i)
    case UInt8(ascii: "N") where options.allowNonFiniteNumbers:
      return try _startLiteral(.nan, input, i)
    case UInt8(ascii: "I") where options.allowNonFiniteNumbers:
      return try _startLiteral(.infinity, input, i)
    case ._closeBracket
    where _expect == .valueOrEndArray
      || (_expect == .valueAfterComma && options.allowTrailingCommas):
      return try _endContainer(i)
    default:
      return try _scanExtendedWhitespace(input, i)
    }
  }

  @inlinable @inline(__always)
  mutating func _markTokenStart(_ i: Int) {
    _tokenStart = _offset(i)
    _tokenStartContinuationBytes = _continuationBytes
  }

  @inlinable @inline(__always)
  mutating func _push(isObject: Bool, at i: Int) throws {
    if _stack.depth >= options.limits.maxDepth {
      throw _limitError(.depth, offset: _offset(i))
    }
    _stack.push(isObject: isObject)
  }

  /// `}` or `]` that closes the innermost container (the caller checked it matches).
  @inlinable @inline(__always)
  mutating func _endContainer(_ i: Int) throws -> Int {
    let isObject = _stack.pop()
    _cursor = _offset(i)
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
    return i &+ 1
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
  mutating func _resumeToken(_ input: _ScanInput, _ i: Int) throws -> Int {
    switch _token {
    case .none: return i
    case .string: return try _scanString(input, i, fresh: false)
    case .number: return try _scanNumber(input, i)
    case .literal: return try _scanLiteral(input, i)
    case .slash, .lineComment, .blockComment: return try _scanComment(input, i)
    case .unicodeNewline: return try _scanUnicodeNewline(input, i)
    case .byteOrderMark: return try _scanByteOrderMark(input, i)
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
