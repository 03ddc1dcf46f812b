import Foundation
import JSONStream

/// Makes the key object for an object key, reusing the one made for the same bytes before: the
/// same keys repeat in every record of a document.
///
/// A direct-mapped table indexed by the key's hash; a colliding key replaces the entry. Long
/// keys are not cached.
struct KeyCache<Key> {
  private static var capacity: Int { 512 }
  private static var maxLength: Int { 48 }

  private struct Entry {
    var bytes: [UInt8]
    var key: Key
  }

  private let make: (String) -> Key
  /// Empty until the first key: a builder that sees none never pays for the table.
  private var entries: [Entry?] = []

  init(make: @escaping (String) -> Key) {
    self.make = make
  }

  mutating func key(for key: borrowing JSONString) -> Key {
    guard key.count <= KeyCache.maxLength else { return make(key.string) }
    if entries.isEmpty { entries = Array(repeating: nil, count: KeyCache.capacity) }
    let index = Int(truncatingIfNeeded: key.keyHash) & (KeyCache.capacity - 1)
    if let entry = entries[index], key.equals(entry.bytes, in: 0..<entry.bytes.count) {
      return entry.key
    }
    let made = make(key.string)
    entries[index] = Entry(bytes: key.bytes, key: made)
    return made
  }
}
