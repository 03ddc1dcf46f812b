import JSONStreamCore
import JSONStreamValue

/// A compiled JSONPath selection: which values of a document to pick, decided while it streams.
///
/// The subset (RFC 9535 syntax), every part of which can be decided without looking ahead:
///
/// | syntax | selects |
/// | --- | --- |
/// | `$` | the root value |
/// | `.name`, `['name']`, `["name"]` | the member `name` of an object |
/// | `[3]` | element 3 of an array (from 0; negative indexes would need the array's end) |
/// | `[*]`, `.*` | every element of an array, every member value of an object |
/// | `..name`, `..*`, `..[3]`, `..['name']` | the same, at any depth below |
///
/// ```swift
/// let users = try JSONPath("$.statuses[*].user")
/// let names = try JSONPath("$..screen_name")
/// ```
///
/// A value inside a value already selected is part of that value, not a separate match (for
/// `$..a` on `{"a":{"a":1}}`, one match: the outer `a`).
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// One step: what it selects among the children of the current values, and whether it looks
  /// at every depth below them (`..`).
  public struct Step: Sendable, Hashable {
    /// What a step selects among the children of the current values.
    public enum Selector: Sendable, Hashable {
      /// An object member by name (its UTF-8 bytes).
      case name([UInt8])
      /// An array element by position.
      case index(Int)
      /// Every element or member value.
      case wildcard
    }

    /// What the step selects.
    public var selector: Selector
    /// `..`: the selector applies at any depth below, not only to direct children.
    public var isDescendant: Bool

    /// A step selecting `selector`, among direct children or, with `isDescendant`, at any depth
    /// below.
    public init(_ selector: Selector, isDescendant: Bool = false) {
      self.selector = selector
      self.isDescendant = isDescendant
    }
  }

  /// The steps after `$`, in order.
  public let steps: [Step]

  /// The text the path was compiled from.
  public let description: String

  /// Compiles `text`.
  ///
  /// - Throws: ``JSONPathError`` naming the offending character and its offset.
  public init(_ text: String) throws {
    var parser = _JSONPathParser(Array(text.utf8))
    steps = try parser.parse()
    description = text
  }

  /// A path of `steps`.
  public init(steps: [Step]) {
    self.steps = steps
    description = "$" + steps.map(\.description).joined()
  }
}

extension JSONPath.Step: CustomStringConvertible {
  /// The step in bracket notation, `..` first for a descendant step: `["name"]`, `[3]`, `..[*]`.
  public var description: String {
    let prefix = isDescendant ? ".." : ""
    switch selector {
    case .name(let bytes):
      let name = String(decoding: bytes, as: UTF8.self)
      return prefix + "[" + name.jsonStringLiteral() + "]"
    case .index(let index): return prefix + "[\(index)]"
    case .wildcard: return prefix + "[*]"
    }
  }
}

/// A JSONPath expression outside the supported subset, or malformed.
public struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Byte offset in the expression.
  public let offset: Int
  /// What is wrong, e.g. naming the unexpected character.
  public let message: String

  /// `JSONPath, offset N: message`.
  public var description: String { "JSONPath, offset \(offset): \(message)" }
}

/// Recursive descent over the expression's bytes.
struct _JSONPathParser {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  func error(_ message: String) -> JSONPathError {
    JSONPathError(offset: position, message: message)
  }

  func found() -> String {
    guard let byte = current else { return "the end" }
    return byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
  }

  mutating func parse() throws -> [JSONPath.Step] {
    guard current == UInt8(ascii: "$") else {
      throw error("a path starts with '$', found \(found())")
    }
    position += 1
    var steps: [JSONPath.Step] = []
    while let byte = current {
      if byte == UInt8(ascii: ".") {
        position += 1
        if current == UInt8(ascii: ".") {
          position += 1
          if current == UInt8(ascii: "[") {
            steps.append(JSONPath.Step(try bracket(), isDescendant: true))
          } else {
            steps.append(JSONPath.Step(try shorthand(), isDescendant: true))
          }
        } else {
          steps.append(JSONPath.Step(try shorthand()))
        }
      } else if byte == UInt8(ascii: "[") {
        steps.append(JSONPath.Step(try bracket()))
      } else {
        throw error("expected '.', '..' or '[', found \(found())")
      }
    }
    return steps
  }

  /// After `.` or `..`: `*` or a member name (letters, digits, `_`, non-ASCII; not starting
  /// with a digit).
  mutating func shorthand() throws -> JSONPath.Step.Selector {
    if current == UInt8(ascii: "*") {
      position += 1
      return .wildcard
    }
    let start = position
    while let byte = current, isNameByte(byte, first: position == start) { position += 1 }
    guard position > start else {
      throw error("expected a member name or '*', found \(found())")
    }
    return .name(Array(bytes[start..<position]))
  }

  func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"), 0x80...0xFF:
      return true
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return !first
    default: return false
    }
  }

  /// `[…]`: a quoted name, a non-negative index, or `*`.
  mutating func bracket() throws -> JSONPath.Step.Selector {
    position += 1  // [
    let selector: JSONPath.Step.Selector
    switch current ?? 0 {
    case UInt8(ascii: "*"):
      position += 1
      selector = .wildcard
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      selector = .name(try quoted())
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      selector = .index(try index())
    case UInt8(ascii: "-"):
      throw error("negative indexes are not supported: they need the array's end")
    default:
      throw error("expected a quoted name, an index or '*' after '[', found \(found())")
    }
    guard current == UInt8(ascii: "]") else {
      throw error(
        "expected ']', found \(found()) (unions, slices and filters are not supported)")
    }
    position += 1
    return selector
  }

  mutating func index() throws -> Int {
    let start = position
    var value = 0
    while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
      let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = product.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      if overflow1 || overflow2 { throw error("index too large") }
      value = sum
      position += 1
    }
    if position - start > 1 && bytes[start] == UInt8(ascii: "0") {
      position = start
      throw error("an index has no leading zeros")
    }
    return value
  }

  /// A quoted name with JSON-style escapes (and `\'` in single quotes).
  mutating func quoted() throws -> [UInt8] {
    let quote = bytes[position]
    position += 1
    var name: [UInt8] = []
    while true {
      guard let byte = current else { throw error("unterminated quoted name") }
      position += 1
      if byte == quote { return name }
      if byte != UInt8(ascii: "\\") {
        if byte < 0x20 { throw error("a control character in a quoted name must be escaped") }
        name.append(byte)
        continue
      }
      guard let escaped = current else { throw error("unterminated escape") }
      position += 1
      switch escaped {
      case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"):
        name.append(escaped)
      case UInt8(ascii: "b"): name.append(0x08)
      case UInt8(ascii: "f"): name.append(0x0C)
      case UInt8(ascii: "n"): name.append(0x0A)
      case UInt8(ascii: "r"): name.append(0x0D)
      case UInt8(ascii: "t"): name.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if scalar >= 0xD800 && scalar < 0xDC00 {
          guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
            bytes[position + 1] == UInt8(ascii: "u")
          else { throw error("a high surrogate escape without its low half") }
          position += 2
          let low = try hex4()
          guard low >= 0xDC00 && low < 0xE000 else { throw error("an unpaired surrogate escape") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00 && scalar < 0xE000 {
          throw error("an unpaired surrogate escape")
        }
        name.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
      default:
        position -= 1
        throw error("invalid escape \(found())")
      }
    }
  }

  mutating func hex4() throws -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = hexValue(byte) else {
        throw error("expected four hex digits after \\u, found \(found())")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }
}
