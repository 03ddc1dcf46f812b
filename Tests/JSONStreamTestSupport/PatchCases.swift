import Foundation
import JSONStream

/// A case of the JSON Patch test suite (`../shared/testdata/json-patch-tests`): a document, a
/// patch, and the expected document or an error.
public struct PatchCase: Sendable, CustomStringConvertible {
  /// The file and the case's position in it.
  public let name: String
  public let comment: String?
  public let document: JSONValue
  public let patch: JSONValue
  public let expected: JSONValue?
  /// The suite's text for a case that must fail.
  public let error: String?

  public var description: String {
    "\(name)" + (comment.map { " (\($0))" } ?? "")
  }

  /// The enabled cases of both files (`"disabled": true` ones are left out), in order.
  public static func load() throws -> [PatchCase] {
    var cases: [PatchCase] = []
    for file in ["tests.json", "spec_tests.json"] {
      let data = try Data(contentsOf: SharedData.jsonPatchTests.appendingPathComponent(file))
      guard case .array(let entries) = try JSONValue(parsing: [UInt8](data)) else {
        throw CocoaError(.fileReadCorruptFile)
      }
      for (index, entry) in entries.enumerated() where entry["disabled"] != true {
        cases.append(
          PatchCase(
            name: "\(file)#\(index)", comment: entry["comment"]?.stringValue,
            document: entry["doc"] ?? .null, patch: entry["patch"] ?? .null,
            expected: entry["expected"], error: entry["error"]?.stringValue))
      }
    }
    return cases
  }
}
