#!/usr/bin/env bash
# lane: 3
# Type-checks Tests/ClientCompat/*.swift (client code written as a ConnectSDK-iOS 2.8 app would write it) against
# the SDK's built modules, in Swift 5 and Swift 6 language modes, warnings as errors. Each file is checked on its
# own, as a separate app would be. Files that need UIKit are wrapped in `#if canImport(UIKit)` and are checked
# (with Apple API stubs) by scripts/check-apple.sh --client when that script exists; here they compile to nothing.
# Run from the repository root after `swift build` (scripts/test.sh builds first).
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/build-flags.sh

bin="$(swift build --show-bin-path 2>/dev/null)"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
if [ ! -f "$modules/IFTTTConnectSDK.swiftmodule" ] || [ ! -f "$modules/IFTTTConnectLocation.swiftmodule" ]; then
  echo "client-compat: building the SDK first"
  swift build "${test_build_flags[@]}" >/dev/null 2>&1 || { echo "client-compat: swift build failed"; exit 1; }
fi

files=(Tests/ClientCompat/*.swift)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
failures=0
checked=0
for version in 5 6; do
  for file in "${files[@]}"; do
    name="$(basename "$file" .swift | tr -c 'A-Za-z0-9\n' '_')"
    if swiftc -typecheck -swift-version "$version" -warnings-as-errors -module-name "Client_$name" \
         -I "$modules" "$file" >"$log" 2>&1; then
      checked=$((checked + 1))
    else
      failures=$((failures + 1))
      echo "client-compat: $file does not compile in Swift $version mode:"
      head -40 "$log"
    fi
  done
done

# Every file together, as one app with all of them, but those marked `// client-compat: alone` on their first line
# (a file whose own types shadow the SDK's, as an app's would).
mapfile -t files < <(for file in Tests/ClientCompat/*.swift; do
  head -1 "$file" | grep -q '^// client-compat: alone' || echo "$file"; done)
for version in 5 6; do
  if swiftc -typecheck -swift-version "$version" -warnings-as-errors -module-name ClientApp \
       -I "$modules" "${files[@]}" >"$log" 2>&1; then
    checked=$((checked + 1))
  else
    failures=$((failures + 1))
    echo "client-compat: the files together do not compile in Swift $version mode:"
    head -40 "$log"
  fi
done

echo "client-compat: $checked type-checks passed, $failures failed (${#files[@]} files, Swift 5 and 6 modes)"
[ "$failures" -eq 0 ]
