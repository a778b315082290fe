#!/usr/bin/env bash
# Every shell command of the ```sh blocks of the README, CONTRIBUTING.md and docs/sandbox.md (where the README's former
# reference sections went), typed as written, after the README's set-up step: a fresh
# HOME, `ifttt-connect` on the PATH, the working directory a scratch view of the repository (so files the commands
# write, like token.txt and button.svg, land there). Each command runs with a timeout and must exit 0; a
# `ifttt-connect sandbox` command must print its URL, answer GET /health and stop cleanly on Ctrl-C (SIGINT).
#
# It reuses the test command's debug build: `ifttt-connect` is the binary of `swift build --package-path Sandbox`
# (built with the test command's flags when missing, a no-op after scripts/test.sh), so nothing is built twice.
# Commands that cannot run unattended are listed below (`skip_reason`) and checked with their --help instead.
# `swift run --package-path Sandbox ifttt-connect ARGS` runs as `ifttt-connect ARGS`: the same debug product, which
# `swift run` would otherwise rebuild whole (its flags differ from the test build's -warnings-as-errors). A sandbox
# command without --port gets --port 0: its default, 8080, may be taken by a sandbox already running on the machine.
#
# Usage: scripts/checks/67-readme-commands.sh [--verbose]   (--verbose prints every command and its output)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
source scripts/lib/build-flags.sh
verbose=0
[ "${1:-}" = "--verbose" ] && verbose=1

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The set-up step without its release build: the debug ifttt-connect of the test command, linked onto the PATH.
if ! bin_dir="$(swift build --package-path Sandbox --show-bin-path 2>/dev/null)"; then
  echo "readme commands: swift build --show-bin-path failed"; exit 1
fi
if [ ! -x "$bin_dir/ifttt-connect" ]; then
  echo "readme commands: building ifttt-connect (debug, as scripts/test.sh does)"
  if ! swift build --package-path Sandbox "${test_build_flags[@]}" >"$work/build.log" 2>&1; then
    grep -E -A3 'error:' "$work/build.log" | head -40; echo "readme commands: the build failed"; exit 1
  fi
fi
mkdir -p "$work/bin" "$work/home" "$work/repo"
ln -s "$bin_dir/ifttt-connect" "$work/bin/ifttt-connect"
for entry in "$root"/* "$root"/.swift-format; do [ -e "$entry" ] && ln -s "$entry" "$work/repo/"; done
export HOME="$work/home" PATH="$work/bin:$PATH"
unset XDG_DATA_HOME XDG_CONFIG_HOME

# The README's ```sh blocks, one command per line: continuation lines joined, trailing `# comments` removed.
mapfile -t commands < <(awk '
  /^```sh[[:space:]]*$/ { inside = 1; next }
  /^```/ { inside = 0; next }
  inside {
    line = line $0
    if (line ~ /\\$/) { sub(/\\$/, "", line); next }
    sub(/[[:space:]]+#[[:space:]].*$/, "", line)
    gsub(/[[:space:]]+/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
    if (line != "") print line
    line = ""
  }' README.md CONTRIBUTING.md docs/sandbox.md)
if [ ${#commands[@]} -lt 10 ]; then echo "readme commands: found only ${#commands[@]} commands in the docs"; exit 1; fi
if ! awk '/^```sh/{inside=1; next} /^```/{inside=0} inside' README.md | grep -q .; then
  echo "readme commands: README.md has no sh block"; exit 1
fi

# Why a command does not run here; empty when it runs. Each skipped command is still checked (see `check_skipped`).
skip_reason() {
  case "$1" in
    "scripts/install.sh"*) echo "links the debug binary the test command builds (the same build); the test command's binary stands in" ;;
    "scripts/test.sh"*) echo "the test command itself (it runs this check)" ;;
    "scripts/demo.sh"*) echo "it builds the debug binary the test command also builds; the 'ifttt-connect demo' it runs is checked as typed" ;;
    "scripts/check-apple.sh --client"*) echo "MyViewController.swift stands for the reader's own file" ;;
    "scripts/check-apple.sh"*) echo "run by scripts/checks/50-apple.sh" ;;
    "scripts/check-ios-sdk.sh"*) echo "needs Apple's iOS SDK (minutes); run by scripts/checks/52-ios-sdk.sh when one is present" ;;
    "ifttt-connect connect "* | *" ifttt-connect connect "*) echo "interactive: waits for a person to finish the activation in a browser" ;;
    "ENABLE_IFTTT_BENCHMARKS=1 swift package --package-path Sandbox benchmark"*) echo "a release build and minutes of runs; scripts/checks/65-benchmarks.sh builds the suites and runs a smoke pass" ;;
    "scripts/mutate.sh"*) echo "plants bugs and rebuilds once per mutation (minutes); scripts/checks/90-mutations.sh runs it in the full tier" ;;
    "scripts/sandbox-bench.sh"*) echo "run in its short form by scripts/checks/55-sandbox-bench.sh" ;;
    "scripts/instructions.sh"*) echo "valgrind runs of a release build (minutes); scripts/checks/65-benchmarks.sh runs its executable" ;;
    *) echo "" ;;
  esac
}

# A skipped command's own usage: scripts print it for --help (or an unknown option) without doing anything.
check_skipped() {
  local command="$1" program
  while [[ "$command" =~ ^[A-Z_][A-Z0-9_]*=[^[:space:]]*[[:space:]]+(.*)$ ]]; do command="${BASH_REMATCH[1]}"; done  # VAR=value prefixes
  program="${command%% *}"
  case "$program" in
    scripts/install.sh | scripts/test.sh)   # both answer --help with their usage line and exit 64 before any work
      local out rc
      bash -n "$program" || return 1
      out="$("$program" --help 2>&1)"; rc=$?
      echo "$out"
      [ "$rc" -eq 64 ] && echo "$out" | grep -q '^usage:' ;;
    scripts/demo.sh) bash -n "$program" && grep -q 'ifttt-connect demo' "$program" ;;
    scripts/check-apple.sh | scripts/check-ios-sdk.sh) "$program" --help >/dev/null ;;
    swift) grep -q 'ordo-one/benchmark' Sandbox/Package.swift && [ -d Sandbox/Benchmarks ] ;;
    scripts/sandbox-bench.sh | scripts/instructions.sh | scripts/mutate.sh) bash -n "$program" && "$program" --help >/dev/null ;;
    ifttt-connect) local sub; sub="$(echo "$command" | cut -d' ' -f2)"; ifttt-connect "$sub" --help >/dev/null ;;
    *) return 1 ;;
  esac
}

# Runs an `ifttt-connect sandbox ...` command: waits for its URL, asks /health, stops it with SIGINT.
run_server() {
  local command="$1" log="$2" url="" i
  : >"$log"
  bash -c "exec $command" >>"$log" 2>&1 &
  server_pid=$!
  for i in $(seq 1 300); do
    url="$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$log" | head -1)"
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$url" ]; then echo "(no URL within 30 s)" >>"$log"; return 1; fi
  if ! curl -fsS --max-time 10 "$url/health" >>"$log" 2>&1; then echo "(GET /health failed)" >>"$log"; return 1; fi
  kill -INT "$server_pid"
  for i in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$server_pid" 2>/dev/null; then echo "(still running 10 s after SIGINT)" >>"$log"; return 1; fi
  wait "$server_pid"; local rc=$?
  server_pid=""
  [ "$rc" -eq 0 ] || { echo "(exit $rc after SIGINT)" >>"$log"; return 1; }
}

ran=0 skipped=0 failures=0 n=0
cd "$work/repo" || exit 1
for command in "${commands[@]}"; do
  n=$((n + 1))
  log="$work/command-$n.log"
  reason="$(skip_reason "$command")"
  if [ -n "$reason" ]; then
    if check_skipped "$command" >"$log" 2>&1; then
      skipped=$((skipped + 1)); status="skip"
    else
      failures=$((failures + 1)); status="FAIL (its --help check)"
    fi
    [ "$verbose" -eq 1 ] || [ "$status" != skip ] && echo "   $status: $command  [$reason]"
    continue
  fi
  start=$SECONDS
  typed="$command"
  case "$command" in "swift run --package-path Sandbox ifttt-connect "*) command="ifttt-connect ${command#swift run --package-path Sandbox ifttt-connect }" ;; esac
  case "$command" in "ifttt-connect sandbox"*) [[ "$command" == *"--port"* ]] || command="$command --port 0" ;; esac
  case "$command" in
    "ifttt-connect sandbox "*) run_server "$command" "$log"; rc=$? ;;
    *) timeout 60 bash -c "$command" >"$log" 2>&1; rc=$? ;;
  esac
  if [ "$rc" -eq 0 ]; then
    ran=$((ran + 1))
    [ "$verbose" -eq 1 ] && echo "   ok ($((SECONDS - start)) s): $typed"
  else
    failures=$((failures + 1))
    echo "   FAIL (exit $rc, $((SECONDS - start)) s): $typed"
    tail -15 "$log" | sed 's/^/     /'
  fi
  [ "$verbose" -eq 1 ] && sed 's/^/     | /' "$log" | head -20
done
echo "readme commands: $ran ran, $skipped skipped with a reason (checked with --help), $failures failed"
[ "$failures" -eq 0 ]
