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
  static func _wellFormedNumberEnd(_ input: _ScanInput, _ start: Int, flags: inout UInt8)
    -> Int?
  {
    // Each byte is read where its position is tested: `c` is the byte at `i`.
    var i = start
    var c = input[i]
    if c == ._minus {
      i &+= 1
      guard let next = input.byte(at: i) else { return nil }
      c = next
    }
    if c == ._zero {
      i &+= 1
    } else if c._isDigit {
      i = input.skipDigits(from: i &+ 1)
    } else {
      return nil
    }
    guard let next = input.byte(at: i) else { return nil }
    c = next
    if c == ._period {
      flags = JSONNumber._hasFractionOrExponent
      i &+= 1
      let digits = i
      i = input.skipDigits(from: i)
      guard i > digits, let next = input.byte(at: i) else { return nil }
      c = next
    }
    if c == ._lowerE || c == ._upperE {
      flags = JSONNumber._hasFractionOrExponent
      i &+= 1
      if let sign = input.byte(at: i), sign == ._plus || sign == ._minus { i &+= 1 }
      let digits = i
      i = input.skipDigits(from: i)
      guard i > digits, let next = input.byte(at: i) else { return nil }
      c = next
    }
    // A digit right after a leading zero ("01") is an error for the state machine to report.
    return c._isDigit ? nil : i
  }

  /// A number starting at `start`: straight through when it is well-formed and ends inside
  /// this chunk (the common case), else by the resumable state machine.
  @inlinable @inline(__always)
  mutating func _scanNewNumber(_ input: _ScanInput, _ start: Int) throws -> Int {
    var flags: UInt8 = 0
    if let numberEnd = Self._wellFormedNumberEnd(input, start, flags: &flags) {
      let count = numberEnd &- start
      _cursor = _tokenStart
      if !_skipping {
        if count > options.limits.maxNumberLength { try _throwTokenLimitError(.numberLength) }
        try handler.number(input.number(start, numberEnd, flags: flags))
      } else if count > options.limits.maxNumberLength {
        try _throwTokenLimitError(.numberLength)  // skipped, and held to the same limit
      }
      _valueCompleted()
      return numberEnd
    }
    _numberState = .start
    _tokenInScratch = false
    return try _scanNumber(input, start)
  }

  /// Scans number text from `start`, in `_numberState`.
  @inlinable
  mutating func _scanNumber(_ input: _ScanInput, _ start: Int) throws -> Int {
    let end = input.count
    var i = start
    var state = _numberState
    scan: while let c = input.byte(at: i) {
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
          return try _scanLiteral(input, i)
        } else {
          throw _numberTextError(_numberError(state, c, at: _offset(i)), unflushed: i &- start)
        }
      case .afterLeadingZero:
        if c == ._period {
          state = .afterPoint
        } else if c == ._lowerE || c == ._upperE {
          state = .afterE
        } else if c._isDigit {
          throw _numberTextError(_numberError(state, c, at: _offset(i)), unflushed: i &- start)
        } else {
          break scan
        }
      case .integer:
        while let d = input.byte(at: i), d._isDigit { i &+= 1 }
        guard let d = input.byte(at: i) else { break scan }
        if d == ._period {
          state = .afterPoint
        } else if d == ._lowerE || d == ._upperE {
          state = .afterE
        } else {
          break scan
        }
      case .afterPoint:
        guard c._isDigit else {
          throw _numberTextError(_numberError(state, c, at: _offset(i)), unflushed: i &- start)
        }
        state = .fraction
      case .fraction:
        while let d = input.byte(at: i), d._isDigit { i &+= 1 }
        guard let d = input.byte(at: i) else { break scan }
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
          throw _numberTextError(_numberError(state, c, at: _offset(i)), unflushed: i &- start)
        }
      case .afterExponentSign:
        guard c._isDigit else {
          throw _numberTextError(_numberError(state, c, at: _offset(i)), unflushed: i &- start)
        }
        state = .exponent
      case .exponent:
        while let d = input.byte(at: i), d._isDigit { i &+= 1 }
        break scan
      }
      i &+= 1
    }
    _numberState = state
    if i == end {
      // The number may go on in the next chunk.
      try _appendToScratch(input, start, end, limit: .numberLength)
      _token = .number
      return end
    }
    _token = .none
    if _tokenInScratch {
      try _appendToScratch(input, start, i, limit: .numberLength)
      _cursor = _tokenStart
      if !_skipping { try _emitScratchNumber() }
    } else {
      let count = i &- start
      if count > options.limits.maxNumberLength { throw _tokenLimitError(.numberLength) }
      _cursor = _tokenStart
      if !_skipping {
        try handler.number(input.number(start, i, flags: state._flags))
      }
    }
    _valueCompleted()
    return i
  }

  /// Delivers the number text collected in scratch.
  @inlinable
  mutating func _emitScratchNumber() throws {
    _token = .none
    try JSONNumber.withText(_scratch, flags: _numberState._flags) { number in
      try handler.number(number)
    }
  }

  /// A literal from its first byte: `true`, `false` and `null` whole in this chunk are one
  /// comparison of four bytes (and one more for `false`); the rest are matched byte by byte.
  @inlinable @inline(__always)
  mutating func _startLiteral(_ literal: _Literal, _ input: _ScanInput, _ i: Int) throws -> Int {
    if input.contains(i, length: 5) {
      let word = input.loadUInt32(at: i)
      var length = 0
      switch literal {
      case .true where word == 0x6575_7274: length = 4  // "true"
      case .null where word == 0x6C6C_756E: length = 4  // "null"
      case .false where word == 0x736C_6166 && input[i &+ 4] == UInt8(ascii: "e"): length = 5
      default: break
      }
      if length > 0 {
        _cursor = _offset(i &+ length)
        if !_skipping {
          switch literal {
          case .true: try handler.bool(true)
          case .false: try handler.bool(false)
          default: try handler.null()
          }
        }
        _valueCompleted()
        return i &+ length
      }
    }
    _literal = literal
    _literalIndex = 0
    return try _scanLiteral(input, i)
  }

  /// Matches the rest of `_literal` from `start`; `_literalIndex` bytes are matched already.
  @inlinable
  mutating func _scanLiteral(_ input: _ScanInput, _ start: Int) throws -> Int {
    let text = _literal.utf8
    var i = start
    var index = _literalIndex
    while index < text.count {
      if i == input.count {
        _literalIndex = index
        _token = .literal
        return i
      }
      guard input[i] == text[index] else { throw _literalError(input[i], at: _offset(i)) }
      index &+= 1
      i &+= 1
    }
    _token = .none
    _cursor = _offset(i)
    if _skipping {
      _valueCompleted()
      return i
    }
    switch _literal {
    case .true: try handler.bool(true)
    case .false: try handler.bool(false)
    case .null: try handler.null()
    case .nan, .infinity, .negativeInfinity:
      try JSONNumber.withText(text, flags: JSONNumber._nonFinite) { number in
        try handler.number(number)
      }
    }
    _valueCompleted()
    return i
  }
}
