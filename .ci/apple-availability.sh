#!/usr/bin/env bash
# Fails when a standard-library module of the package uses an API newer than the Apple
# platforms Package.swift declares, outside `#available`/`@available`. Apple's SDKs are not on
# a Linux machine, but the toolchain's own .swiftinterface files carry the standard library's
# Apple availability: they are rebuilt here for an Apple target (with the availability
# checking of their own bodies off), and each module is type-checked for every declared
# platform at its deployment target, as an Apple build would be.
#
# What it cannot check: JSONStreamFoundation and the tool, which import Foundation and the C
# library, for which the toolchain ships no interface with Apple availability.
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain=$(dirname "$(dirname "$(command -v swiftc)")")
linux="$toolchain/lib/swift/linux"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The modules below JSONStreamFoundation, in dependency order (see Package.swift).
modules=(JSONStreamCore JSONStreamParser JSONStreamValue JSONStreamWriter JSONStreamBinary
  JSONStreamPath JSONStreamPatch JSONStream)

# Each platform: its name in Package.swift, its target triple (VERSION for the deployment
# target), the SDK folder, the interface file's name.
platforms=(
  "macOS x86_64-apple-macosxVERSION macosx x86_64-apple-macos"
  "iOS x86_64-apple-iosVERSION-simulator iphonesimulator x86_64-apple-ios-simulator"
  "tvOS x86_64-apple-tvosVERSION-simulator appletvsimulator x86_64-apple-tvos-simulator"
  "watchOS x86_64-apple-watchosVERSION-simulator watchsimulator x86_64-apple-watchos-simulator"
  # visionOS is not compiled for: its availability maps from iOS through the SDK's
  # SDKSettings.json version map; without one every iOS 13 API reads as missing, and with
  # one written here the standard library's interfaces stop finding SwiftShims (cause not
  # found). The iOS check covers it: an API that iOS 16 (the deployment target) has came
  # before visionOS existed, and visionOS 1.0 has everything iOS 17 has.
)

# Checks one platform ("name triple sdkdir interface"); its messages go to $work/name.out.
check() {
  local name triple sdkdir interface version target resources modulesOut module
  read -r name triple sdkdir interface <<<"$1"
  version=$(grep -oE "\.$name\(\.v[0-9_]+\)" Package.swift | grep -oE '[0-9_]+' | tr _ .) || true
  if [ -z "$version" ]; then
    echo "Package.swift declares no $name version"
    return 1
  fi
  case $version in *.*) ;; *) version="$version.0" ;; esac
  target=${triple/VERSION/$version}
  # The standard library's interfaces, as an Apple SDK holds them, built for a release where
  # everything is available: the check is of the package's code, not of theirs.
  resources="$work/$name/resources"
  modulesOut="$work/$name/modules"
  mkdir -p "$resources/$sdkdir" "$work/$name/sdk" "$modulesOut"
  ln -s "$toolchain/lib/swift/shims" "$resources/shims"
  # Clang's own headers, for the vector kernels' C module (JSONStreamSIMD), which the core
  # imports; freestanding, as there is no Apple C library here.
  ln -s "$toolchain/lib/swift/clang" "$resources/clang"
  for module in Swift _Concurrency _StringProcessing SwiftOnoneSupport Synchronization \
    _Builtin_float; do
    source="$linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface"
    [ -f "$source" ] || continue
    mkdir -p "$resources/$sdkdir/$module.swiftmodule"
    sed -E -e "s|-target x86_64-unknown-linux-gnu|-target ${triple/VERSION/99.0}|" \
      -e '/^\s*@backDeployed\(/d' \
      -e 's|^(// swift-module-flags: .*)$|\1 -disable-availability-checking|' \
      "$source" >"$resources/$sdkdir/$module.swiftmodule/$interface.swiftinterface"
  done
  # Without Objective-C interop, as the Linux standard library was built.
  compile() {
    swiftc -emit-module -target "$target" -Xfrontend -disable-objc-interop \
      -resource-dir "$resources" -sdk "$work/$name/sdk" -package-name JSONStream \
      -swift-version 6 -parse-as-library -I "$modulesOut" \
      -I Sources/JSONStreamSIMD/include -Xcc -ffreestanding "$@" >"$work/$name.log" 2>&1
  }
  # First, that the check sees anything: an API newer than every deployment target, unguarded.
  echo 'func probe() -> Any { UTF8Span.self }' >"$work/$name/Probe.swift"
  if compile -module-name Probe -emit-module-path "$work/$name/Probe.swiftmodule" \
    "$work/$name/Probe.swift" || ! grep -q "only available in" "$work/$name.log"; then
    echo "$name $version: the check does not work here: an unguarded UTF8Span passed"
    return 1
  fi
  for module in "${modules[@]}"; do
    mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
    if ! compile -module-name "$module" -emit-module-path "$modulesOut/$module.swiftmodule" \
      "${sources[@]}"; then
      grep -E "error:" "$work/$name.log" | sort -u
      echo "$name $version: $module uses an API its deployment target lacks (above)"
      return 1
    fi
  done
  echo "$name $version: ${#modules[@]} modules checked"
}

# The vector kernels on every CPU family they choose a path for: SSE2 (x86-64), NEON (Apple
# silicon, 64-bit ARM Linux), and none (RISC-V here), compiled to object code with warnings
# as errors.
status=0
kernels="$work/kernels.c"
printf '%s\n' '#include "JSONStreamSIMD.h"' \
  'const uint8_t *strings(const uint8_t *p, const uint8_t *e) { return jsonstream_skip_plain_string_blocks(p, e); }' \
  'const uint8_t *spaces(const uint8_t *p, const uint8_t *e) { return jsonstream_skip_spaces_blocks(p, e); }' \
  'int blocks(void) { return jsonstream_simd_has_blocks(); }' >"$kernels"
for triple in x86_64-apple-macos13 arm64-apple-macos13 arm64-apple-ios16 aarch64-unknown-linux-gnu \
  riscv64-unknown-linux-gnu; do
  if ! clang -target "$triple" -ffreestanding -O2 -Wall -Wextra -Werror \
    -I Sources/JSONStreamSIMD/include -c "$kernels" -o "$work/kernels-$triple.o"; then
    echo "$triple: the vector kernels do not compile"
    status=1
  fi
done

# Two platforms at a time (one per core).
running=0
for entry in "${platforms[@]}"; do
  name=${entry%% *}
  (check "$entry" >"$work/$name.out" 2>&1) &
  running=$((running + 1))
  if [ $running -eq 2 ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while [ $running -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for entry in "${platforms[@]}"; do cat "$work/${entry%% *}.out"; done
exit $status
