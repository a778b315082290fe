#!/usr/bin/env bash
# Counts the public and open declarations an app sees in each library product of the SDK package: what
# `import <Module>` shows without `@_spi`, read from the symbol graphs of the debug build (the same ones DocC reads).
# Members the compiler synthesizes (protocol default implementations, inherited members) are not counted; the
# members a module declares in extensions of another module's types are counted in the declaring module.
#
#   scripts/api/count-public.sh            # one line per product and the total
#   scripts/api/count-public.sh --list     # also every counted declaration (module, kind, path)
#
# Builds the SDK package with the test command's flags first (a no-op after `scripts/test.sh`), unless
# IFTTT_TEST_BUILT=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/build-flags.sh
list=0
[ "${1:-}" = "--list" ] && list=1
if [ "${IFTTT_TEST_BUILT:-0}" != 1 ]; then
  swift build "${test_build_flags[@]}" >/dev/null 2>&1 || { echo "count-public: swift build failed" >&2; exit 1; }
fi
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"; [ -d "$modules" ] || modules="$bin"
triple="$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
products=(IFTTTConnectCore IFTTTConnectLocation IFTTTConnectSDK IFTTTSDK IFTTTConnectService IFTTTConnectTesting
  IFTTTConnectDesktop)
total=0
for module in "${products[@]}"; do
  mkdir -p "$work/$module"
  swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" -output-dir "$work/$module" \
    -minimum-access-level public -skip-synthesized-members >"$work/$module.log" 2>&1 \
    || { echo "count-public: extracting $module failed" >&2; cat "$work/$module.log" >&2; exit 1; }
  # Every graph of the module: its own and those of its extensions to other modules' types.
  jq -r --arg m "$module" '.symbols[]
      | select(.accessLevel == "public" or .accessLevel == "open")
      | select(.kind.identifier != "swift.extension")
      | select((.spi // false) | not)
      | "\(.identifier.precise)\t\($m)\t\(.kind.identifier)\t\(.pathComponents | join("."))"' \
      "$work/$module"/*.symbols.json | sort -u | cut -f2- >"$work/$module.list"
  n=$(wc -l <"$work/$module.list")
  total=$((total + n))
  printf '%-22s %5d\n' "$module" "$n"
  [ $list = 1 ] && cat "$work/$module.list" >&2
done
printf '%-22s %5d\n' "total" "$total"
