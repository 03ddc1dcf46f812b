// Everything between tokens that is not plain whitespace: line breaks (for positions),
// comments, Unicode newlines, the byte order mark and RFC 7464 record separators. Each is an
// option except line breaks; without its option, the byte is an error in context.

import JSONStreamCore

extension JSONParser {
  /// Counts a raw `\n` or `\r` at `p`; `\r\n` is one line break.
  @inlinable
  mutating func _lineBreak(_ c: UInt8, at p: UnsafePointer<UInt8>) {
    let offset = _offset(p)
    if c == ._newline && _lastLineBreakWasCR && offset == _lineStart {
      _lineStart = offset &+ 1  // the \n of \r\n: same line break
    } else {
      _line &+= 1
      _lineStart = offset &+ 1
    }
    _lastLineBreakWasCR = c == ._return
    _continuationBytes = 0
  }

  /// A line break that is not `\r` or `\n` (Unicode newlines), ending just before `p`.
  @inlinable
  mutating func _otherLineBreak(endingBefore p: UnsafePointer<UInt8>) {
    _line &+= 1
    _lineStart = _offset(p)
    _lastLineBreakWasCR = false
    _continuationBytes = 0
  }

  /// A byte outside tokens that is not space, tab, `\r` or `\n`: an enabled extension, or
  /// an error that says what was expected here.
  @inlinable
  mutating func _scanExtendedWhitespace(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
    throws -> UnsafePointer<UInt8>
  {
    let c = p.pointee
    if c == ._slash && options.allowComments {
      _token = .slash
      return try _scanComment(p + 1, end)
    }
    if options.allowUnicodeNewlines {
      if c == ._verticalTab || c == ._formFeed {
        _otherLineBreak(endingBefore: p + 1)
        return p + 1
      }
      if c == 0xC2 || c == 0xE2 {
        _literalIndex = Int(c)  // the lead byte decides what must follow
        _utf8.length = 1
        _token = .unicodeNewline
        return try _scanUnicodeNewline(p + 1, end)
      }
    }
    if c == ._recordSeparator && options.allowMultipleValues && _stack.isEmpty
      && (_expect == .value || _expect == .afterTopLevel)
    {
      return p + 1
    }
    if c == 0xEF && options.allowByteOrderMark && _offset(p) == 0 {
      _literalIndex = 1
      _token = .byteOrderMark
      return try _scanByteOrderMark(p + 1, end)
    }
    throw _unexpectedByteError(at: p)
  }

  /// Continues a comment from `p` (the `/` that opened it is consumed).
  @inlinable
  mutating func _scanComment(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    var p = start
    if _token == .slash {
      guard p < end else { return end }
      switch p.pointee {
      case ._slash: _token = .lineComment
      case ._asterisk:
        _token = .blockComment
        _commentSawStar = false
      default: throw _commentError(at: p)
      }
      _utf8.need = 0
      p += 1
    }
    while p < end {
      let c = p.pointee
      if _utf8.need > 0 {
        if _utf8.take(c) {
          _continuationBytes &+= 1
          p += 1
          continue
        }
        // An ill-formed sequence inside a comment. Its content is discarded anyway, so
        // loose mode just drops it; strict mode still demands well-formed UTF-8 everywhere.
        if !options.looseUnicode { throw _invalidUTF8Error(at: p) }
        _utf8.need = 0
      }
      if c >= 0x80 {
        if !_utf8.start(c) && !options.looseUnicode { throw _invalidUTF8Error(at: p) }
        _commentSawStar = false
        p += 1
        continue
      }
      if _token == .lineComment {
        if c == ._newline || c == ._return {
          _token = .none  // the line break itself is whitespace, counted by the caller
          return p
        }
      } else {
        if c == ._slash && _commentSawStar {
          _token = .none
          return p + 1
        }
        _commentSawStar = c == ._asterisk
        if c == ._newline || c == ._return { _lineBreak(c, at: p) }
      }
      p += 1
    }
    return end
  }

  /// Continues U+0085 (C2 85), U+2028 (E2 80 A8) or U+2029 (E2 80 A9) as whitespace.
  /// `_literalIndex` holds the lead byte, `_utf8.length` the bytes matched.
  @inlinable
  mutating func _scanUnicodeNewline(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
    throws -> UnsafePointer<UInt8>
  {
    var p = start
    while p < end {
      let c = p.pointee
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
      guard matched else { throw _unexpectedByteError(at: p) }
      _utf8.length &+= 1
      p += 1
      if complete {
        _token = .none
        _otherLineBreak(endingBefore: p)
        return p
      }
    }
    return end
  }

  /// Continues the byte order mark EF BB BF; `_literalIndex` holds the bytes matched.
  @inlinable
  mutating func _scanByteOrderMark(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>)
    throws -> UnsafePointer<UInt8>
  {
    var p = start
    while p < end {
      let expected: UInt8 = _literalIndex == 1 ? 0xBB : 0xBF
      guard p.pointee == expected else { throw _invalidUTF8Error(at: p) }
      _continuationBytes &+= 1
      _literalIndex &+= 1
      p += 1
      if _literalIndex == 3 {
        _token = .none
        return p
      }
    }
    return end
  }
}
