import Foundation
import JSONStream

/// A ``JSONStream/JSONEventHandler`` that builds the tree
/// `JSONSerialization.jsonObject(with:options:)` returns. On swift-corelibs-foundation (Linux) that
/// is `[String: Any]`, `[Any]`, `String`, `NSNumber` and `NSNull`; with `.mutableContainers`,
/// `NSMutableDictionary` and `NSMutableArray` (keys `NSString`); with `.mutableLeaves`,
/// `NSMutableString` values.
///
/// ```swift
/// var parser = JSONParser(handler: JSONFoundationBuilder(options: [.mutableContainers]))
/// for chunk in chunks { try parser.feed(chunk) }
/// try parser.finish()
/// let tree = parser.handler.value as! NSMutableDictionary
/// ```
///
/// The tree follows `JSONSerialization` on the platform it runs on:
/// - `true` and `false` are the `NSNumber` booleans (`kCFBooleanTrue`/`kCFBooleanFalse`): they
///   write back as `true`/`false` and are distinct from `1`/`0`.
/// - Integers that fit in `Int64` (negative) or `UInt64` (non-negative) are integer `NSNumber`s;
///   numbers with many digits become `NSDecimalNumber`s where `JSONSerialization` makes them so;
///   other numbers are `Double` `NSNumber`s; a number beyond `Double`'s range (`1e400`) is an
///   error, as it is for `JSONSerialization`.
/// - `NaN`, `Infinity` and `-Infinity` (accepted only with
///   ``JSONStream/JSONParseOptions/allowNonFiniteNumbers``; `JSONSerialization` never reads them)
///   become `Double` `NSNumber`s.
/// - Duplicate keys: the last value wins. The dictionaries of a document share one key object
///   (an `NSString`, or a long `String`'s storage) per recurring key.
/// - On swift-corelibs-foundation, reading a member (`object(at:)`, subscripts, enumeration)
///   converts a nested container or string into a Swift `Array`, `Dictionary` or `String`: a
///   copy. The stored objects are the mutable ones asked for (reachable as stored through
///   `NSDictionary.allValues`, for example), as with `JSONSerialization`'s own mutable trees.
///
/// The builder keeps open containers on an explicit stack, so nesting depth is bounded by the
/// parser's ``JSONStream/JSONParseLimits/maxDepth``, not by the call stack. Reuse it with
/// ``reset()``.
public struct JSONFoundationBuilder: JSONEventHandler {
  /// The kind of objects made.
  public let options: JSONFoundationReadingOptions

  /// Every complete top-level value, in order: one for a JSON document, several with
  /// ``JSONStream/JSONParseOptions/allowMultipleValues``.
  public private(set) var values: [Any] = []

  /// The top-level value (the first one, when there are several); `nil` until it is complete.
  public var value: Any? { values.first }

  // Values and keys of the open containers, innermost last; an object's values pair with its
  // keys. Mutable containers are built from objects, the others from Swift values.
  private var objectStack: [AnyObject] = []
  private var objectKeys: [NSObject] = []
  private var valueStack: [Any] = []
  private var stringKeys: [String] = []
  /// The open containers, innermost last.
  private var frames: [Frame] = []
  private var objectKeyCache = KeyCache<NSString> { NSString(string: $0) }
  private var stringKeyCache = KeyCache<String> { $0 }

  private let mutableContainers: Bool
  private let mutableLeaves: Bool
  private let fragmentsAllowed: Bool
  private let trueNumber = NSNumber(value: true)
  private let falseNumber = NSNumber(value: false)
  private let nullObject = NSNull()

  private struct Frame {
    var isObject: Bool
    /// Where the container's values and keys start on the stacks.
    var valueStart: Int
    var keyStart: Int
  }

  /// A builder making the kind of objects `options` asks for.
  public init(options: JSONFoundationReadingOptions = []) {
    self.options = options
    mutableContainers = options.contains(.mutableContainers)
    mutableLeaves = options.contains(.mutableLeaves)
    fragmentsAllowed = options.contains(.fragmentsAllowed)
  }

  /// Forgets every value and any partly built one, to build again with the same options.
  public mutating func reset() {
    values.removeAll()
    objectStack.removeAll(keepingCapacity: true)
    objectKeys.removeAll(keepingCapacity: true)
    valueStack.removeAll(keepingCapacity: true)
    stringKeys.removeAll(keepingCapacity: true)
    frames.removeAll(keepingCapacity: true)
  }

  /// Returns the complete top-level values and forgets them, keeping any value still being
  /// built: for a stream of values (NDJSON), take them as they arrive.
  public mutating func takeValues() -> [Any] {
    defer { values.removeAll() }
    return values
  }

  // MARK: Events

  /// Opens a dictionary.
  public mutating func startObject() {
    frames.append(Frame(isObject: true, valueStart: stackCount, keyStart: keyCount))
  }

  /// Closes the innermost open dictionary (mutable with
  /// ``JSONFoundationReadingOptions/mutableContainers``); a repeated key keeps its last value.
  public mutating func endObject() {
    let frame = frames.removeLast()
    let count = stackCount - frame.valueStart
    if mutableContainers {
      let dictionary: NSMutableDictionary
      if count == 0 {
        dictionary = NSMutableDictionary()
      } else {
        dictionary = NSMutableDictionary._of(
          objectStack, from: frame.valueStart, keys: objectKeys, from: frame.keyStart, count: count)
        objectStack.removeLast(count)
        objectKeys.removeLast(count)
      }
      append(dictionary)
    } else {
      var dictionary: [String: Any] = Dictionary(minimumCapacity: count)
      for offset in 0..<count {
        // In order, so a duplicate key's last value wins.
        dictionary[stringKeys[frame.keyStart + offset]] = valueStack[frame.valueStart + offset]
      }
      valueStack.removeLast(count)
      stringKeys.removeLast(count)
      append(dictionary)
    }
  }

  /// Opens an array.
  public mutating func startArray() {
    frames.append(Frame(isObject: false, valueStart: stackCount, keyStart: keyCount))
  }

  /// Closes the innermost open array (mutable with
  /// ``JSONFoundationReadingOptions/mutableContainers``).
  public mutating func endArray() {
    let frame = frames.removeLast()
    let count = stackCount - frame.valueStart
    if mutableContainers {
      let array: NSMutableArray
      if count == 0 {
        array = NSMutableArray()
      } else {
        array = NSMutableArray._of(objectStack, from: frame.valueStart)
        objectStack.removeLast(count)
      }
      append(array)
    } else {
      let array = Array(valueStack[frame.valueStart...])
      valueStack.removeLast(count)
      append(array)
    }
  }

  /// Adds the key of the next member of the innermost open dictionary.
  public mutating func key(_ key: borrowing JSONString) {
    if mutableContainers {
      objectKeys.append(objectKeyCache.key(for: key))
    } else {
      stringKeys.append(stringKeyCache.key(for: key))
    }
  }

  /// Adds the string (`NSMutableString` with ``JSONFoundationReadingOptions/mutableLeaves``).
  /// Throws ``JSONFoundationError`` for a top-level string without
  /// ``JSONFoundationReadingOptions/fragmentsAllowed``.
  public mutating func string(_ value: borrowing JSONString) throws {
    if frames.isEmpty { try checkFragment("string") }
    let string = value.string
    if mutableLeaves {
      append(NSMutableString(string: string))
    } else if mutableContainers {
      append(NSString(string: string))
    } else {
      append(string)
    }
  }

  /// Adds the number as an `NSNumber` or `NSDecimalNumber`. Throws ``JSONFoundationError`` for a
  /// number no Foundation type can hold, or a top-level one without
  /// ``JSONFoundationReadingOptions/fragmentsAllowed``.
  public mutating func number(_ value: borrowing JSONNumber) throws {
    if frames.isEmpty { try checkFragment("number") }
    guard let number = FoundationNumbers.number(value) else {
      throw JSONFoundationError(
        kind: .numberNotRepresentable,
        message: "the number \(value.text) is beyond the range of every Foundation number type")
    }
    append(number)
  }

  /// Adds the Boolean as an `NSNumber` boolean. Throws ``JSONFoundationError`` for a top-level one
  /// without ``JSONFoundationReadingOptions/fragmentsAllowed``.
  public mutating func bool(_ value: Bool) throws {
    if frames.isEmpty { try checkFragment("boolean") }
    append(value ? trueNumber : falseNumber)
  }

  /// Adds `NSNull`. Throws ``JSONFoundationError`` for a top-level `null` without
  /// ``JSONFoundationReadingOptions/fragmentsAllowed``.
  public mutating func null() throws {
    if frames.isEmpty { try checkFragment("null") }
    append(nullObject)
  }

  // MARK: Helpers

  private var stackCount: Int { mutableContainers ? objectStack.count : valueStack.count }
  private var keyCount: Int { mutableContainers ? objectKeys.count : stringKeys.count }

  /// A complete value: into the innermost container, or a top-level value.
  private mutating func append(_ value: Any) {
    if frames.isEmpty {
      values.append(value)
    } else if mutableContainers {
      objectStack.append(value as AnyObject)
    } else {
      valueStack.append(value)
    }
  }

  private func checkFragment(_ what: String) throws {
    guard fragmentsAllowed else {
      throw JSONFoundationError(
        kind: .fragmentNotAllowed,
        message: "a top-level \(what) is not allowed without .fragmentsAllowed "
          + "(the JSON text must be an object or an array)")
    }
  }
}
