// The Codable coders' references that are read without a retain (a retain and release per
// use showed in profiles): the one place such references are made and used. Each type here
// keeps what it lends alive by construction, so what it offers is safe to use.

/// One object per type, made the first time the type is met in a coding call and then found
/// with a table lookup per use instead of conformance checks, the maps' construction or
/// generic metadata lookups. The table is looked up in up to `probes` slots from the type's
/// own, so that types whose slots collide (it depends on where their metadata lies) do not
/// push each other out and back at every use; past that, a newcomer replaces the one in its
/// own slot (found again in `byType`, which holds them all).
///
/// The slots do not retain their objects (a retain and release per use showed in profiles):
/// `byType` holds every object the table made until the table is freed. So an object lent to
/// `withValue`'s body outlives the call, which has the table to itself while it runs.
struct _TypeTable<Value: AnyObject> {
  private var slots = [Slot](repeating: Slot(), count: _TypeTable.slotCount)
  private var byType: [ObjectIdentifier: Value] = [:]

  @safe private struct Slot {
    var type: ObjectIdentifier? = nil
    /// Not retained: `byType` holds it.
    var value: Unmanaged<Value>? = nil
  }

  private static var slotBits: Int { 6 }
  private static var slotCount: Int { 1 << slotBits }
  private static var probes: Int { 4 }

  /// How many objects the table has made.
  var count: Int { byType.count }

  /// Calls `body` with the object of `type`, made by `make` the first time, and returns what
  /// it returns.
  @inline(__always)
  mutating func withValue<R>(
    for type: ObjectIdentifier, make: () -> Value, body: (Value) throws -> R
  ) rethrows -> R {
    unsafe try value(for: type, make: make)._withUnsafeGuaranteedRef(body)
  }

  @inline(__always)
  private mutating func value(for type: ObjectIdentifier, make: () -> Value) -> Unmanaged<Value> {
    let home = _slot(of: type, bits: Self.slotBits)
    for probe in 0..<Self.probes {
      let slot = (home &+ probe) & (Self.slotCount &- 1)
      if slots[slot].type == type { return unsafe slots[slot].value.unsafelyUnwrapped }
      if slots[slot].type == nil { break }
    }
    return unsafe add(type, make)
  }

  @inline(never)
  private mutating func add(_ type: ObjectIdentifier, _ make: () -> Value) -> Unmanaged<Value> {
    let value: Value
    if let known = byType[type] {
      value = known
    } else {
      value = make()
      byType[type] = value
    }
    let home = _slot(of: type, bits: Self.slotBits)
    var slot = home
    for probe in 0..<Self.probes {
      let free = (home &+ probe) & (Self.slotCount &- 1)
      if slots[free].type == nil {
        slot = free
        break
      }
    }
    slots[slot] = unsafe Slot(type: type, value: .passUnretained(value))
    return unsafe .passUnretained(value)
  }
}

/// The slot of `type` in a table of 2^`bits` slots: the high bits of its address times a
/// large odd number (Fibonacci hashing), cheaper than `Hasher` and spread well enough for
/// metadata addresses.
@inline(__always)
func _slot(of type: ObjectIdentifier, bits: Int) -> Int {
  Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15) >> (64 &- bits))
}

/// The ``_TypeInfo`` of each type met in one coding call.
typealias _TypeInfos = _TypeTable<_TypeInfo>

extension _TypeTable where Value == _TypeInfo {
  /// Calls `body` with the info of `type`, numbered in the order the types are met.
  @inline(__always)
  mutating func withInfo<R>(for type: Any.Type, _ body: (_TypeInfo) throws -> R) rethrows -> R {
    let number = count
    return try withValue(
      for: ObjectIdentifier(type), make: { _TypeInfo(type, number: number) }, body: body)
  }
}

/// The keyed container types of each key type met in one coding call: made once per key type,
/// where making a container of a generic type looked up its metadata every time (8% of the
/// instructions encoding citm_catalog.json).
struct _KeyedContainerTypes {
  /// Only the methods below add to it: under `Key`, always a `_KeyedContainerType<Key>`.
  private var table = _TypeTable<_AnyKeyedContainerType>()

  // The two lookups below are written out, not shared through a method generic over what
  // it returns: with one, the optimizer looked up the existential metatype's metadata at run
  // time for every container (+7% instructions decoding citm_catalog.json).

  /// The decoder's container type of `Key`.
  @inline(__always)
  mutating func decoderType<Key: CodingKey>(keyedBy key: Key.Type)
    -> any _KeyedDecoderContainer<Key>.Type
  {
    table.withValue(
      for: ObjectIdentifier(Key.self), make: { _KeyedContainerType<Key>() },
      body: {
        // Without a check, which would look up the class's generic metadata: see `table`.
        unsafe unsafeDowncast($0, to: _KeyedContainerType<Key>.self).decoderType
      })
  }

  /// The encoder's container type of `Key`.
  @inline(__always)
  mutating func encoderType<Key: CodingKey>(keyedBy key: Key.Type)
    -> any _KeyedEncoderContainer<Key>.Type
  {
    table.withValue(
      for: ObjectIdentifier(Key.self), make: { _KeyedContainerType<Key>() },
      body: { unsafe unsafeDowncast($0, to: _KeyedContainerType<Key>.self).encoderType })
  }
}

/// A keyed container's decoder and extras (see `_KeyedContainer`), held by one reference: the
/// extras when there are any (they hold the decoder), else the decoder. The box of
/// `KeyedDecodingContainer` copies the container for every key it is asked for, a retain and
/// a release per reference in it; the other two are lent without one.
@safe struct _KeyedContainerOwner {
  /// Keeps the decoder, and through it the document, alive as long as anything holds the
  /// container (an `init(from:)` may keep it past the call).
  private let owner: AnyObject
  private let unretainedDecoder: Unmanaged<_Decoder>
  private let unretainedExtras: Unmanaged<_KeyedExtras>?

  /// The owner of a container without extras.
  init(decoder: _Decoder) {
    owner = decoder
    unsafe unretainedDecoder = unsafe .passUnretained(decoder)
    unsafe unretainedExtras = nil
  }

  /// The owner of a container with `extras`, and their decoder.
  init(extras: _KeyedExtras) {
    owner = extras
    unsafe unretainedDecoder = unsafe .passUnretained(extras.decoder)
    unsafe unretainedExtras = unsafe .passUnretained(extras)
  }

  /// Runs `body` with the decoder.
  @inline(__always)
  func withDecoder<R>(_ body: (_Decoder) throws -> R) rethrows -> R {
    unsafe try unretainedDecoder._withUnsafeGuaranteedRef(body)
  }

  /// The decoder, retained by the caller as it needs.
  var decoder: _Decoder { unsafe unretainedDecoder.takeUnretainedValue() }

  /// The extras, or nil when there are none; retained by the caller as it needs.
  var extras: _KeyedExtras? { unsafe unretainedExtras?.takeUnretainedValue() }

  var hasExtras: Bool { unsafe unretainedExtras != nil }
}
