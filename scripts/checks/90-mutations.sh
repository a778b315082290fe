#!/usr/bin/env bash
# tier: full
# The mutation run (scripts/mutate.sh): plants each known bug of its list one at a time, runs the tests that should
# catch it and restores the file; fails when a mutation is missed, broken (a timeout, a crash or no failed test named)
# or no longer applies. Prints the table. The verdicts themselves are checked first, on planted logs (--self-test).
set -uo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
scripts/mutate.sh --self-test >"$log" 2>&1 || { cat "$log"; exit 1; }
scripts/mutate.sh >"$log" 2>&1
status=$?
sed -n '/^mutation /,$p' "$log" | sed 's/^/   /'
[ $status -eq 0 ] || grep -E '^mutate: .*(failed|error)|error:|BROKEN' "$log" | head -10
exit $status
