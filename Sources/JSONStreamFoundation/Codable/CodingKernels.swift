// The Codable coders' two small unsafe kernels: a value as the type it is known to be, and an
// array made in place.

/// `value` as the type it is, where `T == U`: the caller compared their metadata (debug
/// builds check again; in release, `T.self` of an array type alone is a metadata lookup, one
/// per array decoded). A reinterpretation that costs nothing, where `as! U` would be a dynamic
/// cast per value.
@inline(__always)
func _same<T, U>(_ value: T, as type: U.Type) -> U {
  assert(T.self == U.self, "_same(_:as:) of two different types")
  return unsafeBitCast(value, to: U.self)
}

/// The elements of an array being made in place (see `Array._madeInPlace`), appended in
/// order into its storage, at most as many as it has room for.
struct _InPlaceElements<Element> {
  private let base: UnsafeMutablePointer<Element>
  private let capacity: Int
  /// The elements appended so far.
  private(set) var count = 0

  fileprivate init(base: UnsafeMutablePointer<Element>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  @inline(__always)
  mutating func append(_ element: consuming Element) {
    precondition(count < capacity, "more elements than the array has room for")
    (base + count).initialize(to: element)
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
    return try Self(unsafeUninitializedCapacity: count) { storage, initialized in
      var elements = _InPlaceElements(base: storage.baseAddress.unsafelyUnwrapped, capacity: count)
      defer { initialized = elements.count }
      try fill(&elements)
    }
  }
}
