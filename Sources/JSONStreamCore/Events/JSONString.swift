/// A borrowed view of a decoded JSON string or object key: its UTF-8 bytes with every escape
/// sequence resolved.
///
/// The view points into the chunk being parsed, or into the parser's scratch buffer when the
/// string had escapes or spanned chunks, which the producer reuses once the handler call that
/// receives it returns. So the view is noncopyable and handlers borrow it: keeping one (in a
/// property, an array, an escaping closure) does not compile. Copy what you keep, with
/// ``string`` or ``bytes``.
///
/// The bytes are always well-formed UTF-8 (in loose-Unicode mode, ill-formed input has already
/// been replaced by U+FFFD), so converting to `String` never repairs anything.
///
/// ```swift
/// mutating func key(_ key: borrowing JSONString) {
///   if key == "id" { wantNextValue = true }  // compares bytes; no String is made
/// }
/// ```
///
/// A `switch` on the view itself does not compile: literal patterns match through `~=`,
/// which a noncopyable value cannot be passed to. Switch on ``string`` instead (a copy of the
/// bytes, made once for the whole `switch`):
///
/// ```swift
/// mutating func key(_ key: borrowing JSONString) {
///   switch key.string {
///   case "id": field = .id
///   case "name", "title": field = .name
///   default: field = nil
///   }
/// }
/// ```
@frozen
@safe public struct JSONString: ~Copyable {
  /// The decoded UTF-8 bytes. Valid only during the handler call: a pointer kept from here
  /// reads whatever the producer put there next.
  public let utf8: UnsafeBufferPointer<UInt8>

  /// Whether the producer has checked the bytes (the parser, a replayed tree, a Swift
  /// `String`): consumers then skip checking them again. Bytes wrapped by ``init(utf8:)`` are
  /// checked by consumers that must not pass ill-formed UTF-8 on, such as the writer.
  @usableFromInline package let _isWellFormed: Bool

  /// Whether the bytes are known to hold no `"`, `\` or control character — a string the
  /// parser passed straight from its input — so that writing them as JSON is a copy.
  @usableFromInline package let _needsNoEscaping: Bool

  /// The key's entry number in its producer's key table (a binary reader's), or -1. A consumer
  /// that keeps what it made of a key (the tree builder) may look it up by this number, but
  /// must still compare the bytes: nothing ties a number to one producer or one document.
  /// Part of the event, so every handler that passes a key on passes it on.
  @usableFromInline package let _keyTableEntry: Int32

  /// Wraps decoded, well-formed UTF-8 bytes. Producers use this; the bytes must outlive the call.
  @inlinable
  public init(utf8: UnsafeBufferPointer<UInt8>) {
    unsafe self.utf8 = unsafe utf8
    self._isWellFormed = false
    self._needsNoEscaping = false
    self._keyTableEntry = -1
  }

  /// Wraps bytes known to be well-formed UTF-8.
  @inlinable
  package init(_wellFormed utf8: UnsafeBufferPointer<UInt8>) {
    unsafe self.utf8 = unsafe utf8
    self._isWellFormed = true
    self._needsNoEscaping = false
    self._keyTableEntry = -1
  }

  /// Wraps a key known to be well-formed UTF-8 that is entry `keyTableEntry` (0 or more) of
  /// its producer's key table (or a string, with -1), and known to need no escaping in JSON
  /// when `needsNoEscaping`.
  @inlinable
  package init(
    _wellFormed utf8: UnsafeBufferPointer<UInt8>, keyTableEntry: Int,
    needsNoEscaping: Bool = false
  ) {
    unsafe self.utf8 = unsafe utf8
    self._isWellFormed = true
    self._needsNoEscaping = needsNoEscaping
    self._keyTableEntry = Int32(truncatingIfNeeded: keyTableEntry)
  }

  /// Wraps well-formed UTF-8 bytes known to need no escaping in JSON.
  @inlinable
  package init(_wellFormedNeedingNoEscaping utf8: UnsafeBufferPointer<UInt8>) {
    unsafe self.utf8 = unsafe utf8
    self._isWellFormed = true
    self._needsNoEscaping = true
    self._keyTableEntry = -1
  }

  /// The number of UTF-8 bytes.
  @inlinable
  public var count: Int { unsafe utf8.count }

  /// `true` for the empty string.
  @inlinable
  public var isEmpty: Bool { unsafe utf8.isEmpty }

  /// A copy as a Swift `String`.
  @inlinable
  public var string: String {
    unsafe _isWellFormed ? _stringOfWellFormedUTF8(utf8) : String(decoding: utf8, as: UTF8.self)
  }

  /// A copy of the UTF-8 bytes.
  @inlinable
  public var bytes: [UInt8] {
    unsafe Array(utf8)
  }

  /// Compares the bytes with those of `other`, without creating a `String`.
  @inlinable
  public func equals(_ other: String) -> Bool {
    var other = other
    return other.withUTF8 { theirs in
      unsafe theirs.count == utf8.count && _bytesEqual(theirs, utf8)
    }
  }

  /// Compares the bytes with those of a literal, without creating a `String`.
  @inlinable
  public func equals(_ other: StaticString) -> Bool {
    guard other.hasPointerRepresentation else {
      return equals(other.description)
    }
    return unsafe other.utf8CodeUnitCount == utf8.count
      && _bytesEqual(
        UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount), utf8)
  }

  /// `key == "name"`: compares the decoded bytes.
  @inlinable
  public static func == (lhs: borrowing JSONString, rhs: StaticString) -> Bool {
    lhs.equals(rhs)
  }

  /// `key == someString`: compares the decoded bytes.
  @inlinable
  public static func == (lhs: borrowing JSONString, rhs: String) -> Bool {
    lhs.equals(rhs)
  }
}

// Safe ways to make and compare the views, for the layers above: the unsafe part (a pointer
// into a string's or an array's storage, for the length of a call) stays here.

extension JSONString {
  /// The bytes' hash (see `_keyHash`), for tables of keys.
  @inlinable
  package var keyHash: UInt64 { unsafe _keyHash(utf8) }

  /// The first eight bytes as one little-endian word, zero above the last byte of a shorter
  /// string: with ``count``, which key of up to eight bytes this is, in one comparison
  /// (`_prefixWord(of:in:)` makes the same word of stored bytes).
  @inlinable @inline(__always)
  package var prefixWord: UInt64 { unsafe _prefixWord(utf8) }

  /// Whether the bytes are `bytes[range]` (which must be in bounds).
  @inlinable
  package func equals(_ bytes: [UInt8], in range: Range<Int>) -> Bool {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
    guard unsafe range.count == utf8.count else { return false }
    return unsafe bytes.withUnsafeBufferPointer {
      unsafe _bytesEqual(UnsafeBufferPointer(rebasing: $0[range]), utf8)
    }
  }

  /// Calls `body` with `bytes`, which came from a view like this one, as a view: well-formed,
  /// and valid during the call.
  @inlinable
  package static func withWellFormed<R>(
    _ bytes: [UInt8], _ body: (borrowing JSONString) throws -> R
  ) rethrows -> R {
    unsafe try bytes.withUnsafeBufferPointer { unsafe try body(JSONString(_wellFormed: $0)) }
  }
}

extension String {
  /// Calls `body` with the string's UTF-8 as a ``JSONString``, valid during the call: how a
  /// Swift string becomes an event.
  @inlinable
  package mutating func withJSONString<R>(_ body: (borrowing JSONString) throws -> R) rethrows -> R
  {
    try withUTF8 { unsafe try body(JSONString(_wellFormed: $0)) }
  }

  /// Calls `body` with the string as a ``JSONNumber``, valid during the call, when it is JSON
  /// number text (or `NaN`, `Infinity`, `-Infinity`); nil, without calling it, otherwise.
  @inlinable
  package mutating func withJSONNumber<R>(_ body: (borrowing JSONNumber) throws -> R) rethrows
    -> R?
  {
    try withUTF8 { bytes in
      guard let number = unsafe JSONNumber(text: bytes) else { return nil }
      return try body(number)
    }
  }

  /// Calls `body` with the string as a ``JSONNumber``, valid during the call, flagged as its
  /// text is; text that is not a JSON number gets `flagsIfNotNumber` (a non-finite double's
  /// `description`, say, marked non-finite).
  @inlinable
  package mutating func withNumberText<R>(
    flagsIfNotNumber: UInt8, _ body: (borrowing JSONNumber) throws -> R
  ) rethrows -> R {
    try withUTF8 { bytes in
      unsafe try body(
        JSONNumber(_utf8: bytes, flags: _classifyNumberText(bytes) ?? flagsIfNotNumber))
    }
  }

  /// Calls `body` with the `description` of a finite `Double` or `Float` as a ``JSONNumber``,
  /// valid during the call, without its final `.0` (`60`, not `60.0`, as `JSONEncoder` writes
  /// a whole number): the number a parser of the encoder's text would see. Such a description
  /// is JSON number text, and it has a fraction or an exponent unless it ended in `.0`; so
  /// neither is checked.
  @inlinable
  package mutating func withTrimmedFloatingPointText<R>(
    _ body: (borrowing JSONNumber) throws -> R
  ) rethrows -> R {
    try withUTF8 { bytes in
      let count = bytes.count
      if unsafe count > 2 && bytes[count &- 1] == UInt8(ascii: "0")
        && bytes[count &- 2] == UInt8(ascii: ".")
      {
        return unsafe try body(
          JSONNumber(_utf8: UnsafeBufferPointer(rebasing: bytes[..<(count &- 2)]), flags: 0))
      }
      return unsafe try body(JSONNumber(_utf8: bytes, flags: JSONNumber._hasFractionOrExponent))
    }
  }
}

/// Whether two byte strings are equal, by words: eight bytes at a time, the last eight
/// overlapping the ones before; under eight, two overlapping four-byte words, or for one to
/// three bytes the first, middle and last. No byte loop: keys and short strings, what this
/// compares most, took one up to seven rounds for their tails. Always inlined: a call cost as
/// much as the compare.
@inlinable @inline(__always)
package func _bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
  let count = a.count
  guard count == b.count else { return false }
  guard count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
  let ra = unsafe UnsafeRawPointer(pa)
  let rb = unsafe UnsafeRawPointer(pb)
  if count >= 8 {
    if count <= 16 {
      // Most keys: the first eight bytes and the last eight, overlapping.
      return unsafe ra.loadUnaligned(as: UInt64.self) == rb.loadUnaligned(as: UInt64.self)
        && ra.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
          == rb.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    var i = 0
    while i &+ 8 < count {
      if unsafe ra.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      {
        return false
      }
      i &+= 8
    }
    return unsafe ra.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      == rb.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
  }
  if count >= 4 {
    return unsafe ra.loadUnaligned(as: UInt32.self) == rb.loadUnaligned(as: UInt32.self)
      && ra.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        == rb.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
  }
  return unsafe pa[0] == pb[0] && pa[count &>> 1] == pb[count &>> 1]
    && pa[count &- 1] == pb[count &- 1]
}

/// `JSONString.prefixWord` of `bytes`: whole words where the bytes allow, as `_bytesEqual`
/// reads them (no byte loop, nothing read outside `bytes`).
@inlinable @inline(__always)
package func _prefixWord(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
  let count = bytes.count
  guard count > 0, let base = bytes.baseAddress else { return 0 }
  let raw = unsafe UnsafeRawPointer(base)
  if count >= 8 { return unsafe raw.loadUnaligned(as: UInt64.self).littleEndian }
  if count >= 4 {
    // Two four-byte words, the second ending at the last byte; where they overlap they agree.
    let low = unsafe UInt64(raw.loadUnaligned(as: UInt32.self).littleEndian)
    let high = unsafe UInt64(
      raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self).littleEndian)
    return low | high &<< UInt64((count &- 4) &* 8)
  }
  let middle = count &>> 1
  return unsafe UInt64(base[0]) | UInt64(base[middle]) &<< UInt64(middle &* 8)
    | UInt64(base[count &- 1]) &<< UInt64((count &- 1) &* 8)
}

/// `JSONString.prefixWord` of the stored bytes `bytes[range]`.
package func _prefixWord(of bytes: [UInt8], in range: Range<Int>) -> UInt64 {
  var word: UInt64 = 0
  for (shift, byte) in bytes[range].prefix(8).enumerated() {
    word |= UInt64(byte) << UInt64(shift * 8)
  }
  return word
}

extension JSONString {
  /// Appends the string as a JSON string literal, with quotes: `"`, `\` and control characters
  /// escaped (`\n`, `\t`, … or `\u00XX`), everything else as UTF-8.
  @inlinable
  public func appendQuoted(to output: inout [UInt8]) {
    output.append(._quote)
    _ = unsafe _appendEscapedJSONStringContent(
      utf8, to: &output, escapeUnicode: false, escapeSlash: false)
    output.append(._quote)
  }
}
