import Foundation
import JSONStream

extension JSONFoundation {
  /// Walks a Foundation tree and delivers it to `handler` as events, as if it had been parsed:
  /// the inverse of ``JSONFoundationBuilder``, for writers, validators and any other
  /// ``JSONStream/JSONEventHandler``.
  ///
  /// ```swift
  /// var recorder = MyHandler()
  /// try JSONFoundation.replay(["id": 7, "tags": ["a", "b"]], into: &recorder, sortedKeys: true)
  /// ```
  ///
  /// Accepted, as `JSONSerialization` accepts them: `NSDictionary` and Swift dictionaries with
  /// string keys; `NSArray` and Swift arrays; `NSString` and `String`; `NSNumber` (a boolean one
  /// as `true`/`false`, an `NSDecimalNumber` as its digits); `NSNull` and `nil`; the Swift
  /// integer types, `Double`, `Float`, `CGFloat`, `Bool` and `Decimal`. Integers are delivered as
  /// their decimal text, floating-point numbers as their shortest round-trip text (`0.1`, `5.0`,
  /// `1e-07`), strings as their UTF-8 bytes.
  ///
  /// The walk is iterative (an explicit stack, however deep the tree), and stops early when the
  /// handler's ``JSONStream/JSONEventHandler/isDone`` becomes `true`.
  ///
  /// - Parameters:
  ///   - object: the Foundation tree (or a single scalar).
  ///   - handler: the handler the events go to.
  ///   - sortedKeys: deliver each dictionary's members sorted by the UTF-8 bytes of their keys
  ///     (which is Unicode code point order); otherwise in the dictionary's enumeration order.
  /// - Throws: ``JSONFoundationError`` with a ``JSONFoundationError/path`` for a non-string key,
  ///   an object with no JSON form (`Date`, `Data`, …), NaN or an infinity, or a container that
  ///   contains itself; or the handler's error. Events before the error have been delivered.
  public static func replay<Handler: JSONEventHandler>(
    _ object: Any, into handler: inout Handler, sortedKeys: Bool = false
  ) throws {
    var walker = Walker(sortedKeys: sortedKeys)
    handler.beginEventRun()
    defer { handler.endEventRun() }
    try walker.run(object, into: &handler)
  }
}

/// The state of one replay: the open containers, innermost last.
private struct Walker {
  let sortedKeys: Bool
  var frames: [Frame] = []
  /// The `NSArray`s and `NSDictionary`s being walked, to catch a tree that contains itself.
  var open: Set<ObjectIdentifier> = []
  let trueNumber = NSNumber(value: true)
  let falseNumber = NSNumber(value: false)

  struct Frame {
    /// Keys of an object's members; empty for an array.
    var keys: [String]
    var values: [Any]
    /// The next member to deliver.
    var index = 0
    var isObject: Bool
    /// The object identity of a Foundation container, for the cycle check.
    var identity: ObjectIdentifier?
  }

  /// What a value is, once unwrapped.
  enum Value {
    case container(Frame)
    case string(String)
    case number(String)
    case bool(Bool)
    case null
  }

  init(sortedKeys: Bool) {
    self.sortedKeys = sortedKeys
  }

  mutating func run<Handler: JSONEventHandler>(_ root: Any, into handler: inout Handler) throws {
    if try deliver(root, into: &handler) { return }
    while !frames.isEmpty {
      let last = frames.count - 1
      let index = frames[last].index
      if index == frames[last].values.count {
        let frame = frames.removeLast()
        if let identity = frame.identity { open.remove(identity) }
        if frame.isObject { try handler.endObject() } else { try handler.endArray() }
        if handler.isDone { return }
        continue
      }
      frames[last].index = index + 1
      let value = frames[last].values[index]
      if frames[last].isObject {
        var key = frames[last].keys[index]
        try key.withJSONString { try handler.key($0) }
        if handler.isDone { return }
      }
      if try deliver(value, into: &handler) { return }
    }
  }

  /// Delivers a scalar, or the start of a container (pushing its frame). Returns `isDone`.
  private mutating func deliver<Handler: JSONEventHandler>(
    _ value: Any, into handler: inout Handler
  ) throws -> Bool {
    switch try classify(value) {
    case .container(let frame):
      if let identity = frame.identity {
        guard open.insert(identity).inserted else {
          throw error(.cyclicReference, "a container that contains itself")
        }
      }
      frames.append(frame)
      if frame.isObject { try handler.startObject() } else { try handler.startArray() }
    case .string(var string):
      try string.withJSONString { try handler.string($0) }
    case .number(var text):
      let isNumber = try text.withJSONNumber { try handler.number($0) } != nil
      if !isNumber {
        throw error(.unsupportedType, "a number whose text \(text) is not a JSON number")
      }
    case .bool(let bool):
      try handler.bool(bool)
    case .null:
      try handler.null()
    }
    return handler.isDone
  }

  // MARK: Classifying values

  private func classify(_ value: Any) throws -> Value {
    let type = type(of: value)
    // Exact metatype checks first: `as?` casts would bridge (a Swift `Int` casts to `NSNumber`,
    // an `NSNumber` to `Bool`), and bridging whole containers is a copy.
    if type == String.self { return .string(value as! String) }
    if type is NSNumber.Type { return try number(value as! NSNumber) }
    if type is NSString.Type { return .string(String(value as! NSString)) }
    if type is NSNull.Type { return .null }
    if type is NSDictionary.Type { return .container(try frame(for: value as! NSDictionary)) }
    if type is NSArray.Type { return .container(frame(for: value as! NSArray)) }
    if type == Bool.self { return .bool(value as! Bool) }
    if type == Double.self { return .number(try text(of: value as! Double)) }
    if type == Int.self { return .number(String(value as! Int)) }
    if let array = value as? [Any] {
      return .container(Frame(keys: [], values: array, isObject: false))
    }
    if let dictionary = value as? [String: Any] {
      return .container(frame(forPairs: dictionary.map { ($0.key, $0.value) }))
    }
    if let dictionary = value as? [AnyHashable: Any] {
      var members: [(String, Any)] = []
      members.reserveCapacity(dictionary.count)
      for (key, member) in dictionary {
        guard let key = key.base as? String else { throw nonStringKey(key.base) }
        members.append((key, member))
      }
      return .container(frame(forPairs: members))
    }
    if let integer = value as? any BinaryInteger { return .number("\(integer)") }
    if type == Float.self {
      let float = value as! Float
      guard float.isFinite else { throw nonFinite(float.description) }
      return .number(float.description)
    }
    if type == Decimal.self { return .number(try text(of: value as! Decimal)) }
    if type == CGFloat.self { return .number(try text(of: Double(value as! CGFloat))) }
    if let optional = value as? any _OptionalValue {
      guard let wrapped = optional._wrappedValue else { return .null }
      return try classify(wrapped)
    }
    throw error(
      .unsupportedType,
      "a value of type \(type), which has no JSON form (JSONSerialization accepts dictionaries, "
        + "arrays, strings, numbers, booleans and NSNull)")
  }

  private func number(_ number: NSNumber) throws -> Value {
    // The boolean NSNumbers are the two kCFBoolean singletons.
    if number === trueNumber { return .bool(true) }
    if number === falseNumber { return .bool(false) }
    if let decimal = number as? NSDecimalNumber {
      return .number(try text(of: decimal.decimalValue))
    }
    switch FoundationNumbers.typeCode(of: number) {
    case UInt8(ascii: "f"):
      let float = number.floatValue
      guard float.isFinite else { throw nonFinite(float.description) }
      return .number(float.description)
    case UInt8(ascii: "d"):
      return .number(try text(of: number.doubleValue))
    case UInt8(ascii: "Q"), UInt8(ascii: "L"):
      return .number(String(number.uint64Value))
    default:
      return .number(String(number.int64Value))
    }
  }

  private func text(of double: Double) throws -> String {
    guard double.isFinite else { throw nonFinite(double.description) }
    // The shortest text that reads back as the same Double; always JSON number syntax for
    // finite values (`0.1`, `5.0`, `1e-07`, `1e+22`, `-0.0`).
    return double.description
  }

  private func text(of decimal: Decimal) throws -> String {
    guard !decimal.isNaN else { throw nonFinite("NaN") }
    return decimal.description
  }

  // MARK: Containers

  private func frame(for array: NSArray) -> Frame {
    // A Mirror gives the stored elements as they are. `object(at:)` (and every enumerator) on
    // swift-corelibs-foundation converts a nested NSArray or NSDictionary into a Swift
    // container, recursively, for every access: a deep copy per level.
    var values = Mirror(reflecting: array).children.map(\.value)
    if values.count != array.count {
      values = (0..<array.count).map { array.object(at: $0) }
    }
    return Frame(keys: [], values: values, isObject: false, identity: ObjectIdentifier(array))
  }

  private func frame(for dictionary: NSDictionary) throws -> Frame {
    var pairs: [(key: Any, value: Any)] = []
    pairs.reserveCapacity(dictionary.count)
    for child in Mirror(reflecting: dictionary).children {
      guard let pair = child.value as? (key: NSObject, value: AnyObject) else { break }
      pairs.append((pair.key, pair.value))
    }
    if pairs.count != dictionary.count {
      pairs = dictionary.allKeys.map { ($0, dictionary.object(forKey: $0)!) }
    }
    var members: [(String, Any)] = []
    members.reserveCapacity(pairs.count)
    for (key, value) in pairs {
      guard let key = key as? String else { throw nonStringKey(key) }
      members.append((key, value))
    }
    var frame = self.frame(forPairs: members)
    frame.identity = ObjectIdentifier(dictionary)
    return frame
  }

  private func frame(forPairs members: [(String, Any)]) -> Frame {
    var members = members
    if sortedKeys {
      members.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
    }
    return Frame(keys: members.map(\.0), values: members.map(\.1), isObject: true)
  }

  // MARK: Errors

  private func nonStringKey(_ key: Any) -> JSONFoundationError {
    error(.nonStringKey, "a dictionary key of type \(type(of: key)) (JSON object keys are strings)")
  }

  private func nonFinite(_ text: String) -> JSONFoundationError {
    error(.nonFiniteNumber, "the number \(text), which JSON cannot express")
  }

  /// An error at the value being classified: the last delivered member of each open container.
  private func error(_ kind: JSONFoundationError.Kind, _ message: String) -> JSONFoundationError {
    var path = "$"
    for frame in frames {
      let index = frame.index - 1
      if frame.isObject {
        path += "[\(frame.keys[index].debugDescription)]"
      } else {
        path += "[\(index)]"
      }
    }
    return JSONFoundationError(kind: kind, message: message, path: path)
  }
}

/// Unwraps an `Optional` held in an `Any` (the elements of `[Any?]`).
private protocol _OptionalValue {
  var _wrappedValue: Any? { get }
}

extension Optional: _OptionalValue {
  fileprivate var _wrappedValue: Any? { self.map { $0 as Any } }
}
