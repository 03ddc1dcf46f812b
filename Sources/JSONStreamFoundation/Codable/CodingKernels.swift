// The Codable coders' small unsafe kernels: a value as the type it is known to be, an array
// made in place, a key's hash read a word at a time, `Data` handed to the binary writer, and
// the encoder's output copied once out of its writer.

import Foundation
import JSONStream

/// `value` as the type it is, where `T == U`: the caller compared their metadata (debug
/// builds check again; in release, `T.self` of an array type alone is a metadata lookup, one
/// per array decoded). A reinterpretation that costs nothing, where `as! U` would be a dynamic
/// cast per value.
@inline(__always)
func _same<T, U>(_ value: T, as type: U.Type) -> U {
  assert(T.self == U.self, "_same(_:as:) of two different types")
  return unsafe unsafeBitCast(value, to: U.self)
}

/// The elements of an array being made in place (see `Array._madeInPlace`), appended in
/// order into its storage, at most as many as it has room for.
@safe struct _InPlaceElements<Element> {
  private let base: UnsafeMutablePointer<Element>
  private let capacity: Int
  /// The elements appended so far.
  private(set) var count = 0

  fileprivate init(base: UnsafeMutablePointer<Element>, capacity: Int) {
    unsafe self.base = unsafe base
    self.capacity = capacity
  }

  @inline(__always)
  mutating func append(_ element: consuming Element) {
    precondition(count < capacity, "more elements than the array has room for")
    unsafe (base + count).initialize(to: element)
    count &+= 1
  }
}

extension Array {
  /// An array of up to `count` elements, which `fill` appends to its argument in order, each
  /// made straight into its place: an `append` to an array copies each element, a retain per
  /// reference in it, through the element type's value witness. When `fill` throws, the
  /// elements made so far are released and the error is rethrown.
  @inline(__always)
  static func _madeInPlace(
    count: Int, _ fill: (inout _InPlaceElements<Element>) throws -> Void
  ) rethrows -> Self {
    // Not for an empty array: the standard library's initializer then writes the count into
    // the shared empty-array storage, a race between threads (ThreadSanitizer reports it).
    if count <= 0 { return [] }
    return unsafe try Self(unsafeUninitializedCapacity: count) { storage, initialized in
      var elements = unsafe _InPlaceElements(
        base: storage.baseAddress.unsafelyUnwrapped, capacity: count)
      defer { initialized = elements.count }
      try fill(&elements)
    }
  }
}

extension JSONBinaryWriter {
  /// Writes `data`'s bytes as a binary data value.
  mutating func data(_ data: Data) throws {
    unsafe try data.withUnsafeBytes { unsafe try self.data($0) }
  }
}

/// The complete JSON text of `writer` (see `JSONWriter.finish(reading:)`), as `Data`: copied
/// once, from where the writer holds it.
func _finishedData(_ writer: inout JSONWriter<JSONByteSink>) throws -> Data {
  unsafe try writer.finish { unsafe Data($0) }
}

/// The complete JSON text of `writer`, as bytes: copied once.
func _finishedBytes(_ writer: inout JSONWriter<JSONByteSink>) throws -> [UInt8] {
  unsafe try writer.finish { unsafe [UInt8]($0) }
}

/// A hash of a key's UTF-8 bytes, for `_EncodeState.emitKey`'s check: every byte counts, read
/// eight at a time, the last word overlapping the one before; shorter keys as two overlapping
/// four-byte words, or their first, middle and last bytes.
@inline(__always)
func _keyHash(_ key: String) -> UInt64 {
  unsafe key.utf8.withContiguousStorageIfAvailable(_keyHash)
    ?? Array(key.utf8).withUnsafeBufferPointer(_keyHash)
}

@inline(__always)
private func _keyHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
  let count = bytes.count
  let raw = UnsafeRawBufferPointer(bytes)
  var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
  if count >= 8 {
    var offset = 0
    while count &- offset > 8 {
      hash =
        unsafe (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        &* 0xBF58_476D_1CE4_E5B9
      offset &+= 8
    }
    unsafe hash ^= raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
  } else if count >= 4 {
    let first = unsafe UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
    let last = unsafe UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
    hash ^= first &<< 32 | last
  } else if count > 0 {
    unsafe hash ^= UInt64(raw[0]) &<< 16 | UInt64(raw[count &>> 1]) &<< 8 | UInt64(raw[count &- 1])
  }
  hash = (hash ^ (hash &>> 32)) &* 0xBF58_476D_1CE4_E5B9
  return hash ^ (hash &>> 29)
}
