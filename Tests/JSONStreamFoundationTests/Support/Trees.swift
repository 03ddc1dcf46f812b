import Foundation
import JSONStream
import JSONStreamFoundation
import JSONStreamTestSupport
import Testing

/// A Foundation tree reduced to what JSON and JSONSerialization distinguish: the kind of every
/// number (boolean, integer, unsigned, double, decimal) as well as its value. Built from the
/// stored objects (not through `object(at:)`, which converts nested containers on Linux).
indirect enum Node: Equatable, CustomStringConvertible {
  case object([String: Node])
  case array([Node])
  case string(String)
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case double(UInt64)  // the bit pattern, so that -0.0 and NaN compare exactly
  case decimal(String)
  case null

  var description: String {
    switch self {
    case .object(let members):
      return "{"
        + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription): \($0.value)" }
        .joined(separator: ", ") + "}"
    case .array(let elements):
      return "[" + elements.map(\.description).joined(separator: ", ") + "]"
    case .string(let s): return s.debugDescription
    case .bool(let b): return "\(b)"
    case .integer(let i): return "int(\(i))"
    case .unsigned(let u): return "uint(\(u))"
    case .double(let bits): return "double(\(Double(bitPattern: bits)))"
    case .decimal(let d): return "decimal(\(d))"
    case .null: return "null"
    }
  }

  init(_ value: Any) {
    let type = type(of: value)
    if type is NSDictionary.Type {
      var members: [String: Node] = [:]
      for (key, value) in Node.storedPairs(value as! NSDictionary) {
        members[key as! String] = Node(value)
      }
      self = .object(members)
    } else if type is NSArray.Type {
      self = .array(Node.storedElements(value as! NSArray).map(Node.init))
    } else if let dictionary = value as? [String: Any] {
      self = .object(dictionary.mapValues(Node.init))
    } else if let array = value as? [Any] {
      self = .array(array.map(Node.init))
    } else if type is NSNumber.Type {
      let number = value as! NSNumber
      if number === NSNumber(value: true) {
        self = .bool(true)
      } else if number === NSNumber(value: false) {
        self = .bool(false)
      } else if let decimal = number as? NSDecimalNumber {
        self = .decimal(decimal.description)
      } else {
        switch UInt8(truncatingIfNeeded: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
          self = .double(number.doubleValue.bitPattern)
        case UInt8(ascii: "Q"):
          self = .unsigned(number.uint64Value)
        default:
          self = .integer(number.int64Value)
        }
      }
    } else if type is NSNull.Type {
      self = .null
    } else if let string = value as? String {
      self = .string(string)
    } else {
      fatalError("not a JSONSerialization value: \(type)")
    }
  }

  /// Where two trees first differ, as a path and both values; nil when they are equal. Keeps
  /// failure messages short for big documents.
  func difference(from other: Node, at path: String = "$") -> String? {
    switch (self, other) {
    case (.object(let a), .object(let b)):
      for key in Set(a.keys).union(b.keys).sorted() {
        guard let x = a[key], let y = b[key] else {
          return "\(path): key \(key.debugDescription) only on one side"
        }
        if let difference = x.difference(from: y, at: path + "[\(key.debugDescription)]") {
          return difference
        }
      }
      return nil
    case (.array(let a), .array(let b)):
      guard a.count == b.count else { return "\(path): \(a.count) vs \(b.count) elements" }
      for (index, (x, y)) in zip(a, b).enumerated() {
        if let difference = x.difference(from: y, at: path + "[\(index)]") { return difference }
      }
      return nil
    default:
      return self == other ? nil : "\(path): \(self) vs \(other)"
    }
  }

  /// The elements an `NSArray` stores, without conversion.
  static func storedElements(_ array: NSArray) -> [Any] {
    let elements = Mirror(reflecting: array).children.map(\.value)
    precondition(elements.count == array.count)
    return elements
  }

  /// The members an `NSDictionary` stores, without conversion.
  static func storedPairs(_ dictionary: NSDictionary) -> [(key: Any, value: Any)] {
    let pairs = Mirror(reflecting: dictionary).children.map {
      let pair = $0.value as! (key: NSObject, value: AnyObject)
      return (key: pair.key as Any, value: pair.value as Any)
    }
    precondition(pairs.count == dictionary.count)
    return pairs
  }
}

/// Every container and string value of a tree, as stored.
func storedObjects(_ root: Any) -> (containers: [Any], strings: [Any], keys: [Any]) {
  var containers: [Any] = []
  var strings: [Any] = []
  var keys: [Any] = []
  var stack = [root]
  while let value = stack.popLast() {
    if type(of: value) is NSDictionary.Type {
      containers.append(value)
      for (key, member) in Node.storedPairs(value as! NSDictionary) {
        keys.append(key)
        stack.append(member)
      }
    } else if type(of: value) is NSArray.Type {
      containers.append(value)
      stack.append(contentsOf: Node.storedElements(value as! NSArray))
    } else if type(of: value) is NSString.Type {
      strings.append(value)
    }
  }
  return (containers, strings, keys)
}

/// The class or type of every value of a tree, containers spelled out (`{key:String}`,
/// `[NSNumber]`), keys sorted: what two trees must share to be "the same kind of tree".
func typeTree(_ value: Any) -> String {
  if type(of: value) == [String: Any].self {
    let members = (value as! [String: Any]).sorted { $0.key < $1.key }
    return "{" + members.map { "\($0.key):\(typeTree($0.value))" }.joined(separator: ",") + "}"
  }
  if type(of: value) == [Any].self {
    return "[" + (value as! [Any]).map(typeTree).joined(separator: ",") + "]"
  }
  return "\(type(of: value))"
}

/// JSONSerialization's tree for `text`.
func serializationTree(_ text: String, fragments: Bool = false) throws -> Any {
  try JSONSerialization.jsonObject(
    with: Data(text.utf8), options: fragments ? [.fragmentsAllowed] : [])
}

/// Our tree for `text`.
func ourTree(
  _ text: String, options: JSONFoundationReadingOptions = [],
  parseOptions: JSONParseOptions = JSONParseOptions()
) throws -> Any {
  try JSONFoundation.object(with: Array(text.utf8), options: options, parseOptions: parseOptions)
}

/// `isEqual` both ways. On swift-corelibs-foundation, JSONSerialization returns Swift
/// containers, and `NSDictionary.isEqual(_:)` given a Swift dictionary compares a boolean
/// member wrongly (it sees `true` as a Swift `Bool` on one side and as an `NSNumber` on the
/// other); bridging the Swift side to Foundation first compares like with like.
func foundationEqual(_ ours: Any, _ theirs: Any) -> Bool {
  (ours as! NSObject).isEqual(theirs as! NSObject) && (theirs as! NSObject).isEqual(ours)
}

/// Whether `value` is the boolean `NSNumber` for `bool` (one of two singletons).
func isBooleanNumber(_ value: Any, _ bool: Bool) -> Bool {
  let object = value as AnyObject
  return object === NSNumber(value: bool)
}

/// Expects two trees to be equal as JSONSerialization sees them (number kinds included),
/// reporting the first difference.
func expectSameTree(
  _ ours: Any, _ theirs: Any, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let difference = Node(ours).difference(from: Node(theirs))
  #expect(difference == nil, comment, sourceLocation: sourceLocation)
}
