import JSONStream

// A key encoded twice in one object. The encoder writes as it goes, so it cannot take back a
// member it has written; when a key comes again (`_EncodeState.emitKey` notices), the value is
// encoded a second time into `_MergingTree`, which keeps Foundation's rules, and that tree is
// written out. Types that never repeat a key pay only the check.

/// The internal signal that a key came twice in one object: the top-level encode catches it
/// and encodes the value again, merging (see `_EncodeState.encodeRootOrMerge`).
struct _RepeatedKey: Error {}

/// A value built with Foundation's rules for a key encoded twice in one object:
/// - a value encoded again under a key replaces the earlier one, and the member moves to the
///   end (where the new value is written);
/// - a nested container (or super encoder) asked again under a key reopens the container of
///   the same kind already there, in its place, and adds to it; one of another kind replaces
///   it (Foundation stops the program there).
struct _MergingTree {
  /// An open container: an object with the key of its next member, or an array.
  private struct Frame {
    var object: JSONObject?
    var array = JSONArray()
    var key = ""
    /// The next member's key was asked for by a nested container or super encoder.
    var reopens = false
  }

  private var stack: [Frame] = []
  /// The complete value.
  private(set) var value: JSONValue?

  /// The key of the next member of the innermost object.
  mutating func key(_ key: String, reopens: Bool) {
    let last = stack.count - 1
    if !reopens { stack[last].object?.removeValue(forKey: key) }
    stack[last].key = key
    stack[last].reopens = reopens
  }

  /// A complete value, in the next place.
  mutating func add(_ value: JSONValue) {
    let last = stack.count - 1
    guard last >= 0 else {
      self.value = value
      return
    }
    if stack[last].object != nil {
      stack[last].object!.updateValue(value, forKey: stack[last].key)
      stack[last].reopens = false
    } else {
      stack[last].array.append(value)
    }
  }

  mutating func startObject() {
    if case .object(let existing)? = reopened() {
      stack.append(Frame(object: existing))
    } else {
      stack.append(Frame(object: JSONObject()))
    }
  }

  mutating func startArray() {
    if case .array(let existing)? = reopened() {
      stack.append(Frame(object: nil, array: existing))
    } else {
      stack.append(Frame(object: nil))
    }
  }

  mutating func endContainer() {
    let frame = stack.removeLast()
    add(frame.object.map(JSONValue.object) ?? .array(frame.array))
  }

  /// The value a nested container reopens, if its key has one: a placeholder keeps its place
  /// (so that the reopened container is not shared and copied) until it is put back there.
  private mutating func reopened() -> JSONValue? {
    let last = stack.count - 1
    guard last >= 0, stack[last].reopens, let existing = stack[last].object?[stack[last].key]
    else { return nil }
    stack[last].object!.updateValue(.null, forKey: stack[last].key)
    return existing
  }
}

extension _MergingTree {
  /// A scalar, made by the tree builder from its event, so that it is the node the
  /// encoder's tree output would have made.
  mutating func add(_ event: (inout JSONTreeBuilder) throws -> Void) rethrows {
    var builder = JSONTreeBuilder()
    try event(&builder)
    add(builder.value!)
  }
}
