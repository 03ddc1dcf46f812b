/// A producer's open containers (the text parser's and the binary reader's), a bit each (1: object, 0: array), innermost in bit 0 of
/// `bits`. The innermost 64 levels live in that one word, so opening and closing a container is
/// a shift with no array access (an `[Bool]` cost a uniqueness check per push and pop); each
/// full word further out is kept in `spill`.
///
/// For `[{"a":[` the depth is 3 and `bits` is `0b010`: an array in an object in an array.
@usableFromInline
package struct _ContainerStack {
  @usableFromInline package var depth = 0
  @usableFromInline package var bits: UInt64 = 0
  @usableFromInline package var spill: [UInt64] = []

  @inlinable
  package init() {}

  @inlinable
  package var isEmpty: Bool { depth == 0 }

  /// Whether the innermost open container is an object (false when none is open).
  @inlinable
  package var innermostIsObject: Bool { bits & 1 != 0 }

  @inlinable @inline(__always)
  package mutating func push(isObject: Bool) {
    if depth & 63 == 0 && depth != 0 {
      spill.append(bits)
      bits = 0
    }
    bits = bits &<< 1 | (isObject ? 1 : 0)
    depth &+= 1
  }

  /// Closes the innermost container (there must be one): whether it was an object.
  @inlinable @inline(__always)
  package mutating func pop() -> Bool {
    let isObject = bits & 1 != 0
    bits &>>= 1
    depth &-= 1
    if depth & 63 == 0 && depth != 0 {
      bits = spill.removeLast()
    }
    return isObject
  }
}

/// Where a producer is in its life: reading, stopped by its handler, past the end of its
/// value, failed, or finished.
@usableFromInline
package enum _Phase: UInt8 {
  case running, stopped, finished, failed, ended
}
