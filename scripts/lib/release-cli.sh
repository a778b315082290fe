# The release `ifttt-connect`, built one way for every script that runs it (scripts/demo.sh, scripts/install.sh,
# scripts/sandbox-bench.sh): the same product, configuration and flags, so that one build in Sandbox/.build/release
# serves them all and the second script only links or runs what the first one built.
#
# build_release_cli NAME: builds it (the compiler's errors on stderr when it fails) and prints the binary's path.
build_release_cli() {
  local name="$1" log status=0
  log="$(mktemp)"
  swift build -c release --package-path Sandbox --product ifttt-connect >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    { grep -E -A3 'error:' "$log" | head -40 || tail -30 "$log"; } >&2
    rm -f "$log"
    echo "$name: the release build of ifttt-connect failed" >&2
    return 1
  fi
  rm -f "$log"
  echo "$(swift build -c release --package-path Sandbox --show-bin-path)/ifttt-connect"
}
