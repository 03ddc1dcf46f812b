import Foundation
import Testing

/// A directory of its own for one test, so that a stray temporary file would show; removed
/// with everything in it by `remove()`.
private struct Scratch {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("jsonstream-output-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  }

  /// The path of `name` in the directory.
  func file(_ name: String) -> String { path + "/" + name }

  /// Writes `text` to `name`; returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    return file(name)
  }

  /// The bytes of `name`.
  func read(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: file(name)))
  }

  /// The names in the directory, hidden ones (the temporary files) included, sorted.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// The permission bits of `name`.
  func permissions(_ name: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: file(name))
    return (attributes[.posixPermissions] as! NSNumber).intValue
  }

  /// Removes the directory and what is in it.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

@Suite(
  "jsonstream -o FILE: replaced only on success",
  .enabled(if: Tool.isBuilt, "the jsonstream binary is not next to the test bundle; skipped"))
struct OutputFileTests {
  /// The content of an existing FILE that must survive a failed run.
  let original = "{\"keep\": \"me\"}\n"

  @Test("fmt FILE -o FILE formats the file in place")
  func inPlace() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let path = try scratch.write("same.json", #"{"b":[1,2],"a":{}}"#)
    let result = try Tool.run(["fmt", path, "-o", path])
    #expect(result.status == 0 && result.stderr.isEmpty)
    #expect(
      try scratch.read("same.json")
        == Data("{\n  \"b\": [\n    1,\n    2\n  ],\n  \"a\": {}\n}\n".utf8))
    #expect(try scratch.names() == ["same.json"])
    // A large file too: read ahead on another thread while the output is written.
    let records = (0..<30_000).map { #"{"id":\#($0),"name":"n\#($0)"}"# }
    let big = try scratch.write("big.json", "[" + records.joined(separator: ", ") + "]")
    #expect(try Tool.run(["minify", big, "-o", big]).status == 0)
    #expect(
      try scratch.read("big.json") == Data(("[" + records.joined(separator: ",") + "]\n").utf8))
    #expect(try scratch.names() == ["big.json", "same.json"])
  }

  @Test("success replaces FILE or creates it; a new file's mode follows the umask")
  func success() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let out = try scratch.write("out.json", original)
    #expect(try Tool.run(["minify", "-o", out], input: "[ 1 ]").status == 0)
    #expect(try scratch.read("out.json") == Data("[1]\n".utf8))
    let created = try Tool.run(
      ["minify", "-o", scratch.file("new.json")], input: "2", setup: "umask 027")
    #expect(created.status == 0)
    #expect(try scratch.read("new.json") == Data("2\n".utf8))
    #expect(try scratch.permissions("new.json") == 0o640)
    #expect(try scratch.names() == ["new.json", "out.json"])
  }

  @Test("FILE keeps its permission bits, whatever the umask")
  func permissionsKept() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    for mode in [0o600, 0o640, 0o664, 0o755] {
      let out = try scratch.write("out.json", original)
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: out)
      let result = try Tool.run(["minify", "-o", out], input: "[1]", setup: "umask 077")
      #expect(result.status == 0)
      #expect(try scratch.permissions("out.json") == mode, "\(String(mode, radix: 8))")
    }
  }

  @Test(
    "a read-only FILE is refused, as by the shell",
    .enabled(if: getuid() != 0, "root may write any file; skipped"))
  func readOnly() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let out = try scratch.write("precious.json", original)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: out)
    let result = try Tool.run(["minify", "-o", out], input: "[1]")
    #expect(result.status == 3)
    #expect(result.stderr == "jsonstream: cannot write \(out): Permission denied\n")
    #expect(try scratch.read("precious.json") == Data(original.utf8))
    #expect(try scratch.names() == ["precious.json"])
  }

  @Test("a missing input, a bad path or a bad flag leaves FILE byte for byte and creates nothing")
  func badArguments() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let out = try scratch.write("precious.json", original)
    let input = try scratch.write("in.json", "[1]")
    let missing = try Tool.run(["fmt", scratch.file("missing.json"), "-o", out])
    #expect(missing.status == 3)
    #expect(missing.stderr.hasPrefix("jsonstream: cannot open "))
    let badPath = try Tool.run(["select", "$[", input, "-o", out])
    #expect(badPath.status == 2)
    #expect(badPath.stderr.hasPrefix("jsonstream: invalid path '$['"))
    #expect(try Tool.run(["fmt", input, "-o", out, "--indent", "-1"]).status == 2)
    #expect(try Tool.run(["fmt", "-o", out, input, "--frobnicate"]).status == 2)
    // validate writes nothing, so it takes no -o.
    #expect(try Tool.run(["validate", input, "-o", out]).status == 2)
    #expect(try scratch.read("precious.json") == Data(original.utf8))
    #expect(try scratch.names() == ["in.json", "precious.json"])
  }

  @Test("invalid input found after output was written leaves FILE as it was, no temporary file")
  func parseErrorMidway() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    // Well over the 64 KiB output buffer before the error, so the output has been written.
    let records = (0..<20_000).map { #"{"id":\#($0),"tags":["a","b"]}"# }
    let broken = "[" + records.joined(separator: ",") + ",\n{\"id\": x}]"
    let input = try scratch.write("broken.json", broken)
    let out = try scratch.write("precious.json", original)
    let commands = [
      ["fmt"], ["minify"], ["select", "$[*].id"], ["ndjson"], ["events"], ["stats"],
      ["convert", "--to", "binary"],
    ]
    for command in commands {
      let result = try Tool.run(command + [input, "-o", out])
      #expect(result.status == 1, "\(command)")
      #expect(result.stderr.hasPrefix("\(input):2:8: "), "\(command)")
      #expect(try scratch.read("precious.json") == Data(original.utf8), "\(command)")
      #expect(try scratch.names() == ["broken.json", "precious.json"], "\(command)")
    }
    // The same for a new file: none is left.
    #expect(try Tool.run(["fmt", input, "-o", scratch.file("new.json")]).status == 1)
    #expect(try scratch.names() == ["broken.json", "precious.json"])
  }

  @Test("a write error (here the file size limit) leaves FILE as it was, no temporary file")
  func writeError() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let records = (0..<20_000).map { #"{"id":\#($0)}"# }
    let input = try scratch.write("in.json", "[" + records.joined(separator: ",") + "]")
    let out = try scratch.write("precious.json", original)
    // 1 block of 512 or 1024 bytes, smaller than the output.
    let result = try Tool.run(["fmt", input, "-o", out], setup: "ulimit -f 1")
    #expect(result.status == 3)
    #expect(result.stderr == "jsonstream: write error: File too large\n")
    #expect(try scratch.read("precious.json") == Data(original.utf8))
    #expect(try scratch.names() == ["in.json", "precious.json"])
  }

  @Test("a symbolic link keeps pointing at its file, which gets the output")
  func symbolicLink() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let target = try scratch.write("target.json", "[ 1, 2 ]")
    let link = scratch.file("link.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
    let result = try Tool.run(["minify", link, "-o", link])
    #expect(result.status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "[1,2]\n")
    // A link to nothing is refused rather than replaced by a file.
    let dangling = scratch.file("dangling.json")
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "none.json")
    let refused = try Tool.run(["minify", "-o", dangling], input: "1")
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("a symbolic link to a file that does not exist"))
    #expect(try scratch.names() == ["dangling.json", "link.json", "target.json"])
  }

  @Test("a device is written in place, not replaced")
  func device() throws {
    let result = try Tool.run(["minify", "-o", "/dev/null"], input: "[1]")
    #expect(result.status == 0 && result.stderr.isEmpty)
  }

  @Test("SIGTERM while writing removes the temporary file and leaves FILE as it was")
  func terminated() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let out = try scratch.write("precious.json", original)
    let process = Process()
    process.executableURL = Tool.binary
    process.arguments = ["fmt", "-o", out]
    // Standard input stays open: the tool waits for the rest of the document.
    let stdin = Pipe()
    process.standardInput = stdin
    process.standardError = Pipe()
    // The tool inherits this thread's blocked signals, and a test runs on a thread that blocks
    // SIGTERM: unblocked while the tool starts, so that it can receive it.
    var unblocked = sigset_t()
    var blocked = sigset_t()
    sigemptyset(&unblocked)
    pthread_sigmask(SIG_SETMASK, &unblocked, &blocked)
    defer { pthread_sigmask(SIG_SETMASK, &blocked, nil) }
    try process.run()
    pthread_sigmask(SIG_SETMASK, &blocked, nil)
    try stdin.fileHandleForWriting.write(contentsOf: Data("[1,".utf8))
    // The temporary file appears once the output is set up.
    var deadline = Date().addingTimeInterval(10)
    while try scratch.names().count < 2 && Date() < deadline { usleep(10_000) }
    #expect(try scratch.names().count == 2)
    process.terminate()
    // Never hang the tests: SIGKILL when SIGTERM did not end the tool (the check then fails).
    deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? stdin.fileHandleForWriting.close()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGTERM)
    #expect(try scratch.read("precious.json") == Data(original.utf8))
    #expect(try scratch.names() == ["precious.json"])
  }
}
