import Foundation

/// Makes the `NSString` for an object key, reusing the one made for the same bytes before: the
/// same keys repeat in every record of a document.
///
/// A direct-mapped table indexed by a hash of the bytes; a colliding key replaces the entry.
/// Long keys are not cached.
struct KeyCache {
  private static let capacity = 512
  private static let maxLength = 48

  private struct Entry {
    var bytes: [UInt8]
    var string: NSString
  }

  private var entries: [Entry?] = Array(repeating: nil, count: KeyCache.capacity)

  mutating func string(for bytes: UnsafeBufferPointer<UInt8>) -> NSString {
    guard bytes.count <= KeyCache.maxLength else { return KeyCache.make(bytes) }
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let index = Int(hash ^ (hash >> 15)) & (KeyCache.capacity - 1)
    if let entry = entries[index],
      entry.bytes.withUnsafeBufferPointer({ $0.elementsEqual(bytes) })
    {
      return entry.string
    }
    let string = KeyCache.make(bytes)
    entries[index] = Entry(bytes: Array(bytes), string: string)
    return string
  }

  private static func make(_ bytes: UnsafeBufferPointer<UInt8>) -> NSString {
    NSString(string: String(decoding: bytes, as: UTF8.self))
  }
}
