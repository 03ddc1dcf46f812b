// The encoder's check that no key comes twice in one object (see `_EncodeState.emitKey`).
// Foundation's encoder keeps the last value of a repeated key; ours notices the repeat here
// and encodes the value again, merging. The check runs for every key written, so an object of
// a type seen before is checked against the keys its type wrote the first time, at the cost
// of a comparison of two words per key when they come in the same order.

import JSONStream

/// The keys a type's objects have written, in the order they first came: distinct, at most
/// 64. Learned from the first of the type's values in an encode call (whose keys are checked
/// by their hashes); the objects of the others are then checked against it, a bit per key,
/// which for the same keys in the same order costs a comparison of two words per key.
struct _KeyOrder {
  enum Phase {
    case unknown, learning, known
  }

  /// One key of an order.
  struct Key {
    var name: String
    /// Whether `name` is ASCII (see `isKey`).
    var isASCII: Bool
    /// For JSON text, where the key quoted and escaped, and its bytes, are in
    /// `_KeyCheck.keyText` (both empty otherwise): the writer takes them as they are (see
    /// `JSONWriter.writeQuotedKey`).
    var quoted: Range<Int>
    var bytes: Range<Int>
  }

  static var capacity: Int { 64 }
  private(set) var keys: [Key] = []
  var phase = Phase.unknown

  var count: Int { keys.count }

  /// Puts `name` at `position`, moving those after it along; for JSON text, its quoted form
  /// and its bytes are at `quoted` and `bytes` in `_KeyCheck.keyText`.
  mutating func insert(
    _ name: String, at position: Int, quoted: Range<Int> = 0..<0, bytes: Range<Int> = 0..<0
  ) {
    let key = Key(
      name: name, isASCII: name.utf8.allSatisfy { $0 < 0x80 }, quoted: quoted, bytes: bytes)
    keys.insert(key, at: position)
  }

  /// Where `name` is, searched from `start` on, then from the beginning.
  func position(of name: String, from start: Int) -> Int? {
    var index = start
    while index < count {
      if isKey(index, name) { return index }
      index += 1
    }
    index = 0
    while index < start && index < count {
      if isKey(index, name) { return index }
      index += 1
    }
    return nil
  }

  /// Whether the key at `index` is `name`, byte for byte: `==` compares canonical
  /// equivalence, where "é" and "e\u{301}" are one String and two keys. Lengths first (cheap,
  /// and most unequal keys differ there; `==` of two unequal strings calls the general
  /// comparison). Then, for an ASCII key, `==` (quick when both are the same string) says it:
  /// a string canonically equivalent to ASCII with as many bytes is that ASCII (the
  /// characters that decompose to ASCII, such as the Kelvin sign, are longer). Any other key,
  /// byte by byte.
  @inline(__always)
  func isKey(_ index: Int, _ name: String) -> Bool {
    guard keys[index].name.utf8.count == name.utf8.count else { return false }
    if keys[index].isASCII { return keys[index].name == name }
    return keys[index].name.utf8.elementsEqual(name.utf8)
  }
}

/// How the JSON writer quotes keys: its escaping options.
struct _KeyQuoting {
  var escapeUnicode: Bool
  var escapeSlash: Bool

  /// `key` in quotes, escaped.
  func quoted(_ key: String) -> [UInt8] {
    Array(
      key.jsonStringLiteral(escapeUnicode: escapeUnicode, escapeSlash: escapeSlash).utf8)
  }
}

/// The check of one open object.
private struct _KeyLevel {
  /// Its level in the encoder (see `_EncodeState.open`), for a debug check that keys come to
  /// the innermost open object.
  var level: Int
  /// The key order it is checked against, by its number in `_KeyCheck.orders`; nil when
  /// checked by hashes.
  var order: Int? = nil
  /// It is the first of its type: checked by hashes, its keys become the order.
  var learning = false
  /// Where in the order its next key is expected.
  var position = 0
  /// The keys of the order it has written, a bit each.
  var written: UInt64 = 0
  /// Where its keys' hashes begin.
  var hashStart = 0
  /// A filter of its keys' hashes, 256 bits: "not there" for most keys without a search.
  var filter: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
}

/// The check that no key comes twice in one object, for the objects open in the encoder: an
/// object of a type whose key order is known against it, any other by its keys' hashes (those
/// of the open objects, innermost last). Keys always go to the innermost open object (the
/// encoder closes the others first), whose check is kept apart from the enclosing ones: the
/// path every key takes reads and changes it in place.
struct _KeyCheck {
  /// The key order of each type met, by the number of the type's `_TypeInfo`.
  private var orders: [_KeyOrder] = []
  /// The innermost open object's check; the enclosing objects' are the first `depth` of
  /// `enclosing`, innermost last (under them, the check of no object). The rest are left
  /// from closed objects, to be written over: a closing object costs no array change.
  private var current = _KeyLevel(level: -1)
  private var enclosing: [_KeyLevel] = []
  private var depth = 0
  /// The hashes of the keys of the objects checked by hash, innermost last: the first
  /// `hashCount` of them (the rest are left from closed objects, to be written over).
  private var hashes: [UInt64] = []
  private var hashCount = 0
  /// The keys beside their hashes, `hashCount` of them, when a hash that comes again is to
  /// be confirmed by its key (see `comparesNames()`); nil otherwise.
  private var names: [String]?
  /// Set for JSON text: keys in a key order are kept quoted too, in `keyText`.
  var quoting: _KeyQuoting?
  /// The quoted form and the bytes of every key in a key order, one after another. One array
  /// the writer reads a key from in place: an array per key, copied out of its order to be
  /// written, cost two reference counts per key.
  private var keyText: [UInt8] = []

  /// What `insert` returns for a key that came before in its object.
  static var repeated: Int { -1 }
  /// What `insert` returns for a new key not in a key order.
  static var unordered: Int { -2 }

  /// Whether a hash that comes again is confirmed by its key (see `comparesNames()`).
  var keepsNames: Bool { names != nil }

  /// From now on a key whose hash is already in its object is ``repeated`` only when it is
  /// the same key, byte for byte: two keys with one hash go through. The keys checked by hash
  /// are kept for that, which costs a copy of each: binary output, which refuses a repeat,
  /// turns this on for a second encoding when the first met one (see
  /// `_EncodeState.encodeBinaryTopLevel`). Call it before the first key.
  mutating func comparesNames() {
    precondition(hashCount == 0 && names == nil)
    names = []
  }

  /// An object opens at `level`, with no keys yet; `order` is the number of its type's key
  /// order.
  mutating func open(level: Int, order: Int?) {
    if depth < enclosing.count { enclosing[depth] = current } else { enclosing.append(current) }
    depth &+= 1
    current = _KeyLevel(level: level, hashStart: hashCount)
    guard let order else { return }
    if order >= orders.count { addOrders(through: order) }
    switch orders[order].phase {
    case .known:
      current.order = order
    case .unknown:
      orders[order].phase = .learning
      current.order = order
      current.learning = true
    case .learning:
      // An enclosing value of the same type is learning it.
      break
    }
  }

  @inline(never)
  private mutating func addOrders(through order: Int) {
    while orders.count <= order { orders.append(_KeyOrder()) }
  }

  /// The object at `level`, the innermost open one, has closed.
  mutating func close(level: Int) {
    assert(current.level == level, "an object closed out of order")
    if names != nil { names!.removeSubrange(current.hashStart...) }
    hashCount = current.hashStart
    if let order = current.order, current.learning { orders[order].phase = .known }
    depth &-= 1
    current = enclosing[depth]
  }

  /// Adds `name` to the keys of the object at `level` (the innermost open one): its position
  /// in the object's key order, ``unordered`` when it has none, or ``repeated`` (and nothing
  /// added) when the key is already there (or, very rarely, another key with the same hash).
  @inline(__always)
  mutating func insert(_ name: String, level: Int) -> Int {
    assert(current.level == level, "a key for an object that is not the innermost")
    if let order = current.order, !current.learning {
      let position = current.position
      let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: position)
      if position < orders[order].count && orders[order].isKey(position, name)
        && current.written & bit == 0
      {
        current.written |= bit
        current.position = position &+ 1
        return position
      }
      return insertOutOfOrder(name, order)
    }
    guard insert(name, hash: _keyHash(name)) else { return Self.repeated }
    if let order = current.order, orders[order].count < _KeyOrder.capacity {
      // Learning: its keys, checked distinct, are the order.
      let position = orders[order].count
      addToOrder(order, name, at: position)
      return position
    }
    return Self.unordered
  }

  /// Puts `name` at `position` in key order `order`, with its quoted form for JSON text.
  private mutating func addToOrder(_ order: Int, _ name: String, at position: Int) {
    guard let quoting else { return orders[order].insert(name, at: position) }
    let quotedStart = keyText.count
    keyText += quoting.quoted(name)
    let bytesStart = keyText.count
    keyText += name.utf8
    orders[order].insert(
      name, at: position, quoted: quotedStart..<bytesStart, bytes: bytesStart..<keyText.count)
  }

  /// Writes the key at `position` in the key order of the object at `level` (the innermost
  /// open one), quoted, to `writer`.
  @inline(__always)
  func writeQuotedKey(level: Int, position: Int, to writer: inout JSONWriter<JSONByteSink>)
    throws
  {
    assert(current.level == level, "a key for an object that is not the innermost")
    let order = current.order!
    try writer.writeQuotedKey(
      keyText, quoted: orders[order].keys[position].quoted,
      key: orders[order].keys[position].bytes)
  }

  /// Adds `name`, whose hash is `hash`, to the keys of the innermost object checked by hash;
  /// false (nothing added) when the hash is there already, and, if `names` are kept, its key
  /// too.
  private mutating func insert(_ name: String, hash: UInt64) -> Bool {
    let bit: UInt64 = 1 &<< (hash & 63)
    let word: UInt64
    switch (hash &>> 6) & 3 {
    case 0: word = current.filter.0
    case 1: word = current.filter.1
    case 2: word = current.filter.2
    default: word = current.filter.3
    }
    if word & bit != 0 && contains(name, hash) { return false }
    switch (hash &>> 6) & 3 {
    case 0: current.filter.0 |= bit
    case 1: current.filter.1 |= bit
    case 2: current.filter.2 |= bit
    default: current.filter.3 |= bit
    }
    if hashCount < hashes.count { hashes[hashCount] = hash } else { hashes.append(hash) }
    names?.append(name)
    hashCount &+= 1
    return true
  }

  /// Whether the innermost object has a key with `hash` (and, if `names` are kept, `name`).
  private func contains(_ name: String, _ hash: UInt64) -> Bool {
    var index = current.hashStart
    while index < hashCount {
      if hashes[index] == hash {
        guard let names else { return true }
        if names[index].utf8.elementsEqual(name.utf8) { return true }
      }
      index &+= 1
    }
    return false
  }

  /// A key not where the order expects it: elsewhere in the order, new to it (added while
  /// there is room), or, the order full, the object goes on by hashes.
  @inline(never)
  private mutating func insertOutOfOrder(_ name: String, _ order: Int) -> Int {
    let expected = min(current.position, orders[order].count)
    if let position = orders[order].position(of: name, from: expected) {
      let bit: UInt64 = 1 &<< UInt64(position)
      if current.written & bit != 0 { return Self.repeated }
      current.written |= bit
      current.position = position + 1
      return position
    }
    if orders[order].count < _KeyOrder.capacity {
      // New to the order: where this object expected its next key, so that the order follows
      // the type's, unless another open object (the type contains itself) counts on the
      // positions; then at the end.
      let position = isChecked(against: order) ? orders[order].count : expected
      addToOrder(order, name, at: position)
      let below: UInt64 = (1 &<< UInt64(position)) &- 1
      let written = current.written
      current.written = (written & below) | ((written & ~below) &<< 1) | (below &+ 1)
      current.position = position + 1
      return position
    }
    // The order is full: this object goes on by hashes, of the keys it has written first.
    current.order = nil
    var written = current.written
    while written != 0 {
      let key = orders[order].keys[written.trailingZeroBitCount].name
      _ = insert(key, hash: _keyHash(key))
      written &= written &- 1
    }
    return insert(name, hash: _keyHash(name)) ? Self.unordered : Self.repeated
  }

  /// Whether an enclosing open object is checked against `order` (its type contains itself).
  /// Found when needed, rarely: a count kept as objects open and close cost an array change
  /// per object.
  private func isChecked(against order: Int) -> Bool {
    enclosing[..<depth].contains { $0.order == order && !$0.learning }
  }
}
