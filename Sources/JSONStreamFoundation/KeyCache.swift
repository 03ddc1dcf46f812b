import Foundation

/// Makes the key object for an object key, reusing the one made for the same bytes before: the
/// same keys repeat in every record of a document.
///
/// A direct-mapped table indexed by a hash of the bytes; a colliding key replaces the entry.
/// Long keys are not cached.
struct KeyCache<Key> {
  private static var capacity: Int { 512 }
  private static var maxLength: Int { 48 }

  private struct Entry {
    var bytes: [UInt8]
    var key: Key
  }

  private let make: (UnsafeBufferPointer<UInt8>) -> Key
  /// Empty until the first key: a builder that sees none never pays for the table.
  private var entries: [Entry?] = []

  init(make: @escaping (UnsafeBufferPointer<UInt8>) -> Key) {
    self.make = make
  }

  mutating func key(for bytes: UnsafeBufferPointer<UInt8>) -> Key {
    guard bytes.count <= KeyCache.maxLength else { return make(bytes) }
    if entries.isEmpty { entries = Array(repeating: nil, count: KeyCache.capacity) }
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let index = Int(hash ^ (hash >> 15)) & (KeyCache.capacity - 1)
    if let entry = entries[index],
      entry.bytes.withUnsafeBufferPointer({
        $0.count == bytes.count
          && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
      })
    {
      return entry.key
    }
    let key = make(bytes)
    entries[index] = Entry(bytes: Array(bytes), key: key)
    return key
  }
}
