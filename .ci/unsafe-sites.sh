#!/usr/bin/env bash
# Counts the source lines that use unsafe constructs, per folder: the package built with
# `-strict-memory-safety` (in a build folder of its own), each line it flags counted once.
# A report, not a check; the goal is for unsafe code to live in a few small kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift build --scratch-path .build/strict-memory-safety -Xswiftc -strict-memory-safety >"$log" 2>&1
grep -o "Sources/[^:]*\.swift:[0-9]*:[0-9]*: warning: .*StrictMemorySafety" "$log" \
  | cut -d: -f1,2 | sort -u \
  | awk -F/ '{ folder = $2; if (NF > 3) folder = folder "/" $3; print folder }' \
  | sort | uniq -c | sort -rn | awk '{ total += $1; print } END { print total, "in all" }'
