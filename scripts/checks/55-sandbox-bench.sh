#!/usr/bin/env bash
# tier: full
# The sandbox load check, short form: a release sandbox with 100,000 location events, each route against /health
# for 2 s from wrk on loopback. Prints each route's ratio to /health against its goal (POST a location event <= 4x,
# GET a connection <= 2x, a page of events <= 4x) and says whether it meets it; fails only when a ratio, or the peak
# RSS, is beyond twice its goal (2-core shared machines are noisy), printing the whole output then.
# The sandbox measured is the release binary users download. scripts/test.sh --full builds it once with
# scripts/package-cli.sh for this check and the prebuilt CLI check (69) and gives it here as IFTTT_CONNECT_BIN;
# run alone, this check builds it with scripts/package-cli.sh itself.
set -uo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
bin="${IFTTT_CONNECT_BIN:-}"
if [ -z "$bin" ]; then
  if ! tarball="$(scripts/package-cli.sh 2>"$log" | tail -1)"; then
    grep -E -A3 'error:|package-cli:|static-deps:' "$log" | head -40
    echo "sandbox-bench: scripts/package-cli.sh did not build the release binary"
    exit 1
  fi
  bin="${tarball%.tar.gz}/ifttt-connect"
fi
if IFTTT_CONNECT_BIN="$bin" scripts/sandbox-bench.sh --check >"$log" 2>&1; then
  sed -n '/^route /,$p' "$log" | sed 's/^/   /'
else
  cat "$log"
  exit 1
fi
