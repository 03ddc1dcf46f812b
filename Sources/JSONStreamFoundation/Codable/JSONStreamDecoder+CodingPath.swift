// The decoder's coding path. Every value decoded under a key pushes the key and pops it after,
// but the path is read only for an error, a `codingPath` asked for, or a custom key strategy.
// So a pushed key stays where its `decode` call holds it, referred to by address and type, and
// becomes an `any CodingKey` only when the path is read: pushing is a few stores, where boxing
// the key and appending it to an `[any CodingKey]` cost about a hundred instructions a value.

/// A key of the path, by reference: the address of the key that a running `decode` call holds,
/// valid until that call pops it, and the key's type.
@safe struct _KeyReference {
  let address: UnsafeRawPointer
  let type: any CodingKey.Type

  /// The key, as the coding path holds it.
  var key: any CodingKey { unsafe type.load(from: address) }
}

extension CodingKey {
  /// The key at `address`.
  fileprivate static func load(from address: UnsafeRawPointer) -> any CodingKey {
    unsafe address.assumingMemoryBound(to: Self.self).pointee
  }
}

/// The coding path: keys given as values (the top-level path, or a container's own path while
/// a child of it decodes), then the keys of the values being decoded below them.
struct _CodingPath {
  /// The keys given as values.
  private var base: [any CodingKey]
  /// Every key pushed and not yet popped, the ones of enclosing paths first.
  private var pushed: [_KeyReference] = []
  /// Where this path's pushed keys start in `pushed`.
  private var start = 0

  init(_ base: [any CodingKey]) {
    self.base = base
  }

  /// The number of keys.
  var count: Int { base.count &+ pushed.count &- start }

  /// The keys.
  var keys: [any CodingKey] {
    guard pushed.count > start else { return base }
    return base + pushed[start...].map(\.key)
  }

  /// Pushes a key.
  @inline(__always)
  mutating func push(_ key: _KeyReference) { pushed.append(key) }

  /// Pops the last key pushed.
  @inline(__always)
  mutating func pop() { pushed.removeLast() }

  /// Makes `keys` the path (the keys pushed from now on go after them); returns what
  /// ``restore(_:)`` takes to put the path back.
  @inline(__always)
  mutating func replace(with keys: [any CodingKey]) -> (base: [any CodingKey], start: Int) {
    defer {
      base = keys
      start = pushed.count
    }
    return (base, start)
  }

  /// Puts back the path that ``replace(with:)`` replaced.
  @inline(__always)
  mutating func restore(_ saved: (base: [any CodingKey], start: Int)) {
    (base, start) = saved
  }
}

extension _Decoder {
  /// Runs `body` with `key` pushed on the coding path, by reference: valid until `body`
  /// returns, when it is popped.
  @inline(__always)
  func withKey<K: CodingKey, R>(_ key: K, _ body: () throws -> R) rethrows -> R {
    unsafe try withUnsafePointer(to: key) { address in
      unsafe state.value.path.push(_KeyReference(address: UnsafeRawPointer(address), type: K.self))
      defer { state.value.path.pop() }
      return try body()
    }
  }

  /// Runs `body` with the coding path set to `keys`, then puts it back.
  @inline(__always)
  func withPath<R>(_ keys: [any CodingKey], _ body: () throws -> R) rethrows -> R {
    let saved = state.value.path.replace(with: keys)
    defer { state.value.path.restore(saved) }
    return try body()
  }
}
