#!/usr/bin/env bash
# The README's test command: builds both packages with warnings as errors, runs every test of both, checks
# that the SDK resolves no dependency for its consumers, runs the scripts/checks/NN-name.sh of the tier, and ends
# with a line "N passed, N failed".
#
# Two tiers (scripts/checks/README.md): the default one is what to run after every change (builds, all tests, the
# consumer check and the fast checks); --full adds the checks marked `# tier: full` (the release load check,
# libFuzzer runs, the benchmark smoke pass, the mutation script), which CI runs (.ci/run).
#
# Output: one line per step with its elapsed time, a heartbeat every 30 s while a step runs, and for a failure
# the lines that explain it (compiler errors, failed tests with their issues, or the end of the log). Green
# runs print no test chatter. The full logs of a failed run are kept and their directory is printed.
# Options: --full runs the full tier; --quick skips the consumer check; --verbose streams every log as it is written.
# Each test process (the SDK's `swift test`, the sandbox's three) runs under a time bound (IFTTT_TEST_TIMEOUT seconds,
# default 1200): past it the tests are stopped, the ones still running are named, and the run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
source scripts/lib/build-flags.sh
quick=0 verbose=0 full=0
# Seconds each package's tests may take before they are stopped and the tests still running are named.
test_timeout="${IFTTT_TEST_TIMEOUT:-1200}"
for argument in "$@"; do
  case "$argument" in
    --full) full=1 ;;
    --quick) quick=1 ;;
    --verbose) verbose=1 ;;
    *) echo "usage: scripts/test.sh [--full] [--quick] [--verbose]" >&2; exit 64 ;;
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

count() {  # the passed and failed tests of a test log, from its summary lines, into p and f
  local log="$1" tests executed failures
  # Swift Testing: "Test run with N tests in M suites ...", less its failed tests. Tests run in parallel, so a result
  # line may share a line with another test's output: the matches are not anchored.
  tests=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -oE '[0-9]+')
  f=$(grep -E '✘ Test .*failed after' "$log" | grep -vc 'Test run with')
  p=$(( ${tests:-0} - f ))
  # XCTest: its last "Executed N tests, with F failures".
  read -r executed failures < <(grep -oE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" | tail -1 \
    | grep -oE '[0-9]+' | paste -sd' ' -)
  p=$(( p + ${executed:-0} - ${failures:-0} )); f=$(( f + ${failures:-0} ))
}

# The tests a log shows started and not finished (Swift Testing's "◇ Test NAME started." without a result line, and
# XCTest's "Test Case 'NAME' started" without "passed"/"failed"): what was running when a time bound stopped it.
running_tests() {
  local log="$1"
  {
    sed -nE 's/.*◇ Test (.*) started\.$/\1/p' "$log"
    sed -nE 's/.*[✔✘] Test (.*) (passed|failed) after .*/-\1/p' "$log"
  } | awk '/^-/ { done[substr($0, 2)] = 1; next } $0 != "run" { started[$0] = 1 }
           END { for (t in started) if (!(t in done)) print "swift-testing: " t }' | sort
  {
    sed -nE "s/.*Test Case '(.*)' started.*/\1/p" "$log"
    sed -nE "s/.*Test Case '(.*)' (passed|failed).*/-\1/p" "$log"
  } | awk '/^-/ { done[substr($0, 2)] = 1; next } { started[$0] = 1 }
           END { for (t in started) if (!(t in done)) print "XCTest: " t }' | sort
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

build_package() {  # $1 = package path, $2 = name; sets <name>_build_time, and built_ok=0 on a failure
  local path="$1" name="$2"
  echo "== $name: build (warnings are errors)"
  step "$name build" "$logdir/$name.build.log" swift build --package-path "$path" "${test_build_flags[@]}"
  printf -v "${name}_build_time" '%s' "$step_time"
  if [ "$step_rc" -ne 0 ]; then
    show_build_failure "$logdir/$name.build.log"
    echo "== $name: BUILD FAILED after $(elapsed "$step_time")"
    status=1; failed=$((failed + 1)); keep_logs=1; built_ok=0; printf -v "${name}_built" '%s' 0; return
  fi
  printf -v "${name}_built" '%s' 1
  echo "   built in $(elapsed "$step_time")"
}

# The sandbox's tests run one at a time in a process. Each starts servers whose handlers share the process's 2-thread
# cooperative pool with every other test; run all at once, tests that compute or block for a second or two (floods of
# 10,000 calls, a browser, 110 curl processes) starved the others' servers, so one request waited 4-10 s and a test of
# 100 sign-ins took 95 s (CI, 2026-11-27). One at a time, the suite took 128 s against 115 s all at once on an idle
# 2-core machine, and no request waits on another test. Beside the checks they run in three processes (start_sandbox_tests).
test_package() {  # $1 = package path, $2 = name: the package's tests in the foreground
  local path="$1" name="$2" time_variable="${2}_build_time" order=()
  [ "$name" = sandbox ] && order=(--no-parallel)
  echo "== $name: test"
  # A time bound per package: a test that hangs becomes a named failure instead of a command that never ends.
  step "$name tests" "$logdir/$name.test.log" timeout --kill-after=30 "$test_timeout" \
    swift test --package-path "$path" --skip-build "${order[@]}"
  report_tests "$name" "$name" "$step_rc" "${!time_variable}" "$step_time"
}

# start_tests KEY COMMAND...: tests in the background, under the time bound, logged to $logdir/KEY.test.log;
# collect_tests KEY LABEL BUILD_TIME waits for them and reports them.
start_tests() {
  local key="$1"; shift
  printf -v "${key//-/_}_tests_started" '%s' "$SECONDS"
  (
    timeout --kill-after=30 "$test_timeout" "$@" >"$logdir/$key.test.log" 2>&1
    echo $? >"$logdir/$key.test.rc"
    echo "$SECONDS" >"$logdir/$key.test.end"
  ) &
  printf -v "${key//-/_}_tests_pid" '%s' "$!"
}
collect_tests() {  # $1 = key, $2 = label, $3 = build time
  local key="$1" pid_variable="${1//-/_}_tests_pid" started_variable="${1//-/_}_tests_started" rc end
  local pid="${!pid_variable}" start="${!started_variable}" beat
  if kill -0 "$pid" 2>/dev/null; then echo "== (waiting for the $2 tests)"; fi
  beat=$(( (SECONDS - start) / 30 * 30 + 30 ))
  while kill -0 "$pid" 2>/dev/null; do   # the heartbeat of step()
    sleep 1
    if [ $((SECONDS - start)) -ge "$beat" ] && kill -0 "$pid" 2>/dev/null; then
      echo "   … $2 tests still running ($(elapsed $((SECONDS - start))))"; beat=$((beat + 30))
    fi
  done
  wait "$pid"
  rc="$(cat "$logdir/$key.test.rc" 2>/dev/null || echo 1)"
  # Their own time, from their start to their end (not to now: they may have ended long before the step beside them).
  end="$(cat "$logdir/$key.test.end" 2>/dev/null || echo "$SECONDS")"
  report_tests "$key" "$2" "$rc" "$3" $((end - start))
}

report_tests() {  # $1 = key (its log), $2 = label, $3 = exit status, $4 = build time, $5 = test time
  local log="$logdir/$1.test.log" name="$2" rc="$3" build_time="$4" test_time="$5" p f
  count "$log"
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    status=1; keep_logs=1; failed=$((failed + 1))
    echo "== $name: TIMED OUT after $(elapsed "$test_timeout") (IFTTT_TEST_TIMEOUT); still running then:"
    running_tests "$log" | sed 's/^/   /'
    echo "== $name: TESTS TIMED OUT: $p passed, $f failed before the bound; build $(elapsed "$build_time")"
    return
  fi
  if [ "$rc" -ne 0 ]; then
    status=1; keep_logs=1
    show_test_failure "$log"
    if [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi   # a crash or a failure with no ✘ line
    echo "== $name: TESTS FAILED (exit $rc): $p passed, $f failed; build $(elapsed "$build_time"), tests $(elapsed "$test_time")"
  else
    echo "== $name: $p passed, $f failed; build $(elapsed "$build_time"), tests $(elapsed "$test_time")"
  fi
}

# The sandbox's tests in three processes at once, each running its tests one at a time (so no test starves another's
# servers through a shared pool: each process has its own), split by the folders their suites are declared in, about a
# third of the time each: Browser/ and EndToEnd/SDK/ (a browser; the SDK against a sandbox), CLI/ and Unit/ (child
# processes), and every other suite (EndToEnd/Sandbox/: in-process sandboxes). One at a time in one process, the 288
# tests took 224 s for 61 s of CPU: most of a test's time is waiting (child processes, a browser, sockets, a server's
# answer), which the other processes fill. In two processes (browser and CLI, the others) the longer took 2m05s on an
# idle machine and was the test command's longest path once the checks beside it took less CPU (2026-12-06); in three,
# each holds about 100 s of the 294 s of test time measured then. The shards are --filter patterns, and the third
# --skips them all, so every test runs exactly once. The test binary is run as `swift test` runs it, directly: two
# `swift test` in one package would wait for each other's lock on .build.
# Suites that load the whole machine run first, with no other test process beside them: RequestSourceTests opens
# 20,000 loopback sockets and compares page times with and without them (a ratio under 2), and every connection
# another process opens meanwhile is slower (the kernel's search for a free port among the crowd's), which tilts the
# ratio (10x once while the other process ran CLI tests).
sandbox_tests_dir=Sandbox/Tests/ConnectSandboxTests
sandbox_alone_suites="RequestSourceTests"
sandbox_shard_pattern() {  # DIR...: the test ids of the suites (top-level types) declared under those folders
  local names dirs=()
  for dir in "$@"; do dirs+=("$sandbox_tests_dir/$dir"); done
  names="$(find "${dirs[@]}" -name '*.swift' -exec cat {} + \
    | sed -nE 's/^(public |final |private |fileprivate |internal )*(struct|class|enum|actor) ([A-Za-z0-9_]+).*/\3/p' \
    | sort -u | paste -sd'|' -)"
  echo "^ConnectSandboxTests\.($names)/"
}
start_sandbox_tests() {
  local bin first second alone
  bin="$(swift build --package-path Sandbox "${test_build_flags[@]}" --show-bin-path)/ConnectSandboxPackageTests.xctest"
  first="$(sandbox_shard_pattern Browser EndToEnd/SDK)"
  second="$(sandbox_shard_pattern CLI Unit)"
  alone="^ConnectSandboxTests\.(${sandbox_alone_suites// /|})/"
  echo "== sandbox: test ($sandbox_alone_suites alone, then three processes: browser and SDK end to end, CLI and unit, the others)"
  start_tests sandbox-0 "$bin" --testing-library swift-testing --no-parallel --filter "$alone"
  collect_tests sandbox-0 "sandbox ($sandbox_alone_suites)" "$sandbox_build_time"
  start_tests sandbox-1 "$bin" --testing-library swift-testing --no-parallel --filter "$first" --skip "$alone"
  start_tests sandbox-2 "$bin" --testing-library swift-testing --no-parallel --filter "$second" --skip "$alone"
  start_tests sandbox-3 "$bin" --testing-library swift-testing --no-parallel --skip "$first" --skip "$second" \
    --skip "$alone"
}

# The checks of a tier, in name order: every executable scripts/checks/NN-name.sh whose header has the line
# `# tier: full` belongs to the full tier, every other one to the default tier (scripts/checks/README.md).
tier_checks() {  # $1 = default | full
  local check
  for check in scripts/checks/*.sh; do
    [ -x "$check" ] || continue
    if grep -q '^# tier: full$' "$check"; then [ "$1" = full ] && echo "$check"; else [ "$1" = default ] && echo "$check"; fi
  done
}

# run_check NAME COMMAND...: one check; prints its summary and result, appends "pass NAME" or "fail NAME" to
# $logdir/results (checks may run in a background lane, whose counts come back through that file).
run_check() {
  local name="$1" start=$SECONDS; shift
  echo "== check $name"
  if "$@"; then
    echo "pass $name" >>"$logdir/results"; echo "   ok ($(elapsed $((SECONDS - start))))"
  else
    echo "fail $name" >>"$logdir/results"; echo "== check $name FAILED ($(elapsed $((SECONDS - start))))"
  fi
}

# The default tier's checks of one lane, one after the other: lanes 2 and 3 hold the checks whose header has the line
# `# lane: 2` or `# lane: 3`, lane 1 the others; the consumer check runs in lane 3 (checks that share a scratch
# directory, such as the two that run check-apple.sh, stay in one lane). Keep the lanes about as long, and shorter than
# the tests beside them: several checks spend most of their time starting processes one after another, not computing.
# On an idle 2-core machine from a fresh clone (2026-12-06) lane 1 took 2m23s (the consumer check 46 s of it), lane 2
# 2m03s, lane 3 49 s, beside 1m55s of sandbox tests; hence the consumer check's move to lane 3. Once the checks
# took a third less CPU (148 s → 94 s) and the sandbox's tests ran in three processes, the lanes were the longest
# path (lane 1 2m25s, lane 2 2m23s, lane 3 1m34s beside 2m02s of tests, on the same machine under other builds):
# hence the client compatibility check's move to lane 3 and the DocC check's to lane 1.
default_checks() {  # $1 = lane: 1, 2 or 3
  local check lane
  if [ "$1" = 3 ] && [ "$quick" -eq 0 ]; then run_check consumer scripts/check-consumer.sh; fi
  while read -r check; do
    lane="$(sed -nE 's/^# lane: ([23])$/\1/p' "$check" | head -1)"; lane="${lane:-1}"
    [ "$lane" = "$1" ] && run_check "$(basename "$check" .sh)" "$check"
  done < <(tier_checks default)
  return 0
}

keep_logs=0
: >"$logdir/results"
echo "== bootstrap"
step bootstrap "$logdir/bootstrap.log" scripts/bootstrap.sh
if [ "$step_rc" -ne 0 ]; then
  tail -20 "$logdir/bootstrap.log"; echo "bootstrap failed"; echo "0 passed, 1 failed"; exit 1
fi

# The default tier runs the two soak tests at a fifth of their size, the full tier (and a plain `swift test`) at full
# size: the location journal's SIGKILL soak (IFTTT_LOCATION_SOAK_ITERATIONS: 40 of 200) and the paging of 100,000
# location events (IFTTT_PAGING_EVENTS: 20,000; the full tier's load check also pages 100,000 on a release build).
if [ "$full" -eq 0 ]; then
  export IFTTT_LOCATION_SOAK_ITERATIONS="${IFTTT_LOCATION_SOAK_ITERATIONS:-40}"
  export IFTTT_PAGING_EVENTS="${IFTTT_PAGING_EVENTS:-20000}"
fi

# 1. The SDK's build, then the sandbox's build with the SDK's tests running beside it: the packages have separate
# .build directories (no SwiftPM lock is shared), and the sandbox build, which the SDK's tests do not need, was the
# longest step of a fresh run. With --verbose, or IFTTT_TEST_SERIAL=1, everything runs one step at a time.
built_ok=1
# The sandbox's dependencies are resolved beside the SDK's build: on a fresh clone that is some twenty git checkouts
# (19 s of CPU, mostly the kernel's, and waits on the disk) that would otherwise open the sandbox's build. A failure
# here is the sandbox build's to report: it resolves again.
resolve_pid=""
if [ "$verbose" -eq 0 ] && [ "${IFTTT_TEST_SERIAL:-0}" != 1 ]; then
  swift package --package-path "$root/Sandbox" resolve >"$logdir/sandbox.resolve.log" 2>&1 &
  resolve_pid=$!
fi
build_package "$root" sdk
if [ "$verbose" -eq 0 ] && [ "$sdk_built" -eq 1 ] && [ "${IFTTT_TEST_SERIAL:-0}" != 1 ]; then
  echo "== sdk: test (beside the sandbox build)"
  start_tests sdk swift test --package-path "$root" --skip-build
fi
if [ -n "$resolve_pid" ]; then wait "$resolve_pid"; fi
build_package "$root/Sandbox" sandbox

# 2. The tests of both packages (the sandbox's in three processes), and beside them, in three more lanes, the consumer
# check and the default tier's checks (the tests spend much of their time waiting on servers, browsers and child
# processes; the checks fill it). The SDK's tests hold SwiftPM's lock on .build while they run, so the checks are told
# that both builds are done (IFTTT_TEST_BUILT=1) and only read them. The lanes' output is printed when the tests are
# done. With --verbose, IFTTT_TEST_SERIAL=1, or after a failed build, everything runs one step at a time.
export IFTTT_TEST_BUILT=$built_ok
if [ "$verbose" -eq 0 ] && [ "$built_ok" -eq 1 ] && [ "${IFTTT_TEST_SERIAL:-0}" != 1 ]; then
  default_checks 1 >"$logdir/checks.out" 2>&1 &
  lane1=$!
  default_checks 2 >"$logdir/checks2.out" 2>&1 &
  lane2=$!
  default_checks 3 >"$logdir/checks3.out" 2>&1 &
  lane3=$!
  start_sandbox_tests
  collect_tests sdk sdk "$sdk_build_time"
  collect_tests sandbox-1 "sandbox (browser, SDK end to end)" "$sandbox_build_time"
  collect_tests sandbox-2 "sandbox (CLI, unit)" "$sandbox_build_time"
  collect_tests sandbox-3 "sandbox (the others)" "$sandbox_build_time"
  if kill -0 "$lane1" 2>/dev/null || kill -0 "$lane2" 2>/dev/null || kill -0 "$lane3" 2>/dev/null; then
    echo "== (waiting for the checks)"
  fi
  wait "$lane1" "$lane2" "$lane3"
  cat "$logdir/checks.out" "$logdir/checks2.out" "$logdir/checks3.out"
else
  [ "$sdk_built" -eq 1 ] && test_package "$root" sdk
  [ "$sandbox_built" -eq 1 ] && test_package "$root/Sandbox" sandbox
  default_checks 1
  default_checks 2
  default_checks 3
fi
[ "$full" -eq 1 ] && echo "== default tier done after $(elapsed $((SECONDS - started_all)))"

# 3. The full tier's checks. Two of them need the release ifttt-connect: the load check (55) measures it and the
# prebuilt CLI check (69) unpacks its tarball into a Debian root. It is built once, here, by scripts/package-cli.sh
# (release, the Swift runtime linked statically: the binary users download), and both are given it (IFTTT_CONNECT_BIN,
# --tarball), instead of each compiling the whole server stack in release (about 3.5 minutes each on 2 cores).
# The load check runs first, alone (it measures throughput and needs the machine to itself); then the prebuilt CLI
# check (a Debian root made by debootstrap, a chroot and a few calls: downloads and I/O, little CPU) runs in a
# background lane beside the others, which compile and run one at a time (the mutation run edits sources, so nothing
# else may build while it runs).
release_tarball="" release_bin=""
build_release_cli() {  # sets release_tarball and release_bin, or returns 1
  local log="$logdir/release-cli.log"
  echo "== release ifttt-connect for the load check and the prebuilt CLI check (scripts/package-cli.sh)"
  step "release build" "$log" scripts/package-cli.sh
  if [ "$step_rc" -ne 0 ]; then
    show_build_failure "$log"; echo "== release build FAILED after $(elapsed "$step_time")"; keep_logs=1; return 1
  fi
  release_tarball="$(grep -E '\.tar\.gz$' "$log" | tail -1)"   # the script's last line of output
  case "$release_tarball" in /*) ;; *) release_tarball="$root/$release_tarball" ;; esac
  release_bin="${release_tarball%.tar.gz}/ifttt-connect"
  if [ ! -f "$release_tarball" ] || [ ! -x "$release_bin" ]; then
    echo "== release build: no tarball or binary at $release_tarball"; keep_logs=1; return 1
  fi
  echo "   built in $(elapsed "$step_time")"
}
# full_check CHECK: one full-tier check, given the release build when it uses one.
full_check() {
  local check="$1" name
  name="$(basename "$check" .sh)"
  case "$name" in
    *-sandbox-bench)
      if [ -n "$release_bin" ]; then run_check "$name" env IFTTT_CONNECT_BIN="$release_bin" "$check"
      else echo "== check $name: no release build"; echo "fail $name" >>"$logdir/results"; fi ;;
    *-prebuilt-cli)
      if [ -n "$release_tarball" ]; then run_check "$name" "$check" --tarball "$release_tarball"
      else echo "== check $name: no release build"; echo "fail $name" >>"$logdir/results"; fi ;;
    *) run_check "$name" "$check" ;;
  esac
}
skipped=()
if [ "$full" -eq 1 ]; then
  mapfile -t full_checks < <(tier_checks full)
  if printf '%s\n' "${full_checks[@]}" | grep -qE -- '-(sandbox-bench|prebuilt-cli)\.sh$'; then
    build_release_cli || { echo "fail release-build" >>"$logdir/results"; }
  fi
  for check in "${full_checks[@]}"; do   # the load check first, alone
    case "$check" in *-sandbox-bench.sh) full_check "$check" ;; esac
  done
  prebuilt_lane=""
  for check in "${full_checks[@]}"; do   # the prebuilt CLI check beside the others
    case "$check" in
      *-prebuilt-cli.sh) full_check "$check" >"$logdir/prebuilt.out" 2>&1 & prebuilt_lane=$! ;;
    esac
  done
  for check in "${full_checks[@]}"; do
    case "$check" in *-sandbox-bench.sh | *-prebuilt-cli.sh) ;; *) full_check "$check" ;; esac
  done
  if [ -n "$prebuilt_lane" ]; then
    kill -0 "$prebuilt_lane" 2>/dev/null && echo "== (waiting for the prebuilt CLI check)"
    wait "$prebuilt_lane"; cat "$logdir/prebuilt.out"
  fi
else
  while read -r check; do skipped+=("$(basename "$check" .sh)"); done < <(tier_checks full)
fi
[ ${#skipped[@]} -gt 0 ] && echo "(full tier only, not run: ${skipped[*]}; scripts/test.sh --full runs them)"

passed=$((passed + $(grep -c '^pass ' "$logdir/results")))
checks_failed=$(grep -c '^fail ' "$logdir/results")
if [ "$checks_failed" -gt 0 ]; then failed=$((failed + checks_failed)); status=1; keep_logs=1; fi

if [ "$keep_logs" -eq 1 ]; then
  echo "full logs: $logdir"
else
  rm -rf "$logdir"
fi
echo "total time $(elapsed $((SECONDS - started_all)))"
echo "$passed passed, $failed failed"
exit $status
