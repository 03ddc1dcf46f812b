// Strings and keys.
//
// A string is delivered as a view of the chunk when it has no escapes and ends in the chunk it
// started in: the common case, zero copies. Otherwise its decoded bytes collect in `_scratch`:
// each run of plain bytes is copied once, each escape is decoded into it, and a chunk boundary
// just copies the run seen so far. Escape and UTF-8 validation states survive a boundary in
// `_escape`/`_escapeValue`/`_pendingHighSurrogate` and `_utf8`, so nothing is rescanned.

import JSONStreamCore

extension JSONParser {
  /// A string or key from just past its opening quote (`_stringIsKey` and the token start are
  /// set). Plain ASCII that ends in this chunk — most strings — is delivered right here, with
  /// no call; anything else goes on in `_scanString` from the byte that stopped the run.
  @inlinable @inline(__always)
  mutating func _scanNewString(_ input: _ScanInput, _ start: Int, isKey: Bool) throws -> Int {
    let i = input.skipPlainStringBytes(from: start)
    if input.byte(at: i) == ._quote {
      try _endPlainString(input, start, i, isKey: isKey)
      return i &+ 1
    }
    _tokenInScratch = false
    return try _scanString(input, start, fresh: true, at: i)
  }

  /// The closing quote at `i` of a string whose bytes `start..<i` are all in this chunk and
  /// need no decoding.
  @inlinable @inline(__always)
  mutating func _endPlainString(_ input: _ScanInput, _ start: Int, _ i: Int, isKey: Bool) throws {
    _cursor = _tokenStart
    // Checked inside skipped containers too: every entry point holds strings to one limit.
    if i &- start > options.limits.maxStringLength {
      throw _tokenLimitError(.stringLength)
    }
    if !_skipping {
      // Straight from the input: the scan stopped at no `\` and no control character.
      let view = input.plainString(start, i)
      if isKey {
        try handler.key(view)
      } else {
        try handler.string(view)
      }
    }
    if isKey {
      _expect = .colon
    } else {
      _valueCompleted()
    }
  }

  /// Scans string content from `start` (just past the opening quote when `fresh`, with the
  /// bytes before `scanned` known to be plain).
  @inlinable
  mutating func _scanString(
    _ input: _ScanInput, _ start: Int, fresh: Bool, at scanned: Int? = nil
  ) throws -> Int {
    let end = input.count
    var i = scanned ?? start
    var runStart = start
    if fresh {
      _tokenInScratch = false
    } else {
      // Resuming: finish an escape or a multi-byte character the last chunk ended inside.
      if _escape != 0 {
        i = try _scanEscape(input, i)
        runStart = i
        if _escape != 0 { return end }
      }
      if _utf8.need != 0 {
        i = try _scanMultiByte(input, i, runStart: &runStart)
        if _utf8.need != 0 {
          try _appendToScratch(input, runStart, end)
          return end
        }
      }
    }
    while true {
      if _pendingHighSurrogate != 0, let c = input.byte(at: i), c != ._backslash {
        // A high surrogate escape must be followed by `\u` and its low half.
        try _appendToScratch(input, runStart, i)
        try _unpairedSurrogate(at: _highSurrogateStart)
        runStart = i
      }
      i = input.skipPlainStringBytes(from: i)
      if i == end {
        try _appendToScratch(input, runStart, end)
        _token = .string
        return end
      }
      let c = input[i]
      if c == ._quote {
        try _endString(input, runStart, i)
        return i &+ 1
      } else if c == ._backslash {
        try _appendToScratch(input, runStart, i)
        _escape = 1
        _escapeStart = _offset(i)
        i = try _scanEscape(input, i &+ 1)
        runStart = i
        if _escape != 0 {
          _token = .string
          return end
        }
      } else if c >= 0x80 {
        // Well-formed characters wholly in this chunk (the common case): skipped a run at a
        // time. Anything else (ill-formed, cut off by the chunk, or checked for
        // noncharacters) goes to `_scanMultiByte`.
        if !options.rejectNullAndNoncharacters {
          let run = input.skipWellFormedCharacters(from: i)
          if run.end != i {
            _continuationBytes &+= run.continuationBytes
            i = run.end
            continue
          }
        }
        i = try _scanMultiByte(input, i, runStart: &runStart)
        if _utf8.need != 0 {
          try _appendToScratch(input, runStart, end)
          _token = .string
          return end
        }
      } else {
        throw _stringError(_controlCharacterError(c, at: _offset(i)), unflushed: i &- runStart)
      }
    }
  }

  /// The closing quote at `i`: delivers the string or key.
  @inlinable
  mutating func _endString(_ input: _ScanInput, _ runStart: Int, _ i: Int) throws {
    _token = .none
    guard _tokenInScratch else {
      // All in this chunk and nothing decoded: `runStart` is still the string's start.
      try _endPlainString(input, runStart, i, isKey: _stringIsKey)
      return
    }
    _cursor = _tokenStart
    try _appendToScratch(input, runStart, i)
    if !_skipping {  // inside a skipped container: checked, not delivered
      let isKey = _stringIsKey
      try JSONString.withWellFormed(_scratch) { string in
        if isKey {
          try handler.key(string)
        } else {
          try handler.string(string)
        }
      }
    }
    if _stringIsKey {
      _expect = .colon
    } else {
      _valueCompleted()
    }
  }

  /// Copies `from..<to` of a string (or, with `limit: .numberLength`, of a number) into the
  /// scratch buffer, starting it if this token has none yet; the token's limit is checked.
  @inlinable
  mutating func _appendToScratch(
    _ input: _ScanInput, _ from: Int, _ to: Int, limit: JSONParseLimits.Limit = .stringLength
  ) throws {
    let count = to &- from
    let maximum =
      limit == .numberLength ? options.limits.maxNumberLength : options.limits.maxStringLength
    // A skipped token is not kept, but its length is counted and held to the same limit.
    if _skipping {
      if !_tokenInScratch {
        _skippedTokenLength = 0
        _tokenInScratch = true
      }
      if _skippedTokenLength &+ count > maximum { throw _tokenLimitError(limit) }
      _skippedTokenLength &+= count
      return
    }
    if !_tokenInScratch {
      // After a huge token, its memory goes back rather than staying held for the rest of a
      // long stream.
      if _scratch.capacity > 1 << 20 {
        _scratch = []
      } else {
        _scratch.removeAll(keepingCapacity: true)
      }
      _tokenInScratch = true
    }
    if _scratch.count &+ count > maximum {
      throw _tokenLimitError(limit)
    }
    if count > 0 {
      input.copy(from, to, to: &_scratch)
      _scratchCopied.add(count)
    }
  }

  /// Appends a scalar as UTF-8 (from an escape, or U+FFFD).
  @inlinable
  mutating func _appendScalar(_ scalar: UInt32) {
    if _skipping {
      _skippedTokenLength &+= scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
      return
    }
    if scalar < 0x80 {
      _scratch.append(UInt8(truncatingIfNeeded: scalar))
    } else if scalar < 0x800 {
      _scratch.append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
      _scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    } else if scalar < 0x10000 {
      _scratch.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
      _scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
      _scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    } else {
      _scratch.append(0xF0 | UInt8(truncatingIfNeeded: scalar >> 18))
      _scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
      _scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
      _scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    }
  }

  /// Continues an escape sequence (`_escape` != 0) from `start`; the scratch buffer is active.
  /// Inlined: as a call, escape-heavy strings paid 0.7% more to decode as NDJSON lines.
  @inlinable @inline(__always)
  mutating func _scanEscape(_ input: _ScanInput, _ start: Int) throws -> Int {
    var i = start
    while let c = input.byte(at: i) {
      if _escape == 1 {
        let decoded: UInt8
        switch c {
        case ._quote, ._backslash, ._slash: decoded = c
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
          _escape = 2
          _escapeValue = 0
          i &+= 1
          continue
        default:
          throw _stringError(_invalidEscapeError(c, at: _offset(i)), unflushed: 0)
        }
        if _pendingHighSurrogate != 0 { try _unpairedSurrogate(at: _highSurrogateStart) }
        if _skipping { _skippedTokenLength &+= 1 } else { _scratch.append(decoded) }
        _escape = 0
        return i &+ 1
      }
      let digit: UInt8
      switch c {
      case ._zero ... ._nine: digit = c &- ._zero
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c &- UInt8(ascii: "A") &+ 10
      default: throw _stringError(_invalidUnicodeEscapeError(c, at: _offset(i)), unflushed: 0)
      }
      _escapeValue = _escapeValue << 4 | UInt32(digit)
      _escape &+= 1
      i &+= 1
      if _escape == 6 {
        _escape = 0
        try _codeUnitEscape(_escapeValue)
        return i
      }
    }
    return input.count
  }

  /// A complete `\uXXXX` escape (its `\` at `_escapeStart`): pairs surrogates, checks the
  /// scalar, appends it. Errors point at the `\` of the escape that starts the character.
  @inlinable
  mutating func _codeUnitEscape(_ unit: UInt32) throws {
    if _pendingHighSurrogate != 0 {
      if unit >= 0xDC00 && unit <= 0xDFFF {
        let scalar = 0x10000 &+ ((_pendingHighSurrogate &- 0xD800) << 10) &+ (unit &- 0xDC00)
        _pendingHighSurrogate = 0
        try _appendCheckedScalar(scalar, at: _highSurrogateStart)
        return
      }
      try _unpairedSurrogate(at: _highSurrogateStart)  // then `unit` stands on its own
    }
    if unit >= 0xD800 && unit <= 0xDBFF {
      _pendingHighSurrogate = unit
      _highSurrogateStart = _escapeStart
    } else if unit >= 0xDC00 && unit <= 0xDFFF {
      _pendingHighSurrogate = unit  // reported as the unpaired unit
      try _unpairedSurrogate(at: _escapeStart)
    } else {
      try _appendCheckedScalar(unit, at: _escapeStart)
    }
  }

  /// Appends a scalar decoded from the escape at offset `escape`, applying the NUL/noncharacter
  /// policy.
  @inlinable
  mutating func _appendCheckedScalar(_ scalar: UInt32, at escape: Int) throws {
    if options.rejectNullAndNoncharacters && _isNullOrNoncharacter(scalar) {
      if !options.looseUnicode {
        throw _stringError(_disallowedCharacterError(scalar, offset: escape), unflushed: 0)
      }
      _appendScalar(0xFFFD)
      return
    }
    _appendScalar(scalar)
  }

  /// `_pendingHighSurrogate` has no partner: U+FFFD or an error (at `escape`, the offset of
  /// the unpaired escape's `\`), by the options.
  @inlinable
  mutating func _unpairedSurrogate(at escape: Int) throws {
    if !(options.looseUnicode || options.replaceUnpairedSurrogates) {
      throw _stringError(
        _unpairedSurrogateError(_pendingHighSurrogate, offset: escape), unflushed: 0)
    }
    _pendingHighSurrogate = 0
    _appendScalar(0xFFFD)
  }

  /// Validates a multi-byte UTF-8 character starting at `start` (a byte >= 0x80), or continues
  /// the one in `_utf8`. Returns past the character, or the chunk's end with `_utf8.need` > 0
  /// to continue.
  @inlinable
  mutating func _scanMultiByte(_ input: _ScanInput, _ start: Int, runStart: inout Int) throws
    -> Int
  {
    var i = start
    if _utf8.need == 0 && !options.rejectNullAndNoncharacters {
      // Fast path: a run of well-formed characters that lie wholly in this chunk.
      let run = input.skipWellFormedCharacters(from: i)
      if run.end != i {
        _continuationBytes &+= run.continuationBytes
        return run.end
      }
    }
    if _utf8.need == 0 {
      guard _utf8.start(input[i]) else {
        // Not a lead byte: a maximal ill-formed subpart of one byte.
        if !options.looseUnicode {
          throw _stringError(_invalidUTF8Error(input[i], at: _offset(i)), unflushed: i &- runStart)
        }
        try _appendToScratch(input, runStart, i)
        _appendScalar(0xFFFD)
        runStart = i &+ 1
        return i &+ 1
      }
      i &+= 1
    }
    while _utf8.need > 0 {
      if i == input.count { return i }
      guard _utf8.take(input[i]) else {
        // The sequence so far is a maximal ill-formed subpart; this byte starts afresh.
        if !options.looseUnicode {
          throw _stringError(_invalidUTF8Error(input[i], at: _offset(i)), unflushed: i &- runStart)
        }
        try _replaceIllFormed(input, runStart, i)
        runStart = i
        return i
      }
      _continuationBytes &+= 1
      i &+= 1
    }
    if options.rejectNullAndNoncharacters && _isNullOrNoncharacter(_utf8.scalar) {
      if !options.looseUnicode {
        // The error points at the character's first byte: its continuation bytes, counted as
        // they were read, lie after that point and must not shorten the column.
        _continuationBytes &-= Int(_utf8.length) &- 1
        throw _stringError(
          _disallowedCharacterError(_utf8.scalar, offset: _offset(i &- Int(_utf8.length))),
          unflushed: i &- runStart)
      }
      try _replaceIllFormed(input, runStart, i)
      runStart = i
    }
    return i
  }

  /// Replaces the `_utf8.length` bytes just before `i` (part of the run, or already in
  /// scratch from an earlier chunk) by U+FFFD.
  @inlinable
  mutating func _replaceIllFormed(_ input: _ScanInput, _ runStart: Int, _ i: Int) throws {
    try _appendToScratch(input, runStart, i)
    if _skipping {
      _skippedTokenLength &-= Int(_utf8.length)
    } else {
      _scratch.removeLast(Int(_utf8.length))
    }
    _utf8.need = 0
    _appendScalar(0xFFFD)
  }
}
