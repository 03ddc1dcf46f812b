import JSONStreamCore
import JSONStreamValue

/// The keys of a patch's object (or a patch path's next tokens), looked up by an event's key:
/// by its UTF-8 bytes, as a JSON Pointer and an object compare keys. A few keys are compared
/// in turn; more are hashed.
@usableFromInline
struct _PatchTokenTable: Sendable {
  @usableFromInline let tokens: [String]
  /// For more than `linearLimit` tokens: each token's position, by its bytes (the key type
  /// a changed object's index uses).
  @usableFromInline let positions: [_MemberKey: Int]?

  static var linearLimit: Int { 12 }

  init(_ tokens: [String]) {
    self.tokens = tokens
    if tokens.count > _PatchTokenTable.linearLimit {
      var positions: [_MemberKey: Int] = [:]
      for (position, token) in tokens.enumerated() where positions[_MemberKey(token)] == nil {
        positions[_MemberKey(token)] = position
      }
      self.positions = positions
    } else {
      positions = nil
    }
  }

  /// The position of the token whose bytes are `key`'s.
  @inlinable
  func position(of key: borrowing JSONString) -> Int? {
    // A well-formed key's `String` has its bytes, and up to 15 of them make no allocation
    // (`bytes` always allocated); any other key is compared byte by byte below.
    if let positions, key._isWellFormed { return positions[_MemberKey(key.string)] }
    for position in tokens.indices where key == tokens[position] { return position }
    return nil
  }
}
