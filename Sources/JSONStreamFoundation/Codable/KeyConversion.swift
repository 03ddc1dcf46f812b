import Foundation

// Foundation's snake_case conversions, both ways, so that switching coders keeps every key.

/// Foundation's snake_case conversion: `first_name` → `firstName`; leading and trailing
/// underscores stay.
func _convertFromSnakeCase(_ key: String) -> String {
  guard key.contains("_") else { return key }
  guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
  var last = key.index(before: key.endIndex)
  while last > first && key[last] == "_" { last = key.index(before: last) }
  let core = key[first...last]
  let words = core.split(separator: "_", omittingEmptySubsequences: true)
  guard words.count > 1, let head = words.first else { return key }
  let joined = ([head.lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
  return String(key[..<first]) + joined + String(key[key.index(after: last)...])
}

/// Foundation's conversion to snake_case: `myURLProperty` → `my_url_property`. Words split
/// where a lowercase letter meets an uppercase one, and before the last capital of a run of
/// capitals that a lowercase letter follows; the words are lowercased and joined with `_`.
func _convertToSnakeCase(_ key: String) -> String {
  guard !key.isEmpty else { return key }
  var words: [Range<String.Index>] = []
  var wordStart = key.startIndex
  var searchRange = key.index(after: wordStart)..<key.endIndex
  while let upper = key.rangeOfCharacter(from: .uppercaseLetters, range: searchRange) {
    words.append(wordStart..<upper.lowerBound)
    searchRange = upper.lowerBound..<searchRange.upperBound
    guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, range: searchRange) else {
      wordStart = searchRange.lowerBound
      break
    }
    let afterCapital = key.index(after: upper.lowerBound)
    if lower.lowerBound == afterCapital {
      wordStart = upper.lowerBound
    } else {
      // A run of capitals is a word of its own, up to the capital before the lowercase letter.
      let beforeLower = key.index(before: lower.lowerBound)
      words.append(upper.lowerBound..<beforeLower)
      wordStart = beforeLower
    }
    searchRange = lower.upperBound..<searchRange.upperBound
  }
  words.append(wordStart..<searchRange.upperBound)
  return words.map { key[$0].lowercased() }.joined(separator: "_")
}
