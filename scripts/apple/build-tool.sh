#!/usr/bin/env bash
# Builds one of the tools in scripts/apple (its file with IfConditions.swift, which they share) into OUTDIR once per
# version of their sources, and prints the executable's path.
#
#   scripts/apple/build-tool.sh AppleLineCount|AppleSymbols|AvailabilityCheck OUTDIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
name="${1:-}"
out="${2:-}"
if [ ! -f "$here/$name.swift" ] || [ -z "$out" ]; then
  echo "usage: scripts/apple/build-tool.sh AppleLineCount|AppleSymbols|AvailabilityCheck OUTDIR" >&2
  exit 2
fi
sources=("$here/IfConditions.swift" "$here/$name.swift")
key="$(cat "${sources[@]}" | sha256sum | cut -c1-12)"
tool="$out/$name-$key"
if [ ! -x "$tool" ]; then
  mkdir -p "$out"
  rm -f "$out/$name"-*
  if ! swiftc -O -parse-as-library -module-name "$name" "${sources[@]}" -o "$tool" >"$out/$name.log" 2>&1; then
    cat "$out/$name.log" >&2
    echo "scripts/apple/$name.swift does not compile" >&2
    exit 1
  fi
fi
echo "$tool"
