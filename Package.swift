// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "JSONStream",
  products: [
    .library(name: "JSONStream", targets: ["JSONStream"]),
    .library(name: "JSONStreamFoundation", targets: ["JSONStreamFoundation"]),
    .executable(name: "jsonstream", targets: ["jsonstream"]),
  ],
  targets: [
    // The core: an incremental push parser and the event model. Standard library only.
    .target(name: "JSONStream"),
    // Foundation trees (NSDictionary, NSArray, …) from events and back: the only target that
    // imports Foundation.
    .target(name: "JSONStreamFoundation", dependencies: ["JSONStream"]),
    // The command-line tool, thin over the library.
    .executableTarget(name: "jsonstream", dependencies: ["JSONStream"]),
    // Samples (see the README): a large file chunk by chunk, a streamed HTTP response item by
    // item, a custom handler that redacts while re-serializing.
    .executableTarget(
      name: "large-file", dependencies: ["JSONStream", "JSONStreamFoundation"],
      path: "Samples/LargeFile"),
    .executableTarget(
      name: "network-stream", dependencies: ["JSONStream"], path: "Samples/NetworkStream"),
    .executableTarget(name: "redact", dependencies: ["JSONStream"], path: "Samples/Redact"),
    // Helpers both test targets use (event recording, the shared test data). Not a product.
    .target(
      name: "JSONStreamTestSupport", dependencies: ["JSONStream"],
      path: "Tests/JSONStreamTestSupport"),
    // Depends on the tool so that `swift test` builds it: the CLI tests run the binary.
    .testTarget(
      name: "JSONStreamTests", dependencies: ["JSONStream", "JSONStreamTestSupport", "jsonstream"]),
    .testTarget(
      name: "JSONStreamFoundationTests",
      dependencies: ["JSONStreamFoundation", "JSONStream", "JSONStreamTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
