#!/usr/bin/env bash
# Builds and runs a libFuzzer target of Tests/Fuzz (one folder per target, holding main.swift).
#
#   Tests/Fuzz/run.sh --list                  target names, one per line
#   Tests/Fuzz/run.sh TARGET SECONDS [ARGS…]  build TARGET, fuzz it for SECONDS
#
# ARGS go to libFuzzer after the corpus dirs (e.g. `-rss_limit_mb=1024`); to replay a crash,
# run the binary directly: Tests/Fuzz/.build/TARGET/fuzzer CRASH_FILE.
#
# Everything it writes is under Tests/Fuzz/.build/ (gitignored): the binary, the log, the
# corpus libFuzzer grows (kept between runs) and crash artifacts. Seeds are each target's
# seeds/ files plus, when ../shared/testdata/JSONTestSuite/test_parsing exists next to the
# repository, those files; both get the target's 2-byte header variants prepended in a
# temporary directory that is removed on exit.
#
# Exit status: 0 when the time ran out without a finding; libFuzzer's (non-zero) status when
# it found a crash, an invariant violation, a timeout or excessive memory use.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$fuzz_dir/../.." && pwd)"
build_root="$fuzz_dir/.build"

# Header bytes prepended to every seed (see each target's main.swift for their meaning):
# strict whole; strict 1-byte chunks; lenient random 0…8-byte chunks; everything on, random
# 1…97-byte chunks, tiny limits.
seed_headers=("00 00" "00 10" "4d 21" "ff 3f")

list_targets() {
  local dir
  for dir in "$fuzz_dir"/*/; do
    [[ -f "$dir/main.swift" ]] || continue
    basename "$dir" | tr '[:upper:]' '[:lower:]'
  done
}

usage() {
  echo "usage: $0 --list | TARGET SECONDS [LIBFUZZER_ARGS...]" >&2
  exit 2
}

[[ $# -ge 1 ]] || usage
if [[ "$1" == "--list" ]]; then
  list_targets
  exit 0
fi
[[ $# -ge 2 ]] || usage
target="$1"
seconds="$2"
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

# The target's folder, matched case-insensitively (`parser` is Tests/Fuzz/Parser).
target_dir=""
for dir in "$fuzz_dir"/*/; do
  name="$(basename "$dir")"
  if [[ -f "$dir/main.swift" && "$(tr '[:upper:]' '[:lower:]' <<<"$name")" == "$target" ]]; then
    target_dir="${dir%/}"
  fi
done
if [[ -z "$target_dir" ]]; then
  echo "unknown target '$target'; targets: $(list_targets | tr '\n' ' ')" >&2
  exit 2
fi

out="$build_root/$target"
binary="$out/fuzzer"
log="$out/fuzz.log"
corpus="$out/corpus"
artifacts="$out/artifacts"
mkdir -p "$out" "$corpus" "$artifacts"

# Build. The library's modules are built one by one, as SwiftPM builds them, with testing
# enabled so that a target may `@testable import` them for internal API; JSONStreamFoundation
# too when the target imports it. Then the target's main.swift and the shared helpers.
# `package` declarations need a package name, as SwiftPM gives every target of one package.
# JSONSTREAM_TEST_COUNTERS keeps the work counters that targets check (see _WorkCounter).
# The vector kernels are a C module of static inline functions: its header is all it needs.
simd_include="$repo_root/Sources/JSONStreamSIMD/include"
flags=(-sanitize=fuzzer,address -D JSONSTREAM_TEST_COUNTERS -package-name JSONStream -parse-as-library -O -g -swift-version 6 -wmo -num-threads 0 -j 1 -I "$simd_include")
# In dependency order (see Package.swift).
core_modules=(JSONStreamCore JSONStreamParser JSONStreamValue JSONStreamWriter JSONStreamBinary JSONStreamPath JSONStreamPatch JSONStream)
library_sources() {
  find "$repo_root/Sources/$1" -name '*.swift' -print0 | sort -z
}
shared_sources=()
while IFS= read -r -d '' file; do
  shared_sources+=("$file")
done < <(find "$fuzz_dir/Shared" -name '*.swift' -print0 | sort -z)
all_sources=("${shared_sources[@]}" "$target_dir/main.swift" "$simd_include/JSONStreamSIMD.h")
for module in "${core_modules[@]}" JSONStreamFoundation; do
  while IFS= read -r -d '' file; do
    all_sources+=("$file")
  done < <(library_sources "$module")
done

build() {
  local modules=("${core_modules[@]}") objects=() module
  if grep -q '^import JSONStreamFoundation' "$target_dir/main.swift"; then
    modules+=(JSONStreamFoundation)
  fi
  for module in "${modules[@]}"; do
    local sources=()
    while IFS= read -r -d '' file; do
      sources+=("$file")
    done < <(library_sources "$module")
    swiftc "${flags[@]}" -enable-testing -module-name "$module" -I "$out/modules" -emit-module \
      -emit-module-path "$out/modules/$module.swiftmodule" -c "${sources[@]}" \
      -o "$out/$module.o"
    objects+=("$out/$module.o")
  done
  swiftc "${flags[@]}" -module-name JSONStreamFuzz -I "$out/modules" \
    "${shared_sources[@]}" "$target_dir/main.swift" "${objects[@]}" -o "$binary"
}

if [[ ! -x "$binary" ]] || [[ -n "$(find "${all_sources[@]}" "$0" -newer "$binary" | head -1)" ]]; then
  echo "building $target..." >&2
  # The linker's "Cannot export local symbol '__asan_…'" warnings are harmless: the output goes
  # to a log, shown when the build fails.
  # Run from $out: swiftc leaves module files in the working directory.
  mkdir -p "$out/modules"
  if ! (cd "$out" && build) >"$out/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$out/build.log" >&2
    rm -f "$binary"
    exit 1
  fi
fi

# Seeds, each with every header variant prepended.
seeds="$(mktemp -d "${TMPDIR:-/tmp}/jsonstream-fuzz-seeds.XXXXXX")"
trap 'rm -rf "$seeds"' EXIT
seed_files=()
if [[ -d "$target_dir/seeds" ]]; then
  while IFS= read -r -d '' file; do
    seed_files+=("$file")
  done < <(find "$target_dir/seeds" -type f -print0 | sort -z)
fi
test_suite="$repo_root/../shared/testdata/JSONTestSuite/test_parsing"
if [[ -d "$test_suite" ]]; then
  while IFS= read -r -d '' file; do
    seed_files+=("$file")
  done < <(find "$test_suite" -type f -print0 | sort -z)
fi
n=0
for file in "${seed_files[@]}"; do
  for header in "${seed_headers[@]}"; do
    n=$((n + 1))
    # shellcheck disable=SC2086  # the header splits into its two bytes on purpose
    { printf "$(printf '\\x%s' $header)"; cat "$file"; } >"$seeds/seed-$n"
  done
done

echo "fuzzing $target for ${seconds}s: ${#seed_files[@]} seed files (x${#seed_headers[@]}" \
  "headers), corpus $corpus, log $log" >&2
# The Swift runtime's own crash handler would race AddressSanitizer's and libFuzzer's.
export SWIFT_BACKTRACE=enable=no
status=0
"$binary" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
  -max_len=8192 -artifact_prefix="$artifacts/" "$@" "$corpus" "$seeds" >"$log" 2>&1 ||
  status=$?

# libFuzzer's summary: the last progress line ("#N DONE …" or the line before a crash) and
# the final stats.
grep -E '^#[0-9]+' "$log" | tail -1 || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb|new_units_added)' \
  "$log" || true

if [[ $status -ne 0 ]]; then
  echo "FAILED: libFuzzer exited with status $status; the log's end:" >&2
  tail -n 60 "$log" >&2
  for file in "$artifacts"/*; do
    [[ -f "$file" && "$file" -nt "$binary" ]] || continue
    echo "artifact $file (base64, 2 header bytes + input):" >&2
    base64 -w0 "$file" >&2
    echo >&2
  done
fi
exit "$status"
