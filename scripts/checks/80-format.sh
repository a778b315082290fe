#!/usr/bin/env bash
# lane: 2
# `swift format lint --strict` with the repository's .swift-format over every Swift file git tracks; any finding
# fails the check. Fix the tree with `scripts/format.sh` (swift format format -i on the same files).
set -uo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(git ls-files '*.swift')
if [ ${#files[@]} -eq 0 ]; then echo "format: no Swift files found (not a git checkout?)"; exit 1; fi
if ! output=$(swift format lint --strict --configuration .swift-format "${files[@]}" 2>&1); then
  echo "$output" | head -40
  echo "format: $(echo "$output" | grep -c ': error:') findings in ${#files[@]} files"
  exit 1
fi
echo "format: ${#files[@]} files clean"
