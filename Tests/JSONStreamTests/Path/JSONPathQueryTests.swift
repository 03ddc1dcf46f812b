import JSONStream
import Testing

@testable import JSONStreamPath

@Suite("JSONPath queries on trees")
struct JSONPathQueryTests {
  static let store: JSONValue = [
    "store": [
      "book": [
        ["title": "Sayings", "price": 8.95, "tags": ["a"]],
        ["title": "Sword", "price": 12.99, "isbn": "0-553"],
        ["title": "Moby", "price": 8.99, "isbn": "0-395"],
      ],
      "bicycle": ["color": "red", "price": 399],
    ]
  ]

  func titles(_ text: String) throws -> [String] {
    try JSONPath(text).select(in: Self.store).map { $0.stringValue ?? "\($0)" }
  }

  @Test("filters, functions, unions, slices and descendants, in the RFC's order")
  func selections() throws {
    #expect(try titles("$.store.book[?@.price < 10].title") == ["Sayings", "Moby"])
    #expect(try titles("$..book[?@.isbn && @.price > 10].title") == ["Sword"])
    #expect(try titles("$..book[?!@.isbn].title") == ["Sayings"])
    #expect(try titles("$.store.book[-1:0:-1].title") == ["Moby", "Sword"])
    #expect(try titles("$.store.book[0,-1,0].title") == ["Sayings", "Moby", "Sayings"])
    #expect(try titles("$.store.book[?match(@.title, 'S.*')].title") == ["Sayings", "Sword"])
    #expect(try titles("$.store.book[?search(@.isbn, '55')].title") == ["Sword"])
    #expect(try titles("$.store.book[?length(@.title) == 4].title") == ["Moby"])
    #expect(try titles("$.store.book[?count(@.*) == 3].title") == ["Sayings", "Sword", "Moby"])
    #expect(try titles("$.store.book[?value(@..tags[0]) == 'a'].title") == ["Sayings"])
    #expect(try titles("$.store.book[?@.price == $.store.book[2].price].title") == ["Moby"])
    #expect(try titles("$.store.book[::0]") == [])
    #expect(try JSONPath("$..price").select(in: Self.store).count == 4)
    // Nested descendant matches are all reported, each node before its descendants.
    let nested: JSONValue = ["a": ["a": ["a": 1]], "b": ["a": 2]]
    #expect(
      try JSONPath("$..a").selectWithPaths(in: nested).map(\.path) == [
        "$['a']", "$['a']['a']", "$['a']['a']['a']", "$['b']['a']",
      ])
  }

  @Test("comparisons: Nothing equals Nothing; < between numbers or strings only")
  func comparisons() throws {
    let values: JSONValue = [1, 2.5, "b", "ab", true, nil, [1], ["x": 1]]
    func count(_ filter: String) throws -> Int {
      try JSONPath("$[?\(filter)]").select(in: values).count
    }
    #expect(try count("@ < 2") == 1)
    #expect(try count("@ <= 2.5") == 2)
    #expect(try count("@ > 'abc'") == 1)
    #expect(try count("@[0] == 1") == 1)
    #expect(try count("@.x == 1") == 1)
    #expect(try count("@.missing == $.missing") == 8)
    #expect(try count("@.missing != null") == 8)
    #expect(try count("@ == null") == 1)
    #expect(try count("@ == 1.0") == 1)
    #expect(try count("@ == 25e-1") == 1)
    #expect(try count("@ != true") == 7)
    #expect(try count("@ >= true") == 1)
  }

  @Test("numbers order exactly, as == compares them, at any size and precision")
  func numberOrder() throws {
    let numbers = try JSONValue(
      parsing: Array(
        ("[9223372036854775808, 9223372036854775807, 999.9999999999999999, 1000, 1e3, 0.1, "
          + "-0, 0, -1e-400, 1e400, 18446744073709551616, 1000.0000000000000001, -2.5, 9007199254740993]")
          .utf8))
    let values = numbers.arrayValue!.map { $0.numberValue! }
    for a in values {
      for b in values {
        let doc: JSONValue = ["a": .number(a), "b": .number(b)]
        let less = try !JSONPath("$[?@.a < @.b]").select(in: [doc]).isEmpty
        let greater = try !JSONPath("$[?@.a > @.b]").select(in: [doc]).isEmpty
        let equal = try !JSONPath("$[?@.a == @.b]").select(in: [doc]).isEmpty
        // Exactly one holds; `==` and `<` agree.
        #expect([less, greater, equal].filter { $0 }.count == 1, "\(a) \(b)")
        #expect(equal == (a == b), "\(a) \(b)")
      }
    }
    func ordered(_ text: String) throws -> Bool {
      try !JSONPath("$[?@[0] < @[1]]").select(in: [try JSONValue(parsing: Array(text.utf8))])
        .isEmpty
    }
    #expect(try ordered("[9223372036854775807, 9223372036854775808]"))
    #expect(try ordered("[999.9999999999999999, 1000]"))
    #expect(try ordered("[1000, 1000.0000000000000001]"))
    #expect(try ordered("[9007199254740992, 9007199254740993]"))
    #expect(try ordered("[-1e-400, 0]"))
    #expect(try !ordered("[-0, 0]"))
  }

  @Test("normalized paths escape names as RFC 9535 §2.7 says")
  func normalizedPaths() throws {
    let document: JSONValue = ["a'\\\n\u{1}\u{7F}é": [0, 1]]
    let found = try JSONPath("$.*[1]").selectWithPaths(in: document)
    #expect(found.map(\.path) == [#"$['a\'\\\n\u0001"# + "\u{7F}é'][1]"])
  }

  @Test("invalid queries name the offending character's offset")
  func errors() throws {
    for (text, offset) in [
      ("$[?@.a == 1 &&]", 14), ("$[1:2:3:4]", 7), ("$[?length(@.*) == 1]", 10),
      ("$[?foo(@)]", 3), ("$[?count(1) == 1]", 9), ("$[?@.a == @.*]", 10),
      ("$[?match(@.a, 'a') == true]", 3), ("$[?length(@.a)]", 3), ("$[9007199254740992]", 2),
      ("$[-9007199254740992]", 2), ("$['\\x']", 4), ("$['\u{1}']", 3), ("$['\\uD800']", 3),
      ("$[?@.a == 1 == 2]", 12), ("$[?(@.a]", 7), ("$[?1]", 3), ("$[?true]", 3),
      ("$.a ", 3), ("$[?@ == [1]]", 8), ("$..[?@]x", 7), ("$[?!@.a == 1]", 8),
    ] {
      let error = try #require(throws: JSONPathError.self, "\(text)") { try JSONPath(text) }
      #expect(error.offset == offset, "\(text): \(error)")
    }
    // Blank space where the grammar allows it.
    for text in ["$ [ 0 , 'a' ]", "$[?@.a==1]", "$[? ( @.a == 1 ) ]", "$ .a", "$[ 1 : 2 : 1 ]"] {
      #expect(throws: Never.self, "\(text)") { try JSONPath(text) }
    }
    // Nesting beyond the bound is refused, not a stack overflow.
    let deep =
      "$[?" + String(repeating: "(", count: 10_000) + "@" + String(repeating: ")", count: 10_000)
      + "]"
    #expect(throws: JSONPathError.self) { try JSONPath(deep) }
    let nestedFilters =
      "$" + String(repeating: "[?@", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONPathError.self) { try JSONPath(nestedFilters) }
  }

  @Test("a document 100,000 levels deep is walked without recursion")
  func deepDocument() throws {
    let depth = 100_000
    var options = JSONParseOptions()
    options.limits.maxDepth = depth + 1
    let document = try JSONValue(
      parsing: String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
      options: options)
    #expect(try JSONPath("$..[0]").select(in: document).count == depth - 1)
    let innermost = try JSONPath("$..[?length(@) == 0]")
      .selectWithPaths(in: document)
    #expect(innermost.count == 1)
    #expect(innermost.first?.path.utf8.count == 1 + 3 * (depth - 1))
    #expect(try JSONPath("$..*[?@]").select(in: document).count == depth - 2)
  }

  @Test("the description parses back to the same query")
  func description() throws {
    for text in [
      "$.a[?@.b == 'x' || !(@.c < 2) && match(@.d, '[a-z]+')]..[1:-1:2,*,'k',-3]",
      "$[?count(@..*) > 1 && value($.a) == null][?length(@) >= 1.5e3]", "$[::-1][:]",
    ] {
      let query = try JSONPathQuery(text)
      #expect(try JSONPathQuery(query.description) == query, "\(query)")
    }
  }
}

@Suite("I-Regexp")
struct IRegexpTests {
  @Test("the grammar of RFC 9485: classes, categories, quantifiers, alternation, groups")
  func matching() throws {
    let cases: [(String, String, match: Bool, search: Bool)] = [
      ("a.c", "abc", true, true), ("a.c", "a\nc", false, false), ("a.c", "xabcx", false, true),
      ("[a-c]+", "abcab", true, true), ("[^a-c]", "d", true, true), ("[^a-c]", "a", false, false),
      ("[-a]", "-", true, true), ("[a-]", "-", true, true),
      ("\\p{Lu}\\p{Ll}*", "Hello", true, true),
      ("\\P{L}", "1", true, true), ("\\p{Nd}{2,3}", "1234", false, true),
      ("\\p{Nd}{2,3}", "123", true, true), ("a{2}", "aa", true, true),
      ("a{2,}", "aaaaa", true, true),
      ("(ab|cd)*e", "abcdabe", true, true), ("(ab|cd)*e", "abce", false, true),
      ("\\.\\*\\\\", ".*\\", true, true), ("[\\p{Lu}\\d]", "", false, false), ("", "", true, true),
      ("a|", "", true, true), ("é+", "ééé", true, true), ("[😀-😂]", "😁", true, true),
      ("\\p{Zs}", "\u{A0}", true, true), ("\\p{Cn}", "\u{378}", true, true),
      ("\\n\\t\\r", "\n\t\r", true, true), ("x?", "", true, true),
    ]
    for (pattern, string, match, search) in cases {
      guard let regexp = try? _IRegexp(pattern) else {
        // `\d` is not I-Regexp: the class with it is invalid, so nothing matches.
        #expect(!match && !search, "\(pattern) is invalid")
        continue
      }
      #expect(regexp.matches(string) == match, "match(\(string), \(pattern))")
      #expect(regexp.contains(string) == search, "search(\(string), \(pattern))")
    }
  }

  @Test("invalid and over-limit patterns are refused")
  func invalid() {
    for pattern in [
      "(", ")", "a**", "[", "[]", "[^]", "a{2,1}", "{1}", "\\d", "\\w", "\\p{Xx}", "[b-a]",
      "[a-c-e]", "a{1001}", "(((a{1000}){1000}){1000})",
      String(repeating: "(", count: 40)
        + String(repeating: ")", count: 40), "(?:a)", "\\", "a]", "}",
    ] {
      #expect(throws: (any Error).self, "\(pattern)") { try _IRegexp(pattern) }
    }
  }

  @Test("hostile patterns run in linear time")
  func hostile() throws {
    let long = String(repeating: "a", count: 20_000)
    let regexp = try _IRegexp("(a*)*(a|aa)*b")
    #expect(!regexp.matches(long))
    #expect(!regexp.contains(long))
    #expect(try _IRegexp("(a|a)*").matches(long))
    // Through JSONPath: an invalid pattern is LogicalFalse, never an error.
    let document: JSONValue = [["s": .string(long)]]
    #expect(try JSONPath("$[?match(@.s, '(a*)*b')]").select(in: document).isEmpty)
    #expect(try JSONPath("$[?search(@.s, 'a{1001}')]").select(in: document).isEmpty)
    #expect(try !JSONPath("$[?!search(@.s, '(')]").select(in: document).isEmpty)
  }
}
