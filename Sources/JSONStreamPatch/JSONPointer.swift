// RFC 6901 JSON Pointer: `/a/b~1c/0` addresses a value in a document by its keys and indexes.

import JSONStreamCore
import JSONStreamValue

/// A location in a JSON document, as RFC 6901 writes it: `""` is the whole document, `/a/0/b`
/// the member `b` of the first element of the member `a`.
///
/// ```swift
/// let pointer = try JSONPointer("/users/0/e~1mail")
/// pointer.tokens                 // ["users", "0", "e/mail"]
/// pointer.parent                 // /users/0
/// pointer.appending("x")         // /users/0/e~1mail/x
/// let same: JSONPointer = "/users/0/e~1mail"
/// document[pointer: same]        // the value there, or nil
/// ```
///
/// A token is a key for an object and an index for an array: `0`, or a decimal number without
/// leading zeros; `-` stands for the position past the last element (only where a value is
/// added). Tokens compare by their UTF-8 bytes, as keys do: a precomposed `é` and `e` with a
/// combining accent are different tokens, and ``==(_:_:)`` says so.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
  /// The reference tokens, unescaped (`~1` is `/`, `~0` is `~`), outermost first. The root has
  /// none.
  public private(set) var tokens: [String]

  /// The pointer made of `tokens`, unescaped (a token may hold `/` and `~`).
  public init(tokens: some Sequence<String>) {
    self.tokens = Array(tokens)
  }

  /// Parses a pointer's text: empty (the root), or `/` before each token, in which `~0` stands
  /// for `~` and `~1` for `/`.
  ///
  /// - Throws: ``JSONPatchError`` of kind ``JSONPatchError/Kind/invalidPointer(offset:)`` with
  ///   the byte offset of the fault: text that does not start with `/`, a `~` not followed by
  ///   `0` or `1`.
  public init(_ text: String) throws(JSONPatchError) {
    var tokens: [String] = []
    let bytes = Array(text.utf8)
    if !bytes.isEmpty && bytes[0] != UInt8(ascii: "/") {
      throw JSONPatchError.invalidPointer(
        text, offset: 0, "a JSON Pointer is empty or starts with '/'")
    }
    var token: [UInt8] = []
    var index = 1
    while index <= bytes.count {
      if index == bytes.count || bytes[index] == UInt8(ascii: "/") {
        tokens.append(String(decoding: token, as: UTF8.self))
        token.removeAll(keepingCapacity: true)
      } else if bytes[index] == UInt8(ascii: "~") {
        let next = index + 1 < bytes.count ? bytes[index + 1] : nil
        switch next {
        case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
        default:
          throw JSONPatchError.invalidPointer(
            text, offset: index, "'~' is followed by '0' or '1' in a JSON Pointer")
        }
        index += 1
      } else {
        token.append(bytes[index])
      }
      index += 1
    }
    self.tokens = tokens
  }

  /// The whole document: `""`.
  public static var root: JSONPointer { JSONPointer(tokens: []) }

  /// `true` for the pointer to the whole document.
  public var isRoot: Bool { tokens.isEmpty }

  /// The pointer to the container of this location; nil for the root.
  public var parent: JSONPointer? {
    isRoot ? nil : JSONPointer(tokens: tokens.dropLast())
  }

  /// The last token: the key or index of this location in its container; nil for the root.
  public var lastToken: String? { tokens.last }

  /// This pointer with `token` added at its end (unescaped: `"a/b"` is one token).
  public func appending(_ token: String) -> JSONPointer {
    var result = self
    result.tokens.append(token)
    return result
  }

  /// This pointer with an array index added at its end.
  public func appending(_ index: Int) -> JSONPointer {
    appending(String(index))
  }

  /// `true` when this pointer starts with all of `prefix`'s tokens (a pointer is its own
  /// prefix; the root is everyone's). Tokens compare by their UTF-8 bytes.
  public func hasPrefix(_ prefix: JSONPointer) -> Bool {
    guard prefix.tokens.count <= tokens.count else { return false }
    for (token, other) in zip(tokens, prefix.tokens) where !token.utf8.elementsEqual(other.utf8) {
      return false
    }
    return true
  }

  /// The pointer's text, with `~` written `~0` and `/` written `~1`: what ``init(_:)`` reads.
  public var description: String {
    var bytes: [UInt8] = []
    for token in tokens {
      bytes.append(UInt8(ascii: "/"))
      for byte in token.utf8 {
        switch byte {
        case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
        case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
        default: bytes.append(byte)
        }
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether both have the same tokens, compared by their UTF-8 bytes.
  public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
    lhs.tokens.count == rhs.tokens.count && lhs.hasPrefix(rhs)
  }

  /// Hashes the tokens' UTF-8 bytes, consistent with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(tokens.count)
    for token in tokens {
      hasher.combine(token.utf8.count)
      for byte in token.utf8 { hasher.combine(byte) }
    }
  }
}

extension JSONPointer: ExpressibleByStringLiteral {
  /// A pointer from its text in a literal, which must be valid (see ``init(_:)``).
  public init(stringLiteral text: String) {
    do {
      try self.init(text)
    } catch {
      preconditionFailure("invalid JSON Pointer literal: \(error)")
    }
  }
}

/// How a reference token addresses an array's elements.
package enum _ArrayToken: Equatable {
  /// An index: `0`, or decimal digits without a leading zero, that fit an `Int`.
  case index(Int)
  /// `-`: the position past the last element.
  case end
  /// Anything else: no element.
  case invalid

  package init(_ token: String) {
    let bytes = token.utf8
    if bytes.elementsEqual("-".utf8) {
      self = .end
      return
    }
    guard let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
      first != UInt8(ascii: "0") || bytes.count == 1
    else {
      self = .invalid
      return
    }
    guard bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      self = .invalid
      return
    }
    var value = 0
    for byte in bytes {
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
      // Too large for any array, but an index all the same: past the end of every one.
      guard !overflow, !overflowSum else {
        self = .index(Int.max)
        return
      }
      value = sum
    }
    self = .index(value)
  }

  /// Whether the token may address an element: an index or `-`.
  package var mayAddressElement: Bool { self != .invalid }
}
