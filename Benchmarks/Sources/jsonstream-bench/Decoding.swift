import Foundation

/// A typed model of a whole corpus document (see CodableModels/).
typealias CorpusDocument = Codable & Equatable & Sendable

/// The model of the corpus file at `path`, by its name: twitter.json, citm_catalog.json or
/// canada.json.
func corpusModel(forFile path: String) -> (any CorpusDocument.Type)? {
  switch URL(fileURLWithPath: path).lastPathComponent {
  case "twitter.json": Twitter.self
  case "citm_catalog.json": CitmCatalog.self
  case "canada.json": Canada.self
  default: nil
  }
}

/// Small documents for each model, for `--smoke`.
let smokeDocuments: [(name: String, bytes: [UInt8], model: any CorpusDocument.Type)] = [
  ("twitter (smoke)", Array(Twitter.smokeDocument.utf8), Twitter.self),
  ("citm (smoke)", Array(CitmCatalog.smokeDocument.utf8), CitmCatalog.self),
  ("canada (smoke)", Array(Canada.smokeDocument.utf8), Canada.self),
]
