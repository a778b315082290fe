# Extracts the public symbol graphs (no SPI, no synthesized members) of the SDK's library modules from the debug
# build into "$api_graphs/<Module>/" (sourced by scripts/api/*.sh). Builds with the test command's flags first (a
# no-op after `scripts/test.sh`), unless IFTTT_TEST_BUILT=1.
# shellcheck shell=bash
api_modules=(IFTTTConnectCore IFTTTConnectLocation IFTTTConnectSDK IFTTTSDK IFTTTConnectService IFTTTConnectTesting
  IFTTTConnectDesktop)
api_extract_graphs() {  # $1: output directory
  local out="$1" bin modules triple module
  source scripts/lib/build-flags.sh
  if [ "${IFTTT_TEST_BUILT:-0}" != 1 ]; then
    swift build "${test_build_flags[@]}" >"$out/build.log" 2>&1 \
      || { echo "api: swift build failed" >&2; tail -20 "$out/build.log" >&2; return 1; }
  fi
  bin="$(swift build --show-bin-path)"
  modules="$bin/Modules"; [ -d "$modules" ] || modules="$bin"
  triple="$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
  for module in "${api_modules[@]}"; do
    mkdir -p "$out/$module"
    swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" -output-dir "$out/$module" \
      -minimum-access-level public -skip-synthesized-members >"$out/$module.log" 2>&1 \
      || { echo "api: extracting $module failed" >&2; cat "$out/$module.log" >&2; return 1; }
  done
}
# The public, non-SPI declarations of the graphs in directory $1, one per line: precise id, kind, path, declaration.
api_declarations() {
  jq -r '.symbols[]
      | select(.accessLevel == "public" or .accessLevel == "open")
      | select(.kind.identifier != "swift.extension")
      | select((.spi // false) | not)
      | [.identifier.precise, .kind.identifier, (.pathComponents | join(".")),
         ([.declarationFragments[]?.spelling] | join("") | gsub("\\s+"; " "))] | @tsv' "$1"/*.symbols.json \
    | sort -u
}
