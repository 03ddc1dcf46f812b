// The coding keys the coders put in coding paths themselves: a dictionary's keys and array
// indexes (named as Foundation names them).

/// A key in a coding path.
struct _JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { nil }
}

/// An array index in a coding path; its text ("Index 3", as Foundation names it) is made only
/// when asked for.
struct _IndexKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { index = intValue }
}
