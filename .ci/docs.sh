#!/usr/bin/env bash
# Builds the documentation of every library module with the toolchain's own `docc` (no
# plugin), and fails on any docc warning or on a public symbol without a doc comment.
#
#   .ci/docs.sh [--scratch-path DIR]     (or JSONSTREAM_SCRATCH_PATH=DIR; default .build)
#
# The modules are those of the package's library products (`swift package describe`), so a
# new product is picked up; a module a product re-exports (`@_exported import`, as JSONStream
# re-exports every layer) is documented inside it, as its users see it, so a new layer is
# picked up too, and a library module that is neither fails the run. All of them go into one
# archive, so that links resolve across modules: ``JSONParseError`` in a layer's comment, and
# ``JSONStream/JSONValue`` from JSONStreamFoundation's.
#
# The modules are built (debug) in the scratch path; the symbol graphs and the archive go to
# DIR/documentation (JSONStream.doccarchive; `docc preview` or any static server shows it).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${JSONSTREAM_SCRATCH_PATH:-.build}"
while [ $# -gt 0 ]; do
  case "$1" in
    --scratch-path) scratch="$2"; shift 2 ;;
    --scratch-path=*) scratch="${1#*=}"; shift ;;
    *) echo "usage: $0 [--scratch-path DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$scratch"
scratch="$(cd "$scratch" && pwd -P)"
root="$(pwd -P)"
out="$scratch/documentation"
rm -rf "$out"
mkdir -p "$out/symbol-graphs"

# The toolchain's tools: from Xcode's toolchain on macOS, next to the compiler elsewhere.
tool() {
  if command -v xcrun >/dev/null; then
    xcrun --find "$1"
  else
    local resources
    resources="$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')"
    echo "$resources/../../bin/$1"
  fi
}
extract="$(tool swift-symbolgraph-extract)"
docc="$(tool docc)"
triple="$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)"
sdk=()
if command -v xcrun >/dev/null; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi

swift package --scratch-path "$scratch" describe --type json >"$out/package.json"
swift .ci/docs-check.swift modules "$out/package.json" >"$out/modules.txt"
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
# The C modules' header folders (the vector kernels), which the Swift modules import.
headers=()
for include in "$root"/Sources/*/include; do
  if [ -d "$include" ]; then headers+=(-I "$include"); fi
done
catalog=()
while read -r module reexports moduleCatalog; do
  swift build --scratch-path "$scratch" --target "$module" >"$out/build.log" 2>&1 || {
    cat "$out/build.log" >&2
    exit 1
  }
  flags=()
  if [ "$reexports" != - ]; then flags=("-experimental-allowed-reexported-modules=$reexports"); fi
  "$extract" -module-name "$module" -target "$triple" ${sdk[@]+"${sdk[@]}"} -I "$bin/Modules" \
    ${headers[@]+"${headers[@]}"} \
    -module-cache-path "$bin/ModuleCache" -minimum-access-level public \
    -emit-extension-block-symbols ${flags[@]+"${flags[@]}"} -output-dir "$out/symbol-graphs"
  if [ "$moduleCatalog" != - ]; then
    if [ ${#catalog[@]} -gt 0 ]; then
      echo "more than one module has a documentation catalog; one archive takes one" >&2
      exit 1
    fi
    catalog=("$moduleCatalog")
  fi
done <"$out/modules.txt"

# Every public symbol declared in the package has a doc comment (the rule: docs-check.swift).
swift .ci/docs-check.swift undocumented "$root" "$out/symbol-graphs"

# The archive is named after the first library product's module, whose catalog is the landing.
name="$(head -n 1 "$out/modules.txt" | cut -d' ' -f1)"
"$docc" convert ${catalog[@]+"${catalog[@]}"} --additional-symbol-graph-dir "$out/symbol-graphs" \
  --fallback-display-name "$name" --fallback-bundle-identifier "$name" \
  --output-path "$out/$name.doccarchive" 2>&1 | tee "$out/docc.log"
if grep -qE '^(warning|error):' "$out/docc.log"; then
  echo "docc: $(grep -cE '^(warning|error):' "$out/docc.log") warnings or errors" >&2
  exit 1
fi
echo "documentation: $out/$name.doccarchive"
