import Foundation
import JSONStream

/// Where the encoder writes: JSON text, the binary format, or a tree (a `JSONValue`). One
/// concrete type with a branch per call, not a generic parameter: Codable's calls arrive
/// unspecialized, and code generic over the writer would look its type up at run time on
/// every call. The binary writer is tested first, then the tree, so that the binary output
/// pays no more than before the tree was added.
struct _EncoderOutput {
  var json: JSONWriter<JSONByteSink>
  /// Set for binary output; `json` is then unused.
  var binary: JSONBinaryWriter<JSONByteSink>?
  /// Set for a tree; `json` is then unused.
  var tree: _TreeOutput?

  /// What an encode call makes.
  enum Format {
    case json, binary, value
    /// A tree with Foundation's rules for a key encoded twice (see `_MergingTree`).
    case merging
  }

  var isBinary: Bool { binary != nil }

  mutating func startObject() throws {
    if binary != nil {
      try binary!.startObject()
    } else if tree != nil {
      tree!.startObject()
    } else {
      try json.startObject()
    }
  }
  mutating func endObject() throws {
    if binary != nil {
      try binary!.endObject()
    } else if tree != nil {
      tree!.endObject()
    } else {
      try json.endObject()
    }
  }
  mutating func startArray() throws {
    if binary != nil {
      try binary!.startArray()
    } else if tree != nil {
      tree!.startArray()
    } else {
      try json.startArray()
    }
  }
  mutating func endArray() throws {
    if binary != nil {
      try binary!.endArray()
    } else if tree != nil {
      tree!.endArray()
    } else {
      try json.endArray()
    }
  }
  mutating func key(_ key: String) throws {
    if binary != nil {
      try binary!.key(key)
    } else if tree != nil {
      try tree!.key(key)
    } else {
      try json.key(key)
    }
  }
  mutating func string(_ value: String) throws {
    if binary != nil {
      try binary!.string(value)
    } else if tree != nil {
      tree!.string(value)
    } else {
      try json.string(value)
    }
  }
  mutating func number(_ value: Int) throws {
    if binary != nil {
      try binary!.number(Int64(value))
    } else if tree != nil {
      tree!.number(Int64(value))
    } else {
      try json.number(value)
    }
  }
  mutating func number(_ value: Int64) throws {
    if binary != nil {
      try binary!.number(value)
    } else if tree != nil {
      tree!.number(value)
    } else {
      try json.number(value)
    }
  }
  mutating func number(_ value: UInt64) throws {
    if binary != nil {
      try binary!.number(value)
    } else if tree != nil {
      tree!.number(value)
    } else {
      try json.number(value)
    }
  }
  mutating func number(_ value: borrowing JSONNumber) throws {
    if binary != nil {
      try binary!.number(value)
    } else if tree != nil {
      try tree!.number(value)
    } else {
      try json.number(value)
    }
  }
  mutating func bool(_ value: Bool) throws {
    if binary != nil {
      try binary!.bool(value)
    } else if tree != nil {
      tree!.bool(value)
    } else {
      try json.bool(value)
    }
  }
  mutating func null() throws {
    if binary != nil {
      try binary!.null()
    } else if tree != nil {
      tree!.null()
    } else {
      try json.null()
    }
  }

  /// A finite double, or a float widened (`fromFloat`): binary32/binary64 in binary; in JSON,
  /// its shortest text as `JSONEncoder` writes it, without a trailing `.0` (`60`, not `60.0`).
  /// A float's shortest text is its own `description`, not the widened double's.
  mutating func double(_ value: Double, fromFloat: Bool, description: () -> String) throws {
    if binary != nil { return try binary!.number(value) }
    if tree != nil { return tree!.double(description()) }
    if !fromFloat { return try json.writeDouble(value, trimmingPointZero: true) }
    var text = description()
    try json.writeTrustedNumberText(&text, trimmingPointZero: true)
  }

  /// A whole value, as it is: a parsed array's or object's number text unchanged, arrays and
  /// objects in one pass.
  mutating func write(_ value: JSONValue) throws {
    if binary != nil {
      try value.write(to: &binary!)
    } else if tree != nil {
      try tree!.write(value)
    } else {
      try value.write(to: &json)
    }
  }

  /// Ends the output (not for a tree: see `finishValue()`).
  mutating func finish() throws {
    if binary != nil { try binary!.finish() } else { try json.finish() }
  }

  var bytes: [UInt8] { binary?.bytes ?? json.bytes }

  /// The complete tree.
  mutating func finishValue() -> JSONValue { tree!.finish() }
}
