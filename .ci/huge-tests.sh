#!/usr/bin/env bash
# The tests over huge inputs, and only those: the tests (or suites) that carry the `hugeInput`
# trait, run with JSONSTREAM_HUGE_TESTS set. `swift test` runs the others just before; this
# toolchain's `swift test --filter` cannot select by tag, so the names are read from the
# sources: the first `func` or `struct` after each `.hugeInput,` trait.
#
#   .ci/huge-tests.sh          runs them
#   .ci/huge-tests.sh --list   their names
set -euo pipefail
cd "$(dirname "$0")/.."
names="$(find Tests -name '*.swift' -exec awk '
  /\.hugeInput,/ { pending = 1 }
  pending && match($0, /(func|struct) [A-Za-z0-9_]+/) {
    split(substr($0, RSTART, RLENGTH), parts, " ")
    print parts[2]
    pending = 0
  }' {} \;)"
traits="$(grep -rho '\.hugeInput,' Tests --include='*.swift' | wc -l)"
found="$(echo "$names" | grep -c . || true)"
if [[ "$found" -ne "$traits" || "$found" -eq 0 ]]; then
  echo "huge-input tests: $traits traits but $found names found; write each as" \
    "'@Test(\"…\", .hugeInput, .tags(.hugeInput))' just above its func" >&2
  exit 1
fi
if [[ "${1:-}" == "--list" ]]; then
  echo "$names"
  exit 0
fi
# A name may be shared by a quick test elsewhere, which then runs too: harmless.
JSONSTREAM_HUGE_TESTS=1 swift test --skip-build --filter "/($(echo "$names" | sort -u | paste -sd'|'))\("
