import Foundation
import JSONStream
import JSONStreamTestSupport
import Testing

/// One case of the JSONPath Compliance Test Suite.
struct ComplianceCase: Sendable {
  var name: String
  var selector: String
  var document: JSONValue?
  var isInvalid: Bool
  /// The results allowed (one, or several when the order of object members is free), each
  /// with its normalized paths when the suite gives them.
  var results: [[JSONValue]]
  var paths: [[String]]

  static let all: [ComplianceCase] = {
    guard SharedData.hasJSONPathComplianceSuite,
      let data = try? Data(contentsOf: SharedData.jsonPathComplianceSuite),
      let suite = try? JSONValue(parsing: [UInt8](data)),
      let tests = suite["tests"]?.arrayValue
    else { return [] }
    return tests.map { test in
      let results =
        test["result"].map { [$0.arrayValue.map(Array.init) ?? []] }
        ?? test["results"]?.arrayValue?.map { $0.arrayValue.map(Array.init) ?? [] } ?? []
      let pathLists =
        test["result_paths"].map { [$0] } ?? test["results_paths"]?.arrayValue.map(Array.init)
        ?? []
      return ComplianceCase(
        name: test["name"]?.stringValue ?? "?", selector: test["selector"]?.stringValue ?? "",
        document: test["document"], isInvalid: test["invalid_selector"]?.boolValue ?? false,
        results: results,
        paths: pathLists.map { list in list.arrayValue?.compactMap(\.stringValue) ?? [] })
    }
  }()

  /// Whether `values` (and `found`, the paths, when the suite has them) is one of the results
  /// allowed.
  func accepts(_ values: [JSONValue], paths found: [String]?) -> Bool {
    results.indices.contains { index in
      results[index] == values
        && (found == nil || paths.isEmpty || paths[index] == found!)
    }
  }
}

@Suite(
  "JSONPath compliance (RFC 9535)",
  .enabled(
    if: SharedData.hasJSONPathComplianceSuite,
    "jsonpath-compliance-test-suite not found at ../shared/testdata; skipped"))
struct JSONPathComplianceTests {
  @Test("every case of the suite: valid selectors give an allowed result, invalid ones fail")
  func suite() throws {
    let cases = ComplianceCase.all
    #expect(cases.count > 600)
    var passedValid = 0
    var passedInvalid = 0
    for test in cases {
      if test.isInvalid {
        #expect(throws: JSONPathError.self, "\(test.name): \(test.selector)") {
          _ = try JSONPath(test.selector)
        }
        if (try? JSONPath(test.selector)) == nil { passedInvalid += 1 }
        continue
      }
      let path: JSONPath
      do {
        path = try JSONPath(test.selector)
      } catch {
        Issue.record("\(test.name): \(test.selector): \(error)")
        continue
      }
      // The normalized description reads back as the same query.
      #expect(
        (try? JSONPathQuery(path.query.description)) == path.query,
        "\(test.selector) → \(path.query)")
      let document = test.document ?? .null
      let values = path.select(in: document)
      let withPaths = path.selectWithPaths(in: document)
      let ok =
        test.accepts(values, paths: nil)
        && test.accepts(withPaths.map(\.value), paths: withPaths.map(\.path))
      #expect(ok, "\(test.name): \(test.selector) gave \(withPaths)")
      if ok { passedValid += 1 }
    }
    print("JSONPath compliance, library: \(passedValid) valid and \(passedInvalid) invalid passed")
  }
}

@Suite(
  "JSONPath compliance (RFC 9535) through jsonstream select",
  .enabled(
    if: SharedData.hasJSONPathComplianceSuite,
    "jsonpath-compliance-test-suite not found at ../shared/testdata; skipped"),
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct JSONPathComplianceToolTests {
  /// The cases in four interleaved shares, run side by side.
  static let shares = 4

  /// The `[path, value]` lines `select --with-paths` printed.
  static func matches(_ output: String) throws -> [(path: String, value: JSONValue)] {
    try output.split(separator: "\n").map { line in
      let pair = try JSONValue(parsing: Array(line.utf8))
      return (pair[0]?.stringValue ?? "?", pair[1] ?? .null)
    }
  }

  @Test(
    "select --with-paths gives an allowed result; an invalid selector is a usage error",
    arguments: 0..<shares)
  func suite(share: Int) throws {
    let cases = ComplianceCase.all
    var passed = (valid: 0, invalid: 0)
    for test in cases.indices.filter({ $0 % Self.shares == share }).map({ cases[$0] }) {
      let document = try test.document?.jsonString()
      let result = try Tool.run(
        ["select", "--with-paths", test.selector], input: document ?? "null")
      // Streamed, matches nested under a descendant segment come in document order; with
      // --rfc-order, in the RFC's.
      let path = try? JSONPath(test.selector)
      let hasDescendant = path?.query.segments.contains(where: \.isDescendant) ?? false
      let rfcOrder =
        hasDescendant
        ? try Tool.run(
          ["select", "--with-paths", "--rfc-order", test.selector], input: document ?? "null")
        : result
      if test.isInvalid {
        let ok = result.status == 2 && result.stderr.contains("invalid path")
        #expect(ok, "\(test.name): \(test.selector): \(result.status) \(result.stderr)")
        if ok { passed.invalid += 1 }
        continue
      }
      guard result.status == 0 && rfcOrder.status == 0 else {
        Issue.record("\(test.name): \(test.selector): \(result.status) \(result.stderr)")
        continue
      }
      let printed = try Self.matches(rfcOrder.stdout)
      var ok = test.accepts(printed.map(\.value), paths: printed.map(\.path))
      #expect(ok, "\(test.name): \(test.selector) --rfc-order printed \(rfcOrder.stdout)")
      if hasDescendant, let path {
        let streamed = try Self.matches(result.stdout)
        let same = sameMatches(streamed, path.selectWithPaths(in: test.document ?? .null))
        #expect(same, "\(test.name): \(test.selector) printed \(result.stdout)")
        ok = ok && same
      }
      if ok { passed.valid += 1 }
    }
    print(
      "JSONPath compliance, tool, share \(share): \(passed.valid) valid and \(passed.invalid) "
        + "invalid passed")
  }
}
