import JSONStreamCore
import JSONStreamValue

/// Delivers each value a JSONPath selection picks as a complete ``JSONValue``, as soon as its
/// last byte has been parsed: the elements of a huge array one by one (`$[*]`, SBJson's
/// unwrapRootArray), a nested array's (`$.results[*]`), an object's members as key–value pairs
/// (`$.rates.*`, ijson's kvitems). Memory holds the item being built, not the document.
///
/// ```swift
/// var parser = JSONParser(handler: JSONItemStreamer(paths: [try JSONPath("$.results[*]")]) {
///   item in print(item.match.index!, item.value)
/// })
/// for chunk in chunks { try parser.feed(chunk) }
/// try parser.finish()
/// ```
///
/// Without a closure, items collect in ``items``: take them with ``takeItems()`` after each
/// `feed`.
public struct JSONItemStreamer: JSONEventHandler {
  /// A selected value with where it was found.
  public struct Item: Sendable, Equatable {
    /// Which paths selected it, and its key or index.
    public var match: JSONPathMatch
    /// The selected value.
    public var value: JSONValue
  }

  /// Items not taken yet (only when there is no `onItem` closure).
  public private(set) var items: [Item] = []
  /// How many items were delivered so far.
  public private(set) var itemCount = 0

  private var tracker: _SelectionTracker
  var builder: JSONTreeBuilder
  private let onItem: ((Item) throws -> Void)?

  /// - Parameters:
  ///   - paths: the selections; an item matched by several is delivered once, naming all.
  ///     Every query ``JSONPath/isStreamable`` takes is streamed, holding what
  ///     ``JSONSelectFilter`` holds.
  ///   - duplicateKeys: what a repeated key inside an item does.
  ///   - reportsPaths: whether each item's match has its ``JSONPathMatch/normalizedPath``.
  ///   - onItem: called with each item as it completes; without it, items collect in `items`.
  public init(
    paths: [JSONPath], duplicateKeys: JSONDuplicateKeyPolicy = .lastWins,
    reportsPaths: Bool = false, onItem: ((Item) throws -> Void)? = nil
  ) {
    tracker = _SelectionTracker(
      paths, holdsValues: true, reportsPaths: reportsPaths, duplicateKeys: duplicateKeys)
    builder = JSONTreeBuilder(duplicateKeyPolicy: duplicateKeys)
    self.onItem = onItem
  }

  /// A container no path can reach is skipped by the parser: checked, not decoded.
  public var skipsContainerContents: Bool { tracker.deadDepth > 0 }
  /// `true`: the streamer has the parser skip the containers no path can reach.
  public static var canSkipContainers: Bool { true }

  /// How many of the open containers must end before an item can be complete (0 when the
  /// next value may complete one): inside an item with nothing selected within it, or inside
  /// a value no path reaches, nothing is delivered before the bracket that closes it. Lets an
  /// async sequence of single bytes hold those bytes back and feed them in one piece.
  package var containersBeforeNextItem: Int { tracker.containersBeforeDecision }

  /// Bytes of tree memory held now (the item in progress, or a value held to decide):
  /// what streaming keeps bounded.
  package var heldBytes: Int { builder.allocatedBytes + tracker.heldBuilder.allocatedBytes }

  /// Returns the items collected so far and forgets them.
  public mutating func takeItems() -> [Item] {
    defer { items.removeAll() }
    return items
  }

  private mutating func deliver() throws {
    try deliver(Item(match: tracker.match, value: builder.takeValues()[0]))
  }

  private mutating func deliver(_ item: Item) throws {
    itemCount += 1
    if let onItem { try onItem(item) } else { items.append(item) }
  }

  /// Delivers the values the tracker has decided.
  private mutating func deliverResults() throws {
    let results = tracker.results
    tracker.results.removeAll(keepingCapacity: true)
    for result in results { try deliver(Item(match: result.match, value: result.value)) }
  }

  /// Starts building the object when it is selected or inside a selected value; ignores it
  /// elsewhere.
  public mutating func startObject() throws {
    switch try tracker.valueStart(container: true, isObject: true) {
    case .matchStart, .inside: builder.startObject()
    case .held: tracker.heldBuilder.startObject()
    case .heldInside:
      builder.startObject()
      tracker.heldBuilder.startObject()
    case .outside, .matchEnd: break
    }
  }

  /// Starts building the array when it is selected or inside a selected value; ignores it
  /// elsewhere.
  public mutating func startArray() throws {
    switch try tracker.valueStart(container: true) {
    case .matchStart, .inside: builder.startArray()
    case .held: tracker.heldBuilder.startArray()
    case .heldInside:
      builder.startArray()
      tracker.heldBuilder.startArray()
    case .outside, .matchEnd: break
    }
  }

  /// Ends the object being built; a selected object is then delivered as an item.
  public mutating func endObject() throws {
    switch tracker.valueEnd() {
    case .inside: builder.endObject()
    case .matchEnd:
      builder.endObject()
      try deliver()
      if !tracker.results.isEmpty && tracker.canDeliver { try deliverResults() }
    case .held:
      tracker.heldBuilder.endObject()
      if tracker.heldDepth == 0 { try heldValueEnded() }
    case .heldInside:
      builder.endObject()
      tracker.heldBuilder.endObject()
      if tracker.heldDepth == 0 { try heldValueEnded() }
    case .outside, .matchStart:
      if !tracker.results.isEmpty && tracker.canDeliver { try deliverResults() }
    }
  }

  /// Ends the array being built; a selected array is then delivered as an item.
  public mutating func endArray() throws {
    switch tracker.valueEnd() {
    case .inside: builder.endArray()
    case .matchEnd:
      builder.endArray()
      try deliver()
      if !tracker.results.isEmpty && tracker.canDeliver { try deliverResults() }
    case .held:
      tracker.heldBuilder.endArray()
      if tracker.heldDepth == 0 { try heldValueEnded() }
    case .heldInside:
      builder.endArray()
      tracker.heldBuilder.endArray()
      if tracker.heldDepth == 0 { try heldValueEnded() }
    case .outside, .matchStart:
      if !tracker.results.isEmpty && tracker.canDeliver { try deliverResults() }
    }
  }

  /// A held value is complete: delivers what it gave, unless it is inside an item being
  /// built (then after that item).
  private mutating func heldValueEnded() throws {
    tracker.heldValueEnded()
    if tracker.canDeliver { try deliverResults() }
  }

  /// Adds the key to the value being built when it is inside a selected value.
  public mutating func key(_ key: borrowing JSONString) throws {
    switch tracker.key(key) {
    case .inside: try builder.key(key)
    case .held: try tracker.heldBuilder.key(key)
    case .heldInside:
      try builder.key(key)
      try tracker.heldBuilder.key(key)
    case .outside, .matchStart, .matchEnd: break
    }
  }

  /// Passes the run on to the tree builders that make the items.
  public mutating func beginEventRun() {
    builder.beginEventRun()
    tracker.heldBuilder.beginEventRun()
  }
  /// Passes the end of the run on to the tree builders that make the items.
  public mutating func endEventRun() {
    builder.endEventRun()
    tracker.heldBuilder.endEventRun()
  }

  /// A scalar: part of an item, or an item of its own.
  private mutating func scalar(_ add: (inout JSONTreeBuilder) throws -> Void) throws {
    switch try tracker.valueStart(container: false) {
    case .inside: try add(&builder)
    case .matchStart:
      try add(&builder)
      try deliver()
    case .held:
      try add(&tracker.heldBuilder)
      if tracker.heldDepth == 0 { try heldValueEnded() }
    case .heldInside:
      try add(&builder)
      try add(&tracker.heldBuilder)
      if tracker.heldDepth == 0 { try heldValueEnded() }
    case .outside, .matchEnd: break
    }
  }

  /// Adds the string to the item being built, or delivers it as an item when it is selected.
  public mutating func string(_ value: borrowing JSONString) throws {
    try scalar { $0.string(value) }
  }
  /// Adds the number to the item being built, or delivers it as an item when it is selected.
  public mutating func number(_ value: borrowing JSONNumber) throws {
    try scalar { $0.number(value) }
  }
  /// Adds the number to the item being built, or delivers it as an item when it is selected.
  public mutating func binaryNumber(_ value: JSONBinaryNumber) throws {
    try scalar { $0.binaryNumber(value) }
  }
  /// Adds the Boolean to the item being built, or delivers it as an item when it is selected.
  public mutating func bool(_ value: Bool) throws { try scalar { $0.bool(value) } }
  /// Adds `null` to the item being built, or delivers it as an item when it is selected.
  public mutating func null() throws { try scalar { $0.null() } }
}
