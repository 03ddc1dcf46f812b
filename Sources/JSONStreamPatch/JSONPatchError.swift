// The one error of JSON Pointer, JSON Patch and their streaming filters. The messages are made
// here only, so that a patch applied to a tree and the same patch streamed fail alike.

import JSONStreamCore
import JSONStreamValue

/// Why a JSON Pointer, a JSON Patch or one of its operations failed: the ``kind``, the
/// operation (``operationIndex``, ``operation``), the ``pointer`` it was about and a ``message``.
///
/// ```swift
/// do { try document.apply(patch) } catch let error as JSONPatchError {
///   print(error)  // operation 2 (test) at /total: found 12, not the expected 10
/// }
/// ```
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// A JSON Pointer's text is malformed, at this byte offset in it.
    case invalidPointer(offset: Int)
    /// The patch document is not a JSON Patch: not an array of operations, an operation
    /// without `op` or `path`, an unknown `op`, `move` or `copy` without `from`, `add`,
    /// `replace` or `test` without `value`.
    case invalidPatch
    /// A location does not exist: an object has no such member, an array no such element, or
    /// `-` (past the last element) addresses an element that must exist.
    case pathNotFound
    /// The pointer goes on below a value that is neither an object nor an array.
    case notAContainer
    /// An array is addressed with a token that is not an index (`01`, `1e0`, `x`).
    case invalidArrayIndex
    /// `move` to a location inside the value it moves.
    case moveIntoDescendant
    /// `remove` of the whole document, which leaves nothing.
    case cannotRemoveRoot
    /// `test` found this value, not the one the operation expects.
    case testFailed(found: JSONValue)
  }

  /// What went wrong.
  public var kind: Kind
  /// The position of the failing operation in its patch, from 0; nil outside a patch.
  public var operationIndex: Int?
  /// The failing operation's `op` (`"add"`, `"test"`…), when it has a known one.
  public var operation: String?
  /// The pointer the error is about, as written: the operation's `path`, or its `from` when
  /// ``member`` says so; nil when the operation has none.
  public var pointer: String?
  /// The operation's member that ``pointer`` comes from: `"path"` or `"from"`.
  public var member: String?
  /// What is wrong, naming the location that fails (a prefix of ``pointer`` when the pointer
  /// stops early) and, for a failed `test`, the value found.
  public var message: String

  /// An error about `pointer` (as written), outside any operation.
  package init(_ kind: Kind, pointer: String?, _ message: String) {
    self.kind = kind
    self.pointer = pointer
    self.message = message
  }

  /// `operation 2 (test) at /total: found 12, not the expected 10`; `from` for the `from`
  /// location; for an error outside a patch, the pointer and the message.
  public var description: String {
    var text = ""
    if let operationIndex {
      text = "operation \(operationIndex)"
      if let operation { text += " (\(operation))" }
    }
    if let pointer {
      if !text.isEmpty { text += " " }
      let at = member == "from" ? "from" : "at"
      text += pointer.isEmpty ? "\(at) the root" : "\(at) \(pointer)"
    }
    if case .invalidPointer(let offset) = kind {
      text += text.isEmpty ? "offset \(offset)" : ", offset \(offset)"
    }
    return text.isEmpty ? message : text + ": " + message
  }
}

// MARK: - The errors, made in one place

extension JSONPatchError {
  /// This error as the failure of operation `index` (`operation`): the pointer it is about
  /// is the operation's `path` unless it was marked `from` already.
  package func inOperation(_ index: Int, _ operation: String?) -> JSONPatchError {
    var error = self
    error.operationIndex = index
    error.operation = operation
    if error.member == nil && error.pointer != nil { error.member = "path" }
    return error
  }

  /// This error as one about an operation's `from` pointer.
  package func aboutFrom() -> JSONPatchError {
    var error = self
    error.member = "from"
    return error
  }

  /// The pointer's text is malformed at `offset`.
  package static func invalidPointer(_ text: String, offset: Int, _ message: String)
    -> JSONPatchError
  {
    JSONPatchError(.invalidPointer(offset: offset), pointer: text, message)
  }

  /// The patch document is not a JSON Patch.
  package static func invalidPatch(_ message: String) -> JSONPatchError {
    JSONPatchError(.invalidPatch, pointer: nil, message)
  }

  /// The member `location` (a prefix of `pointer`, or itself) does not exist.
  package static func missingMember(_ pointer: JSONPointer, at location: JSONPointer)
    -> JSONPatchError
  {
    JSONPatchError(.pathNotFound, pointer: pointer.description, "\(location) does not exist")
  }

  /// The element `location` does not exist in an array of `count` elements.
  package static func missingElement(_ pointer: JSONPointer, at location: JSONPointer, count: Int)
    -> JSONPatchError
  {
    JSONPatchError(
      .pathNotFound, pointer: pointer.description,
      "\(location) does not exist: the array has \(elements(count))")
  }

  /// `add` at index `location` past the end of an array of `count` elements.
  package static func pastTheEnd(_ pointer: JSONPointer, at location: JSONPointer, count: Int)
    -> JSONPatchError
  {
    JSONPatchError(
      .pathNotFound, pointer: pointer.description,
      "\(location) is past the end of the array, which has \(elements(count))")
  }

  /// The pointer goes on below `location`, which holds `value`, not a container.
  package static func notAContainer(
    _ pointer: JSONPointer, at location: JSONPointer, holding value: JSONValue
  ) -> JSONPatchError {
    JSONPatchError(
      .notAContainer, pointer: pointer.description,
      "\(display(location)) is \(kindName(value)), not an object or an array")
  }

  /// The array at `location` is addressed with `token`, which is not an index.
  package static func invalidIndex(_ pointer: JSONPointer, at location: JSONPointer, token: String)
    -> JSONPatchError
  {
    JSONPatchError(
      .invalidArrayIndex, pointer: pointer.description,
      "'\(token)' is not an index of the array at \(display(location))"
        + " (0, or digits without a leading zero)")
  }

  /// `move` from `from` into `path`, inside it.
  package static func moveIntoDescendant(from: JSONPointer, path: JSONPointer) -> JSONPatchError {
    JSONPatchError(
      .moveIntoDescendant, pointer: path.description,
      "cannot move \(display(from)) into itself (to \(path))")
  }

  /// `remove` at the root.
  package static func cannotRemoveRoot() -> JSONPatchError {
    JSONPatchError(.cannotRemoveRoot, pointer: "", "the whole document cannot be removed")
  }

  /// `test` at `pointer` found `found`, not `expected`.
  package static func testFailed(_ pointer: JSONPointer, found: JSONValue, expected: JSONValue)
    -> JSONPatchError
  {
    JSONPatchError(
      .testFailed(found: found), pointer: pointer.description,
      "found \(shortText(found)), not the expected \(shortText(expected))")
  }

  static func display(_ pointer: JSONPointer) -> String {
    pointer.isRoot ? "the root" : pointer.description
  }

  static func elements(_ count: Int) -> String {
    count == 1 ? "1 element" : "\(count) elements"
  }

  /// What kind of value `value` is, for a message.
  static func kindName(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// A value's JSON text for a message, cut at about 200 characters. Without a writer in this
  /// layer, it is the value's `description`, which the writer's module gives as JSON text.
  static func shortText(_ value: JSONValue) -> String {
    let text = String(describing: value)
    guard text.count > 200 else { return text }
    return String(text.prefix(200)) + "…"
  }
}
