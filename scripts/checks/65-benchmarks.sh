#!/usr/bin/env bash
# tier: full
# The benchmarks (Sandbox/Benchmarks, on ordo-one/package-benchmark, declared when ENABLE_IFTTT_BENCHMARKS is set)
# must compile: they are built here in debug with the test command's flags, so the sandbox's modules of its debug
# build are reused and only package-benchmark and the suites are compiled; then one short smoke pass runs the
# decoding goal benchmark (one iteration) with the debug executable's own runner, so the suite, package-benchmark's
# runner and the goal report are exercised, and the InstructionCount executable runs one call of each workload kind
# (scripts/instructions.sh). Its numbers are not judged here (a debug build); the full release run is
# `ENABLE_IFTTT_BENCHMARKS=1 swift package --package-path Sandbox benchmark`.
# (The debug executable is run directly: `swift package benchmark --benchmark-build-configuration debug` would also
# build BenchmarkTool in release, about 2 minutes more, and its release malloc interposer crashed a debug runner here.)
# BENCHMARKS_SMOKE=0 skips the smoke pass (the build still runs).
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/build-flags.sh
export ENABLE_IFTTT_BENCHMARKS=1
log=$(mktemp)
trap 'rm -f "$log" "$log.goals"' EXIT
start=$SECONDS
if ! swift build --package-path Sandbox "${test_build_flags[@]}" >"$log" 2>&1; then
  tail -n 60 "$log"
  echo "benchmarks: the benchmark targets do not build"
  exit 1
fi
built=$((SECONDS - start))
if [[ "${BENCHMARKS_SMOKE:-1}" == 0 ]]; then
  echo "benchmarks: built in ${built} s (smoke pass skipped)"
  exit 0
fi
bin=$(swift build --package-path Sandbox "${test_build_flags[@]}" --show-bin-path)
if ! BENCHMARK_GOALS_FILE="$log.goals" timeout 300 "$bin/Decoding" --quiet true --filter 'Decoding goal.*' >"$log" 2>&1
then
  tail -n 60 "$log"
  echo "benchmarks: the smoke pass failed"
  exit 1
fi
if ! grep -q '^GOAL decoding: ' "$log.goals" 2>/dev/null; then
  tail -n 60 "$log"
  echo "benchmarks: the smoke pass printed no goal verdict"
  exit 1
fi
# InstructionCount (what scripts/instructions.sh runs under valgrind): one call of each workload kind.
for workload in "decode-sdk android_connection" "decode-codable android_connection" \
  "decode-serialization android_connection" "button creating-account"; do
  # shellcheck disable=SC2086
  if ! "$bin/InstructionCount" $workload 1 >"$log" 2>&1; then
    cat "$log"
    echo "benchmarks: InstructionCount $workload failed"
    exit 1
  fi
done
# The verdict of a debug build says nothing about the release goal, so only its presence is reported here.
echo "benchmarks: built in ${built} s; smoke pass in $((SECONDS - start - built)) s: the decoding goal benchmark" \
  "reported a verdict (a debug build's numbers are not judged) and InstructionCount ran each workload kind"
