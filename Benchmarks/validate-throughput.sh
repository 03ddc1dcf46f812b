#!/usr/bin/env bash
# Throughput of `jsonstream validate` (release) on the shared corpus, as quoted in the README.
# Each file is timed as is and repeated 60 times inside one array (to dwarf process start-up).
# Needs hyperfine (Debian: apt-get install hyperfine) and ../shared/corpus next to the checkout.
#
#   Benchmarks/validate-throughput.sh
#
# The side-by-side benchmark package against yajl, RapidJSON, simdjson and Foundation is the
# next step of this folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="${CORPUS:-$root/../shared/corpus}"
[[ -d "$corpus" ]] || { echo "no corpus at $corpus" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 1; }

cd "$root"
swift build -c release --product jsonstream >/dev/null
tool="$root/.build/release/jsonstream"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mb_per_s() {  # bytes, seconds
  awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f", b / s / 1e6 }'
}

startup=$(hyperfine -N -w 5 -r 30 --export-json "$work/startup.json" "$tool --help" >/dev/null &&
  python3 -c "import json;print(json.load(open('$work/startup.json'))['results'][0]['mean'])")
printf '%-22s %12s %10s %14s\n' input bytes "mean ms" "MB/s"
printf '%-22s %12s %10.2f %14s\n' "(start-up)" - "$(awk -v s="$startup" 'BEGIN{print s*1000}')" -
for name in twitter citm_catalog canada; do
  file="$corpus/$name.json"
  python3 - "$file" "$work/${name}_x60.json" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(b'[' + b','.join([data] * 60) + b']')
PY
  for input in "$file" "$work/${name}_x60.json"; do
    hyperfine -N -w 3 -r 20 --export-json "$work/r.json" "$tool validate $input" >/dev/null
    mean=$(python3 -c "import json;print(json.load(open('$work/r.json'))['results'][0]['mean'])")
    bytes=$(stat -c %s "$input")
    label=$(basename "$input")
    printf '%-22s %12d %10.2f %8s (%s without start-up)\n' "$label" "$bytes" \
      "$(awk -v s="$mean" 'BEGIN{print s*1000}')" "$(mb_per_s "$bytes" "$mean")" \
      "$(mb_per_s "$bytes" "$(awk -v m="$mean" -v s="$startup" 'BEGIN{print m-s}')")"
  done
done
