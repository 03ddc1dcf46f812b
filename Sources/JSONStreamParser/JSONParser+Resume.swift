// Resuming inside a top-level array: a long array read in parts, each part by a parser of its
// own (the command line's arrays on every core).
//
// A part that begins right after a comma of the top-level array, with the parse of everything
// before it ending there, is parsed by a fresh parser put in the state the one-pass parser is
// in at that comma: one open array, an element expected. Element positions restart at 0, and
// offsets and lines at the part's start; everything else (what is valid, every limit but the
// input length, every event inside the elements) is as the one-pass parse has it.

import JSONStreamCore

extension JSONParser {
  /// Puts a fresh parser where the parse of a top-level array is right after one of its
  /// commas: the handler is told the array starts (and may ask to skip it), and the input then
  /// goes on with an element (a `]` there is a trailing comma's error, unless trailing commas
  /// are allowed). Throws what the handler throws; call it before any input.
  package mutating func _resumeInsideTopLevelArrayAfterComma() throws {
    precondition(
      _consumed == 0 && _stack.isEmpty && _valueCount == 0,
      "a parser resumes inside an array before any input")
    switch _phase {
    case .running: break
    case .failed: throw _failure!
    case .stopped, .finished, .ended: return
    }
    handler.beginEventRun()
    defer { handler.endEventRun() }
    do {
      try _push(isObject: false, at: 0)
      try handler.startArray()
      if Handler.canSkipContainers && handler.skipsContainerContents { _skipDepth = 1 }
      _expect = .valueAfterComma
    } catch {
      throw _fail(error)
    }
  }

  /// Whether the parse is right after a comma of the top-level array (the input so far is
  /// that array's start and whole elements, and the comma after the last): where a part that
  /// follows may be parsed by a parser that resumed there.
  package var _isInsideTopLevelArrayAfterComma: Bool {
    _phase == .running && _token == .none && _stack.depth == 1 && !_stack.innermostIsObject
      && _expect == .valueAfterComma
  }
}
