#!/usr/bin/env bash
# tier: full
# The sandbox load check, short form: a release sandbox with 100,000 location events, each route against /health
# for 2 s from wrk on loopback. Prints each route's ratio to /health against its goal (POST a location event <= 4x,
# GET a connection <= 2x, a page of events <= 4x) and says whether it meets it; fails only when a ratio, or the peak
# RSS, is beyond twice its goal (2-core shared machines are noisy), printing the whole output then.
# scripts/test.sh --full gives it the binary of the prebuilt tarball (IFTTT_CONNECT_BIN), which it builds once for this
# check and the prebuilt CLI check; run alone, it builds the release binary itself.
set -uo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if scripts/sandbox-bench.sh --check >"$log" 2>&1; then
  sed -n '/^route /,$p' "$log" | sed 's/^/   /'
else
  cat "$log"
  exit 1
fi
