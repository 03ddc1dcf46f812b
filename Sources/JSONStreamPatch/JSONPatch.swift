// RFC 6902 JSON Patch: the patch document, read from JSON and written back.

import JSONStreamCore
import JSONStreamParser
import JSONStreamValue

/// A JSON Patch (RFC 6902): operations applied in order to a document, all or nothing.
///
/// ```swift
/// let patch = try JSONPatch(parsing: """
///   [{"op": "test", "path": "/version", "value": 3},
///    {"op": "replace", "path": "/version", "value": 4},
///    {"op": "add", "path": "/tags/-", "value": "migrated"}]
///   """)
/// try document.apply(patch)            // or: let patched = try document.applying(patch)
///
/// let inCode: JSONPatch = [.remove(path: "/draft"), .add(path: "/done", value: true)]
/// ```
///
/// Applying is atomic: when an operation fails, ``JSONPatchError`` says which and why, and the
/// document is as it was.
public struct JSONPatch: Sendable, Hashable {
  /// One operation of a patch.
  public enum Operation: Sendable, Hashable {
    /// Adds `value` at `path`: sets an object's member, inserts into an array before the
    /// element at an index (or at its end for `-`), or replaces the whole document.
    case add(path: JSONPointer, value: JSONValue)
    /// Removes the value at `path`, which must exist.
    case remove(path: JSONPointer)
    /// Replaces the value at `path`, which must exist.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path`, which must not be inside it.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails unless the value at `path` equals `value` (JSON equality: `1 == 1.0`, objects
    /// in any member order).
    case test(path: JSONPointer, value: JSONValue)

    /// The operation's `op`: `"add"`, `"remove"`, `"replace"`, `"move"`, `"copy"` or `"test"`.
    public var name: String {
      switch self {
      case .add: return "add"
      case .remove: return "remove"
      case .replace: return "replace"
      case .move: return "move"
      case .copy: return "copy"
      case .test: return "test"
      }
    }

    /// The location the operation changes or tests.
    public var path: JSONPointer {
      switch self {
      case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
        .copy(_, let path), .test(let path, _):
        return path
      }
    }

    /// `move`'s and `copy`'s source; nil for the others.
    public var from: JSONPointer? {
      switch self {
      case .move(let from, _), .copy(let from, _): return from
      default: return nil
      }
    }

    /// `add`'s, `replace`'s and `test`'s value; nil for the others.
    public var value: JSONValue? {
      switch self {
      case .add(_, let value), .replace(_, let value), .test(_, let value): return value
      default: return nil
      }
    }

    /// The operation as a JSON Patch writes it: `{"op": "add", "path": "/a", "value": 1}`.
    public var jsonValue: JSONValue {
      var members: [(key: String, value: JSONValue)] = [
        ("op", .string(name)), ("path", .string(path.description)),
      ]
      if let from { members.append(("from", .string(from.description))) }
      if let value { members.append(("value", value)) }
      return .object(JSONObject(members))
    }
  }

  /// The operations, in the order they apply.
  public var operations: [Operation]

  /// A patch of `operations`.
  public init(_ operations: [Operation]) {
    self.operations = operations
  }

  /// Reads a patch document: an array of operation objects, each with `op` and `path`, `from`
  /// for `move` and `copy`, `value` for `add`, `replace` and `test`. Other members are
  /// ignored.
  ///
  /// - Throws: ``JSONPatchError`` of kind ``JSONPatchError/Kind/invalidPatch`` saying what is
  ///   missing or wrong and in which operation, or
  ///   ``JSONPatchError/Kind/invalidPointer(offset:)`` for a malformed `path` or `from`.
  public init(_ document: JSONValue) throws(JSONPatchError) {
    guard case .array(let elements) = document else {
      throw JSONPatchError.invalidPatch(
        "a JSON Patch is an array of operations, not \(JSONPatchError.kindName(document))")
    }
    var operations: [Operation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do {
        operations.append(try Operation(element))
      } catch {
        throw error.inOperation(index, element["op"]?.stringValue.flatMap(Operation.knownName))
      }
    }
    self.operations = operations
  }

  /// Parses a patch document's JSON text (bytes of any sequence) and reads it (see
  /// ``init(_:)-(JSONValue)``).
  ///
  /// - Throws: ``JSONParseError`` when the text is not JSON; ``JSONPatchError`` when it is not
  ///   a JSON Patch.
  public init<Bytes: Sequence>(parsing bytes: Bytes, options: JSONParseOptions = JSONParseOptions())
    throws where Bytes.Element == UInt8
  {
    try self.init(JSONValue(parsing: bytes, options: options))
  }

  /// Parses a patch document from a string (see ``init(parsing:options:)-(Bytes,_)``).
  public init(parsing text: String, options: JSONParseOptions = JSONParseOptions()) throws {
    try self.init(parsing: text.utf8, options: options)
  }

  /// The patch as a JSON Patch document: an array of operation objects.
  public var jsonValue: JSONValue {
    .array(JSONArray(operations.map(\.jsonValue)))
  }
}

extension JSONPatch: ExpressibleByArrayLiteral {
  /// A patch of the operations, in order.
  public init(arrayLiteral operations: Operation...) {
    self.init(operations)
  }
}

extension JSONPatch.Operation {
  /// `name` when it is one of the six operations.
  static func knownName(_ name: String) -> String? {
    ["add", "remove", "replace", "move", "copy", "test"].first { $0.utf8.elementsEqual(name.utf8) }
  }

  /// Reads one operation object of a patch document.
  init(_ element: JSONValue) throws(JSONPatchError) {
    guard case .object(let object) = element else {
      throw JSONPatchError.invalidPatch(
        "an operation is an object, not \(JSONPatchError.kindName(element))")
    }
    guard let opValue = object["op"] else { throw JSONPatchError.invalidPatch("missing \"op\"") }
    guard case .string(let op) = opValue else {
      throw JSONPatchError.invalidPatch(
        "\"op\" is a string, not \(JSONPatchError.kindName(opValue))")
    }
    guard let name = JSONPatch.Operation.knownName(op) else {
      throw JSONPatchError.invalidPatch(
        "unknown op \(JSONPatchError.shortText(opValue)): add, remove, replace, move, copy or test")
    }
    let path = try JSONPatch.Operation.pointer(object, "path")
    func value() throws(JSONPatchError) -> JSONValue {
      guard let value = object._value(forKey: "value", keepingText: true) else {
        throw JSONPatchError.invalidPatch("missing \"value\" (\(name) sets or compares one)")
      }
      return value
    }
    switch name {
    case "add": self = .add(path: path, value: try value())
    case "remove": self = .remove(path: path)
    case "replace": self = .replace(path: path, value: try value())
    case "move": self = .move(from: try JSONPatch.Operation.pointer(object, "from"), path: path)
    case "copy": self = .copy(from: try JSONPatch.Operation.pointer(object, "from"), path: path)
    default: self = .test(path: path, value: try value())
    }
  }

  /// The pointer in member `member` (`path` or `from`) of an operation object.
  static func pointer(_ object: JSONObject, _ member: String) throws(JSONPatchError)
    -> JSONPointer
  {
    guard let value = object[member] else {
      throw JSONPatchError.invalidPatch("missing \"\(member)\"")
    }
    guard case .string(let text) = value else {
      throw JSONPatchError.invalidPatch(
        "\"\(member)\" is a JSON Pointer string, not \(JSONPatchError.kindName(value))")
    }
    do {
      return try JSONPointer(text)
    } catch {
      throw member == "from" ? error.aboutFrom() : error
    }
  }
}
