// The parser's entry points that take raw bytes: they only wrap them in a `_ScanInput`, the
// checked view the scanner reads (see ScanInput.swift in JSONStreamCore).

import JSONStreamCore

extension JSONParser {
  /// Feeds the next chunk of input and delivers the events of every token it completes.
  ///
  /// - Returns: ``JSONParseStatus/needsMoreInput`` normally; ``JSONParseStatus/stopped`` once
  ///   the handler's ``JSONEventHandler/isDone`` is set; ``JSONParseStatus/finished`` once the
  ///   value is complete under ``JSONParseOptions/allowTrailingText``. The parser ignores input
  ///   fed after it has stopped or finished.
  /// - Throws: ``JSONParseError`` for bad input, or the handler's error.
  @inlinable
  @discardableResult
  public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> JSONParseStatus {
    unsafe try feed(_ScanInput(bytes))
  }

  /// Feeds any contiguous bytes: `[UInt8]`, `ArraySlice<UInt8>`, `String.UTF8View`,
  /// `UnsafeBufferPointer<UInt8>`… (other sequences are copied into an array first).
  @inlinable
  @discardableResult
  public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws -> JSONParseStatus
  where Bytes.Element == UInt8 {
    try _ScanInput.with(contentsOf: bytes) { try feed($0) }
  }
}
