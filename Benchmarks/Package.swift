// swift-tools-version: 6.0
// Benchmarks, kept in their own package so the library stays dependency-free. The peers
// (yajl, RapidJSON, simdjson) come from Debian packages: run setup.sh first.
//
//   Benchmarks/setup.sh
//   swift run -c release --package-path Benchmarks jsonstream-bench
import PackageDescription

let package = Package(
  name: "JSONStreamBenchmarks",
  dependencies: [.package(name: "JSONStream", path: "..")],
  targets: [
    // The C and C++ peers behind a small C interface.
    .target(
      name: "Peers",
      cxxSettings: [
        // RapidJSON 1.1.0 assigns a const member in a template it never instantiates; recent
        // clang rejects that unless template bodies are parsed on use.
        .unsafeFlags(["-O2", "-fdelayed-template-parsing"])
      ],
      linkerSettings: [.linkedLibrary("yajl"), .linkedLibrary("simdjson")]
    ),
    // The same shim at -O3, for RapidJSON (header-only, so compiled here) at both levels.
    .target(
      name: "PeersO3",
      cxxSettings: [
        .headerSearchPath("../Peers/include"),
        .unsafeFlags(["-O3", "-fdelayed-template-parsing"]),
      ],
      linkerSettings: [.linkedLibrary("yajl"), .linkedLibrary("simdjson")]
    ),
    // Number-consuming handlers, compiled apart from the no-op one (see DoubleCheck.swift).
    .target(
      name: "NumberBench",
      dependencies: [.product(name: "JSONStream", package: "JSONStream")]
    ),
    .executableTarget(
      name: "jsonstream-bench",
      dependencies: [
        "Peers",
        "PeersO3",
        "NumberBench",
        .product(name: "JSONStream", package: "JSONStream"),
        .product(name: "JSONStreamFoundation", package: "JSONStream"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6],
  cxxLanguageStandard: .cxx17
)
