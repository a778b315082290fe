#!/usr/bin/env bash
# Counts the public and open declarations an app sees in each library product of the SDK package: what
# `import <Module>` shows without `@_spi`, read from symbol graphs (the ones DocC reads).
#
# Three columns per product:
#   declarations        every public symbol the module declares, enum cases included;
#   without enum cases  the same without enum cases;
#   with a keyword      the declarations a reader finds written with `public` or `open`: no enum cases, no protocol
#                       requirements (they belong to their protocol's declaration), nothing the compiler makes
#                       implicitly (a raw-value enum's `init(rawValue:)`, a synthesized `init(from:)`). This is the
#                       count the API budget (at most 400 across all products) is measured in, the way the same
#                       keyword count gives ConnectSDK-iOS 2.8 its 135.
# Members the compiler synthesizes from protocol extensions are never counted; the members a module declares in
# extensions of another module's types are counted in the declaring module.
#
# By default the graphs come from the debug build for this machine (Linux), which leaves out the UIKit and SwiftUI
# layer. With --ios they come from compiling every product for arm64-apple-ios13.0 against Apple's iOS SDK, with
# the SDK set up by scripts/check-ios-sdk.sh (pass --theos-sdks MIRROR, or THEOS_SDKS, the first time): the API an
# iOS app sees.
#
#   scripts/api/count-public.sh [--ios [--theos-sdks MIRROR]]            one line per product and the total
#   scripts/api/count-public.sh [--ios ...] --list                       also every counted declaration on stderr:
#                                                                        module, kind, path, and "keyword" or the
#                                                                        reason it is left out of the third column
#   scripts/api/count-public.sh [--ios ...] --budget N                   exits 1 when the third column's total is
#                                                                        over N
#
# The budget: at most 400 declarations with a keyword as an iOS app sees them (--ios; scripts/checks/52-ios-sdk.sh
# checks it where Apple's SDK is at hand). The Linux build leaves out the Apple layer's 21, so
# scripts/checks/30-api-digest.sh holds the Linux count to 379 in every test run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/api-graphs.sh
list=0; ios=0; rig=(); budget=
while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=1 ;;
    --ios) ios=1 ;;
    --budget) budget="${2:?--budget needs a number}"; shift ;;
    --theos-sdks) rig+=(--theos-sdks "${2:?--theos-sdks needs a path}"); shift ;;
    -h|--help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "count-public: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
if [ $ios = 1 ]; then
  api_compile_ios_graphs "$work" "${rig[@]}"
else
  api_extract_graphs "$work"
fi
total=0; total_cases=0; total_keyword=0
printf '%-22s %12s %20s %16s\n' "product" "declarations" "without enum cases" "with a keyword"
for module in "${api_modules[@]}"; do
  api_classified "$work/$module" "$module" | sed "s/^/$module\t/" >"$work/$module.list"
  n=$(wc -l <"$work/$module.list")
  c=$(awk -F'\t' '$2 != "swift.enum.case"' "$work/$module.list" | wc -l)
  k=$(awk -F'\t' '$4 == "keyword"' "$work/$module.list" | wc -l)
  total=$((total + n)); total_cases=$((total_cases + c)); total_keyword=$((total_keyword + k))
  printf '%-22s %12d %20d %16d\n' "$module" "$n" "$c" "$k"
  if [ $list = 1 ]; then cat "$work/$module.list" >&2; fi
done
printf '%-22s %12d %20d %16d\n' "total" "$total" "$total_cases" "$total_keyword"
if [ -n "$budget" ] && [ "$total_keyword" -gt "$budget" ]; then
  echo "api: $total_keyword public declarations with a keyword, over the budget of $budget: make the new ones SPI" \
    "(@_spi(Sandbox)) or internal unless an app calls them, or cut others" >&2
  exit 1
fi
