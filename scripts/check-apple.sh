#!/usr/bin/env bash
# Type-checks every Apple-only line of the SDK on Linux, against the stub frameworks in Tests/AppleStubs.
#
#   scripts/check-apple.sh                                   SDK products (Swift 6, warnings as errors), the example
#                                                            apps, Tests/ClientCompat/*.swift and the README's Swift
#                                                            snippets in Swift 5 and 6
#   scripts/check-apple.sh --client FILE... [--swift-version 5|6]   type-check FILEs as an app that imports the SDK
#
# How: each stub (UIKit, SwiftUI, CoreLocation, ...) is built with `swiftc -emit-module` into a temporary directory
# that goes on the module search path, so `canImport(UIKit)` and friends are true; the compilation condition
# IFTTT_APPLE_STUB_CHECK makes the `os(iOS)` code visible too. The SDK's modules are compiled in .build-apple
# (type-checked with SIL's diagnostics; no code generated), so the normal .build is left alone. The stubs are not
# Apple's SDK: this proves the code type-checks against the API as the stubs declare it (from Apple's documentation),
# not that it behaves on a device.
set -uo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.."
root="$(pwd)"
stubs_src="$root/Tests/AppleStubs"
# SwiftPM does not notice when a module appears on the search path (canImport), so the build directory is keyed by
# the stubs' contents: a changed stub gets a fresh build. .build-apple is gitignored (.build-*).
key="$(cat "$stubs_src"/*.swift "$0" | sha256sum | cut -c1-12)"
scratch="$root/.build-apple/$key"
stubs="$scratch/stubs"
find "$root/.build-apple" -mindepth 1 -maxdepth 1 ! -name "$key" -exec rm -rf {} + 2>/dev/null
flag=IFTTT_APPLE_STUB_CHECK

clients=()
client_mode=0
swift_versions=(5 6)
while [ $# -gt 0 ]; do
  case "$1" in
    --client) client_mode=1; shift
      while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do
        case "$1" in /*) clients+=("$1") ;; *) clients+=("$caller/$1") ;; esac   # paths are relative to the caller
        shift
      done ;;
    --swift-version) swift_versions=("$2"); shift 2 ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ "$client_mode" -eq 1 ] && [ "${#clients[@]}" -eq 0 ]; then echo "--client needs at least one file" >&2; exit 2; fi
for file in "${clients[@]}"; do [ -f "$file" ] || { echo "no such file: $file" >&2; exit 2; }; done
case "${swift_versions[*]}" in "5 6"|5|6) ;; *) echo "--swift-version takes 5 or 6" >&2; exit 2 ;; esac

log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT
fail() { echo "check-apple: $1"; [ -n "${2:-}" ] && grep -E 'error|warning' "$2" | head -60; exit 1; }

# 1. The stub frameworks, in dependency order.
mkdir -p "$stubs"
for module in CoreGraphics QuartzCore UIKit Combine SwiftUI CoreLocation BackgroundTasks AuthenticationServices Security; do
  [ -f "$stubs_src/$module.swift" ] || continue
  if [ ! -f "$stubs/$module.swiftmodule" ]; then
    swiftc -parse-as-library -swift-version 6 -warnings-as-errors -emit-module -module-name "$module" \
      "$stubs_src/$module.swift" -emit-module-path "$stubs/$module.swiftmodule" -I "$stubs" >"$log/stub-$module" 2>&1 \
      || fail "stub $module does not compile" "$log/stub-$module"
  fi
done

# 2. The SDK's library targets (the products' and TestSupport), Swift 6 mode (the package's), warnings as errors,
# against the stubs: each one compiled as SwiftPM's debug build compiles it (its sources from `swift package
# describe`, the same conditions, package name and resource accessor, its dependencies' modules), with
# `swiftc -wmo -emit-module`: every body type-checked and SIL's diagnostics (initialization, data races) run, but no
# code generated, nothing linked, no index written: a quarter of the CPU of a `swift build` (8 s against 29 s). The
# modules are kept per version of the sources (modules-KEY), so an unchanged tree compiles nothing.
if ! swift package --scratch-path "$scratch/describe" describe --type json >"$log/describe.json" 2>"$log/describe.err"; then
  fail "swift package describe failed" "$log/describe.err"
fi
# One line per target, "target|sources...|resource bundle or -", in waves of targets whose dependencies come in an
# earlier wave, a line "--" after each wave.
if ! python3 - "$log/describe.json" >"$log/plan" 2>"$log/plan.err" <<'PYTHON'
import json, sys
package = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in package["targets"] if t["type"] == "library" and t.get("module_type") == "SwiftTarget"}
done = set()
while len(done) < len(targets):
    wave = sorted(n for n, t in targets.items() if n not in done
                  and all(d in done for d in t.get("target_dependencies", []) if d in targets))
    if not wave:
        sys.exit("a dependency cycle among " + ", ".join(sorted(set(targets) - done)))
    for name in wave:
        t = targets[name]
        bundle = package["name"] + "_" + name + ".resources" if t.get("resources") else "-"
        print("|".join([name, " ".join(t["path"] + "/" + s for s in t["sources"]), bundle]))
    print("--")
    done.update(wave)
PYTHON
then fail "cannot read the package's targets" "$log/plan.err"; fi
identity="$(basename "$root" | tr 'A-Z-' 'a-z_')"   # SwiftPM's -package-name: the package's identity
sources_key="$( (cat "$log/plan"; grep -v '^--$' "$log/plan" | cut -d'|' -f2 | tr ' ' '\n' | grep . | xargs cat) \
  | sha256sum | cut -c1-12)"
modules="$scratch/modules-$sources_key"
find "$scratch" -mindepth 1 -maxdepth 1 -name 'modules-*' ! -name "modules-$sources_key" -exec rm -rf {} + 2>/dev/null
compile_target() {  # $1 = target, $2 = its sources (space-separated), $3 = its resource bundle or -
  local target="$1" bundle="$3" files accessor=()
  read -ra files <<<"$2"
  if [ "$bundle" != - ]; then   # what SwiftPM generates for a target with resources: Bundle.module
    mkdir -p "$log/accessor/$target"
    printf 'import Foundation\n\nextension Foundation.Bundle {\n    static let module: Bundle = {\n        let path = Bundle.main.bundleURL.appendingPathComponent("%s").path\n        guard let bundle = Bundle(path: path) else { Swift.fatalError("could not load resource bundle \\(path)") }\n        return bundle\n    }()\n}\n' \
      "$bundle" >"$log/accessor/$target/resource_bundle_accessor.swift"
    accessor=("$log/accessor/$target/resource_bundle_accessor.swift")
  fi
  swiftc -wmo -emit-module -parse-as-library -swift-version 6 -module-name "$target" -package-name "$identity" \
    -Onone -enable-testing -DSWIFT_PACKAGE -DDEBUG -DSWIFT_MODULE_RESOURCE_BUNDLE_AVAILABLE \
    -I "$stubs" -D "$flag" -warnings-as-errors -I "$modules.partial" \
    -emit-module-path "$modules.partial/$target.swiftmodule" "${files[@]/#/$root/}" "${accessor[@]}" >"$log/sdk-$target" 2>&1
}
if [ ! -f "$modules/.complete" ]; then
  rm -rf "$modules" "$modules.partial"; mkdir -p "$modules.partial"
  wave=()
  while IFS= read -r line; do
    if [ "$line" != "--" ]; then wave+=("$line"); continue; fi
    pids=()   # the targets of a wave do not depend on each other: compiled side by side
    for entry in "${wave[@]}"; do
      IFS='|' read -r target files bundle <<<"$entry"
      compile_target "$target" "$files" "$bundle" &
      pids+=("$!:$target")
    done
    failed=""
    for pid in "${pids[@]}"; do wait "${pid%%:*}" || failed="${failed:-${pid#*:}}"; done
    [ -z "$failed" ] || fail "the SDK's $failed does not compile against the Apple stubs" "$log/sdk-$failed"
    wave=()
  done <"$log/plan"
  touch "$modules.partial/.complete"; mv "$modules.partial" "$modules"
fi
[ -f "$modules/IFTTTConnectSDK.swiftmodule" ] || fail "no IFTTTConnectSDK module in $modules"

# Type-checks Swift files as an app module that imports the SDK's products. $1 = Swift version, $2 = label, rest = files.
typecheck() {
  local version="$1" label="$2"; shift 2
  if ! swiftc -typecheck -parse-as-library -module-name App -swift-version "$version" -warnings-as-errors \
      -I "$stubs" -I "$modules" -D "$flag" "$@" >"$log/client" 2>&1; then
    echo "check-apple: $label does not compile (Swift $version):"
    grep -E 'error|warning' "$log/client" | head -60
    return 1
  fi
  echo "check-apple: $label compiles (Swift $version)"
}

if [ "$client_mode" -eq 1 ]; then
  status=0
  for version in "${swift_versions[@]}"; do typecheck "$version" "${clients[*]}" "${clients[@]}" || status=1; done
  exit $status
fi

status=0
# 3. The example apps, in Swift 6 (as a new app would be) and Swift 5 modes.
for app in Examples/GroceryExpress-UIKit Examples/GroceryExpress-SwiftUI; do
  [ -d "$app" ] || { echo "check-apple: $app is missing"; status=1; continue; }
  mapfile -t files < <(find "$app" -name '*.swift' ! -name Package.swift | sort)
  for version in 6 5; do typecheck "$version" "$app" "${files[@]}" || status=1; done
done

# 4. 2.8-style client files: each file on its own, in Swift 5 and Swift 6 modes.
mkdir -p Tests/ClientCompat
for file in Tests/ClientCompat/*.swift; do
  [ -f "$file" ] || continue
  for version in 5 6; do typecheck "$version" "$file" "$file" || status=1; done
done

# 4b. The README's snippets (the sandbox set-up, the SwiftUI and the UIKit Connect Button), together as one app.
mapfile -t readme_snippets < <("$root/scripts/lib/readme-swift.sh" "$log/readme")
if [ "${#readme_snippets[@]}" -lt 3 ]; then
  echo "check-apple: found ${#readme_snippets[@]} Swift snippets in README.md, expected 3"; status=1
else
  for version in 6 5; do typecheck "$version" "README.md's Swift snippets" "${readme_snippets[@]}" || status=1; done
fi

# 5. Every Apple-only line was in the compiled configuration.
counter="$("$root/scripts/apple/build-tool.sh" AppleLineCount "$scratch/tools" -Onone 2>"$log/counter")" \
  || fail "the line counter does not compile" "$log/counter"
# The counter must notice an os(iOS) branch the check cannot see: a fixture with one, then the real sources.
mkdir -p "$log/fixture"
printf 'import Foundation\n#if os(iOS)\nlet hidden = 1\n#endif\n#if os(iOS) || %s\nlet seen = 1\n#endif\n' "$flag" >"$log/fixture/F.swift"
if "$counter" "$log/fixture" >"$log/fixture.out" 2>&1 || ! grep -q 'compiled: 1 of 2' "$log/fixture.out"; then
  echo "check-apple: the line counter missed an uncompiled os(iOS) line:"; cat "$log/fixture.out"; status=1
fi
"$counter" "$root/Sources" || status=1
exit $status
