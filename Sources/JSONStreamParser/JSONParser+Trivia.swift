// Everything between tokens that is not plain whitespace: line breaks (for positions),
// comments, Unicode newlines, the byte order mark and RFC 7464 record separators. Each is an
// option except line breaks; without its option, the byte is an error in context.

import JSONStreamCore

extension JSONParser {
  /// Counts a raw `\n` or `\r` at position `i`; `\r\n` is one line break. Inlined: the
  /// main loop's call for each line of indented input cost more than the count.
  @inlinable @inline(__always)
  mutating func _lineBreak(_ c: UInt8, at i: Int) {
    let offset = _offset(i)
    if c == ._newline && _lastLineBreakWasCR && offset == _lineStart {
      _lineStart = offset &+ 1  // the \n of \r\n: same line break
    } else {
      _line &+= 1
      _lineStart = offset &+ 1
    }
    _lastLineBreakWasCR = c == ._return
    _continuationBytes = 0
  }

  /// A line break that is not `\r` or `\n` (Unicode newlines), ending just before position `i`.
  @inlinable
  mutating func _otherLineBreak(endingBefore i: Int) {
    _line &+= 1
    _lineStart = _offset(i)
    _lastLineBreakWasCR = false
    _continuationBytes = 0
  }

  /// A byte outside tokens that is not space, tab, `\r` or `\n`: an enabled extension, or
  /// an error that says what was expected here.
  @inlinable
  mutating func _scanExtendedWhitespace(_ input: _ScanInput, _ i: Int) throws -> Int {
    let c = input[i]
    if c == ._slash && options.allowComments {
      _token = .slash
      return try _scanComment(input, i &+ 1)
    }
    if options.allowUnicodeNewlines {
      if c == ._verticalTab || c == ._formFeed {
        _otherLineBreak(endingBefore: i &+ 1)
        return i &+ 1
      }
      if c == 0xC2 || c == 0xE2 {
        _literalIndex = Int(c)  // the lead byte decides what must follow
        _utf8.length = 1
        _token = .unicodeNewline
        return try _scanUnicodeNewline(input, i &+ 1)
      }
    }
    if c == ._recordSeparator && options.allowMultipleValues && _stack.isEmpty
      && (_expect == .value || _expect == .afterTopLevel)
    {
      return i &+ 1
    }
    if c == 0xEF && options.allowByteOrderMark && _offset(i) == 0 {
      _literalIndex = 1
      _token = .byteOrderMark
      return try _scanByteOrderMark(input, i &+ 1)
    }
    throw _unexpectedByteError(c, at: _offset(i))
  }

  /// Continues a comment from `start` (the `/` that opened it is consumed).
  @inlinable
  mutating func _scanComment(_ input: _ScanInput, _ start: Int) throws -> Int {
    let end = input.count
    var i = start
    if _token == .slash {
      guard input.contains(i) else { return end }
      switch input[i] {
      case ._slash: _token = .lineComment
      case ._asterisk:
        _token = .blockComment
        _commentSawStar = false
      default: throw _commentError(input[i], at: _offset(i))
      }
      _utf8.need = 0
      i &+= 1
    }
    while let c = input.byte(at: i) {
      if _utf8.need > 0 {
        if _utf8.take(c) {
          _continuationBytes &+= 1
          i &+= 1
          continue
        }
        // An ill-formed sequence inside a comment. Its content is discarded anyway, so
        // loose mode just drops it; strict mode still demands well-formed UTF-8 everywhere.
        if !options.looseUnicode { throw _invalidUTF8Error(c, at: _offset(i)) }
        _utf8.need = 0
      }
      if c >= 0x80 {
        if !_utf8.start(c) && !options.looseUnicode { throw _invalidUTF8Error(c, at: _offset(i)) }
        _commentSawStar = false
        i &+= 1
        continue
      }
      if _token == .lineComment {
        if c == ._newline || c == ._return {
          _token = .none  // the line break itself is whitespace, counted by the caller
          return i
        }
      } else {
        if c == ._slash && _commentSawStar {
          _token = .none
          return i &+ 1
        }
        _commentSawStar = c == ._asterisk
        if c == ._newline || c == ._return { _lineBreak(c, at: i) }
      }
      i &+= 1
    }
    return end
  }

  /// Continues U+0085 (C2 85), U+2028 (E2 80 A8) or U+2029 (E2 80 A9) as whitespace.
  /// `_literalIndex` holds the lead byte, `_utf8.length` the bytes matched.
  @inlinable
  mutating func _scanUnicodeNewline(_ input: _ScanInput, _ start: Int) throws -> Int {
    var i = start
    while let c = input.byte(at: i) {
      let matched: Bool
      let complete: Bool
      if _literalIndex == 0xC2 {
        matched = c == 0x85
        complete = true
      } else if _utf8.length == 1 {
        matched = c == 0x80
        complete = false
      } else {
        matched = c == 0xA8 || c == 0xA9
        complete = true
      }
      guard matched else { throw _unexpectedByteError(c, at: _offset(i)) }
      _utf8.length &+= 1
      i &+= 1
      if complete {
        _token = .none
        _otherLineBreak(endingBefore: i)
        return i
      }
    }
    return i
  }

  /// Continues the byte order mark EF BB BF; `_literalIndex` holds the bytes matched.
  @inlinable
  mutating func _scanByteOrderMark(_ input: _ScanInput, _ start: Int) throws -> Int {
    var i = start
    while input.contains(i) {
      let expected: UInt8 = _literalIndex == 1 ? 0xBB : 0xBF
      guard input[i] == expected else { throw _invalidUTF8Error(input[i], at: _offset(i)) }
      _continuationBytes &+= 1
      _literalIndex &+= 1
      i &+= 1
      if _literalIndex == 3 {
        _token = .none
        return i
      }
    }
    return i
  }
}
