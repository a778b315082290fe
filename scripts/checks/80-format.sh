#!/usr/bin/env bash
# `swift format lint --strict` with the repository's .swift-format over the files listed in
# scripts/format-files.txt; any finding fails the check. Fix a file with `swift format format -i <file>`.
set -uo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(grep -vE '^\s*(#|$)' scripts/format-files.txt)
missing=0
for f in "${files[@]}"; do [ -f "$f" ] || { echo "format: listed file $f does not exist"; missing=1; }; done
[ $missing -eq 0 ] || exit 1
if ! output=$(swift format lint --strict --configuration .swift-format "${files[@]}" 2>&1); then
  echo "$output" | head -40
  echo "format: $(echo "$output" | grep -c ': error:') findings in ${#files[@]} files"
  exit 1
fi
echo "format: ${#files[@]} files clean"
