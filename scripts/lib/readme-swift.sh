#!/usr/bin/env bash
# Writes the README's Swift snippets an app would paste (each ```swift block with an `import` line; fragments such as
# the manifest's have none) into DIR as ReadmeSnippet1.swift, ReadmeSnippet2.swift, ... and prints their paths, one a
# line. The Apple checks compile them whole (scripts/check-apple.sh, scripts/check-ios-sdk.sh); the sandbox's
# ReadmeExampleTests reads the same blocks from the README.
# Usage: scripts/lib/readme-swift.sh DIR
set -euo pipefail
out="${1:?usage: scripts/lib/readme-swift.sh DIR}"
readme="$(cd "$(dirname "$0")/../.." && pwd)/README.md"
mkdir -p "$out"
awk -v out="$out" '
  /^```swift[[:space:]]*$/ { inside = 1; body = ""; has_import = 0; next }
  inside && /^```/ {
    inside = 0
    if (has_import) { n++; file = out "/ReadmeSnippet" n ".swift"; printf "%s", body > file; close(file); print file }
    next
  }
  inside { body = body $0 "\n"; if ($0 ~ /^import /) has_import = 1 }
' "$readme"
