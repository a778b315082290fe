#!/usr/bin/env bash
# The README's test command: builds both packages with warnings as errors, runs every test of both, checks
# that the SDK resolves no dependency for its consumers, and ends with a line "N passed, N failed".
# Options: --quick skips the consumer check.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
quick=0
[ "${1:-}" = "--quick" ] && quick=1

scripts/bootstrap.sh || { echo "bootstrap failed"; echo "0 passed, 1 failed"; exit 1; }

logdir="$(mktemp -d)"
status=0
passed=0
failed=0

count() {  # count Swift Testing and XCTest results in a log
  local log="$1" p f
  p=$(grep -E '^✔ Test .*passed after' "$log" | grep -vc 'Test run with')
  f=$(grep -E '^✘ Test .*failed after' "$log" | grep -vc 'Test run with')
  passed=$((passed + p)); failed=$((failed + f))
}

run_package() {  # $1 = package path, $2 = name
  local path="$1" name="$2" log="$logdir/$2.log"
  echo "== $name: build (warnings are errors)"
  if ! swift build --package-path "$path" --build-tests -Xswiftc -warnings-as-errors >"$log.build" 2>&1; then
    grep -E 'error|warning' "$log.build" | head -50
    echo "== $name: BUILD FAILED"
    status=1; failed=$((failed + 1)); return
  fi
  echo "== $name: test"
  swift test --package-path "$path" --skip-build 2>&1 | tee "$log" | grep -E '^(✘|✔ Test run|✘ Test run)|error:' || true
  local rc=${PIPESTATUS[0]}
  count "$log"
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -q '^✘ Test .*failed after' "$log" || failed=$((failed + 1))   # a crash or XCTest failure with no ✘ line
    echo "== $name: TESTS FAILED (exit $rc)"
  fi
}

run_package "$root" "sdk"
run_package "$root/Sandbox" "sandbox"

if [ "$quick" -eq 0 ]; then
  echo "== consumer check"
  if scripts/check-consumer.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi
fi

# Further checks: every executable scripts/checks/NN-name.sh runs in order; each counts as one passed or failed
# check. A check prints a short summary of its own and keeps its detailed output for failures.
for check in scripts/checks/*.sh; do
  [ -x "$check" ] || continue
  name="$(basename "$check" .sh)"
  echo "== check $name"
  if "$check"; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; echo "== check $name FAILED"; fi
done

rm -rf "$logdir"
echo "$passed passed, $failed failed"
exit $status
