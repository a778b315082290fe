#!/usr/bin/env bash
# Counts the public and open declarations an app sees in each library product of the SDK package: what
# `import <Module>` shows without `@_spi`, read from the symbol graphs of the debug build (the ones DocC reads).
# Members the compiler synthesizes (protocol default implementations, inherited members) are not counted; the
# members a module declares in extensions of another module's types are counted in the declaring module. The
# second column leaves out enum cases, which carry no access keyword of their own.
#
#   scripts/api/count-public.sh            # one line per product and the total
#   scripts/api/count-public.sh --list     # also every counted declaration (module, kind, path), on stderr
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/api-graphs.sh
list=0
[ "${1:-}" = "--list" ] && list=1
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
api_extract_graphs "$work"
total=0; total_keyword=0
printf '%-22s %12s %20s\n' "product" "declarations" "without enum cases"
for module in "${api_modules[@]}"; do
  api_declarations "$work/$module" | cut -f2,3 | sed "s/^/$module\t/" >"$work/$module.list"
  n=$(wc -l <"$work/$module.list")
  k=$(grep -vc $'\tswift.enum.case\t' "$work/$module.list" || true)
  total=$((total + n)); total_keyword=$((total_keyword + k))
  printf '%-22s %12d %20d\n' "$module" "$n" "$k"
  if [ $list = 1 ]; then cat "$work/$module.list" >&2; fi
done
printf '%-22s %12d %20d\n' "total" "$total" "$total_keyword"
