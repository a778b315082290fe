#!/usr/bin/env bash
# tier: full
# The short fuzz run: every libFuzzer target for a few seconds from its committed corpus and regressions
# (the json target compares the SDK's parser with JSONSerialization on every input). The long run:
# scripts/fuzz.sh --seconds 600. FUZZ_SECONDS overrides the per-target time here.
set -uo pipefail
cd "$(dirname "$0")/../.."
exec scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-5}"
