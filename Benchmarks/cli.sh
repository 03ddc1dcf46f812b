#!/usr/bin/env bash
# The jsonstream tool side by side with yajl's json_verify and json_reformat and with jq, on
# generated files (an array of records, made once in ${TMPDIR:-/tmp}): wall time (the best of
# RUNS rounds, each running every tool once) and peak resident memory (/usr/bin/time's %M).
# A target that compares two commands takes the median, over the rounds, of their ratio
# within a round.
#
#   Benchmarks/cli.sh [--write-readme] [MB ...]
#       default sizes: 200 1024; RUNS=3 by default
#       --write-readme: each size's table also replaces the one between its markers in
#       Benchmarks/README.md, "<!-- cli table MB: ... -->" and "<!-- end of cli table MB -->"
#
# Needs jq and yajl-tools (Benchmarks/setup.sh installs the peers).
# shellcheck disable=SC2016  # backticks in single quotes are Markdown, not commands
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readme="$root/Benchmarks/README.md"
runs="${RUNS:-3}"
write_readme=0
sizes=()
for argument in "$@"; do
  case "$argument" in
    --write-readme) write_readme=1 ;;
    *) sizes+=("$argument") ;;
  esac
done
[[ ${#sizes[@]} -gt 0 ]] || sizes=(200 1024)

begin_marker() { echo "<!-- cli table $1 MB: written by Benchmarks/cli.sh --write-readme $1 -->"; }
end_marker() { echo "<!-- end of cli table $1 MB -->"; }
if ((write_readme)); then  # before the measuring, not after it
  for size in "${sizes[@]}"; do
    if ! grep -qxF "$(begin_marker "$size")" "$readme" || ! grep -qxF "$(end_marker "$size")" "$readme"; then
      echo "$readme has no markers for $size MB: add these lines where its table goes:" >&2
      begin_marker "$size" >&2
      end_marker "$size" >&2
      exit 1
    fi
  done
fi

swift build -c release --package-path "$root" --product jsonstream >/dev/null
swift build -c release --package-path "$root/Benchmarks" --product jsonstream-bench >/dev/null
tool="$root/.build/release/jsonstream"
bench="$root/Benchmarks/.build/release/jsonstream-bench"

# The filter: records whose score (0 to 10,000) is above 9,000, about one in ten, and their
# name, a string, so that jq's output is byte-identical (jq rewrites numbers: 9692.0 → 9692).
filter_path='$[?@.score > 9000].name'
filter_jq='.[] | select(.score > 9000) | .name'

# Each job is a key, a label (Markdown, in the table) and a command line; jobs run
# interleaved, one run of each per round, so that a slow spell of the machine falls on every
# tool alike. A job's time is its best round; its peak RSS the largest (/usr/bin/time's %M).
# Jobs are listed, and run, in the order of the table. jq runs in every round too, though it
# takes ten times as long as ours: this machine's speed drifts by up to half from one minute to
# the next, and a ratio of two runs minutes apart measured that drift (the filter's ratio to jq
# came out at 16× in one full run and 22× in the next).
keys=()
labels=()
commands=()
job() {  # job KEY LABEL COMMAND; its input is $input_bytes long
  keys+=("$1")
  labels+=("$2")
  commands+=("$3")
  job_bytes+=("$input_bytes")
}

row() {  # row LABEL SECONDS KILOBYTES BYTES (the label through the environment: awk -v
  # would take the backslash out of its "\|")
  LABEL="$1" awk -v s="$2" -v kb="$3" -v bytes="$4" 'BEGIN {
    printf "| %s | %.2f s | %.0f MB/s | %.0f MB |\n", ENVIRON["LABEL"], s, bytes / 1e6 / s, kb * 1024 / 1e6
  }'
}

for size in "${sizes[@]}"; do
  file="${TMPDIR:-/tmp}/jsonstream-bench-${size}mb.json"
  [[ -f "$file" ]] || "$bench" --generate "$size" "$file"
  bytes=$(stat -c %s "$file")
  input_bytes="$bytes"
  keys=()
  labels=()
  commands=()
  job_bytes=()
  # validate and select with a wildcard or a filter read the array's elements on every core
  # (one per line here); each also runs on one thread (--threads 1) for comparison.
  threads="$(nproc) threads"
  job validate "\`jsonstream validate\` ($threads)" "\"$tool\" validate \"$file\""
  job validate_1 '`jsonstream validate --threads 1`' "\"$tool\" validate --threads 1 \"$file\""
  job json_verify '`json_verify -q` (yajl)' "json_verify -q < \"$file\""
  job minify '`jsonstream minify`' "\"$tool\" minify \"$file\""
  job json_reformat '`json_reformat -m` (yajl)' "json_reformat -m < \"$file\""
  job select "\`jsonstream select '\$[*].location.city'\` ($threads)" \
    "\"$tool\" select '\$[*].location.city' \"$file\""
  job select_1 "\`jsonstream select '\$[*].location.city' --threads 1\`" \
    "\"$tool\" select '\$[*].location.city' --threads 1 \"$file\""
  job jq "\`jq -c '.[].location.city'\`" "jq -c '.[].location.city' \"$file\""
  job filter "\`jsonstream select '$filter_path'\` ($threads)" \
    "\"$tool\" select '$filter_path' \"$file\""
  job filter_1 "\`jsonstream select '$filter_path' --threads 1\`" \
    "\"$tool\" select '$filter_path' --threads 1 \"$file\""
  job jq_filter "\`jq -c '${filter_jq//|/\\|}'\`" "jq -c '$filter_jq' \"$file\""
  job first "\`jsonstream select '\$[0].id'\` (the rest skipped)" \
    "\"$tool\" select '\$[0].id' \"$file\""
  for command in fmt ndjson stats; do
    job "$command" "\`jsonstream $command\`" "\"$tool\" $command \"$file\""
  done
  # The binary format: the file converted to it, and back from it (made once per build of the
  # tool) to JSON, which should take well under minify's time on the JSON text.
  job convert_binary '`jsonstream convert --to binary`' \
    "\"$tool\" convert --to binary \"$file\""
  binary="${file%.json}.jsb"
  [[ "$binary" -nt "$tool" ]] || "$tool" convert --to binary "$file" -o "$binary"
  input_bytes=$(stat -c %s "$binary")
  job convert_json '`jsonstream convert --to json` (of the binary)' \
    "\"$tool\" convert --to json \"$binary\""
  # The same records as NDJSON, one per line: each command on one thread, then on every core.
  lines="${file%.json}.ndjson"
  [[ -f "$lines" ]] || "$tool" ndjson "$file" >"$lines"
  input_bytes=$(stat -c %s "$lines")
  for command in validate minify "select '\$.location.city'"; do
    key="lines_${command%% *}"
    job "${key}_1" "\`jsonstream $command --multiple-values --threads 1\` (NDJSON)" \
      "\"$tool\" $command --multiple-values --threads 1 \"$lines\""
    job "$key" "\`jsonstream $command --multiple-values\` (NDJSON, $(nproc) threads)" \
      "\"$tool\" $command --multiple-values \"$lines\""
  done

  declare -A best=() peak=() index_of=() times=()
  for index in "${!keys[@]}"; do index_of[${keys[$index]}]=$index; done
  report="$(mktemp)"
  cat "$file" >/dev/null  # into the page cache before the first round
  for ((round = 0; round < runs; round++)); do
    for index in "${!keys[@]}"; do
      if ! /usr/bin/time -o "$report" -f '%e %M' sh -c "${commands[$index]}" >/dev/null 2>"$report.err"; then
        echo "failed: ${commands[$index]}" >&2
        cat "$report.err" >&2
        exit 1
      fi
      read -r seconds kilobytes < <(tail -1 "$report")
      times[$index]+="$seconds "
      if [[ -z "${best[$index]:-}" ]] || awk "BEGIN { exit !($seconds < ${best[$index]}) }"; then
        best[$index]="$seconds"
      fi
      if ((kilobytes > ${peak[$index]:-0})); then peak[$index]="$kilobytes"; fi
    done
  done
  rm -f "$report" "$report.err"

  # The largest peak RSS of any jsonstream job, for the memory target.
  ours_peak=0
  for index in "${!keys[@]}"; do
    case "${keys[$index]}" in json_verify | json_reformat | jq | jq_filter) continue ;; esac
    if ((peak[$index] > ours_peak)); then ours_peak="${peak[$index]}"; fi
  done
  t() { echo "${best[${index_of[$1]}]}"; }
  # The median over the rounds of job $1's time ÷ job $2's in the same round.
  ratio() {
    awk -v a="${times[${index_of[$1]}]}" -v b="${times[${index_of[$2]}]}" 'BEGIN {
      n = split(a, x); split(b, y)
      for (i = 1; i <= n; i++) {
        r = y[i] > 0 ? x[i] / y[i] : 0  # a run below the 10 ms the timer shows
        for (j = i - 1; j >= 1 && sorted[j] > r; j--) sorted[j + 1] = sorted[j]
        sorted[j + 1] = r
      }
      print n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
    }'
  }

  table="$(
    "$bench" --machine
    echo
    printf '%s, %s bytes: best of %s interleaved rounds (targets: median ratio), output to /dev/null,\n' \
      "$(basename "$file")" "$(sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<<"$bytes")" "$runs"
    printf 'file in the page cache; MB/s of input, peak RSS from `/usr/bin/time -f %%M` (MB = 10^6 bytes).\n\n'
    echo "| command | time | throughput | peak RSS |"
    echo "| --- | ---: | ---: | ---: |"
    for index in "${!keys[@]}"; do
      row "${labels[$index]}" "${best[$index]}" "${peak[$index]}" "${job_bytes[$index]}"
    done
    echo
    echo "| target | measured | status |"
    echo "| --- | ---: | --- |"
    awk -v v="$(ratio validate json_verify)" -v m="$(ratio minify json_reformat)" \
      -v s="$(ratio jq select)" -v f="$(ratio jq_filter filter)" \
      -v c="$(ratio convert_json minify)" \
      -v kb="$ours_peak" -v fkb="${peak[${index_of[filter]}]}" -v cores="$(nproc)" \
      -v lv="$(ratio lines_validate_1 lines_validate)" -v lm="$(ratio lines_minify_1 lines_minify)" \
      -v ls="$(ratio lines_select_1 lines_select)" 'BEGIN {
        status(v <= 0.5, "`validate` time ≤ 0.5× `json_verify -q`", sprintf("%.2f×", v))
        status(m <= 0.5, "`minify` time ≤ 0.5× `json_reformat -m`", sprintf("%.2f×", m))
        status(s >= 5, "`select` ≥ 5× jq (no filter)", sprintf("%.1f×", s))
        status(f >= 20, "`select` with a filter ≥ 20× jq", sprintf("%.1f×", f))
        status(c <= 0.6, "`convert --to json` time ≤ 0.6× `minify` of the JSON", sprintf("%.2f×", c))
        status(fkb * 1024 < 64e6, "`select` with a filter < 64 MB peak RSS", sprintf("%.0f MB", fkb * 1024 / 1e6))
        status(kb * 1024 < 64e6, "every jsonstream command < 64 MB peak RSS", sprintf("%.0f MB", kb * 1024 / 1e6))
        lines("validate", lv); lines("minify", lm); lines("select", ls)
      }
      function lines(command, ratio) {
        status(ratio >= 1.8, "NDJSON `" command "` on " cores " cores ≥ 1.8× one thread",
          sprintf("%.2f×", ratio))
      }
      function status(ok, target, measured) {
        printf "| %s | %s | %s |\n", target, measured, ok ? "met" : "**not met**"
      }'
  )"
  echo
  echo "$table"
  if ((write_readme)); then
    block="$(mktemp)"
    echo "$table" >"$block"
    awk -v begin="$(begin_marker "$size")" -v end="$(end_marker "$size")" -v block="$block" '
      $0 == begin { print; print ""; while ((getline line < block) > 0) print line; print ""; skip = 1; next }
      $0 == end { skip = 0 }
      !skip { print }' "$readme" >"$readme.new"
    mv "$readme.new" "$readme"
    rm -f "$block"
    echo "(written into $readme)"
  fi
  unset best peak index_of times
done
