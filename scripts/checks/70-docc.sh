#!/usr/bin/env bash
# Builds the documentation of every DocC catalog (Sources/<Module>/<Module>.docc, in both packages) with the
# toolchain's `docc`, from public symbol graphs extracted out of the debug build, and fails on any warning
# (broken symbol links, undocumented parameters, ...). The archives, transformed for static hosting as the published
# site is (scripts/docs-site.sh), go to .build-docc/site/<Module>; then every internal link of them is checked
# (scripts/lib/check-site-links.py). No docc plugin is needed here, so the SDK package keeps zero dependencies.
set -uo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
source scripts/lib/build-flags.sh
out="$root/.build-docc"
rm -rf "$out"; mkdir -p "$out/site"
triple="$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
status=0
total=0
for package in "." "Sandbox"; do
  mapfile -t catalogs < <(find "$package/Sources" -maxdepth 2 -name '*.docc' -type d | sort)
  [ ${#catalogs[@]} -eq 0 ] && continue
  # The same flags as scripts/test.sh, so this is a no-op after the test build; inside scripts/test.sh
  # (IFTTT_TEST_BUILT=1) it is skipped, since the tests running beside this check hold SwiftPM's lock on .build.
  if [ "${IFTTT_TEST_BUILT:-0}" != 1 ] && ! swift build --package-path "$package" "${test_build_flags[@]}" >"$out/build-$(basename "$(cd "$package" && pwd)").log" 2>&1; then
    echo "docc: building $package failed"; tail -20 "$out"/build-*.log; exit 1
  fi
  modules="$package/.build/debug/Modules"
  [ -d "$modules" ] || modules="$package/.build/debug"
  for catalog in "${catalogs[@]}"; do
    module="$(basename "$catalog" .docc)"
    graphs="$out/symbol-graphs/$module"; mkdir -p "$graphs"
    if ! swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" -output-dir "$graphs" \
        -minimum-access-level public >"$out/$module-extract.log" 2>&1; then
      echo "docc $module: symbol graph extraction failed"; head -20 "$out/$module-extract.log"; status=1; continue
    fi
    log="$out/$module.log"
    docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-path "$out/site/$module" \
      --transform-for-static-hosting --hosting-base-path "$module" \
      --fallback-display-name "$module" --fallback-bundle-identifier "com.ifttt.$module" --fallback-bundle-version 1 \
      >"$log" 2>&1
    rc=$?
    warnings=$(grep -cE '^(warning|error):' "$log")
    total=$((total + warnings))
    if [ $rc -ne 0 ] || [ "$warnings" -ne 0 ]; then
      status=1
      echo "docc $module: $warnings warnings/errors (exit $rc)"
      grep -E -A6 '^(warning|error):' "$log" | head -60
    else
      echo "docc $module: 0 warnings"
    fi
  done
done
echo "docc: $total warnings in all catalogs"
python3 scripts/lib/check-site-links.py "$out/site" --no-index || status=1
exit $status
