import JSONStreamCore
import JSONStreamParser

/// A JSON array: its elements in order, with constant-time access by position, changed in
/// place with the methods of Swift's own arrays.
///
/// ```swift
/// var tags: JSONArray = ["a", "b"]
/// tags[1]                            // "b"
/// tags.append("c")
/// tags[0] = 5
/// tags.remove(at: 1)
/// for tag in tags { … }
/// JSONArray(names.map(JSONValue.init))
/// ```
///
/// A parsed array is a view of its document's memory: reading an element makes its Swift
/// value then. Like an array slice, a view keeps the whole document's memory alive. Its first
/// change turns this array alone into Swift values (its elements stay views); from then on a
/// uniquely held array changes in place, as a Swift `Array` does.
public struct JSONArray: Sendable, Hashable, RandomAccessCollection, MutableCollection,
  RangeReplaceableCollection
{
  /// An element: a ``JSONValue``.
  public typealias Element = JSONValue
  /// Positions are offsets from 0.
  public typealias Index = Int
  /// A range of positions.
  public typealias Indices = Range<Int>

  /// Where the elements are: views of a document's nodes, or, once changed, Swift values.
  @usableFromInline
  package enum _Storage: Sendable {
    case view(_ChildNodes)
    case values([JSONValue])
  }

  @usableFromInline package var _storage: _Storage

  @inlinable
  init(_children: _ChildNodes) {
    _storage = .view(_children)
  }

  /// The elements' nodes in their document's memory, while the array is unchanged.
  @inlinable package var _view: _ChildNodes? {
    if case .view(let children) = _storage { return children }
    return nil
  }

  /// The number of elements.
  @inlinable public var count: Int {
    switch _storage {
    case .view(let children): return children.count
    case .values(let values): return values.count
    }
  }

  /// An empty array.
  public init() {
    self.init(_children: .empty)
  }

  /// An array of `elements`, in order, laid out as a parsed document is.
  public init(_ elements: some Sequence<JSONValue>) {
    self = _JSONStorage.build { builder in
      builder.startArray()
      for element in elements { try element.replay(into: &builder) }
      builder.endArray()
    }.arrayValue!
  }

  /// The elements as a view of nodes: this array's own, or, for a changed array, those of a
  /// copy laid out as a parsed document is.
  @usableFromInline package var _compactView: _ChildNodes {
    if let view = _view { return view }
    return JSONArray(self)._view!
  }

  /// The position of the first element: 0.
  @inlinable public var startIndex: Int { 0 }
  /// The position after the last element: ``count``.
  @inlinable public var endIndex: Int { count }

  /// The element at `position`, which must be in `0..<count`.
  @inlinable
  public subscript(position: Int) -> JSONValue {
    get {
      switch _storage {
      case .view(let children):
        precondition(position >= 0 && position < children.count, "JSONArray index out of range")
        return children.value(position, stride: 1)
      case .values(let values):
        return values[position]
      }
    }
    _modify {
      var values = _takeValues()
      defer { _storage = .values(values) }
      yield &values[position]
    }
  }

  /// Replaces the elements in `bounds` with `newElements`.
  public mutating func replaceSubrange(
    _ bounds: Range<Int>, with newElements: some Collection<JSONValue>
  ) {
    var values = _takeValues()
    values.replaceSubrange(bounds, with: newElements)
    _storage = .values(values)
  }

  /// Makes room for `minimumCapacity` elements.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    var values = _takeValues()
    values.reserveCapacity(minimumCapacity)
    _storage = .values(values)
  }

  /// Adds `element` at the end: amortised constant time for a uniquely held array.
  @inlinable
  public mutating func append(_ element: JSONValue) {
    var values = _takeValues()
    values.append(element)
    _storage = .values(values)
  }

  /// The elements as Swift values, leaving this array empty meanwhile, so that the values
  /// are uniquely held and change in place (inlined: a change's accessor then needs no
  /// frame of its own on the heap). A view becomes values here.
  @inlinable
  mutating func _takeValues() -> [JSONValue] {
    if case .values(let values) = _storage {
      // An empty array stands in: it is the standard library's shared empty storage, which
      // costs no allocation and no reference count.
      _storage = .values([])
      return values
    }
    return _viewValues()
  }

  /// The elements of a view as Swift values, keeping the text of its numbers (see
  /// `_JSONStorage.value(of:keepingText:)`).
  @usableFromInline
  func _viewValues() -> [JSONValue] {
    guard let children = _view else { return [] }
    var values: [JSONValue] = []
    values.reserveCapacity(children.count)
    for position in 0..<children.count {
      values.append(children.value(position, stride: 1, keepingText: true))
    }
    return values
  }
}

extension JSONArray: ExpressibleByArrayLiteral {
  /// An array of `elements`, in order.
  public init(arrayLiteral elements: JSONValue...) {
    self.init(elements)
  }
}

extension _JSONStorage {
  /// The value one builder makes of the events `body` sends it. Values built in code go
  /// through the tree builder, so they share the parsed layout.
  static func build(_ body: (inout JSONTreeBuilder) throws -> Void) -> JSONValue {
    var builder = JSONTreeBuilder(duplicateKeyPolicy: .lastWins)
    // Under `.lastWins` the builder never throws, and replay only throws what its handler does.
    try! body(&builder)
    return builder.value!
  }
}

extension JSONArray {
  /// The same elements of the same document: equal without looking at them.
  func _isSameView(as other: JSONArray) -> Bool {
    guard let view = _view, let otherView = other._view else { return false }
    return view.isSame(as: otherView)
  }
}
