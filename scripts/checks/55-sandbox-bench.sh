#!/usr/bin/env bash
# tier: full
# The sandbox load check, short form: a release sandbox with 100,000 location events, each route against /health
# for 2 s from wrk on loopback. Fails only when a route's ratio to /health, or the peak RSS, is beyond twice its
# goal (2-core shared machines are noisy); prints the summary table, and the whole output on failure.
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
