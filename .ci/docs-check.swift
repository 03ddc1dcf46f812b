// The JSON side of .ci/docs.sh, in Swift so that the script needs nothing beyond the toolchain.
//
//   swift .ci/docs-check.swift modules PACKAGE_JSON
//     reads `swift package describe --type json` and prints one line per module to document:
//     the module, the modules it re-exports (`@_exported import`, comma-separated, or `-`) and
//     its documentation catalog (or `-`). The modules to document are those of the library
//     products; a Swift library module inside a product that is neither one of them nor
//     re-exported by one would have no page, so it is an error.
//   swift .ci/docs-check.swift undocumented PACKAGE_DIR SYMBOL_GRAPH_DIR...
//     lists the public symbols declared in the package at PACKAGE_DIR without a doc comment, and
//     fails if there is one (see `isUndocumented` for the rule).
import Foundation

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(1)
}

func readJSON(_ path: String) -> [String: Any] {
  guard let data = FileManager.default.contents(atPath: path),
    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  else { fail("cannot read JSON from \(path)") }
  return object
}

/// The modules a target re-exports: every `@_exported import M` in its Swift files.
func reexports(ofTargetAt path: String) -> [String] {
  var modules: [String] = []
  let files = FileManager.default.enumerator(atPath: path)
  while let file = files?.nextObject() as? String {
    guard file.hasSuffix(".swift"),
      let text = try? String(contentsOfFile: path + "/" + file, encoding: .utf8)
    else { continue }
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ")
      if words.count >= 3, words[0] == "@_exported", words[1] == "import" {
        modules.append(String(words[2]))
      }
    }
  }
  return modules.sorted()
}

func modules(packageJSON: String) {
  let package = readJSON(packageJSON)
  let root = package["path"] as? String ?? "."
  let products = package["products"] as? [[String: Any]] ?? []
  let targets = package["targets"] as? [[String: Any]] ?? []
  let libraryProducts = products.filter { ($0["type"] as? [String: Any])?["library"] != nil }
  let libraryProductNames = Set(libraryProducts.compactMap { $0["name"] as? String })
  var documented: [String] = []
  for product in libraryProducts {
    for target in product["targets"] as? [String] ?? [] where !documented.contains(target) {
      documented.append(target)
    }
  }
  var covered = Set(documented)
  for name in documented {
    guard let target = targets.first(where: { $0["name"] as? String == name }),
      let path = target["path"] as? String
    else { fail("no target \(name) in the package description") }
    let directory = root + "/" + path
    let exported = reexports(ofTargetAt: directory)
    covered.formUnion(exported)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let catalogs = entries.filter { $0.hasSuffix(".docc") }.sorted()
    if catalogs.count > 1 { fail("\(name) has more than one documentation catalog") }
    let catalog = catalogs.first.map { directory + "/" + $0 } ?? "-"
    let list = exported.isEmpty ? "-" : exported.joined(separator: ",")
    print(name, list, catalog)
  }
  // Library modules that ship in a library product but would have no documentation page. C
  // modules (the vector kernels) have no Swift symbols to document: their header does.
  for target in targets
  where target["type"] as? String == "library" && target["module_type"] as? String != "ClangTarget"
  {
    guard let name = target["name"] as? String else { continue }
    let memberships = Set(target["product_memberships"] as? [String] ?? [])
    if !memberships.isDisjoint(with: libraryProductNames), !covered.contains(name) {
      fail(
        "\(name) ships in a library product but is neither a product's module nor re-exported"
          + " by one: re-export it (`@_exported import`) or make it a product")
    }
  }
}

/// A symbol needs a doc comment of its own when it is declared in the package's sources (it has
/// a location there) and is not an extension block. Members a type gets from a protocol's
/// default implementation or a superclass (`::SYNTHESIZED::` identifiers, with no location in
/// the package) are skipped: their documentation is the protocol's or the superclass's. So is
/// an implementation of a protocol requirement whose documentation the symbol graph inherits
/// from the requirement (`hash(into:)`, `description`): it says what the requirement says.
/// The file a symbol is declared in, or "" when it has no location.
func path(of symbol: [String: Any]) -> String {
  let uri = (symbol["location"] as? [String: Any])?["uri"] as? String ?? ""
  return URL(string: uri)?.path ?? ""
}

func isUndocumented(_ symbol: [String: Any], root: String) -> Bool {
  let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
  let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
  guard path(of: symbol).hasPrefix(root + "/"), !identifier.contains("::SYNTHESIZED::"),
    kind != "swift.extension"
  else { return false }
  let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
  return lines.allSatisfy { ($0["text"] as? String ?? "").allSatisfy(\.isWhitespace) }
}

func undocumented(root: String, graphDirectories: [String]) {
  var found: Set<String> = []
  for directory in graphDirectories {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for file in files where file.hasSuffix(".symbols.json") {
      let graph = readJSON(directory + "/" + file)
      for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? []
      where isUndocumented(symbol, root: root) {
        let names = symbol["pathComponents"] as? [String] ?? []
        let position = (symbol["location"] as? [String: Any])?["position"] as? [String: Any]
        let line = (position?["line"] as? Int).map { $0 + 1 } ?? 0
        let file = path(of: symbol).dropFirst(root.count + 1)
        found.insert("\(file):\(line): \(names.joined(separator: "."))")
      }
    }
  }
  for entry in found.sorted() { print(entry) }
  if !found.isEmpty { fail("\(found.count) public symbols have no doc comment") }
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "modules" where arguments.count == 2:
  modules(packageJSON: arguments.last!)
case "undocumented" where arguments.count >= 3:
  let rest = Array(arguments.dropFirst())
  undocumented(root: rest[0], graphDirectories: Array(rest.dropFirst()))
default:
  fail("usage: docs-check.swift modules PACKAGE_JSON | undocumented PACKAGE_DIR GRAPH_DIR...")
}
