// Growable buffers of trivial values, shared by the layers above: the tree builder appends a
// node or a few bytes per event, the writers their output. Swift arrays cost a uniqueness
// check and a generic call per append there, and shrinking one goes through `replaceSubrange`. These are plain memory: their owner (a `_ManualState`) frees them.
// Every read and write through the safe-looking members is checked against `count` with one
// unsigned compare, so a consumer that pops an empty stack traps instead of reading memory it
// does not own; `base` (an unsafe pointer) is for the kernels alone.

@usableFromInline
@safe package struct _Buffer<Element: BitwiseCopyable> {
  @usableFromInline package var base: UnsafeMutablePointer<Element>
  @usableFromInline package internal(set) var count: Int
  @usableFromInline package var capacity: Int

  @inlinable
  package init(capacity: Int) {
    unsafe base = .allocate(capacity: capacity)
    count = 0
    self.capacity = capacity
  }

  @inlinable @inline(__always)
  package mutating func append(_ element: Element) {
    if count == capacity { grow(toAtLeast: count &+ 1) }
    unsafe (base + count).initialize(to: element)
    count &+= 1
  }

  @inlinable @inline(__always)
  package mutating func append(_ elements: UnsafeBufferPointer<Element>) {
    let n = elements.count
    if n == 0 { return }
    if n > capacity &- count { grow(toAtLeast: count &+ n) }
    unsafe (base + count).initialize(from: elements.baseAddress!, count: n)
    count &+= n
  }

  /// A buffer of `count` copies of `element`.
  @inlinable
  package init(repeating element: Element, count: Int) {
    self.init(capacity: Swift.max(count, 1))
    unsafe base.initialize(repeating: element, count: count)
    self.count = count
  }

  /// Removes and returns the last element; traps when there is none.
  @inlinable @inline(__always)
  package mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast() on an empty buffer")
    count &-= 1
    return unsafe base[count]
  }

  /// Drops the elements from `newCount` (at most `count`) on.
  @inlinable @inline(__always)
  package mutating func truncate(to newCount: Int) {
    // One unsigned compare: `newCount` is neither negative nor past `count`.
    precondition(UInt(bitPattern: newCount) <= UInt(bitPattern: count), "truncate past the end")
    count = newCount
  }

  /// The element at `position`, which must be below `count`.
  @inlinable @inline(__always)
  package subscript(position: Int) -> Element {
    get {
      precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "index out of range")
      return unsafe base[position]
    }
    nonmutating set {
      precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "index out of range")
      unsafe base[position] = newValue
    }
  }

  @usableFromInline
  package mutating func grow(toAtLeast minimum: Int) {
    var newCapacity = Swift.max(capacity &* 2, 64)
    while newCapacity < minimum { newCapacity &*= 2 }
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    unsafe newBase.initialize(from: base, count: count)
    unsafe base.deallocate()
    unsafe base = unsafe newBase
    capacity = newCapacity
  }

  /// A separate buffer with the same elements.
  @usableFromInline
  package func copy() -> _Buffer {
    var copy = _Buffer(capacity: Swift.max(capacity, 1))
    unsafe copy.append(UnsafeBufferPointer(start: base, count: count))
    return copy
  }

  @usableFromInline
  package func deallocate() { unsafe base.deallocate() }
}

extension _Buffer where Element == UInt8 {
  /// Makes room for `count` more bytes, so that many unchecked writes may follow.
  @inlinable @inline(__always)
  package mutating func reserve(_ count: Int) {
    if count > capacity &- self.count { grow(toAtLeast: self.count &+ count) }
  }

  /// Appends a byte there is room for (see ``reserve(_:)``). Unchecked: a caller that has not
  /// reserved the room writes past the buffer. The binary writer writes its tokens so, after
  /// one `reserve` for a key and a value (its `checked: false`); everything else appends
  /// with a check.
  @inlinable @inline(__always)
  package mutating func appendReservedUnchecked(_ byte: UInt8) {
    unsafe base[count] = byte
    count &+= 1
  }

  /// Counts `written` bytes stored at ``end`` into room there is (see ``reserve(_:)``).
  /// Unchecked, like ``appendReservedUnchecked(_:)``: the binary writer stores its fixed-width
  /// and LEB128 numbers so.
  @inlinable @inline(__always)
  package mutating func advanceReservedUnchecked(by written: Int) {
    count &+= written
  }

  /// Appends bytes, mostly few: see `_copyBytes`.
  @inlinable @inline(__always)
  package mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    let n = bytes.count
    if n > capacity &- count { grow(toAtLeast: count &+ n) }
    if let source = bytes.baseAddress {
      unsafe _copyBytes(from: source, to: base + count, count: n)
    }
    count &+= n
  }

  /// Appends all the bytes of `bytes`.
  @inlinable @inline(__always)
  package mutating func appendBytes(_ bytes: _ScanInput) {
    unsafe appendBytes(bytes._buffer)
  }

  /// Writes the bytes of `string` over everything from `start` on (at most `count`): they then
  /// end the buffer.
  @inlinable @inline(__always)
  package mutating func replaceTail(from start: Int, with string: borrowing JSONString) {
    // One unsigned compare: `start` is neither negative nor past `count`.
    precondition(UInt(bitPattern: start) <= UInt(bitPattern: count))
    count = start
    unsafe appendBytes(string.utf8)
  }

  /// The bytes in `range` (within `count`) as a `String`, ill-formed UTF-8 repaired.
  @inlinable
  package func string(_ range: Range<Int>) -> String {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    return unsafe String(
      decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count),
      as: UTF8.self)
  }

  /// Appends the bytes of `text`.
  @inlinable @inline(__always)
  package mutating func append(_ text: StaticString) {
    unsafe appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends `count` copies of `byte`.
  @inlinable @inline(__always)
  package mutating func append(repeating byte: UInt8, count: Int) {
    reserve(count)
    unsafe (base + self.count).initialize(repeating: byte, count: count)
    self.count &+= count
  }

  /// Appends the bytes of an array.
  @inlinable
  package mutating func append(contentsOf bytes: [UInt8]) {
    unsafe bytes.withUnsafeBufferPointer { unsafe appendBytes($0) }
  }

  /// Appends `bytes[range]`; traps when `range` is not within `bytes`.
  @inlinable
  package mutating func append(contentsOf bytes: [UInt8], range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range out of bounds")
    unsafe bytes.withUnsafeBufferPointer {
      unsafe appendBytes(UnsafeBufferPointer(rebasing: $0[range]))
    }
  }

  /// Appends a number's text as written.
  @inlinable @inline(__always)
  package mutating func append(_ number: borrowing JSONNumber) {
    unsafe appendBytes(number.utf8)
  }

  /// Appends the UTF-8 of `text` but its last `dropLast` bytes (at most its count).
  @inlinable
  package mutating func append(utf8Of text: inout String, dropLast: Int = 0) {
    text.withUTF8 { bytes in
      unsafe appendBytes(UnsafeBufferPointer(rebasing: bytes.dropLast(dropLast)))
    }
  }

  /// Appends the decimal digits of `magnitude`, after a `-` when `negative`.
  @inlinable
  package mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
    appendDecimal(magnitude, fractionDigits: 0, negative: negative, pointZero: false)
  }

  /// Appends `digits` as a decimal whose last `fractionDigits` (at most 255, the binary
  /// format's largest scale) follow the point (`0.025` for 25 and 3), after a `-` when
  /// `negative`. With no fraction digits, `25.0`, or `25` when `pointZero` is false.
  @inlinable
  package mutating func appendDecimal(
    _ digits: UInt64, fractionDigits: Int, negative: Bool, pointZero: Bool
  ) {
    unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _decimalTextCapacity) {
      buffer in
      let start = unsafe _writeDecimalText(
        digits, fractionDigits: fractionDigits, negative: negative, pointZero: pointZero,
        endingAt: buffer)
      unsafe append(UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// `body`'s result from the bytes written so far, read in place (valid only in `body`).
  @inlinable
  package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    unsafe try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The bytes from `start` (within `count`) to the end, as an array.
  @inlinable
  package func array(from start: Int = 0) -> [UInt8] {
    precondition(start >= 0 && start <= count)
    return unsafe Array(UnsafeBufferPointer(start: base + start, count: count &- start))
  }

  /// Appends a copy of the bytes in `range` (within `count`): how a sorted object's members
  /// are written again in their new order.
  @inlinable
  package mutating func appendCopy(of range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    reserve(range.count)
    // The copy goes past `count`, beyond the source: the two do not overlap.
    unsafe (base + count).initialize(from: base + range.lowerBound, count: range.count)
    count &+= range.count
  }

  /// Copies the bytes from `source` to the end over those from `destination`, which must end
  /// at or before `source` (the two do not overlap); they then end the buffer.
  @inlinable
  package mutating func replace(from destination: Int, withTailFrom source: Int) {
    let length = count &- source
    precondition(destination >= 0 && source <= count && destination <= source &- length)
    unsafe (base + destination).update(from: base + source, count: length)
    count = destination &+ length
  }

  /// The bytes in `a` against those in `b` (both within `count`), in lexicographic byte
  /// order, a prefix first: negative when `a` comes first, 0 when they are equal, positive
  /// when `a` comes after.
  @inlinable
  package func compare(_ a: Range<Int>, _ b: Range<Int>) -> Int {
    precondition(a.lowerBound >= 0 && a.upperBound <= count)
    precondition(b.lowerBound >= 0 && b.upperBound <= count)
    let common = Swift.min(a.count, b.count)
    var index = 0
    while index < common {
      let x = unsafe base[a.lowerBound &+ index]
      let y = unsafe base[b.lowerBound &+ index]
      if x != y { return Int(x) &- Int(y) }
      index &+= 1
    }
    return a.count &- b.count
  }

  /// The first free byte, to write reserved room directly.
  @inlinable @inline(__always)
  package var end: UnsafeMutablePointer<UInt8> { unsafe base + count }
}

/// The most bytes `_writeDecimalText` writes: 20 digits hold UInt64.max; with the point, a
/// "0" before it, a sign and 255 fraction digits (zeros where the digits are fewer), 280. A
/// constant the compiler sees, so that the buffer for it is made on the stack.
@inlinable
package var _decimalTextCapacity: Int { 280 }

/// Writes `digits` as a decimal whose last `fractionDigits` (0…255) follow the point (`0.025`
/// for 25 and 3), after a `-` when `negative`, with `.0` when there are no fraction digits and
/// `pointZero`: backwards, ending at the end of `buffer` (`_decimalTextCapacity` bytes).
/// Returns where the text starts. Digits go two at a time, from a table of the pairs `00`
/// to `99`: half the divisions of a digit at a time.
@inlinable
package func _writeDecimalText(
  _ digits: UInt64, fractionDigits: Int, negative: Bool, pointZero: Bool,
  endingAt buffer: UnsafeMutableBufferPointer<UInt8>
) -> Int {
  precondition(fractionDigits >= 0 && fractionDigits <= 255)
  precondition(buffer.count >= _decimalTextCapacity)
  // A literal's bytes, in the program's constant data: no table to build, no check to read.
  let pairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
  let table = unsafe pairs.utf8Start
  var position = buffer.count
  var rest = digits
  @inline(__always) func writePair() {
    let pair = Int(truncatingIfNeeded: rest % 100) &* 2
    rest /= 100
    position &-= 2
    unsafe buffer[position] = table[pair]
    unsafe buffer[position &+ 1] = table[pair &+ 1]
  }
  @inline(__always) func writeDigit() {
    position &-= 1
    unsafe buffer[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
    rest /= 10
  }
  if fractionDigits == 0 && pointZero {
    position &-= 2
    unsafe buffer[position] = UInt8(ascii: ".")
    unsafe buffer[position &+ 1] = UInt8(ascii: "0")
  }
  if fractionDigits > 0 {
    for _ in 0..<(fractionDigits &>> 1) { writePair() }
    if fractionDigits & 1 != 0 { writeDigit() }
    position &-= 1
    unsafe buffer[position] = UInt8(ascii: ".")
  }
  while rest >= 100 { writePair() }
  if rest >= 10 { writePair() } else { writeDigit() }
  if negative {
    position &-= 1
    unsafe buffer[position] = UInt8(ascii: "-")
  }
  return position
}
