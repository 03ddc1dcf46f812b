import Foundation

/// The shared corpus next to the checkout (`../shared/corpus`), read in place; tests that need
/// it are skipped, with a message, when it is absent.
enum SharedData {
  static let root: URL = {
    if let override = ProcessInfo.processInfo.environment["JSONSTREAM_SHARED_DATA"] {
      return URL(fileURLWithPath: override)
    }
    // Tests/JSONStreamFoundationTests/Support/SharedData.swift → the package root → its sibling.
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("shared")
  }()

  static var corpus: URL { root.appendingPathComponent("corpus") }

  static var hasCorpus: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent("twitter.json").path)
  }

  static let corpusNames = ["twitter.json", "citm_catalog.json", "canada.json"]

  static func corpusFile(_ name: String) throws -> Data {
    try Data(contentsOf: corpus.appendingPathComponent(name))
  }
}
