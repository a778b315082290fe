#!/usr/bin/env bash
# Formats every Swift file git tracks with the repository's .swift-format, then lints them as the test command
# does (scripts/checks/80-format.sh). A file that must keep its layout starts with `// swift-format-ignore-file`.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift')
swift format format -i --configuration .swift-format "${files[@]}"
exec scripts/checks/80-format.sh
