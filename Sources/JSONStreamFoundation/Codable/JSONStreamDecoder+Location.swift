import Foundation
import JSONStream

// Where in the input a decoding error is. The tree keeps no input positions (that would cost
// every parse memory and time for the rare failure), so on an error the input is parsed
// again up to the value the error's coding path names, and the parser's position there is
// the answer: one more pass over part of the input, only when decoding fails.

extension JSONStreamDecoder.Settings {
  /// `error` with " (line L, column C, offset O)" of the value its coding path names (or of
  /// the nearest enclosing value found) added to its debug description.
  /// Positions count from `base` (the line and offset where `input` starts in the input).
  func locating(
    _ error: DecodingError, in input: _ScanInput?, base: _DocumentBase
  ) -> DecodingError {
    error.mapContext { context in
      guard let position = position(of: context.codingPath, in: input) else { return context }
      let column = base.inputColumn(line: position.line, column: position.column)
      return DecodingError.Context(
        codingPath: context.codingPath,
        debugDescription: context.debugDescription
          + " (line \(base.line + position.line - 1), column \(column),"
          + " offset \(base.inputOffset(position.offset)))",
        underlyingError: context.underlyingError)
    }
  }

  /// The position of the value at `path`, or of its nearest ancestor in the input.
  func position(of path: [any CodingKey], in input: _ScanInput?)
    -> (offset: Int, line: Int, column: Int)?
  {
    guard let input else { return nil }
    var target = path
    while true {
      if let found = position(ofExactly: target, in: input) { return found }
      if target.isEmpty { return nil }
      target.removeLast()
    }
  }

  private func position(
    ofExactly path: [any CodingKey], in input: _ScanInput
  ) -> (offset: Int, line: Int, column: Int)? {
    var options = parseOptions
    options.allowMultipleValues = false
    var parser = JSONParser(
      handler: _PathLocator(
        target: path,
        keyName: { [keyDecodingStrategy] in keyDecodingStrategy.name(forMember: $0, in: []) }),
      options: options)
    if !path.isEmpty {
      // A parse error after the value cannot matter: the locator stops the parser before.
      guard (try? parser.feed(input)) == .stopped, parser.handler.found else { return nil }
    }
    // The value starts after the whitespace, `:` or `,` that follows where the parser stopped.
    var offset = parser.offset
    var line = parser.line
    var column = parser.column
    while let byte = input.byte(at: offset) {
      switch byte {
      case UInt8(ascii: "\n"):
        line += 1
        column = 1
      case UInt8(ascii: "\r"):
        if input.byte(at: offset + 1) != UInt8(ascii: "\n") {
          line += 1
          column = 1
        }
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: ","):
        column += 1
      default:
        return (offset, line, column)
      }
      offset += 1
    }
    return nil
  }

}

extension JSONStreamDecoder.KeyDecodingStrategy {
  /// The coding key name an object member's key answers to under this strategy; `path` is the
  /// object's coding path (a custom strategy sees it, with the key last).
  func name(forMember key: String, in path: @autoclosure () -> [any CodingKey]) -> String {
    switch self {
    case .useDefaultKeys: return key
    case .convertFromSnakeCase: return _convertFromSnakeCase(key)
    case .custom(let body): return body(path() + [_JSONKey(key)]).stringValue
    }
  }
}

/// Follows the parse and stops it right before the value at `target` begins: after its key,
/// or after the element before it (or the `[`).
struct _PathLocator: JSONEventHandler {
  struct Frame {
    var isArray: Bool
    /// The path to this container matches the target's first components.
    var onPath: Bool
    /// An array's next element index.
    var nextIndex = 0
  }

  let target: [any CodingKey]
  let keyName: (String) -> String
  var open: [Frame] = []
  /// The value about to begin is on the path (its key or index matched).
  var pendingMatch = false
  var found = false

  init(target: [any CodingKey], keyName: @escaping (String) -> String) {
    self.target = target
    self.keyName = keyName
  }

  var isDone: Bool { found }

  /// The innermost container is on the path and holds the target (its last component).
  var holdsTarget: Bool { open.last?.onPath == true && open.count == target.count }

  /// A value begins: in an array, whether it is the element on the path.
  mutating func beginValue() {
    guard let frame = open.last, frame.isArray else { return }
    let depth = open.count - 1
    pendingMatch = frame.onPath && depth < target.count && target[depth].intValue == frame.nextIndex
  }

  /// A value ended: in an array, the target may be the next element.
  mutating func endValue() {
    pendingMatch = false
    guard let frame = open.last, frame.isArray else { return }
    open[open.count - 1].nextIndex += 1
    if holdsTarget && target.last?.intValue == frame.nextIndex + 1 { found = true }
  }

  mutating func startContainer(isArray: Bool) {
    beginValue()
    open.append(Frame(isArray: isArray, onPath: open.isEmpty || pendingMatch))
    pendingMatch = false
    if isArray && holdsTarget && target.last?.intValue == 0 { found = true }
  }

  mutating func endContainer() {
    open.removeLast()
    endValue()
  }

  mutating func startObject() throws { startContainer(isArray: false) }
  mutating func startArray() throws { startContainer(isArray: true) }
  mutating func endObject() throws { endContainer() }
  mutating func endArray() throws { endContainer() }

  mutating func key(_ key: borrowing JSONString) throws {
    pendingMatch = false
    guard let frame = open.last, frame.onPath, open.count <= target.count else { return }
    let component = target[open.count - 1].stringValue
    let text = key.string
    guard component == text || component == keyName(text) else { return }
    if open.count == target.count { found = true } else { pendingMatch = true }
  }

  mutating func scalar() {
    beginValue()
    endValue()
  }

  mutating func string(_ value: borrowing JSONString) throws { scalar() }
  mutating func number(_ value: borrowing JSONNumber) throws { scalar() }
  mutating func bool(_ value: Bool) throws { scalar() }
  mutating func null() throws { scalar() }
}
