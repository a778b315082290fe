# The `ifttt-connect` binary, built one way for every script that runs it.
#
# build_cli NAME debug    scripts/demo.sh and scripts/install.sh: the debug build in Sandbox/.build/debug, with the
#                         test tier's own flags (warnings as errors), so the demo, the install and `scripts/test.sh`
#                         share one build of the server stack: whichever runs first compiles it, the others only
#                         compile what is left (the test targets) or link. A debug build of the server stack takes
#                         about 4 minutes on 2 cores; a release build about 8 (measured 2026-11-27, idle machine).
# build_cli NAME release  scripts/sandbox-bench.sh and `scripts/install.sh --release`: the optimized build in
#                         Sandbox/.build/release, whose latencies the load check judges.
#
# Prints the binary's path; on failure prints the compiler's errors on stderr and returns 1.
build_cli() {
  local name="$1" configuration="${2:-debug}" log status=0
  local flags=(--package-path Sandbox --product ifttt-connect)
  case "$configuration" in
    debug) flags+=(-Xswiftc -warnings-as-errors) ;;
    release) flags+=(-c release) ;;
    *) echo "$name: unknown configuration $configuration" >&2; return 2 ;;
  esac
  log="$(mktemp)"
  swift build "${flags[@]}" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    { grep -E -A3 'error:' "$log" | head -40 || tail -30 "$log"; } >&2
    rm -f "$log"
    echo "$name: the $configuration build of ifttt-connect failed" >&2
    return 1
  fi
  rm -f "$log"
  echo "$(swift build "${flags[@]}" --show-bin-path)/ifttt-connect"
}
