#!/usr/bin/env bash
# The jsonstream tool side by side with yajl's json_verify and json_reformat and with jq, on
# generated files (an array of records, made once in ${TMPDIR:-/tmp}): wall time (the best of
# RUNS rounds, each running every tool once) and peak resident memory (/usr/bin/time's %M).
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

# Each job is a label and a command line; jobs run interleaved, one run of each per round, so
# that a slow spell of the machine falls on every tool alike. A job's time is its best round;
# its peak RSS the largest (/usr/bin/time's %M).
labels=()
commands=()
job() {
  labels+=("$1")
  commands+=("$2")
}

row() {  # row LABEL SECONDS MB BYTES
  awk -v label="$1" -v s="$2" -v mb="$3" -v bytes="$4" \
    'BEGIN { printf "| %-52s | %7.2f s | %7.0f MB/s | %6d MB |\n", label, s, bytes / 1e6 / s, mb }'
}

for size in "${sizes[@]}"; do
  file="${TMPDIR:-/tmp}/jsonstream-bench-${size}mb.json"
  [[ -f "$file" ]] || "$bench" --generate "$size" "$file"
  bytes=$(stat -c %s "$file")
  labels=()
  commands=()
  for command in validate fmt minify ndjson stats; do
    job "jsonstream $command" "\"$tool\" $command \"$file\""
  done
  job "jsonstream select '\$[*].location.city'" "\"$tool\" select '\$[*].location.city' \"$file\""
  job "json_verify -q (yajl)" "json_verify -q < \"$file\""
  job "json_reformat -m (yajl)" "json_reformat -m < \"$file\""
  declare -A best=() peak=()
  report="$(mktemp)"
  cat "$file" >/dev/null  # into the page cache before the first round
  for ((round = 0; round < runs; round++)); do
    for index in "${!labels[@]}"; do
      /usr/bin/time -o "$report" -f '%e %M' sh -c "${commands[$index]}" >/dev/null 2>/dev/null || true
      read -r seconds kilobytes < <(tail -1 "$report")
      if [[ -z "${best[$index]:-}" ]] || awk "BEGIN { exit !($seconds < ${best[$index]}) }"; then
        best[$index]="$seconds"
      fi
      if ((kilobytes > ${peak[$index]:-0})); then peak[$index]="$kilobytes"; fi
    done
  done
  # jq once: it takes ten times as long and as much memory as the file.
  /usr/bin/time -o "$report" -f '%e %M' jq -c '.[].location.city' "$file" >/dev/null 2>/dev/null || true
  read -r jq_seconds jq_kilobytes < <(tail -1 "$report")
  rm -f "$report"

  echo
  echo "$file: $bytes bytes (best of $runs interleaved rounds; jq once)"
  echo
  echo "| command | time | throughput | peak RSS |"
  echo "| --- | --- | --- | --- |"
  for index in "${!labels[@]}"; do
    row "${labels[$index]}" "${best[$index]}" "$((peak[$index] / 1024))" "$bytes"
  done
  row "jq -c '.[].location.city'" "$jq_seconds" "$((jq_kilobytes / 1024))" "$bytes"
  # labels: 0 validate, 2 minify, 5 select, 6 json_verify, 7 json_reformat
  awk -v v="${best[0]}" -v jv="${best[6]}" -v m="${best[2]}" -v jr="${best[7]}" \
    -v s="${best[5]}" -v jq="$jq_seconds" 'BEGIN {
      printf "\nvalidate / json_verify: %.2f (target <= 0.5)\n", v / jv
      printf "minify / json_reformat -m: %.2f (target <= 0.5)\n", m / jr
      printf "jq / select: %.1fx (target >= 5)\n", jq / s
    }'
  unset best peak
done
