#!/usr/bin/env bash
# The README's test command: builds both packages with warnings as errors, runs every test of both, checks
# that the SDK resolves no dependency for its consumers, runs every scripts/checks/NN-name.sh, and ends with a
# line "N passed, N failed".
#
# Output: one line per step with its elapsed time, a heartbeat every 30 s while a step runs, and for a failure
# the lines that explain it (compiler errors, failed tests with their issues, or the end of the log). Green
# runs print no test chatter. The full logs of a failed run are kept and their directory is printed.
# Options: --quick skips the consumer check; --verbose streams every log as it is written.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
quick=0 verbose=0
for argument in "$@"; do
  case "$argument" in
    --quick) quick=1 ;;
    --verbose) verbose=1 ;;
    *) echo "usage: scripts/test.sh [--quick] [--verbose]" >&2; exit 64 ;;
  esac
done

logdir="$(mktemp -d)"
status=0
passed=0
failed=0
started_all=$SECONDS

elapsed() {  # seconds → "1m05s" or "42s"
  local s=$1
  if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# step LABEL LOG COMMAND...: runs COMMAND with its output in LOG, printing a heartbeat every 30 s;
# sets step_rc and step_time.
step() {
  local label="$1" log="$2"; shift 2
  local start=$SECONDS pid beat=30
  if [ "$verbose" -eq 1 ]; then
    "$@" 2>&1 | tee "$log"; step_rc=${PIPESTATUS[0]}
  else
    "$@" >"$log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      sleep 1
      if [ $((SECONDS - start)) -ge "$beat" ] && kill -0 "$pid" 2>/dev/null; then
        echo "   … $label still running ($(elapsed $((SECONDS - start))))"
        beat=$((beat + 30))
      fi
    done
    wait "$pid"; step_rc=$?
  fi
  step_time=$((SECONDS - start))
}

count() {  # counts Swift Testing and XCTest results of a test log into p and f
  local log="$1"
  p=$(grep -E '^✔ Test .*passed after' "$log" | grep -vc 'Test run with')
  f=$(grep -E '^✘ Test .*failed after' "$log" | grep -vc 'Test run with')
  p=$((p + $(grep -cE "^Test Case '.*' passed" "$log")))
  f=$((f + $(grep -cE "^Test Case '.*' failed" "$log")))
}

show_build_failure() {  # the compiler's errors and warnings with the source lines under them
  grep -E -A3 '(error|warning):' "$1" | grep -v '^--$' | head -60
}

show_test_failure() {  # every failed test and its recorded issues (with their indented details), or the log's end
  local log="$1"
  if grep -qE '^✘ |^Test Case .* failed|: error: ' "$log"; then
    grep -E -A4 '^✘ Test .*(recorded an issue|failed after)|^Test Case .* failed|^.*: error: .*XCT' "$log" \
      | grep -vE '^(◇|↳ |✔)' | grep -v '^--$' | head -80
  else
    echo "   (no failed test was reported; the end of the log:)"
    tail -25 "$log" | sed 's/^/   /'
  fi
}

run_package() {  # $1 = package path, $2 = name
  local path="$1" name="$2"
  echo "== $name: build (warnings are errors)"
  step "$name build" "$logdir/$name.build.log" \
    swift build --package-path "$path" --build-tests -Xswiftc -warnings-as-errors
  local build_time=$step_time
  if [ "$step_rc" -ne 0 ]; then
    show_build_failure "$logdir/$name.build.log"
    echo "== $name: BUILD FAILED after $(elapsed "$build_time")"
    status=1; failed=$((failed + 1)); keep_logs=1; return
  fi
  echo "   built in $(elapsed "$build_time")"
  echo "== $name: test"
  step "$name tests" "$logdir/$name.test.log" swift test --package-path "$path" --skip-build
  local log="$logdir/$name.test.log" rc=$step_rc p f
  count "$log"
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$rc" -ne 0 ]; then
    status=1; keep_logs=1
    show_test_failure "$log"
    if [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi   # a crash or a failure with no ✘ line
    echo "== $name: TESTS FAILED (exit $rc): $p passed, $f failed; build $(elapsed "$build_time"), tests $(elapsed "$step_time")"
  else
    echo "== $name: $p passed, $f failed; build $(elapsed "$build_time"), tests $(elapsed "$step_time")"
  fi
}

keep_logs=0
echo "== bootstrap"
step bootstrap "$logdir/bootstrap.log" scripts/bootstrap.sh
if [ "$step_rc" -ne 0 ]; then
  tail -20 "$logdir/bootstrap.log"; echo "bootstrap failed"; echo "0 passed, 1 failed"; exit 1
fi

run_package "$root" "sdk"
run_package "$root/Sandbox" "sandbox"

if [ "$quick" -eq 0 ]; then
  echo "== consumer check"
  step "consumer check" "$logdir/consumer.log" scripts/check-consumer.sh
  if [ "$step_rc" -eq 0 ]; then
    passed=$((passed + 1)); echo "   ok ($(elapsed "$step_time"))"
  else
    failed=$((failed + 1)); status=1; keep_logs=1
    tail -30 "$logdir/consumer.log"; echo "== consumer check FAILED"
  fi
fi

# Further checks: every executable scripts/checks/NN-name.sh runs in order; each counts as one passed or failed
# check. A check prints a short summary of its own and keeps its detailed output for failures.
for check in scripts/checks/*.sh; do
  [ -x "$check" ] || continue
  name="$(basename "$check" .sh)"
  echo "== check $name"
  start=$SECONDS
  if "$check"; then
    passed=$((passed + 1)); echo "   ok ($(elapsed $((SECONDS - start))))"
  else
    failed=$((failed + 1)); status=1; echo "== check $name FAILED ($(elapsed $((SECONDS - start))))"
  fi
done

if [ "$keep_logs" -eq 1 ]; then
  echo "full logs: $logdir"
else
  rm -rf "$logdir"
fi
echo "total time $(elapsed $((SECONDS - started_all)))"
echo "$passed passed, $failed failed"
exit $status
