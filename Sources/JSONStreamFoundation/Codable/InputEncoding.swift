import JSONStream

/// The Unicode encoding of a document given to the decoder, found as Foundation's decoder
/// finds it: from a byte order mark, else from where the zero bytes are among the first four
/// (the first two characters of JSON text are ASCII, so UTF-16 and UTF-32 show zeros there and
/// UTF-8 never does).
enum _InputEncoding: Equatable {
  case utf8
  case utf16BigEndian
  case utf16LittleEndian
  case utf32BigEndian
  case utf32LittleEndian

  /// The encoding of `input`, and the length of its byte order mark (0 when it has none).
  static func detect(_ input: _ScanInput) -> (_InputEncoding, byteOrderMark: Int) {
    let b0 = input.byte(at: 0)
    let b1 = input.byte(at: 1)
    let b2 = input.byte(at: 2)
    let b3 = input.byte(at: 3)
    switch (b0, b1, b2, b3) {
    case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
    case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
    case (0xFF, 0xFE, 0x00, 0x00): return (.utf32LittleEndian, 4)
    case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
    case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
    case (0x00, 0x00, 0x00, .some): return (.utf32BigEndian, 0)
    case (.some(let first), 0x00, 0x00, 0x00) where first != 0: return (.utf32LittleEndian, 0)
    case (0x00, .some(let second), _, _) where second != 0: return (.utf16BigEndian, 0)
    case (.some(let first), 0x00, _, _) where first != 0: return (.utf16LittleEndian, 0)
    default: return (.utf8, 0)
    }
  }

  /// The bytes of `input` from `start` on, in this encoding (not UTF-8), as UTF-8.
  ///
  /// - Throws: a ``JSONStream/JSONParseError`` of kind `invalidUTF8` at the first code unit that is
  ///   not well-formed (a lone surrogate, a value above U+10FFFF, a last unit cut short), with its
  ///   byte offset in the input and its line and column.
  func utf8(of input: _ScanInput, from start: Int) throws -> [UInt8] {
    let unitSize = self == .utf16BigEndian || self == .utf16LittleEndian ? 2 : 4
    var utf8: [UInt8] = []
    utf8.reserveCapacity(input.count - start)
    var position = start
    var line = 1
    var column = 1
    func failure(_ message: String) -> JSONParseError {
      JSONParseError(
        kind: .invalidUTF8, offset: position, line: line, column: column, message: message)
    }
    while position < input.count {
      guard let unit = unit(of: input, at: position, size: unitSize) else {
        throw failure("the input ends inside a \(unitSize)-byte code unit")
      }
      var scalar: Unicode.Scalar?
      var length = unitSize
      if unitSize == 4 {
        scalar = Unicode.Scalar(unit)
      } else if UTF16.isLeadSurrogate(UInt16(unit)) {
        if let trail = self.unit(of: input, at: position + 2, size: 2),
          UTF16.isTrailSurrogate(UInt16(trail))
        {
          scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00))
          length = 4
        }
      } else {
        scalar = Unicode.Scalar(unit)
      }
      guard let scalar else {
        throw failure(
          "ill-formed \(unitSize == 2 ? "UTF-16" : "UTF-32"): no character is encoded as 0x"
            + String(unit, radix: 16, uppercase: true))
      }
      UTF8.encode(scalar) { utf8.append($0) }
      // Lines end at `\n`, `\r` or `\r\n`, as the parser counts them.
      if scalar == "\n" && utf8.count >= 2 && utf8[utf8.count - 2] == UInt8(ascii: "\r") {
        // The `\r` before it ended the line.
      } else if scalar == "\n" || scalar == "\r" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      position += length
    }
    return utf8
  }

  /// The byte offset in `input` (text in this encoding from `start` on) of the character
  /// that starts at `utf8Offset` in its UTF-8 form (the input's end for the form's end).
  func inputOffset(ofUTF8 utf8Offset: Int, in input: _ScanInput, from start: Int) -> Int {
    let unitSize = self == .utf16BigEndian || self == .utf16LittleEndian ? 2 : 4
    var position = start
    var converted = 0
    while converted < utf8Offset, let unit = unit(of: input, at: position, size: unitSize) {
      if unitSize == 2 && UTF16.isLeadSurrogate(UInt16(unit)) {
        converted += 4
        position += 4
      } else {
        converted += unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit < 0x10000 ? 3 : 4
        position += unitSize
      }
    }
    return Swift.min(position, input.count)
  }

  /// The code unit of `size` bytes at `position`, in this encoding's byte order; nil when the
  /// input ends first.
  private func unit(of input: _ScanInput, at position: Int, size: Int) -> UInt32? {
    guard position >= 0, position + size <= input.count else { return nil }
    var unit: UInt32 = 0
    let bigEndian = self == .utf16BigEndian || self == .utf32BigEndian
    for index in 0..<size {
      let byte = UInt32(input.byte(at: bigEndian ? position + index : position + size - 1 - index)!)
      unit = unit << 8 | byte
    }
    return unit
  }
}
