// JSON Pointer on a tree: read the value at a pointer, set it, remove it. A change deep in a
// document walks down through `inout`, edits the innermost container and writes each level
// back, rather than copying the document; all container edits go through
// JSONValue+PatchEdits.swift. The walk keeps its own stack: any depth works.

import JSONStreamCore
import JSONStreamValue

extension JSONValue {
  /// The value `pointer` addresses, or nil when there is none (a missing member, an index past
  /// the end or not an index, `-`, a step into a string or number).
  ///
  /// ```swift
  /// let order = try JSONValue(parsing: #"{"items": [{"sku": "A1"}]}"#)
  /// order.value(at: "/items/0/sku")   // "A1"
  /// ```
  public func value(at pointer: JSONPointer) -> JSONValue? {
    try? _resolve(pointer)
  }

  /// The value `pointer` addresses, or nil when there is none: ``value(at:)``.
  public subscript(pointer pointer: JSONPointer) -> JSONValue? {
    value(at: pointer)
  }

  /// Sets the value at `pointer`: the whole document for the root; an object's member (added
  /// at the end when new, replaced where it is otherwise); an array's element at an index
  /// below its count (replaced), at its count or at `-` (appended).
  ///
  /// ```swift
  /// var order: JSONValue = ["items": []]
  /// try order.set(["sku": "A1"], at: "/items/-")
  /// try order.set(2, at: "/items/0/qty")
  /// ```
  ///
  /// - Throws: ``JSONPatchError`` when the container does not exist, is not a container, or
  ///   the index is not one or is past the end; the value is then unchanged.
  public mutating func set(_ value: JSONValue, at pointer: JSONPointer) throws(JSONPatchError) {
    try _place(value, at: pointer, replacingElements: true)
  }

  /// Sets an object's member, or puts `value` in an array at an index up to its count (or
  /// `-` for its end): replacing the element there with `replacingElements` (``set(_:at:)``),
  /// inserting before it otherwise (JSON Patch's `add`); the root is replaced.
  mutating func _place(_ value: JSONValue, at pointer: JSONPointer, replacingElements: Bool)
    throws(JSONPatchError)
  {
    guard !pointer.isRoot else {
      self = value
      return
    }
    try _edit(pointer) { (parent, token, depth) throws(JSONPatchError) in
      try parent._changeContainer(
        object: { (object) throws(JSONPatchError) in object._set(value, forKey: token) },
        array: { (array) throws(JSONPatchError) in
          let position = try JSONValue._insertionPoint(token, in: array, pointer, depth)
          if replacingElements && position < array.count {
            array._put(value, at: position)
          } else {
            array._insert(value, at: position)
          }
        },
        other: { (parent) throws(JSONPatchError) in
          throw JSONPatchError.notAContainer(
            pointer, at: JSONPointer(tokens: pointer.tokens[..<depth]), holding: parent)
        })
    }
  }

  /// Removes the value at `pointer` (an object's member, an array's element, whose followers
  /// move up) and returns it.
  ///
  /// - Throws: ``JSONPatchError`` when there is no value there, or for the root (which
  ///   cannot be removed); the value is then unchanged.
  @discardableResult
  public mutating func removeValue(at pointer: JSONPointer) throws(JSONPatchError) -> JSONValue {
    guard !pointer.isRoot else { throw JSONPatchError.cannotRemoveRoot() }
    return try _edit(pointer) { (parent, token, depth) throws(JSONPatchError) in
      let position = try JSONValue._position(of: token, in: parent, pointer, depth)
      return parent._changeContainer(
        object: { $0._remove(at: position) },
        array: { $0._remove(at: position) },
        other: { _ in preconditionFailure("a position in a value that is not a container") })
    }
  }
}

// MARK: - The walk

extension JSONValue {
  /// The value at `pointer`, or the error that says why there is none.
  func _resolve(_ pointer: JSONPointer) throws(JSONPatchError) -> JSONValue {
    var current = self
    for depth in pointer.tokens.indices {
      let position = try JSONValue._position(
        of: pointer.tokens[depth], in: current, pointer, depth)
      switch current {
      case .object(let object): current = object._member(at: position, keepingText: true).value
      case .array(let array): current = array._element(at: position, keepingText: true)
      default: preconditionFailure("a position in a value that is not a container")
      }
    }
    return current
  }

  /// The position of the existing member or element `token` addresses in `container` (which
  /// `pointer`'s first `depth` tokens address), or the error that says why there is none.
  static func _position(
    of token: String, in container: JSONValue, _ pointer: JSONPointer, _ depth: Int
  ) throws(JSONPatchError) -> Int {
    var location: JSONPointer { JSONPointer(tokens: pointer.tokens[..<depth]) }
    switch container {
    case .object(let object):
      guard let position = object.index(forKey: token) else {
        throw JSONPatchError.missingMember(pointer, at: location.appending(token))
      }
      return position
    case .array(let array):
      switch _ArrayToken(token) {
      case .index(let index) where index < array.count:
        return index
      case .index, .end:
        throw JSONPatchError.missingElement(
          pointer, at: location.appending(token), count: array.count)
      case .invalid:
        throw JSONPatchError.invalidIndex(pointer, at: location, token: token)
      }
    default:
      throw JSONPatchError.notAContainer(pointer, at: location, holding: container)
    }
  }

  /// Where `token` puts a new element of `array` (which `pointer`'s first `depth` tokens
  /// address): an index up to its count, or `-` for its count; otherwise the error.
  static func _insertionPoint(
    _ token: String, in array: JSONArray, _ pointer: JSONPointer, _ depth: Int
  ) throws(JSONPatchError) -> Int {
    var location: JSONPointer { JSONPointer(tokens: pointer.tokens[..<depth]) }
    switch _ArrayToken(token) {
    case .end:
      return array.count
    case .index(let index) where index <= array.count:
      return index
    case .index:
      throw JSONPatchError.pastTheEnd(pointer, at: location.appending(token), count: array.count)
    case .invalid:
      throw JSONPatchError.invalidIndex(pointer, at: location, token: token)
    }
  }

  /// Calls `body` with the container `pointer`'s last token is in (the parent), that token
  /// and the parent's depth (its pointer is the first `depth` tokens), through `inout` from
  /// here down, then writes each level back. `pointer` is not the root. `body` must leave the
  /// parent as it was when it throws: the value is then unchanged.
  mutating func _edit<Result>(
    _ pointer: JSONPointer,
    _ body: (inout JSONValue, String, Int) throws(JSONPatchError) -> Result
  ) throws(JSONPatchError) -> Result {
    let tokens = pointer.tokens
    precondition(!tokens.isEmpty, "an edit of the root has no parent")
    // Each level above the parent: its container, with the child on the way down taken out
    // at `position`.
    var trail: [(container: JSONValue, position: Int)] = []
    var current = self
    self = .null
    defer {
      while !trail.isEmpty {
        var (parent, position) = trail.removeLast()
        // The edited value after success, the one taken after a failure: either way, the
        // value `current` holds goes back where it was taken.
        parent._changeContainer(
          object: { $0._put(current, at: position) },
          array: { $0._put(current, at: position) },
          other: { _ in preconditionFailure("a trail level that is not a container") })
        current = parent
      }
      self = current
    }
    for depth in 0..<(tokens.count - 1) {
      let position = try JSONValue._position(of: tokens[depth], in: current, pointer, depth)
      let child = current._changeContainer(
        object: { $0._take(at: position) },
        array: { $0._take(at: position) },
        other: { _ in preconditionFailure("a position in a value that is not a container") })
      trail.append((current, position))
      current = child
    }
    let result = try body(&current, tokens[tokens.count - 1], tokens.count - 1)
    return result
  }
}
