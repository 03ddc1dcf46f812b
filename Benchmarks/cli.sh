#!/usr/bin/env bash
# The jsonstream tool side by side with yajl's json_verify and json_reformat and with jq, on
# generated files (an array of records, made once in ${TMPDIR:-/tmp}): wall time (the best of
# RUNS runs, one tool after the other) and peak resident memory (/usr/bin/time's %M).
#
#   Benchmarks/cli.sh [MB ...]        default: 200 1024; RUNS=3 by default (jq runs once)
#
# Needs jq and yajl-tools (Benchmarks/setup.sh installs the peers).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-3}"
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(200 1024)

swift build -c release --package-path "$root" --product jsonstream >/dev/null
swift build -c release --package-path "$root/Benchmarks" --product jsonstream-bench >/dev/null
tool="$root/.build/release/jsonstream"
bench="$root/Benchmarks/.build/release/jsonstream-bench"

# best SECONDS and peak RSS (MB) of running "$@" $runs times, output to /dev/null
measure() {
  local count="$1"
  shift
  local best="" peak=0 line seconds kilobytes
  local report
  report="$(mktemp)"
  for ((i = 0; i < count; i++)); do
    /usr/bin/time -o "$report" -f '%e %M' "$@" >/dev/null 2>/dev/null || true
    line="$(tail -1 "$report")"
    seconds="${line% *}"
    kilobytes="${line#* }"
    if [[ -z "$best" ]] || awk "BEGIN { exit !($seconds < $best) }"; then best="$seconds"; fi
    if ((kilobytes > peak)); then peak="$kilobytes"; fi
  done
  rm -f "$report"
  echo "$best $((peak / 1024))"
}

row() {  # row LABEL SECONDS MB BYTES
  awk -v label="$1" -v s="$2" -v mb="$3" -v bytes="$4" \
    'BEGIN { printf "| %-52s | %7.2f s | %7.0f MB/s | %6d MB |\n", label, s, bytes / 1e6 / s, mb }'
}

for size in "${sizes[@]}"; do
  file="${TMPDIR:-/tmp}/jsonstream-bench-${size}mb.json"
  [[ -f "$file" ]] || "$bench" --generate "$size" "$file"
  bytes=$(stat -c %s "$file")
  echo
  echo "$file: $bytes bytes"
  echo
  echo "| command | time | throughput | peak RSS |"
  echo "| --- | --- | --- | --- |"
  for command in validate fmt minify ndjson stats; do
    read -r s mb < <(measure "$runs" "$tool" "$command" "$file")
    row "jsonstream $command" "$s" "$mb" "$bytes"
  done
  read -r s mb < <(measure "$runs" "$tool" select '$[*].location.city' "$file")
  row "jsonstream select '\$[*].location.city'" "$s" "$mb" "$bytes"
  read -r s mb < <(measure "$runs" sh -c 'json_verify -q < "$0"' "$file")
  row "json_verify -q (yajl)" "$s" "$mb" "$bytes"
  read -r s mb < <(measure "$runs" sh -c 'json_reformat -m < "$0"' "$file")
  row "json_reformat -m (yajl)" "$s" "$mb" "$bytes"
  read -r s mb < <(measure 1 jq -c '.[].location.city' "$file")
  row "jq -c '.[].location.city'" "$s" "$mb" "$bytes"
done
