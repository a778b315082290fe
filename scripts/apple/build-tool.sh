#!/usr/bin/env bash
# Builds one of the tools in scripts/apple (its file with IfConditions.swift, which they share) into OUTDIR once per
# version of their sources, and prints the executable's path.
#
#   scripts/apple/build-tool.sh AppleLineCount|AppleSymbols|AvailabilityCheck OUTDIR [-O|-Onone]
#
# -O (the default) for a tool that reads much (AvailabilityCheck over every source, AppleSymbols over Apple's SDK);
# -Onone for one that reads little: it compiles in a sixth of the CPU time (AppleSymbols: 1 s against 7.5 s), and
# its run over the stubs or the sources takes a tenth of a second either way.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
name="${1:-}"
out="${2:-}"
optimization="${3:--O}"
if [ ! -f "$here/$name.swift" ] || [ -z "$out" ] || { [ "$optimization" != -O ] && [ "$optimization" != -Onone ]; }; then
  echo "usage: scripts/apple/build-tool.sh AppleLineCount|AppleSymbols|AvailabilityCheck OUTDIR [-O|-Onone]" >&2
  exit 2
fi
sources=("$here/IfConditions.swift" "$here/$name.swift")
key="$( (cat "${sources[@]}"; echo "$optimization") | sha256sum | cut -c1-12)"
tool="$out/$name-$key"
if [ ! -x "$tool" ]; then
  mkdir -p "$out"
  rm -f "$out/$name"-*
  if ! swiftc "$optimization" -parse-as-library -module-name "$name" "${sources[@]}" -o "$tool" >"$out/$name.log" 2>&1; then
    cat "$out/$name.log" >&2
    echo "scripts/apple/$name.swift does not compile" >&2
    exit 1
  fi
fi
echo "$tool"
