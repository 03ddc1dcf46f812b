// Foundation's mutable containers made from the tree builder's stacks in one call each. Their
// bulk initializers take pointers; adding the elements one by one instead made building a
// tree with `.mutableContainers` 3-5× slower.

import Foundation

extension NSMutableArray {
  /// An array of `values[start...]` (`start` in `0..<values.count`).
  static func _of(_ values: [AnyObject], from start: Int) -> NSMutableArray {
    precondition(start >= 0 && start < values.count, "no elements")
    return unsafe values.withUnsafeBufferPointer {
      unsafe NSMutableArray(objects: $0.baseAddress! + start, count: values.count - start)
    }
  }
}

extension NSMutableDictionary {
  /// A dictionary of the `count` keys from `keys[keyStart]` to the values from
  /// `values[valueStart]` (`count` at least 1, both ranges within their arrays). The pairs are
  /// stored in order, so a repeated key's last value wins.
  static func _of(
    _ values: [AnyObject], from valueStart: Int, keys: [NSObject], from keyStart: Int, count: Int
  ) -> NSMutableDictionary {
    precondition(
      count > 0 && valueStart >= 0 && valueStart + count <= values.count && keyStart >= 0
        && keyStart + count <= keys.count, "no members")
    return unsafe values.withUnsafeBufferPointer { values in
      unsafe keys.withUnsafeBufferPointer { keys in
        unsafe NSMutableDictionary(
          objects: values.baseAddress! + valueStart, forKeys: keys.baseAddress! + keyStart,
          count: count)
      }
    }
  }
}
