// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "JSONStream",
  products: [
    .library(name: "JSONStream", targets: ["JSONStream"]),
    .executable(name: "jsonstream", targets: ["jsonstream"]),
  ],
  targets: [
    // The core: an incremental push parser and the event model. Standard library only.
    .target(name: "JSONStream"),
    // The command-line tool, thin over the library.
    .executableTarget(name: "jsonstream", dependencies: ["JSONStream"]),
    .testTarget(name: "JSONStreamTests", dependencies: ["JSONStream"]),
  ],
  swiftLanguageModes: [.v6]
)
