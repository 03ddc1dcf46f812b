#!/usr/bin/env bash
# Unsafe code, per folder and per file. Every target under Sources/ builds with strict memory
# safety (see Package.swift), so the compiler makes each use of an unsafe construct say so: an
# `unsafe` expression or for-in loop, or a type declared `@safe` over unsafe storage. This
# counts the source lines that do (comments and `nonisolated(unsafe)` aside).
#
#   .ci/unsafe-sites.sh           the count per folder
#   .ci/unsafe-sites.sh --files   the count per file
#   .ci/unsafe-sites.sh --check   fails if a file outside .ci/unsafe-files.txt marks unsafe
#                                 code, or a file in it no longer does (take it out)
#
# The goal is for unsafe code to live in a few small kernels: the list only ever shrinks. That
# no unsafe use goes unmarked is the build's part: CI fails on any warning.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
sites="$(mktemp)"
trap 'rm -f "$sites"' EXIT
# One line per marked source line, `path:line`: comments cut off first.
find Sources -name '*.swift' | sort | while read -r file; do
  awk -v file="$file" '{
    line = $0
    sub(/\/\/.*/, "", line)
    gsub(/nonisolated\(unsafe\)/, "", line)
    if (line ~ /(^|[^A-Za-z0-9_])(unsafe|@safe|@unsafe)([^A-Za-z0-9_]|$)/) print file ":" NR
  }' "$file"
done >"$sites"
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
      echo "unsafe code outside .ci/unsafe-files.txt (move it into a kernel):" >&2
      for file in $unexpected; do grep "^$file:" "$sites" >&2; done
    fi
    if [[ -n "$stale" ]]; then
      echo "safe now, take out of .ci/unsafe-files.txt:" >&2
      echo "$stale" >&2
    fi
    [[ -z "$unexpected" && -z "$stale" ]] || exit 1
    echo "unsafe code in $(echo "$used" | grep -c .) files, all listed; $(wc -l <"$sites") lines"
    ;;
  *)
    awk -F'[/:]' '{ folder = $2; if (NF > 4) folder = folder "/" $3; print folder }' "$sites" \
      | sort | uniq -c | sort -rn | awk '{ total += $1; print } END { print total, "in all" }'
    ;;
esac
