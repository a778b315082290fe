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
# The jq filter that keeps a graph's public and open declarations an app sees without `@_spi`.
api_public_symbols='.symbols[]
      | select(.accessLevel == "public" or .accessLevel == "open")
      | select(.kind.identifier != "swift.extension")
      | select((.spi // false) | not)'
# The public, non-SPI declarations of the graphs in directory $1, one per line: precise id, kind, path, declaration.
api_declarations() {
  jq -r "$api_public_symbols"' | [.identifier.precise, .kind.identifier, (.pathComponents | join(".")),
         ([.declarationFragments[]?.spelling] | join("") | gsub("\\s+"; " "))] | @tsv' "$1"/*.symbols.json \
    | sort -u
}
# The public, non-SPI symbols that the graphs in directory $1 say module $2 declares, one per line: kind, path, and
# "keyword" when the declaration is written with an access keyword, else why not ("enum case", "requirement",
# "implicit"). Used by scripts/api/count-public.sh.
api_classified() {
  jq -r --arg m "$2" '
      (.relationships // [] | map(select(.kind == "requirementOf" or .kind == "optionalRequirementOf") | .source)) as $req
      | '"$api_public_symbols"'
      | select(.identifier.precise | contains("::SYNTHESIZED::") | not)
      | select(.location == null or (.location.uri | contains("Sources/" + $m + "/")))
      | [.identifier.precise, .kind.identifier, (.pathComponents | join(".")),
         (if .kind.identifier == "swift.enum.case" then "enum case"
          elif (.identifier.precise as $p | $req | index($p)) != null then "requirement"
          elif .location == null then "implicit"
          else "keyword" end)] | @tsv' "$1"/*.symbols.json \
    | sort -u | cut -f2-
}
# Compiles every product for arm64-apple-ios13.0 against Apple's iOS SDK (set up by scripts/check-ios-sdk.sh, which
# gets the remaining arguments, such as --theos-sdks MIRROR) and writes each one's public symbol graphs into
# "$1/<Module>/". Type-checks declarations only (no function bodies), as the interface-only modules of the rig do.
api_compile_ios_graphs() {  # $1: output directory; then check-ios-sdk.sh's options
  local out="$1" flags cache module files
  shift
  scripts/check-ios-sdk.sh "$@" --flags >"$out/flags" 2>"$out/flags.log" \
    || { echo "api: the iOS SDK is not set up:" >&2; cat "$out/flags.log" >&2; return 1; }
  mapfile -t flags <"$out/flags"
  cache="${IOS_SDK_CACHE:-$(pwd)/.build-ios-sdk}/module-cache"
  source scripts/lib/bundle-accessor.sh
  write_bundle_accessor "$out/resource_bundle_accessor.swift"
  for module in "${api_modules[@]}"; do
    mapfile -t files < <(find "Sources/$module" -name '*.swift' | sort)
    [ -d "Sources/$module/Resources" ] && files+=("$out/resource_bundle_accessor.swift")
    mkdir -p "$out/$module"
    swiftc -emit-module -wmo -parse-as-library -swift-version 6 -module-name "$module" -package-name ifttt_connect_sdk \
      -D SWIFT_PACKAGE -I "$out" -target arm64-apple-ios13.0 "${flags[@]}" -module-cache-path "$cache" \
      -Xfrontend -experimental-skip-non-inlinable-function-bodies -emit-module-path "$out/$module.swiftmodule" \
      -emit-symbol-graph -emit-symbol-graph-dir "$out/$module" -symbol-graph-minimum-access-level public \
      "${files[@]}" >"$out/$module.log" 2>&1 \
      || { echo "api: compiling $module for iOS failed" >&2; head -30 "$out/$module.log" >&2; return 1; }
  done
}
