#!/usr/bin/env bash
# The committed digest of the public API: api/<Module>.txt lists every public or open declaration an app sees in
# that library product without `@_spi` (kind, path and declaration, as the symbol graph of the debug build gives them)
# and every public conformance, sorted.
#
#   scripts/api/digest.sh              # regenerates api/*.txt from the current sources (commit them with the change)
#   scripts/api/digest.sh --check      # fails, showing the difference, when the public API differs from api/*.txt
#   scripts/api/digest.sh --self-test  # proves the check: a public function planted into a copy of the core's
#                                      # symbol graph must fail it, an SPI one planted beside it must not show
#
# The digest describes the Linux build (Apple-only adapters such as the UIKit button are not in it).
# Builds with the test command's flags first (a no-op after `scripts/test.sh`), unless IFTTT_TEST_BUILT=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/api-graphs.sh
mode="${1:-write}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
api_extract_graphs "$work"
# The digest of the graphs in directory $1 for module $2, on stdout.
digest_of() {
  echo "# The public API of $2 (regenerate with scripts/api/digest.sh)."
  api_declarations "$1" | cut -f2- | sort
  # Conformances of public types to protocols, as "conformance Type: Protocol".
  jq -r '(.symbols | map(select((.accessLevel == "public" or .accessLevel == "open") and ((.spi // false) | not)))
            | map({key: .identifier.precise, value: (.pathComponents | join("."))}) | from_entries) as $public
         | .relationships[]? | select(.kind == "conformsTo") | select($public[.source] != null)
         | "conformance\t\($public[.source]): \(.targetFallback // .target)"' "$1"/*.symbols.json \
    | sort -u
}
mkdir -p "$work/digest"
for module in "${api_modules[@]}"; do
  digest_of "$work/$module" "$module" >"$work/digest/$module.txt"
done
if [ "$mode" = "--self-test" ]; then
  # Plant two free functions into a copy of the core's main symbol graph, as the compiler would list them: one
  # public, one public behind the Sandbox SPI. The digest must gain the first, and only the first.
  planted="$work/planted"; mkdir -p "$planted"
  cp "$work/IFTTTConnectCore"/*.symbols.json "$planted/"
  graph="$planted/IFTTTConnectCore.symbols.json"
  plant() {  # $1: name, $2: spi (true/false)
    jq --arg name "$1" --argjson spi "$2" '.symbols += [{
        kind: {identifier: "swift.func", displayName: "Function"},
        identifier: {precise: ("s:planted" + $name), interfaceLanguage: "swift"},
        pathComponents: [($name + "()")], names: {title: ($name + "()")},
        declarationFragments: [{kind: "keyword", spelling: "func"}, {kind: "text", spelling: " "},
                               {kind: "identifier", spelling: $name}, {kind: "text", spelling: "()"}],
        accessLevel: "public", spi: $spi}]' "$graph" >"$graph.new" && mv "$graph.new" "$graph"
  }
  plant plantedPublicFunction false
  plant plantedSandboxFunction true
  digest_of "$planted" IFTTTConnectCore >"$work/planted.txt"
  if diff -u "$work/digest/IFTTTConnectCore.txt" "$work/planted.txt" >"$work/planted.diff"; then
    echo "api self-test: FAILED, a planted public function left the digest unchanged"; exit 1
  fi
  added=$(grep -E '^\+[^+]' "$work/planted.diff")
  if [ "$added" != "$(printf '+swift.func\tplantedPublicFunction()\tfunc plantedPublicFunction()')" ]; then
    echo "api self-test: FAILED, the digest changed otherwise than by the planted public function:"
    echo "$added"; exit 1
  fi
  echo "api self-test: a planted public function changes the digest ($added); a planted SPI one does not"
  exit 0
fi
check=0
[ "$mode" = "--check" ] && check=1
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
