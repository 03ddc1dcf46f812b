// Numbers and literals.
//
// The scanner checks the number grammar and nothing else: conversions happen later, on demand,
// in JSONNumber. A number is delivered as a view of the chunk, or from scratch when it spans
// chunks. A number only ends at a byte that cannot continue it, so one at the very end of a chunk
// always waits in scratch for the next chunk or `finish()`.

import JSONStreamCore

extension JSONParser {
  /// The end of a well-formed number starting at `start` that is followed, inside this chunk,
  /// by a byte that cannot continue it; nil when it runs to the chunk's end or breaks the
  /// grammar (the state machine below then takes over, and reports errors).
  /// `flags` gets JSONNumber's flags for it.
  @inlinable @inline(__always)
  static func _wellFormedNumberEnd(
    _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, flags: inout UInt8
  ) -> UnsafePointer<UInt8>? {
    var p = start
    if p.pointee == ._minus {
      p += 1
      guard p < end else { return nil }
    }
    if p.pointee == ._zero {
      p += 1
    } else if p.pointee._isDigit {
      p = _skipDigits(p + 1, end)
    } else {
      return nil
    }
    guard p < end else { return nil }
    if p.pointee == ._period {
      flags = JSONNumber._hasFractionOrExponent
      p += 1
      let digits = p
      p = _skipDigits(p, end)
      guard p > digits, p < end else { return nil }
    }
    if p.pointee == ._lowerE || p.pointee == ._upperE {
      flags = JSONNumber._hasFractionOrExponent
      p += 1
      if p < end && (p.pointee == ._plus || p.pointee == ._minus) { p += 1 }
      let digits = p
      p = _skipDigits(p, end)
      guard p > digits, p < end else { return nil }
    }
    // A digit right after a leading zero ("01") is an error for the state machine to report.
    return p.pointee._isDigit ? nil : p
  }

  /// A number starting at `start`: straight through when it is well-formed and ends inside
  /// this chunk (the common case), else by the resumable state machine.
  @inlinable @inline(__always)
  mutating func _scanNewNumber(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    var flags: UInt8 = 0
    if let numberEnd = Self._wellFormedNumberEnd(start, end, flags: &flags) {
      let count = numberEnd - start
      _cursor = _tokenStart
      if !_skipping {
        if count > options.limits.maxNumberLength { try _throwTokenLimitError(.numberLength) }
        try handler.number(
          JSONNumber(
            _utf8: UnsafeBufferPointer(start: start, count: count),
            flags: flags))
      } else if count > options.limits.maxNumberLength {
        try _throwTokenLimitError(.numberLength)  // skipped, and held to the same limit
      }
      _valueCompleted()
      return numberEnd
    }
    _numberState = .start
    _tokenInScratch = false
    return try _scanNumber(start, end)
  }

  /// Scans number text from `start`, in `_numberState`.
  @inlinable
  mutating func _scanNumber(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) throws
    -> UnsafePointer<UInt8>
  {
    var p = start
    var state = _numberState
    scan: while p < end {
      let c = p.pointee
      switch state {
      case .start:
        state = c == ._minus ? .afterMinus : (c == ._zero ? .afterLeadingZero : .integer)
      case .afterMinus:
        if c == ._zero {
          state = .afterLeadingZero
        } else if c._isDigit {
          state = .integer
        } else if c == UInt8(ascii: "I") && options.allowNonFiniteNumbers {
          // `-Infinity`: the `-` is matched already (perhaps in the previous chunk).
          _literal = .negativeInfinity
          _literalIndex = 1
          return try _scanLiteral(p, end)
        } else {
          throw _numberTextError(_numberError(state, at: p), unflushed: p - start)
        }
      case .afterLeadingZero:
        if c == ._period {
          state = .afterPoint
        } else if c == ._lowerE || c == ._upperE {
          state = .afterE
        } else if c._isDigit {
          throw _numberTextError(_numberError(state, at: p), unflushed: p - start)
        } else {
          break scan
        }
      case .integer:
        while p < end && p.pointee._isDigit { p += 1 }
        if p == end { break scan }
        let d = p.pointee
        if d == ._period {
          state = .afterPoint
        } else if d == ._lowerE || d == ._upperE {
          state = .afterE
        } else {
          break scan
        }
      case .afterPoint:
        guard c._isDigit else {
          throw _numberTextError(_numberError(state, at: p), unflushed: p - start)
        }
        state = .fraction
      case .fraction:
        while p < end && p.pointee._isDigit { p += 1 }
        if p == end { break scan }
        let d = p.pointee
        if d == ._lowerE || d == ._upperE {
          state = .afterE
        } else {
          break scan
        }
      case .afterE:
        if c == ._plus || c == ._minus {
          state = .afterExponentSign
        } else if c._isDigit {
          state = .exponent
        } else {
          throw _numberTextError(_numberError(state, at: p), unflushed: p - start)
        }
      case .afterExponentSign:
        guard c._isDigit else {
          throw _numberTextError(_numberError(state, at: p), unflushed: p - start)
        }
        state = .exponent
      case .exponent:
        while p < end && p.pointee._isDigit { p += 1 }
        break scan
      }
      p += 1
    }
    _numberState = state
    let tokenStart = start
    if p == end {
      // The number may go on in the next chunk.
      try _appendToScratch(tokenStart, end, limit: .numberLength)
      _token = .number
      return end
    }
    _token = .none
    if _tokenInScratch {
      try _appendToScratch(tokenStart, p, limit: .numberLength)
      _cursor = _tokenStart
      if !_skipping { try _emitScratchNumber() }
    } else {
      let count = p - tokenStart
      if count > options.limits.maxNumberLength { throw _tokenLimitError(.numberLength) }
      _cursor = _tokenStart
      if !_skipping {
        try handler.number(
          JSONNumber(
            _utf8: UnsafeBufferPointer(start: tokenStart, count: count), flags: state._flags))
      }
    }
    _valueCompleted()
    return p
  }

  /// Delivers the number text collected in scratch.
  @inlinable
  mutating func _emitScratchNumber() throws {
    _token = .none
    let bytes = _scratch
    let flags = _numberState._flags
    try bytes.withUnsafeBufferPointer { buffer in
      try handler.number(JSONNumber(_utf8: buffer, flags: flags))
    }
  }

  /// A literal from its first byte: `true`, `false` and `null` whole in this chunk are one
  /// comparison of four bytes (and one more for `false`); the rest are matched byte by byte.
  @inlinable @inline(__always)
  mutating func _startLiteral(
    _ literal: _Literal, _ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
  ) throws -> UnsafePointer<UInt8> {
    if end - p >= 5 {
      let word = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self).littleEndian
      var length = 0
      switch literal {
      case .true where word == 0x6575_7274: length = 4  // "true"
      case .null where word == 0x6C6C_756E: length = 4  // "null"
      case .false where word == 0x736C_6166 && p[4] == UInt8(ascii: "e"): length = 5
      default: break
      }
      if length > 0 {
        _cursor = _offset(p + length)
        if !_skipping {
          switch literal {
          case .true: try handler.bool(true)
          case .false: try handler.bool(false)
          default: try handler.null()
          }
        }
        _valueCompleted()
        return p + length
      }
    }
    _literal = literal
    _literalIndex = 0
    return try _scanLiteral(p, end)
  }

  /// Matches the rest of `_literal` from `start`; `_literalIndex` bytes are matched already.
  @inlinable
  mutating func _scanLiteral(
    _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
  ) throws -> UnsafePointer<UInt8> {
    let text = _literal.text
    let count = text.utf8CodeUnitCount
    var p = start
    var index = _literalIndex
    while index < count {
      if p == end {
        _literalIndex = index
        _token = .literal
        return end
      }
      guard p.pointee == text.utf8Start[index] else { throw _literalError(at: p) }
      index &+= 1
      p += 1
    }
    _token = .none
    _cursor = _offset(p)
    if _skipping {
      _valueCompleted()
      return p
    }
    switch _literal {
    case .true: try handler.bool(true)
    case .false: try handler.bool(false)
    case .null: try handler.null()
    case .nan, .infinity, .negativeInfinity:
      try handler.number(
        JSONNumber(
          _utf8: UnsafeBufferPointer(start: text.utf8Start, count: count),
          flags: JSONNumber._nonFinite))
    }
    _valueCompleted()
    return p
  }
}
