#!/usr/bin/env bash
# Instruction counts of the benchmark workloads, under `valgrind --tool=callgrind`: repeatable to a few instructions
# whatever else the machine is doing, and available where package-benchmark's instruction column stays empty (it
# needs hardware counters; `perf stat -e instructions true` says "not supported" on most virtual machines).
#
# Each workload runs in the benchmarks' `InstructionCount` executable (Sandbox/Benchmarks/Support, release build)
# twice, with 0 and with N iterations; the difference divided by N is the cost of one iteration. Prints, for each
# decoding payload, the SDK's `Connection.decode(from:)` next to its two baselines (ConnectSDK-iOS 2.8's parser over
# JSONSerialization, JSONDecoder + Codable) with the ratios, and for the Connect Button the instructions of each state
# with the slowest state's ratio to the median. The goals are the benchmarks' own (README, Sandbox/Benchmarks):
# decoding at least 3x cheaper than 2.8's parser and 1.5x cheaper than Codable on every payload; every button state
# within 2x the median.
#
# Usage: scripts/instructions.sh [--iterations N] [--only decode|button]
#   --iterations N   iterations per measured run (default 20; the 500-feature payload runs N/10, at least 1)
#   --only W         only the decoding or only the button workloads
set -uo pipefail
cd "$(dirname "$0")/.."

iterations=20 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations="${2:-}"; shift 2 ;;
    --only) only="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "instructions: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
[[ "$iterations" =~ ^[0-9]+$ ]] && [ "$iterations" -gt 0 ] || { echo "instructions: --iterations takes a positive integer" >&2; exit 64; }
case "$only" in ""|decode|button) ;; *) echo "instructions: --only takes decode or button" >&2; exit 64 ;; esac

scripts/bootstrap.sh valgrind || exit 1
echo "instructions: building InstructionCount (release)" >&2
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The benchmark targets are declared only with ENABLE_IFTTT_BENCHMARKS set (Sandbox/Package.swift).
export ENABLE_IFTTT_BENCHMARKS=1
if ! swift build -c release --package-path Sandbox --product InstructionCount >"$log" 2>&1; then
  tail -30 "$log"; exit 1
fi
bin="$(swift build -c release --package-path Sandbox --show-bin-path)/InstructionCount"

# collected WORKLOAD SUBJECT N: the instructions callgrind collected for one run.
collected() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>&1 >/dev/null \
    | awk '/Collected :/ { print $NF }'
}
# per_iteration WORKLOAD SUBJECT N: instructions of one iteration (the N-iteration run minus the empty run, over N).
per_iteration() {
  local base total
  base=$(collected "$1" "$2" 0); total=$(collected "$1" "$2" "$3")
  if [ -z "$base" ] || [ -z "$total" ]; then echo "instructions: callgrind gave no count for $1 $2" >&2; exit 1; fi
  echo $(( (total - base) / $3 ))
}

status=0
if [ "$only" != button ]; then
  printf '\n%-32s %14s %14s %8s %14s %8s\n' "decoding (instructions per call)" "SDK" "2.8 parser" "ratio" "JSONDecoder" "ratio"
  worst="" worst_codable=""
  while read -r _ payload; do
    n=$iterations
    case "$payload" in synthetic-*) n=$(( iterations / 10 > 0 ? iterations / 10 : 1 )) ;; esac
    sdk=$(per_iteration decode-sdk "$payload" "$n") || exit 1
    legacy=$(per_iteration decode-2.8 "$payload" "$n") || exit 1
    codable=$(per_iteration decode-codable "$payload" "$n") || exit 1
    ratio=$(awk -v a="$legacy" -v b="$sdk" 'BEGIN { printf "%.2f", a / b }')
    ratio_codable=$(awk -v a="$codable" -v b="$sdk" 'BEGIN { printf "%.2f", a / b }')
    printf '%-32s %14d %14d %7sx %14d %7sx\n' "$payload" "$sdk" "$legacy" "$ratio" "$codable" "$ratio_codable"
    worst=$(awk -v w="${worst:-1e9}" -v r="$ratio" 'BEGIN { print (r < w ? r : w) }')
    worst_codable=$(awk -v w="${worst_codable:-1e9}" -v r="$ratio_codable" 'BEGIN { print (r < w ? r : w) }')
  done < <("$bin" list | grep '^decode ')
  verdict="goal met"
  awk -v w="$worst" -v c="$worst_codable" 'BEGIN { exit !(w < 3 || c < 1.5) }' && { verdict="goal missed"; status=1; }
  echo "GOAL decoding instructions: worst 2.8 parser / SDK ratio ${worst}x, Codable / SDK ${worst_codable}x" \
    "(goal: at least 3x and 1.5x on every payload): $verdict"
fi

if [ "$only" != decode ]; then
  printf '\n%-32s %14s\n' "button state (appearance + SVG)" "instructions"
  results=()
  while read -r _ state; do
    count=$(per_iteration button "$state" "$iterations") || exit 1
    printf '%-32s %14d\n' "$state" "$count"
    results+=("$count $state")
  done < <("$bin" list | grep '^button ')
  median=$(printf '%s\n' "${results[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int(NR / 2) + 1] }')
  read -r slowest slowest_state < <(printf '%s\n' "${results[@]}" | sort -n | tail -1)
  ratio=$(awk -v a="$slowest" -v b="$median" 'BEGIN { printf "%.2f", a / b }')
  verdict="goal met"; awk -v r="$ratio" 'BEGIN { exit !(r > 2) }' && { verdict="goal missed"; status=1; }
  echo "GOAL button instructions: slowest state $slowest_state ${ratio}x the median state ($median) (goal: every state within 2x the median): $verdict"
fi
exit $status
