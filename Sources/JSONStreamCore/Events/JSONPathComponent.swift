// Where in a document: the steps from the root to a value, for errors and selections.

/// One step of a location in a document: an object member's key or an array element's index.
public enum JSONPathComponent: Sendable, Hashable, CustomStringConvertible {
  /// An object member, by its key.
  case key(String)
  /// An array element, by its index from 0.
  case index(Int)

  /// The key as is, or the index in decimal.
  public var description: String {
    switch self {
    case .key(let key): return key
    case .index(let index): return String(index)
    }
  }
}

extension Array where Element == JSONPathComponent {
  /// The location as a JSON Pointer (RFC 6901): `/statuses/3/user`, `~` and `/` in keys escaped
  /// as `~0` and `~1`; the root is the empty string.
  public var jsonPointer: String {
    var pointer = ""
    for component in self {
      pointer += "/"
      switch component {
      case .index(let index): pointer += String(index)
      case .key(let key):
        pointer += key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(
          of: "/", with: "~1")
      }
    }
    return pointer
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
