import Foundation
import JSONStream

/// The `NSNumber` that `JSONSerialization` makes for a number, on this platform.
///
/// swift-corelibs-foundation (Linux, Windows) decides from the number's text:
/// 1. an integer (no `.`, no `e`) becomes an `Int64` `NSNumber` when negative and at most 19
///    characters long, or a `UInt64` one when non-negative and at most 20 characters long,
///    provided it fits;
/// 2. otherwise, text longer than 17 characters before its `e` (sign and point included), with
///    an exponent in -128...127, becomes an `NSDecimalNumber` if `Decimal` holds it;
/// 3. otherwise a finite `Double` `NSNumber`; beyond that range, an error.
///
/// Its quirks are kept on purpose, so that trees compare equal (`isEqual`) to
/// `JSONSerialization`'s: an `NSDecimalNumber` never equals a `Double` `NSNumber`, and
/// `-65.613616999999977` (18 characters) is a decimal there. Only a lowercase `e` counts as the
/// exponent marker in rule 2, as there.
enum FoundationNumbers {
  /// The first character of the number's Objective-C type encoding: `d` for a `Double`, `Q`
  /// for a `UInt64`, and so on.
  static func typeCode(of number: NSNumber) -> UInt8 {
    unsafe UInt8(truncatingIfNeeded: number.objCType.pointee)
  }

  static func number(_ number: borrowing JSONNumber) -> NSNumber? {
    let text = unsafe number.utf8
    if number.isNonFinite {
      // Only with JSONParseOptions.allowNonFiniteNumbers: JSONSerialization has no such input.
      return NSNumber(value: number.double)
    }
    if number.isIntegerLiteral {
      if number.isNegative {
        if text.count <= 19, let value = number.int64 { return NSNumber(value: value) }
      } else if text.count <= 20, let value = number.uint64 {
        return NSNumber(value: value)
      }
    }
    if text.count > 17 {
      var significandLength = text.count
      var exponent = 0
      if let e = unsafe text.firstIndex(of: UInt8(ascii: "e")) {
        significandLength = e
        exponent = unsafe parseExponent(UnsafeBufferPointer(rebasing: text[(e + 1)...])) ?? 0
      }
      if significandLength > 17 && exponent >= -128 && exponent <= 127,
        let decimal = unsafe decimal(text), decimal.isFinite
      {
        return NSDecimalNumber(decimal: decimal)
      }
    }
    let double = number.double
    return double.isFinite ? NSNumber(value: double) : nil
  }

  /// `Decimal(string:)` for JSON number text. Numbers whose significant digits fit in `UInt64`
  /// are built from their digits, which gives the identical `Decimal` several times faster;
  /// the rest (and zero, whose exponent `Decimal(string:)` keeps) go through the string parser.
  static func decimal(_ text: UnsafeBufferPointer<UInt8>) -> Decimal? {
    if let (negative, significand, exponent) = unsafe JSONNumber(text: text)?.decimalComponents,
      significand != 0,
      exponent >= -100 && exponent <= 100
    {
      return Decimal(
        sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(significand))
    }
    return unsafe Decimal(string: String(decoding: text, as: UTF8.self))
  }

  /// `Int(text)`: an optional sign and digits; nil on overflow.
  private static func parseExponent(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    var negative = false
    if unsafe i < text.count && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) {
      negative = unsafe text[i] == UInt8(ascii: "-")
      i += 1
    }
    var value = 0
    while i < text.count {
      let digit = unsafe Int(text[i] &- UInt8(ascii: "0"))
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) =
        negative
        ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = sum
      i += 1
    }
    return value
  }
}
