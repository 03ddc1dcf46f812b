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
  mutating func _scanNewString(
    _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, isKey: Bool
  ) throws -> UnsafePointer<UInt8> {
    let p = _skipPlainStringBytes(start, end)
    if p < end && p.pointee == ._quote {
      try _endPlainString(start, p, isKey: isKey)
      return p + 1
    }
    _tokenInScratch = false
    return try _scanString(start, end, fresh: true, at: p)
  }

  /// The closing quote at `p` of a string whose bytes `[start, p)` are all in this chunk and
  /// need no decoding.
  @inlinable @inline(__always)
  mutating func _endPlainString(
    _ start: UnsafePointer<UInt8>, _ p: UnsafePointer<UInt8>, isKey: Bool
  ) throws {
    _cursor = _tokenStart
    // Checked inside skipped containers too: every entry point holds strings to one limit.
    if p - start > options.limits.maxStringLength {
      throw _tokenLimitError(.stringLength)
    }
    if !_skipping {
      let count = p - start
      // Straight from the input: the scan stopped at no `\` and no control character.
      let view = JSONString(
        _wellFormedNeedingNoEscaping: UnsafeBufferPointer(start: start, count: count))
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
    _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, fresh: Bool,
    at scanned: UnsafePointer<UInt8>? = nil
  ) throws -> UnsafePointer<UInt8> {
    var p = scanned ?? start
    var runStart = start
    if fresh {
      _tokenInScratch = false
    } else {
      // Resuming: finish an escape or a multi-byte character the last chunk ended inside.
      if _escape != 0 {
        p = try _scanEscape(p, end)
        runStart = p
        if _escape != 0 { return end }
      }
      if _utf8.need != 0 {
        p = try _scanMultiByte(p, end, runStart: &runStart)
        if _utf8.need != 0 {
          try _appendToScratch(runStart, end)
          return end
        }
      }
    }
    while true {
      if _pendingHighSurrogate != 0 && p < end && p.pointee != ._backslash {
        // A high surrogate escape must be followed by `\u` and its low half.
        try _appendToScratch(runStart, p)
        try _unpairedSurrogate(at: _highSurrogateStart)
        runStart = p
      }
      p = _skipPlainStringBytes(p, end)
      if p == end {
        try _appendToScratch(runStart, end)
        _token = .string
        return end
      }
      let c = p.pointee
      if c == ._quote {
        try _endString(runStart, p)
        return p + 1
      } else if c == ._backslash {
        try _appendToScratch(runStart, p)
        _escape = 1
        _escapeStart = _offset(p)
        p = try _scanEscape(p + 1, end)
        runStart = p
        if _escape != 0 {
          _token = .string
          return end
        }
      } else if c >= 0x80 {
        // Well-formed characters wholly in this chunk (the common case): skipped a run at a
        // time. Anything else (ill-formed, cut off by the chunk, or checked for
        // noncharacters) goes to `_scanMultiByte`.
        if !options.rejectNullAndNoncharacters {
          let run = _skipWellFormedCharacters(p, end)
          if run.end != p {
            _continuationBytes &+= run.continuationBytes
            p = run.end
            continue
          }
        }
        p = try _scanMultiByte(p, end, runStart: &runStart)
        if _utf8.need != 0 {
          try _appendToScratch(runStart, end)
          _token = .string
          return end
        }
      } else {
        throw _stringError(_controlCharacterError(at: p), unflushed: p - runStart)
      }
    }
  }

  /// The closing quote at `p`: delivers the string or key.
  @inlinable
  mutating func _endString(_ runStart: UnsafePointer<UInt8>, _ p: UnsafePointer<UInt8>) throws {
    _token = .none
    guard _tokenInScratch else {
      // All in this chunk and nothing decoded: `runStart` is still the string's start.
      try _endPlainString(runStart, p, isKey: _stringIsKey)
      return
    }
    _cursor = _tokenStart
    try _appendToScratch(runStart, p)
    if !_skipping {  // inside a skipped container: checked, not delivered
      let bytes = _scratch
      let isKey = _stringIsKey
      try bytes.withUnsafeBufferPointer { buffer in
        if isKey {
          try handler.key(JSONString(_wellFormed: buffer))
        } else {
          try handler.string(JSONString(_wellFormed: buffer))
        }
      }
    }
    if _stringIsKey {
      _expect = .colon
    } else {
      _valueCompleted()
    }
  }

  /// Copies `[from, to)` of a string (or, with `limit: .numberLength`, of a number) into the
  /// scratch buffer, starting it if this token has none yet; the token's limit is checked.
  @inlinable
  mutating func _appendToScratch(
    _ from: UnsafePointer<UInt8>, _ to: UnsafePointer<UInt8>,
    limit: JSONParseLimits.Limit = .stringLength
  ) throws {
    let count = to - from
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
      _scratch.append(contentsOf: UnsafeBufferPointer(start: from, count: count))
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
  mutating func _scanEscape(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    var p = start
    while p < end {
      let c = p.pointee
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
          p += 1
          continue
        default:
          throw _stringError(_invalidEscapeError(at: p), unflushed: 0)
        }
        if _pendingHighSurrogate != 0 { try _unpairedSurrogate(at: _highSurrogateStart) }
        if _skipping { _skippedTokenLength &+= 1 } else { _scratch.append(decoded) }
        _escape = 0
        return p + 1
      }
      let digit: UInt8
      switch c {
      case ._zero ... ._nine: digit = c &- ._zero
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c &- UInt8(ascii: "A") &+ 10
      default: throw _stringError(_invalidUnicodeEscapeError(at: p), unflushed: 0)
      }
      _escapeValue = _escapeValue << 4 | UInt32(digit)
      _escape &+= 1
      p += 1
      if _escape == 6 {
        _escape = 0
        try _codeUnitEscape(_escapeValue)
        return p
      }
    }
    return end
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

  /// Validates a multi-byte UTF-8 character starting at `p` (a byte >= 0x80), or continues the
  /// one in `_utf8`. Returns past the character, or `end` with `_utf8.need` > 0 to continue.
  @inlinable
  mutating func _scanMultiByte(
    _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
    runStart: inout UnsafePointer<UInt8>
  ) throws -> UnsafePointer<UInt8> {
    var p = start
    if _utf8.need == 0 && !options.rejectNullAndNoncharacters {
      // Fast path: a run of well-formed characters that lie wholly in this chunk.
      let run = _skipWellFormedCharacters(p, end)
      if run.end != p {
        _continuationBytes &+= run.continuationBytes
        return run.end
      }
    }
    if _utf8.need == 0 {
      guard _utf8.start(p.pointee) else {
        // Not a lead byte: a maximal ill-formed subpart of one byte.
        if !options.looseUnicode {
          throw _stringError(_invalidUTF8Error(at: p), unflushed: p - runStart)
        }
        try _appendToScratch(runStart, p)
        _appendScalar(0xFFFD)
        runStart = p + 1
        return p + 1
      }
      p += 1
    }
    while _utf8.need > 0 {
      if p == end { return end }
      guard _utf8.take(p.pointee) else {
        // The sequence so far is a maximal ill-formed subpart; this byte starts afresh.
        if !options.looseUnicode {
          throw _stringError(_invalidUTF8Error(at: p), unflushed: p - runStart)
        }
        try _replaceIllFormed(runStart, p)
        runStart = p
        return p
      }
      _continuationBytes &+= 1
      p += 1
    }
    if options.rejectNullAndNoncharacters && _isNullOrNoncharacter(_utf8.scalar) {
      if !options.looseUnicode {
        // The error points at the character's first byte: its continuation bytes, counted as
        // they were read, lie after that point and must not shorten the column.
        _continuationBytes &-= Int(_utf8.length) &- 1
        throw _stringError(
          _disallowedCharacterError(_utf8.scalar, offset: _offset(p - Int(_utf8.length))),
          unflushed: p - runStart)
      }
      try _replaceIllFormed(runStart, p)
      runStart = p
    }
    return p
  }

  /// Replaces the `_utf8.length` bytes just before `p` (part of the run, or already in
  /// scratch from an earlier chunk) by U+FFFD.
  @inlinable
  mutating func _replaceIllFormed(_ runStart: UnsafePointer<UInt8>, _ p: UnsafePointer<UInt8>)
    throws
  {
    try _appendToScratch(runStart, p)
    if _skipping {
      _skippedTokenLength &-= Int(_utf8.length)
    } else {
      _scratch.removeLast(Int(_utf8.length))
    }
    _utf8.need = 0
    _appendScalar(0xFFFD)
  }
}
