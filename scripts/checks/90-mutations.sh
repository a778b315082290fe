#!/usr/bin/env bash
# tier: full
# The mutation run (scripts/mutate.sh): plants each known bug of its list one at a time, runs the tests that should
# catch it and restores the file; fails when a mutation is missed or no longer applies. Prints the table.
set -uo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
scripts/mutate.sh >"$log" 2>&1
status=$?
sed -n '/^mutation /,$p' "$log" | sed 's/^/   /'
[ $status -eq 0 ] || grep -E '^mutate: .*(failed|error)|error:' "$log" | head -10
exit $status
