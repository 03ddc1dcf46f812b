// swift-tools-version: 6.2
import PackageDescription

// Strict memory safety: every use of an unsafe construct is marked `unsafe`, and only the
// files listed in .ci/unsafe-files.txt (the kernels) may have one. Tests are left out: they
// check the kernels at their boundaries, pointers and all.
let memorySafe: [SwiftSetting] = [.strictMemorySafety()]

let package = Package(
  name: "JSONStream",
  // The oldest releases with what the library needs (`ContinuousClock`, for the tool's
  // progress); newer standard library APIs are used behind `#available`.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "JSONStream", targets: ["JSONStream"]),
    .library(name: "JSONStreamFoundation", targets: ["JSONStreamFoundation"]),
    .executable(name: "jsonstream", targets: ["jsonstream"]),
  ],
  targets: [
    // The core, standard library only, in layers (see ARCHITECTURE.md); each module sees only
    // the ones below it. `JSONStream` re-exports them all: it is what users import.
    // Byte-class scans sixteen bytes at a time (SSE2, NEON), under the core's word kernels.
    .target(name: "JSONStreamSIMD"),
    // Shared primitives, text and number kernels, and the event model.
    .target(
      name: "JSONStreamCore", dependencies: ["JSONStreamSIMD"], swiftSettings: memorySafe),
    // The JSON text push parser.
    .target(
      name: "JSONStreamParser", dependencies: ["JSONStreamCore"], swiftSettings: memorySafe),
    // JSONValue, the tree builder, replay and snapshots.
    .target(
      name: "JSONStreamValue", dependencies: ["JSONStreamCore", "JSONStreamParser"],
      swiftSettings: memorySafe),
    // The JSON writer, and one-pass writing of a tree.
    .target(
      name: "JSONStreamWriter", dependencies: ["JSONStreamCore", "JSONStreamValue"],
      swiftSettings: memorySafe),
    // The binary format: reader, writer, one-pass paths from and to a tree.
    .target(
      name: "JSONStreamBinary",
      dependencies: ["JSONStreamCore", "JSONStreamValue", "JSONStreamWriter"],
      swiftSettings: memorySafe),
    // JSONPath, path tracking, and the filters, transforms and item streamer built on it.
    .target(
      name: "JSONStreamPath", dependencies: ["JSONStreamCore", "JSONStreamValue"],
      swiftSettings: memorySafe),
    // JSON Pointer, JSON Patch and Merge Patch: on a tree, and streamed as filters.
    .target(
      name: "JSONStreamPatch",
      dependencies: ["JSONStreamCore", "JSONStreamParser", "JSONStreamValue"],
      swiftSettings: memorySafe),
    // Streams of documents, the async adapters, and the re-exports.
    .target(
      name: "JSONStream",
      dependencies: [
        "JSONStreamCore", "JSONStreamParser", "JSONStreamValue", "JSONStreamWriter",
        "JSONStreamBinary", "JSONStreamPath", "JSONStreamPatch",
      ], swiftSettings: memorySafe),
    // Foundation trees (NSDictionary, NSArray, …) from events and back: the only target that
    // imports Foundation.
    .target(
      name: "JSONStreamFoundation", dependencies: ["JSONStream"], swiftSettings: memorySafe),
    // The command-line tool, thin over the library.
    .executableTarget(
      name: "jsonstream", dependencies: ["JSONStream"], swiftSettings: memorySafe),
    // Samples (see the README): a large file chunk by chunk, a streamed HTTP response item by
    // item, a custom handler that redacts while re-serializing.
    .executableTarget(
      name: "large-file", dependencies: ["JSONStream", "JSONStreamFoundation"],
      path: "Samples/LargeFile", swiftSettings: memorySafe),
    .executableTarget(
      name: "network-stream", dependencies: ["JSONStream"], path: "Samples/NetworkStream",
      swiftSettings: memorySafe),
    .executableTarget(
      name: "redact", dependencies: ["JSONStream"], path: "Samples/Redact",
      swiftSettings: memorySafe),
    // Helpers both test targets use (event recording, the shared test data). Not a product.
    .target(
      name: "JSONStreamTestSupport", dependencies: ["JSONStream"],
      path: "Tests/JSONStreamTestSupport"),
    // Depends on the tool so that `swift test` builds it: the CLI tests run the binary.
    .testTarget(
      name: "JSONStreamTests",
      dependencies: [
        "JSONStream", "JSONStreamSIMD", "JSONStreamCore", "JSONStreamParser", "JSONStreamValue",
        "JSONStreamWriter", "JSONStreamBinary", "JSONStreamPath", "JSONStreamPatch",
        "JSONStreamTestSupport", "jsonstream",
      ]),
    .testTarget(
      name: "JSONStreamFoundationTests",
      dependencies: ["JSONStreamFoundation", "JSONStream", "JSONStreamTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
