#!/usr/bin/env bash
# lane: 2
# The example apps open and build in Xcode: each Examples/<app>/GroceryExpress.xcodeproj is what
# scripts/xcode/generate.sh writes, parses as Xcode's project format, and holds together (every object reference
# resolves to an object of the right kind, every file reference to a file on disk, the Sources phase compiles
# exactly the app's Swift files, the app's privacy manifest is copied, the SDK package is referenced by local path
# and its products exist); each app's Info.plist has exactly the keys the Getting Started article lists, and
# no other article holds a copy of them (see scripts/xcode/ExampleProjects.swift). Then self-tests break a copy in the
# ways that matter and expect each to fail. (The apps' Swift sources are type-checked by 50-apple.sh.)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tool="$(scripts/xcode/generate.sh --print-tool)" || { echo "$tool"; exit 1; }
if ! swift package dump-package >"$work/package.json" 2>"$work/dump.err"; then
  echo "xcode: swift package dump-package failed"; cat "$work/dump.err"; exit 1
fi

status=0
"$tool" check "$root" "$work/package.json" >"$work/report" 2>&1 || status=1
if [ $status -ne 0 ]; then cat "$work/report"; else grep -vE '^  (ok|Info.plist: )' "$work/report"; fi

copy() {  # what the check reads, in a fresh copy
  rm -rf "$work/tree"; mkdir -p "$work/tree"
  cp Package.swift "$work/tree/"
  cp -R Examples "$work/tree/Examples"
  for article in Sources/IFTTTConnectCore/IFTTTConnectCore.docc/GettingStarted.md \
      Sources/IFTTTConnectLocation/IFTTTConnectLocation.docc/GettingStarted.md; do
    mkdir -p "$work/tree/$(dirname "$article")"; cp "$article" "$work/tree/$article"
  done
}
passed=0
expect_failure() {  # LABEL MESSAGE: the check on the copy must fail and say MESSAGE
  local rc=0
  "$tool" check "$work/tree" "$work/package.json" >"$work/self" 2>&1 || rc=$?
  if [ $rc -eq 1 ] && grep -qF -- "$2" "$work/self"; then
    passed=$((passed + 1))
  else
    echo "xcode self-test FAILED: $1: expected a failure saying \"$2\" (exit $rc):"; grep -E 'FAIL|xcode' "$work/self" | head -12
    status=1
  fi
}
uikit=Examples/GroceryExpress-UIKit
project="$uikit/GroceryExpress.xcodeproj/project.pbxproj"
reference() {  # the identifier of the object whose comment is $1 in the UIKit project
  grep -m1 -oE "^\s+[0-9A-F]{24} /\* $1 \*/ = " "$project" | grep -oE '[0-9A-F]{24}'
}

copy
"$tool" check "$work/tree" "$work/package.json" >"$work/self" 2>&1 && passed=$((passed + 1)) \
  || { echo "xcode self-test FAILED: an untouched copy does not pass:"; grep FAIL "$work/self" | head; status=1; }

copy
sed -i "/^\s*$(reference 'AppDelegate.swift') \/\* AppDelegate.swift \*\/ = /d" "$work/tree/$project"
expect_failure "a file reference removed from the objects" \
  "fileRef points to $(reference 'AppDelegate.swift'), which does not exist"

copy
printf 'import Foundation\n' >"$work/tree/$uikit/GroceryExpress/Extra.swift"
expect_failure "a Swift file added to the app without regenerating" "the app's folder has [\"AppConfiguration.swift\", \"AppDelegate.swift\", \"ConnectViewController.swift\", \"Extra.swift\""

copy
mv "$work/tree/$uikit/GroceryExpress/SettingsViewController.swift" "$work/tree/$uikit/GroceryExpress/Settings.swift"
expect_failure "a file renamed on disk" "GroceryExpress/SettingsViewController.swift, which does not exist"

copy
sed -i 's|relativePath = ../..;|relativePath = ..;|' "$work/tree/$project"
expect_failure "the package path" "the package reference .. is not the SDK's package"

copy
sed -i 's|productName = IFTTTConnectSDK;|productName = IFTTTConnectGeofencing;|' "$work/tree/$project"
expect_failure "a product the package does not have" "the SDK package has no product IFTTTConnectGeofencing"

copy
sed -i "/^\s*$(reference 'PrivacyInfo.xcprivacy in Resources') \/\* PrivacyInfo.xcprivacy in Resources \*\/,$/d" "$work/tree/$project"
expect_failure "the app's privacy manifest left out of Copy Bundle Resources" \
  "the app's PrivacyInfo.xcprivacy is not in the Resources phase"

copy
sed -i "s|$(reference 'Sources') /\* Sources \*/,|$(reference 'Products') /* Products */,|" "$work/tree/$project"
expect_failure "a build phase list that points to a group" "target.buildPhases points to a PBXGroup"

copy
sed -i '/<string>ifttt-handoff-v1<\/string>/d' "$work/tree/$uikit/Info.plist"
expect_failure "an Info.plist key that differs from the docs" "Info.plist's LSApplicationQueriesSchemes differs from the docs"

copy
printf '\n```xml\n<key>CFBundleURLTypes</key>\n```\n' \
  >>"$work/tree/Sources/IFTTTConnectLocation/IFTTTConnectLocation.docc/GettingStarted.md"
expect_failure "a second copy of the keys" "a second copy of the Info.plist keys"

copy
sed -i 's|groceryexpress://ifttt/callback|grocery-express://ifttt/callback|' "$work/tree/$uikit/GroceryExpress/AppConfiguration.swift"
expect_failure "a redirect URL whose scheme the app does not register" \
  "the redirect URL's scheme grocery-express is not in CFBundleURLTypes"

echo "xcode: $passed self-tests passed"
exit $status
