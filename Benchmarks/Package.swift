// swift-tools-version: 6.0
// Benchmarks, kept in their own package so the library stays dependency-free.
//
//   swift run -c release --package-path Benchmarks jsonstream-bench [CORPUS_DIR] [--runs N]
import PackageDescription

let package = Package(
  name: "JSONStreamBenchmarks",
  dependencies: [.package(name: "JSONStream", path: "..")],
  targets: [
    .executableTarget(
      name: "jsonstream-bench",
      dependencies: [
        .product(name: "JSONStream", package: "JSONStream"),
        .product(name: "JSONStreamFoundation", package: "JSONStream"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
