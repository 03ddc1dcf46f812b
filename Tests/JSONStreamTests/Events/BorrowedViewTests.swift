import Foundation
import JSONStreamTestSupport
import Testing

/// `JSONString` and `JSONNumber` are borrowed views of bytes that the producer reuses after the
/// call: noncopyable, so that a handler cannot keep one. These tests compile handlers against
/// the built `JSONStreamCore` module and check that every way of keeping a view is refused by
/// the compiler, while copying out what it holds compiles.
@Suite("Borrowed views cannot outlive their call")
struct BorrowedViewTests {
  /// A source file that must not compile, and what the compiler must say.
  struct Escape: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var diagnostic: String
    var testDescription: String { name }
  }

  static let escapes = [
    Escape(
      name: "a key stored in the handler",
      source: """
        struct Keeper: JSONEventHandler {
          var last: JSONString? = nil
          mutating func key(_ key: borrowing JSONString) { last = key }
        }
        """,
      diagnostic: "has non-Copyable type 'JSONString?'"),
    Escape(
      name: "a key stored in an object",
      source: """
        final class Box { var key: JSONString? = nil }
        struct Keeper: JSONEventHandler {
          let box = Box()
          mutating func key(_ key: borrowing JSONString) { box.key = key }
        }
        """,
      diagnostic: "implicit conversion to 'JSONString?' is consuming"),
    Escape(
      name: "a number appended to an array",
      source: """
        struct Keeper: JSONEventHandler {
          var all: [JSONNumber] = []
          mutating func number(_ value: borrowing JSONNumber) { all.append(value) }
        }
        """,
      diagnostic: "does not conform to protocol 'Copyable'"),
    Escape(
      name: "a string captured by an escaping closure",
      source: """
        struct Keeper: JSONEventHandler {
          var later: (() -> Int)? = nil
          mutating func string(_ value: borrowing JSONString) { later = { value.count } }
        }
        """,
      diagnostic: "cannot be captured by an escaping closure"),
    Escape(
      name: "a key passed on to be kept",
      source: """
        func keep(_ key: consuming JSONString) {}
        struct Keeper: JSONEventHandler {
          mutating func key(_ key: borrowing JSONString) {
            let copy = key
            keep(copy)
          }
        }
        """,
      diagnostic: "'key' is borrowed and cannot be consumed"),
  ]

  /// What a handler may do: copy the text out, compare, convert.
  static let allowed = """
    struct Copier: JSONEventHandler {
      var keys: [String] = []
      var numbers: [Double] = []
      mutating func key(_ key: borrowing JSONString) {
        if key == "id" { keys.append(key.string) }
      }
      mutating func number(_ value: borrowing JSONNumber) { numbers.append(value.double) }
    }
    """

  @Test("what copies the bytes out compiles")
  func copyingCompiles() throws {
    guard let compiler = Compiler.find() else { return }
    let result = try compiler.check(Self.allowed)
    #expect(result.status == 0, "\(result.output)")
  }

  @Test("keeping a view does not compile", arguments: escapes)
  func keepingFails(_ escape: Escape) throws {
    guard let compiler = Compiler.find() else { return }
    let result = try compiler.check(escape.source)
    #expect(result.status != 0)
    #expect(result.output.contains(escape.diagnostic), "\(result.output)")
  }
}

/// The Swift compiler, checking a file against the modules built beside the test bundle.
private struct Compiler {
  var modules: URL

  /// Nil, after saying why, when the built modules or `swiftc` are not where a `swift test`
  /// build on this platform puts them.
  static func find() -> Compiler? {
    let modules = URL(fileURLWithPath: CommandLine.arguments[0])
      .deletingLastPathComponent().appendingPathComponent("Modules")
    guard
      FileManager.default.fileExists(
        atPath: modules.appendingPathComponent("JSONStreamCore.swiftmodule").path)
    else {
      print("skipped: no JSONStreamCore.swiftmodule in \(modules.path)")
      return nil
    }
    return Compiler(modules: modules)
  }

  /// The folder of the vector kernels' C module, which the core imports: a module that
  /// imports the core must find it too (this file is Tests/JSONStreamTests/<folder>/…).
  static let vectorKernelHeaders = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/JSONStreamSIMD/include")

  /// Runs the mandatory passes (where noncopyable values are checked) on `source`, after
  /// `import JSONStreamCore`; returns the exit status and what the compiler printed.
  func check(_ source: String) throws -> (status: Int32, output: String) {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("borrowed-view-\(UUID().uuidString).swift")
    try ("import JSONStreamCore\n\n" + source + "\n").write(
      to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    return try runProgram(
      "/usr/bin/env",
      [
        "swiftc", "-swift-version", "6", "-parse-as-library", "-emit-sil", "-o", "/dev/null",
        "-I", modules.path, "-I", Self.vectorKernelHeaders.path, file.path,
      ])
  }
}
