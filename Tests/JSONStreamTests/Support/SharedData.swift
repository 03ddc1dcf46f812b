import Foundation

/// The shared test data next to the checkout (`../shared/testdata`, `../shared/corpus`). It is
/// read in place, never copied into the repository; tests that need it are skipped, with a
/// message, when it is absent.
enum SharedData {
  static let root: URL = {
    if let override = ProcessInfo.processInfo.environment["JSONSTREAM_SHARED_DATA"] {
      return URL(fileURLWithPath: override)
    }
    // Tests/JSONStreamTests/Support/SharedData.swift → the package root → its sibling.
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("shared")
  }()

  static var jsonTestSuite: URL {
    root.appendingPathComponent("testdata/JSONTestSuite/test_parsing")
  }
  static var corpus: URL { root.appendingPathComponent("corpus") }

  static var hasJSONTestSuite: Bool {
    FileManager.default.fileExists(atPath: jsonTestSuite.path)
  }
  static var hasCorpus: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent("twitter.json").path)
  }

  /// The files of a folder whose names start with `prefix`, sorted, with their bytes.
  static func files(in folder: URL, prefix: String) throws -> [(name: String, bytes: [UInt8])] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    return try names.map { name in
      (name, [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
    }
  }

  static func corpusFile(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name)))
  }
}
