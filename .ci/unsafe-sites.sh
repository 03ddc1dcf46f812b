#!/usr/bin/env bash
# Unsafe code, per folder and per file: the package built with `-strict-memory-safety` (in a
# build folder of its own), each source line it flags counted once.
#
#   .ci/unsafe-sites.sh           the count per folder
#   .ci/unsafe-sites.sh --files   the count per file
#   .ci/unsafe-sites.sh --check   fails if a file outside .ci/unsafe-files.txt uses unsafe
#                                 constructs, or a file in it no longer does (take it out)
#
# The goal is for unsafe code to live in a few small kernels: the list only ever shrinks.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
log="$(mktemp)"
sites="$(mktemp)"
trap 'rm -f "$log" "$sites"' EXIT
# A clean build: an incremental one reports only the files it compiles again.
rm -rf .build/strict-memory-safety
swift build --scratch-path .build/strict-memory-safety -Xswiftc -strict-memory-safety >"$log" 2>&1 || {
  cat "$log" >&2
  exit 1
}
grep -o "Sources/[^:]*\.swift:[0-9]*:[0-9]*: warning: .*StrictMemorySafety" "$log" \
  | cut -d: -f1,2 | sort -u >"$sites" || true
case "$mode" in
  --files)
    cut -d: -f1 "$sites" | sort | uniq -c | sort -rn \
      | awk '{ total += $1; print } END { print total, "in all" }'
    ;;
  --check)
    allowed="$(grep -v '^#' .ci/unsafe-files.txt | grep -v '^$' | sort -u)"
    used="$(cut -d: -f1 "$sites" | sort -u)"
    unexpected="$(comm -13 <(echo "$allowed") <(echo "$used") | grep -v '^$' || true)"
    stale="$(comm -23 <(echo "$allowed") <(echo "$used") | grep -v '^$' || true)"
    if [[ -n "$unexpected" ]]; then
      echo "unsafe constructs outside .ci/unsafe-files.txt (move them into a kernel):" >&2
      for file in $unexpected; do grep "^$file:" "$sites" >&2; done
    fi
    if [[ -n "$stale" ]]; then
      echo "safe now, take out of .ci/unsafe-files.txt:" >&2
      echo "$stale" >&2
    fi
    [[ -z "$unexpected" && -z "$stale" ]] || exit 1
    echo "unsafe constructs in $(echo "$used" | grep -c .) files, all listed; $(wc -l <"$sites") lines"
    ;;
  *)
    awk -F'[/:]' '{ folder = $2; if (NF > 4) folder = folder "/" $3; print folder }' "$sites" \
      | sort | uniq -c | sort -rn | awk '{ total += $1; print } END { print total, "in all" }'
    ;;
esac
