import JSONStreamCore
import JSONStreamValue

/// The keys of a patch's object (or a patch path's next tokens), looked up by an event's key:
/// by its UTF-8 bytes, as a JSON Pointer and an object compare keys. A few keys are compared
/// in turn; more are hashed.
@usableFromInline
struct _PatchTokenTable: Sendable {
  @usableFromInline let tokens: [String]
  /// For more than `linearLimit` tokens: each token's position by its bytes.
  @usableFromInline let positions: [[UInt8]: Int]?

  static var linearLimit: Int { 12 }

  init(_ tokens: [String]) {
    self.tokens = tokens
    if tokens.count > _PatchTokenTable.linearLimit {
      var positions: [[UInt8]: Int] = [:]
      for (position, token) in tokens.enumerated() where positions[Array(token.utf8)] == nil {
        positions[Array(token.utf8)] = position
      }
      self.positions = positions
    } else {
      positions = nil
    }
  }

  /// The position of the token whose bytes are `key`'s.
  @inlinable
  func position(of key: borrowing JSONString) -> Int? {
    if let positions { return positions[key.bytes] }
    for position in tokens.indices where key == tokens[position] { return position }
    return nil
  }
}
