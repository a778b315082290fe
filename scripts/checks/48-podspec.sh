#!/usr/bin/env bash
# lane: 2
# CocoaPods without CocoaPods: evaluates IFTTTConnectSDK.podspec with Debian's Ruby and a small Pod::Spec of our own
# (scripts/podspec/check-podspec.rb) and checks it against what SwiftPM builds (`swift package describe`): every
# subspec's globs match exactly the Swift files and resources of its product's target, every resource exists, the
# dependencies, the default subspec (the umbrella), the version (SDKInfo.version) and the deployment targets agree
# with Package.swift. It first checks itself: a podspec whose Core glob leaves out a folder, one with another version,
# and one whose resource bundle lacks the privacy manifest must each fail. Ruby comes from scripts/bootstrap.sh.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
if ! command -v ruby >/dev/null; then
  echo "podspec: skipped: no ruby (scripts/bootstrap.sh installs Debian's ruby)"; exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Its own scratch path, so that it never waits for the lock of the tests' .build.
if ! swift package --scratch-path .build-podspec describe --type json >"$work/describe.json" 2>"$work/describe.err"; then
  cat "$work/describe.err"; echo "podspec: swift package describe failed"; exit 1
fi
checker=scripts/podspec/check-podspec.rb
planted() {   # $1 = what, $2 = sed expression; the planted podspec must fail with a line matching $3
  sed "$2" IFTTTConnectSDK.podspec >"$work/IFTTTConnectSDK.podspec"
  if cmp -s IFTTTConnectSDK.podspec "$work/IFTTTConnectSDK.podspec"; then
    echo "podspec: self-test could not plant $1 (the podspec changed)"; exit 1
  fi
  # The planted copy is evaluated from the repository root (its globs are relative to it).
  cp "$work/IFTTTConnectSDK.podspec" ".podspec-selftest.podspec"
  ruby "$checker" .podspec-selftest.podspec "$work/describe.json" >"$work/planted.out" 2>&1
  local status=$?
  rm -f .podspec-selftest.podspec
  if [ $status -eq 0 ] || ! grep -qE "$3" "$work/planted.out"; then
    cat "$work/planted.out"; echo "podspec: self-test FAILED: $1 was not caught"; exit 1
  fi
}
planted "a Core glob without Activation/" "s|core.source_files = 'Sources/IFTTTConnectCore/\*\*/\*.swift'|core.source_files = 'Sources/IFTTTConnectCore/{Button,JSON,Localization,Models,Networking,Support,Tracking}/**/*.swift'|" \
  "IFTTTConnectSDK/Core: its [0-9]+ source files are no SwiftPM library target"
planted "another version" "s|^  s\.version = '[^']*'|  s.version = '9.9.9'|" "version '9.9.9' is not SDKInfo.version"
planted "a Location bundle without its privacy manifest" \
  "s|location.resource_bundles = { 'IFTTTConnectLocation' => \['Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy'\] }|location.resource_bundles = { 'IFTTTConnectLocation' => [] }|" \
  "SwiftPM's resource Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy is in no resource bundle"
if ! ruby "$checker" IFTTTConnectSDK.podspec "$work/describe.json" >"$work/check.out" 2>&1; then
  cat "$work/check.out"; exit 1
fi
# Under CocoaPods the default subspec's sources (Core, Location, the umbrella) are one module, IFTTTConnectSDK, whose
# imports of IFTTTConnectCore and IFTTTConnectLocation the module stubs answer: they must compile so, with the flags
# the podspec gives the pod target.
mapfile -t pod_sources < <(find Sources/IFTTTConnectCore Sources/IFTTTConnectLocation Sources/IFTTTConnectSDK \
  Sources/IFTTTSDK Sources/IFTTTConnectService -name '*.swift' ! -path '*.docc/*' | sort)
if ! swiftc -typecheck -parse-as-library -swift-version 6 -module-name IFTTTConnectSDK -package-name IFTTTConnectSDK \
    -I CocoaPods/ModuleStubs -warnings-as-errors "${pod_sources[@]}" >"$work/one-module.log" 2>&1; then
  head -40 "$work/one-module.log"
  echo "podspec: the subspecs' ${#pod_sources[@]} files do not compile as the one module IFTTTConnectSDK (as under CocoaPods)"
  exit 1
fi
echo "podspec: the subspecs' ${#pod_sources[@]} Swift files compile as one module IFTTTConnectSDK with CocoaPods/ModuleStubs" \
  "(swiftc -typecheck, Swift 6, warnings as errors)"
echo "podspec: self-test: a Core glob missing a folder, another version and a bundle without its privacy manifest each fail"
cat "$work/check.out"
