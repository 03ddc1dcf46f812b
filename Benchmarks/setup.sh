#!/usr/bin/env bash
# Installs the benchmark peers from Debian packages: yajl, RapidJSON and simdjson (headers
# and libraries), plus hyperfine and yajl's tools for the command-line comparisons.
# Does nothing when they are present. Needs root (or sudo) for apt-get.
set -euo pipefail
packages=(libyajl-dev rapidjson-dev libsimdjson-dev yajl-tools hyperfine jq)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
echo "installing: ${missing[*]}"
$sudo apt-get install -y "${missing[@]}" >/dev/null 2>&1 || {
  $sudo apt-get update >/dev/null
  $sudo apt-get install -y "${missing[@]}" >/dev/null
}
