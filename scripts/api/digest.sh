#!/usr/bin/env bash
# The committed digest of the public API: api/<Module>.txt lists every public or open declaration an app sees in
# that library product without `@_spi` (kind, path and declaration, as the symbol graph of the debug build gives them)
# and every public conformance, sorted.
#
#   scripts/api/digest.sh           # regenerates api/*.txt from the current sources (commit them with the change)
#   scripts/api/digest.sh --check   # fails, showing the difference, when the public API differs from api/*.txt
#
# The digest describes the Linux build (Apple-only adapters such as the UIKit button are not in it).
# Builds with the test command's flags first (a no-op after `scripts/test.sh`), unless IFTTT_TEST_BUILT=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/api-graphs.sh
check=0
[ "${1:-}" = "--check" ] && check=1
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
api_extract_graphs "$work"
mkdir -p "$work/digest"
for module in "${api_modules[@]}"; do
  {
    echo "# The public API of $module (regenerate with scripts/api/digest.sh)."
    api_declarations "$work/$module" | cut -f2- | sort
    # Conformances of public types to protocols, as "conformance Type: Protocol".
    jq -r '(.symbols | map(select((.accessLevel == "public" or .accessLevel == "open") and ((.spi // false) | not)))
              | map({key: .identifier.precise, value: (.pathComponents | join("."))}) | from_entries) as $public
           | .relationships[]? | select(.kind == "conformsTo") | select($public[.source] != null)
           | "conformance\t\($public[.source]): \(.targetFallback // .target)"' "$work/$module"/*.symbols.json \
      | sort -u
  } >"$work/digest/$module.txt"
done
if [ $check = 0 ]; then
  mkdir -p api
  rm -f api/*.txt
  cp "$work/digest/"*.txt api/
  echo "api: wrote api/*.txt ($(cat api/*.txt | grep -vc '^#') lines)"
  exit 0
fi
status=0
for module in "${api_modules[@]}"; do
  if ! diff -u "api/$module.txt" "$work/digest/$module.txt" >"$work/$module.diff" 2>&1; then
    status=1
    echo "api: the public API of $module changed:"
    grep -E '^[-+][^-+]' "$work/$module.diff" | head -40
  fi
done
if [ $status = 0 ]; then
  echo "api: the public API matches api/*.txt"
else
  echo "api: if the change is meant, run scripts/api/digest.sh and commit api/*.txt with it"
fi
exit $status
