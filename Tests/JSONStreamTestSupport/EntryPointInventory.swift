import Foundation

/// The public ways in that a module's sources declare: every `public` `feed`, `parse`,
/// `json…` sequence, `decode…` and `object(s)` function and every `init(parsing:)` and
/// `init(binary:)`, named `Type.member` after the type or extension that holds it. A test
/// compares them with the conformance matrix, so that a new way in that the matrix does not
/// run fails.
public enum EntryPointInventory {
  /// The modules of the core library, read from `Sources/`: `JSONStream` and the layers it
  /// re-exports (every `JSONStream…` folder but the Foundation module).
  public static var coreModules: [String] {
    let sources = packageRoot.appendingPathComponent("Sources").path
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
    return folders.filter { $0.hasPrefix("JSONStream") && $0 != "JSONStreamFoundation" }.sorted()
  }

  /// The ways in declared under `Sources/<module>` for each of `modules`, sorted.
  public static func entryPoints(inModules modules: [String]) throws -> [String] {
    var found: Set<String> = []
    for module in modules {
      let folder = packageRoot.appendingPathComponent("Sources/\(module)")
      let files =
        FileManager.default.enumerator(atPath: folder.path)?
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
      for file in files {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        found.formUnion(entryPoints(inSource: text))
      }
    }
    return found.sorted()
  }

  /// The package's root (this file is `Tests/JSONStreamTestSupport/…`).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let member = try! NSRegularExpression(
    pattern:
      #"public\s+(?:static\s+)?(?:mutating\s+)?(?:func\s+(feed|parse|json(?:Events|Items|Documents)|decode(?:Valid)?(?:Items|Lines|LinesInParallel)?|objects?)\b|(init)(?:<[^>]*>)?\(\s*(?:parsing|binary))"#
  )
  static let declaration = try! NSRegularExpression(
    pattern:
      #"^\s*(?:@\w+\s+)*(?:public\s+|package\s+)?(?:final\s+)?(?:struct|enum|class|extension|actor)\s+(\w+)"#
  )

  /// The ways in of one source file, each named after its innermost enclosing type.
  public static func entryPoints(inSource text: String) -> Set<String> {
    var found: Set<String> = []
    // Enclosing declarations and the brace depth inside each.
    var scopes: [(name: String, depth: Int)] = []
    var depth = 0
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      codeOnly(String($0))
    }
    for (index, line) in lines.enumerated() {
      let range = NSRange(line.startIndex..., in: line)
      if let match = declaration.firstMatch(in: line, range: range),
        let name = Range(match.range(at: 1), in: line)
      {
        scopes.append((String(line[name]), depth + 1))
      }
      // A signature may go on on the next line (`public init<Bytes: Sequence>(` / `parsing …`).
      let signature = line + (index + 1 < lines.count ? " " + lines[index + 1] : "")
      let signatureRange = NSRange(signature.startIndex..., in: signature)
      if let match = member.firstMatch(in: signature, range: signatureRange),
        match.range.location < range.length, let scope = scopes.last
      {
        let group = match.range(at: 1).location != NSNotFound ? 1 : 2
        if let name = Range(match.range(at: group), in: signature) {
          found.insert("\(scope.name).\(signature[name])")
        }
      }
      for character in line {
        if character == "{" { depth += 1 }
        if character == "}" {
          depth -= 1
          while let last = scopes.last, last.depth > depth { scopes.removeLast() }
        }
      }
    }
    return found
  }

  /// A line without its comment and the contents of its string literals (their braces are
  /// not code).
  static func codeOnly(_ line: String) -> String {
    var result = ""
    var inString = false
    var previous: Character = " "
    for character in line {
      if !inString && character == "/" && previous == "/" {
        result.removeLast()
        break
      }
      if character == "\"" && previous != "\\" { inString.toggle() }
      if !inString || character == "\"" { result.append(character) }
      previous = character
    }
    return result
  }
}
