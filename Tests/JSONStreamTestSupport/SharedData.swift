import Foundation

/// The shared test data next to the checkout (`../shared/testdata`, `../shared/corpus`). It is
/// read in place, never copied into the repository; tests that need it are skipped, with a
/// message, when it is absent.
public enum SharedData {
  public static let root: URL = {
    if let override = ProcessInfo.processInfo.environment["JSONSTREAM_SHARED_DATA"] {
      return URL(fileURLWithPath: override)
    }
    // Tests/JSONStreamTestSupport/SharedData.swift → the package root → its sibling.
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("shared")
  }()

  public static var jsonTestSuite: URL {
    root.appendingPathComponent("testdata/JSONTestSuite/test_parsing")
  }
  public static var corpus: URL { root.appendingPathComponent("corpus") }

  /// The JSON Patch test suite: `tests.json` and `spec_tests.json`.
  public static var jsonPatchTests: URL {
    root.appendingPathComponent("testdata/json-patch-tests")
  }
  public static var hasJSONPatchTests: Bool {
    FileManager.default.fileExists(atPath: jsonPatchTests.appendingPathComponent("tests.json").path)
  }

  /// The JSONPath Compliance Test Suite's `cts.json` (RFC 9535).
  public static var jsonPathComplianceSuite: URL {
    root.appendingPathComponent("testdata/jsonpath-compliance-test-suite/cts.json")
  }
  public static var hasJSONPathComplianceSuite: Bool {
    FileManager.default.fileExists(atPath: jsonPathComplianceSuite.path)
  }

  public static var hasJSONTestSuite: Bool {
    FileManager.default.fileExists(atPath: jsonTestSuite.path)
  }
  public static var hasCorpus: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent("twitter.json").path)
  }

  public static let corpusNames = ["twitter.json", "citm_catalog.json", "canada.json"]

  /// The files of a folder whose names start with `prefix`, sorted, with their bytes.
  public static func files(in folder: URL, prefix: String) throws -> [(
    name: String, bytes: [UInt8]
  )] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    return try names.map { name in
      (name, [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
    }
  }

  /// A corpus file's bytes.
  public static func corpusFile(_ name: String) throws -> [UInt8] {
    [UInt8](try corpusData(name))
  }

  /// A corpus file as `Data`.
  public static func corpusData(_ name: String) throws -> Data {
    try Data(contentsOf: corpus.appendingPathComponent(name))
  }
}
