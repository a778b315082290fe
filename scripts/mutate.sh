#!/usr/bin/env bash
# Plants known bugs one at a time and checks that the tests catch each: every mutation below is a precise edit of
# one line (a fixed string that must occur on exactly one line of its file, else the mutation is reported stale and
# the script fails, so the list is kept up to date with the code), followed by an incremental build with the test
# command's flags and a run of the tests that should catch it (a filtered subset of one package), both in one
# `swift test` so that nothing else builds into the same scratch in between. The file is then restored, whatever
# happens. Prints a table: mutation | caught by (the failing tests) | caught/missed/broken.
# A mutation is caught only when a named test failed. A run that timed out, crashed, or exited non-zero with no
# failed test named is BROKEN (the tests hang or die instead of failing: fix them), never caught.
#
# Usage: scripts/mutate.sh [--only NAME]... [--list] [--self-test] [--sandbox-scratch DIR] [--timeout SECONDS]
#   --only NAME             plant only this mutation (repeatable)
#   --list                  print the mutations and whether each still applies, plant nothing
#   --self-test             classify planted test logs (a named failure, no test named, a crash, a timeout, all
#                           passed) and check each verdict, build nothing
#   --sandbox-scratch DIR   build the sandbox in DIR (--scratch-path) instead of Sandbox/.build
#   --timeout SECONDS       the longest build and test run of one mutation (default 600; a timeout is BROKEN)
# Exits 0 when every mutation applied and was caught, 1 otherwise. Leaves the tree as it found it, and the build
# too: each package a mutant was built into is built again from the restored sources.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build-flags.sh

only=() list=0 self_test=0 sandbox_scratch=() limit=600
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("${2:-}"); shift 2 ;;
    --list) list=1; shift ;;
    --self-test) self_test=1; shift ;;
    --sandbox-scratch) sandbox_scratch=(--scratch-path "${2:-}"); shift 2 ;;
    --timeout) limit="${2:-}"; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutate: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done

names=() packages=() files=() froms=() tos=() filters=()
# mutation NAME PACKAGE(sdk|sandbox) FILE FROM TO FILTER: FROM becomes TO; FILTER selects the tests to run.
mutation() {
  names+=("$1"); packages+=("$2"); files+=("$3"); froms+=("$4"); tos+=("$5"); filters+=("$6")
}

mutation escape sdk Sources/IFTTTConnectCore/JSON/JSONValue.swift \
  'if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) {' \
  'if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 }) {' \
  'JSONRoundTripTests|JSONValueCodableTests|FuzzCorpusTests'
mutation xml-escape sdk Sources/IFTTTConnectCore/Button/ConnectButtonSVGRenderer.swift \
  'case "<": out.append(contentsOf: "&lt;".unicodeScalars)' \
  'case "<": out.append(contentsOf: "<".unicodeScalars)' \
  'ButtonSnapshotTests|ButtonAppearanceTests'
mutation crc-check sdk Sources/IFTTTConnectLocation/Store/EventJournal.swift \
  'if CRC32.checksum(payload) == checksum,' \
  'if CRC32.checksum(payload) == checksum || length >= 0,' \
  'EventStoreTests|EventJournalTests'
mutation redaction sdk Sources/IFTTTConnectCore/Networking/ConnectionNetworkController+Redaction.swift \
  'secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }' \
  'secrets.reduce(text) { text, _ in text }' \
  'NetworkControllerTests|ActivationFlowTests|CompatibilityTests'
mutation state-check sdk Sources/IFTTTConnectCore/Activation/RedirectNonce.swift \
  'return difference == 0' \
  'return difference == 0 || !b.isEmpty' \
  'ActivationRedirectForgeryTests|ActivationFlowTests|RedirectAuthorityTests'
mutation nesting-limit sdk Sources/IFTTTConnectCore/JSON/JSONParser.swift \
  'case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)' \
  'case UInt8(ascii: "{"): return try parseObject(depth: depth)' \
  'objectsOneLevelDeeperThanTheLimitAreRefused'
mutation halving sdk Sources/IFTTTConnectLocation/Upload/RefusalTriage.swift \
  'let half = batch.count / 2' \
  'let half = batch.count - 1' \
  'UploaderTests|SynchronizerDeliveryTests'
mutation backoff-cap sdk Sources/IFTTTConnectLocation/Upload/UploadScheduler.swift \
  'let delay = min(configuration.maximumDelay, configuration.baseDelay * pow(2, exponent))' \
  'let delay = configuration.baseDelay * pow(2, exponent)' \
  'UploaderTests|UploadSchedulerTests|SyncEngineTests'
mutation region-radius sdk Sources/IFTTTConnectLocation/Geofences/Geofence.swift \
  'return min(maximum, max(minimum, radius))' \
  'return max(minimum, radius)' \
  'GeofenceTests|GeofenceDerivationTests|RegionSelectorTests'
mutation cache-invalidation sandbox Sandbox/Sources/ConnectSandbox/Store/SandboxStore+Caches.swift \
  'if !Self.ignoredTables.contains(event.tableName) { state.withLockedValue { $0.dirty = true } }' \
  'if !Self.ignoredTables.contains(event.tableName) { state.withLockedValue { $0.dirty = false } }' \
  'SandboxPerformanceTests|SandboxConnectionTests|SandboxUserConnectionTests'
mutation bearer-scheme sandbox Sandbox/Sources/ConnectSandbox/Security/Authentication.swift \
  'guard parts.count == 2, parts[0].lowercased() == "bearer" else {' \
  'guard parts.count == 2, !parts[0].isEmpty else {' \
  'SandboxSafeguardTests|SandboxAccountTests|SandboxConnectionTests'
mutation nosniff sandbox Sandbox/Sources/ConnectSandbox/Security/SecurityMiddleware.swift \
  'headers[HeaderName("X-Content-Type-Options")!] = "nosniff"' \
  'headers[HeaderName("X-Content-Type-Options")!] = "sniff"' \
  'ActivationHardeningTests|WebActivationPageTests'
mutation request-log-query sandbox Sandbox/Sources/ConnectSandbox/Server/ErrorEnvelopeMiddleware.swift \
  '"\(request.method) \(request.uri.path) → \(response.status.code) (\(milliseconds) ms)",' \
  '"\(request.method) \(request.uri) → \(response.status.code) (\(milliseconds) ms)",' \
  'SandboxSafeguardTests|SecretRedactionTests'
mutation fail-rate sandbox Sandbox/Sources/ConnectSandbox/Server/FaultInjection.swift \
  'return draw < failRate' \
  'return draw > failRate' \
  'SandboxSafeguardTests|SandboxInfrastructureTests'

# occurrences FILE FROM: on how many lines FROM occurs.
occurrences() { grep -cF -- "$2" "$1" 2>/dev/null || true; }

selected() {
  [ ${#only[@]} -eq 0 ] && return 0
  local name
  for name in "${only[@]}"; do [ "$name" = "$1" ] && return 0; done
  return 1
}

if [ "$list" -eq 1 ]; then
  for i in "${!names[@]}"; do
    n=$(occurrences "${files[$i]}" "${froms[$i]}")
    state="applies"; [ "$n" = 1 ] || state="STALE (the line occurs $n times)"
    printf '%-20s %-8s %-70s %s\n' "${names[$i]}" "${packages[$i]}" "${files[$i]}" "$state"
  done
  exit 0
fi

work="$(mktemp -d)"
planted=""
restore() {
  if [ -n "$planted" ]; then cp "$work/original" "$planted"; planted=""; fi
}
# The packages whose build last held a mutant. Restoring a file makes the next build recompile it, but until then
# the scratch holds the mutant's objects, and `swift test --skip-build` would run them: so, at the end, each such
# package is built again from the restored sources (an incremental build of the mutated modules).
mutated_sdk=0 mutated_sandbox=0
rebuild_restored() {
  local start=$SECONDS
  if [ "$mutated_sdk" -eq 1 ]; then
    swift build --package-path . "${test_build_flags[@]}" >"$work/rebuild.log" 2>&1 \
      || { echo "mutate: the SDK does not build again after restoring (see above)" >&2; tail -20 "$work/rebuild.log" >&2; }
  fi
  if [ "$mutated_sandbox" -eq 1 ]; then
    swift build --package-path Sandbox "${sandbox_scratch[@]}" "${test_build_flags[@]}" >"$work/rebuild.log" 2>&1 \
      || { echo "mutate: the sandbox does not build again after restoring" >&2; tail -20 "$work/rebuild.log" >&2; }
  fi
  if [ "$mutated_sdk" -eq 1 ] || [ "$mutated_sandbox" -eq 1 ]; then
    echo "mutate: rebuilt from the restored sources in $((SECONDS - start)) s, so no mutant stays in the build" >&2
  fi
}
trap 'restore; rebuild_restored; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# test_names LOG: the failed tests of a Swift Testing or XCTest log, comma-separated (empty when none failed by name).
test_names() {
  { grep -E '^✘ Test [^ ]+ (.*)?failed after' "$1" | grep -v 'Test run with' | sed -E 's/^✘ Test ([^ ]+).*/\1/'
    grep -E "^Test Case '.*' failed" "$1" | sed -E "s/^Test Case '(-\[)?([^' ]+ )?([^]']+)\]?' failed.*/\3/"
  } | sort -u | head -6 | paste -sd, - | sed 's/,/, /g'
}

# last_started LOG: the last test that started (where a crashed or hung run stopped), or nothing.
last_started() {
  grep -E ' [A-Za-z0-9_]+\([^)]*\) started\.$' "$1" | tail -1 | sed -E 's/.* ([A-Za-z0-9_]+\([^)]*\)) started\.$/\1/'
}

# verdict RC LOG LIMIT: "caught<TAB>tests", "broken<TAB>why", "missed<TAB>why" or "notrun<TAB>why" for a run of the
# tests that exited RC (124: timed out after LIMIT s) and printed LOG. Caught means a named test failed, nothing less.
verdict() {
  local rc=$1 log=$2 limit=$3 failing ran stopped
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -qE '\.swift:[0-9]+:[0-9]+: (error|warning): ' "$log" \
    && ! grep -qE "◇ Test|Test Suite '" "$log"; then
    printf 'notrun\tthe mutant does not build (a mutation must compile without warnings)\n'
    return
  fi
  failing="$(test_names "$log")"
  ran=$(grep -E '^(✔|✘) Test .*(passed|failed) after|^Test Case .*(passed|failed)' "$log" | grep -vc 'Test run with')
  stopped="$(last_started "$log")"
  if [ "$rc" -eq 124 ]; then
    printf 'broken\ttimed out after %s s%s: a test hangs instead of failing\n' "$limit" "${stopped:+ in $stopped}"
  elif [ "$rc" -ne 0 ] && [ -n "$failing" ]; then
    printf 'caught\t%s\n' "$failing"
  elif [ "$rc" -ne 0 ]; then
    printf 'broken\texit %s, no failed test named%s\n' "$rc" "${stopped:+ (last started: $stopped)}"
  elif [ "$ran" -eq 0 ]; then
    printf 'missed\tthe filter ran no test\n'
  else
    printf 'missed\t%s tests passed\n' "$ran"
  fi
}

if [ "$self_test" -eq 1 ]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
  ok=0 bad=0
  # expect NAME RC WANTED LOG-LINES...: the verdict of a planted log.
  expect() {
    local name=$1 rc=$2 wanted=$3
    shift 3
    printf '%s\n' "$@" >"$dir/$name.log"
    got="$(verdict "$rc" "$dir/$name.log" 600)"
    if [ "${got%%$'\t'*}" = "$wanted" ]; then
      ok=$((ok + 1)); printf 'self-test: %-16s rc=%-3s -> %s\n' "$name" "$rc" "$(printf '%s' "$got" | tr '\t' ' ')"
    else
      bad=$((bad + 1)); printf 'self-test: %-16s rc=%-3s -> %s (WANTED %s)\n' "$name" "$rc" "$got" "$wanted"
    fi
  }
  expect named-failure 1 caught '◇ Test escapes() started.' '✘ Test escapes() recorded an issue at A.swift:3:5' \
    '✘ Test escapes() failed after 0.010 seconds with 1 issue.' '✘ Test run with 2 tests in 1 suite failed after 0.1 seconds with 1 issue.'
  expect xctest-failure 1 caught "Test Suite 'Selected tests' started" "Test Case 'JSONTests.testEscape' failed (0.01 seconds)"
  expect no-test-named 1 broken '◇ Test escapes() started.' 'error: Exited with unexpected signal code 6'
  expect crashed 134 broken '◇ Test escapes() started.' 'Fatal error: Index out of range'
  expect timed-out 124 broken '◇ Test waitsForever() started.'
  expect all-passed 0 missed '✔ Test escapes() passed after 0.010 seconds.' '✔ Test run with 1 test passed after 0.1 seconds.'
  expect ran-nothing 0 missed '✔ Test run with 0 tests passed after 0.001 seconds.'
  expect build-failure 1 notrun "Sources/A.swift:3:5: error: cannot find 'x' in scope"
  echo "mutate: self-test $ok passed, $bad failed"
  [ "$bad" -eq 0 ]
  exit
fi

rows=() caught=0 missed=0 broken=0 stale=0 total=0
for i in "${!names[@]}"; do
  selected "${names[$i]}" || continue
  total=$((total + 1))
  name="${names[$i]}" file="${files[$i]}" from="${froms[$i]}" to="${tos[$i]}"
  n=$(occurrences "$file" "$from")
  if [ "$n" != 1 ]; then
    stale=$((stale + 1))
    rows+=("$name	$file	-	STALE: the line occurs $n times; update the mutation")
    continue
  fi
  line=$(grep -nF -- "$from" "$file" | cut -d: -f1)
  cp "$file" "$work/original"
  planted="$file"
  FROM="$from" TO="$to" awk '{ i = index($0, ENVIRON["FROM"])
    if (i) $0 = substr($0, 1, i - 1) ENVIRON["TO"] substr($0, i + length(ENVIRON["FROM"])); print }' \
    "$work/original" >"$file"
  if [ "${packages[$i]}" = sdk ]; then
    package=(--package-path .); mutated_sdk=1
  else
    package=(--package-path Sandbox "${sandbox_scratch[@]}"); mutated_sandbox=1
  fi
  start=$SECONDS
  echo "mutate: $name ($file:$line): building and running ${filters[$i]}" >&2
  run_flags=()
  for flag in "${test_build_flags[@]}"; do [ "$flag" = --build-tests ] || run_flags+=("$flag"); done
  timeout "$limit" swift test "${package[@]}" "${run_flags[@]}" --filter "${filters[$i]}" >"$work/test.log" 2>&1
  rc=$?
  restore
  result="$(verdict "$rc" "$work/test.log" "$limit")"
  kind="${result%%$'\t'*}" detail="${result#*$'\t'}"
  case "$kind" in
    caught) caught=$((caught + 1)); rows+=("$name\t$file:$line\t$detail\tcaught ($((SECONDS - start)) s)") ;;
    broken) broken=$((broken + 1)); rows+=("$name\t$file:$line\t-\tBROKEN: $detail") ;;
    notrun)
      missed=$((missed + 1)); rows+=("$name\t$file:$line\t-\tNOT RUN: $detail")
      grep -E '\.swift:[0-9]+:[0-9]+: (error|warning): ' "$work/test.log" | head -5 >&2 ;;
    *) missed=$((missed + 1)); rows+=("$name\t$file:$line\t-\tMISSED: $detail (filter ${filters[$i]})") ;;
  esac
done

printf '\n%-20s | %-62s | %-60s | %s\n' mutation "file:line" "caught by" result
for row in "${rows[@]}"; do
  IFS=$'\t' read -r a b c d <<<"$(printf '%b' "$row")"
  printf '%-20s | %-62s | %-60s | %s\n' "$a" "$b" "$c" "$d"
done
echo "mutate: $caught of $total mutations caught, $missed missed, $broken broken (a hang, a crash or no test named), $stale stale"
[ "$missed" -eq 0 ] && [ "$broken" -eq 0 ] && [ "$stale" -eq 0 ]
