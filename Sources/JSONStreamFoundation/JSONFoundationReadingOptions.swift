/// What kind of Foundation objects ``JSONFoundationBuilder`` makes: the reading options of
/// `JSONSerialization` (JSONKit's `objectWith…` and `mutableObjectWith…`).
///
/// ```swift
/// let tree = try JSONFoundation.object(with: data, options: [.mutableContainers])
/// (tree as! NSMutableDictionary)["seen"] = true
/// ```
public struct JSONFoundationReadingOptions: OptionSet, Sendable, Hashable {
  /// The bits of the set options.
  public let rawValue: UInt

  /// Options with the bits of `rawValue`.
  public init(rawValue: UInt) {
    self.rawValue = rawValue
  }

  /// Objects and arrays become `NSMutableDictionary` and `NSMutableArray` (with `NSString`
  /// keys and values) instead of Swift dictionaries and arrays.
  public static let mutableContainers = JSONFoundationReadingOptions(rawValue: 1 << 0)

  /// String values become `NSMutableString` instead of `String` (or `NSString` in mutable
  /// containers). Keys stay immutable.
  public static let mutableLeaves = JSONFoundationReadingOptions(rawValue: 1 << 1)

  /// A top-level value may be a string, number, `true`, `false` or `null`; without this, only an
  /// object or an array is accepted at the top level.
  public static let fragmentsAllowed = JSONFoundationReadingOptions(rawValue: 1 << 2)
}
