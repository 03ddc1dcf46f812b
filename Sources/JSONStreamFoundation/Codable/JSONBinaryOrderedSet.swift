/// A collection that the binary format keeps as an ordered set: conform an ordered set type
/// to it (`extension OrderedSet: JSONBinaryOrderedSet {}` for the one in swift-collections),
/// and ``JSONStreamEncoder/encodeBinary(_:)`` writes its elements, in its order, as the
/// format's ordered set instead of an array.
///
/// Only binary output changes: JSON and trees get what the type's own `encode(to:)` writes.
/// Read as JSON, and by ``JSONStreamDecoder/decode(_:fromBinary:)``, an ordered set is an
/// array of its elements, so the type's `init(from:)` must read what its `encode(to:)`
/// writes as an unkeyed container of its elements (swift-collections' does).
public protocol JSONBinaryOrderedSet: Encodable, Sequence where Element: Encodable {}
