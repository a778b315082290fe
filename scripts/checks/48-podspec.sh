#!/usr/bin/env bash
# lane: 3
# CocoaPods without CocoaPods: evaluates the SDK's podspecs (one pod per SwiftPM library product, *.podspec at the
# root) with Debian's Ruby and a small Pod::Spec of our own (scripts/podspec/check-podspec.rb) and checks them against
# what SwiftPM builds (`swift package describe`): each pod's globs match exactly the Swift files and resources of its
# product's target, every resource exists, the dependencies (pinned to the pod's version), the imports between
# modules, the version (SDKInfo.version), the license file and the deployment targets agree with Package.swift, and
# no stub module exists. It first checks itself: a core glob that leaves out a folder, another version, a Location
# bundle without its privacy manifest and an umbrella without its Location dependency must each fail. No source names
# a module of the SDK as a qualifier (`IFTTTConnectCore.ConnectColor`: planted in the UIKit button, it fails). Then it builds
# each pod as its own module on Linux, in dependency order, seeing only its dependencies' modules, with the podspec's
# Swift flags (Apple-only lines are compiled out here: scripts/check-ios-sdk.sh compiles the pods against Apple's SDK).
# Ruby comes from scripts/bootstrap.sh.
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
podspecs=(*.podspec)
planted() {   # $1 = what, $2 = podspec, $3 = sed expression; the planted podspecs must fail with a line matching $4
  mkdir -p "$work/planted"
  sed "$3" "$2" >"$work/planted/$2"
  if cmp -s "$2" "$work/planted/$2"; then
    echo "podspec: self-test could not plant $1 (the podspec changed)"; exit 1
  fi
  # The planted copy is evaluated from the repository root (its globs are relative to it), beside the other podspecs.
  local others=() spec
  for spec in "${podspecs[@]}"; do [ "$spec" = "$2" ] || others+=("$spec"); done
  cp "$work/planted/$2" ".selftest-$2"
  ruby -e 'load ARGV.shift' "$checker" "$work/describe.json" "${others[@]}" ".selftest-$2" >"$work/planted.out" 2>&1
  local status=$?
  rm -f ".selftest-$2"
  if [ $status -eq 0 ] || ! grep -qE "$4" "$work/planted.out"; then
    cat "$work/planted.out"; echo "podspec: self-test FAILED: $1 was not caught"; exit 1
  fi
}
planted "a core glob without Activation/" IFTTTConnectCore.podspec \
  "s|s.source_files = 'Sources/IFTTTConnectCore/\*\*/\*.swift'|s.source_files = 'Sources/IFTTTConnectCore/{Button,JSON,Localization,Models,Networking,Support,Tracking}/**/*.swift'|" \
  "IFTTTConnectCore: its [0-9]+ source files are not the [0-9]+ SwiftPM compiles"
planted "another version" IFTTTConnectService.podspec "s|^  s\.version = '[^']*'|  s.version = '9.9.9'|" \
  "IFTTTConnectService: version '9.9.9' is not SDKInfo.version"
planted "a Location bundle without its privacy manifest" IFTTTConnectLocation.podspec \
  "s|s.resource_bundles = { 'IFTTTConnectLocation' => \['Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy'\] }|s.resource_bundles = { 'IFTTTConnectLocation' => [] }|" \
  "SwiftPM's resource Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy is in no resource bundle"
planted "an umbrella without its Location dependency" IFTTTConnectSDK.podspec \
  "/s.dependency 'IFTTTConnectLocation'/d" "IFTTTConnectSDK: depends on IFTTTConnectCore, SwiftPM's IFTTTConnectSDK on"
# A name qualified with a module of the SDK (`IFTTTConnectCore.ConnectColor`) resolves only where the file is compiled
# into a module of that name: compiled into another module (the single-module pod of before: 23 errors on iOS) it
# names nothing. The sources write such names unqualified (imports excepted); planted in the UIKit button, one fails.
sdk_modules="$(ls Sources | paste -sd'|' -)"
qualified_names() {   # files... -> `file:line: text` of each module-qualified name outside imports and comments
  grep -nHE "(^|[^A-Za-z0-9_.])($sdk_modules)\.[A-Za-z_]" "$@" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|(@_exported |@_spi\([A-Za-z]+\) |@testable )*import )'
}
button=Sources/IFTTTConnectCore/Button/Apple/ConnectButton+UIKit.swift
mkdir -p "$work/qualified"
sed 's/^\(        _ text: String, in box: CGRect, color: \)ConnectColor,/\1IFTTTConnectCore.ConnectColor,/' "$button" >"$work/qualified/ConnectButton+UIKit.swift"
if ! grep -q 'color: IFTTTConnectCore.ConnectColor,' "$work/qualified/ConnectButton+UIKit.swift"; then
  echo "podspec: self-test could not plant IFTTTConnectCore.ConnectColor in the UIKit button (its line changed)"; exit 1
fi
if ! qualified_names "$work/qualified/ConnectButton+UIKit.swift" | grep -q 'IFTTTConnectCore.ConnectColor'; then
  echo "podspec: self-test FAILED: a planted IFTTTConnectCore.ConnectColor in the UIKit button was not reported"; exit 1
fi
mapfile -t swift_sources < <(find Sources -name '*.swift' ! -path '*.docc/*' | sort)
if found="$(qualified_names "${swift_sources[@]}")"; then
  echo "$found" | sed 's/^/podspec: module-qualified name (write it unqualified): /'
  echo "podspec: $(echo "$found" | wc -l) names qualified with a module of the SDK"; exit 1
fi
if ! ruby "$checker" "$work/describe.json" "${podspecs[@]}" --dump "$work/pods.json" >"$work/check.out" 2>&1; then
  cat "$work/check.out"; exit 1
fi
# Each pod as its own module, in dependency order, seeing only the modules of the pods it depends on (directly or
# through another: CocoaPods puts them all on the pod target's search paths), with its podspec's Swift flags.
mkdir -p "$work/modules"
compiled=0 files=0
while IFS="|" read -r pod flags deps sources; do
  read -ra flag_list <<<"$flags"; read -ra source_list <<<"$sources"
  mkdir -p "$work/modules/$pod"
  includes=()
  for dep in $deps; do includes+=(-I "$work/modules/$dep"); done
  # -wmo: one compiler process per pod. Without it the driver starts one per file, each parsing every file of the pod
  # (98 for the core): three times the CPU for the same diagnostics (every body type-checked, SIL's included).
  if ! swiftc -wmo -emit-module -parse-as-library -swift-version 6 -module-name "$pod" "${flag_list[@]}" -D COCOAPODS \
      -warnings-as-errors "${includes[@]}" -emit-module-path "$work/modules/$pod/$pod.swiftmodule" "${source_list[@]}" \
      >"$work/$pod.log" 2>&1; then
    head -40 "$work/$pod.log"
    echo "podspec: the pod $pod does not compile as its own module on Linux (its dependencies' modules only)"; exit 1
  fi
  compiled=$((compiled + 1)); files=$((files + ${#source_list[@]}))
done < <(ruby -rjson -rset -e '
  pods = JSON.parse(File.read(ARGV[0])).to_h { |pod| [pod["name"], pod] }
  closure = ->(name, seen) { pods[name]["dependencies"].each { |d| closure.(d, seen) if seen.add?(d) }; seen }
  pods.each_value { |pod| puts [pod["name"], pod["swift_flags"].join(" "), closure.(pod["name"], Set.new).to_a.join(" "), pod["sources"].join(" ")].join("|") }
' "$work/pods.json")
echo "podspec: the $compiled pods ($files Swift files) build as their own modules on Linux, each seeing only its" \
  "dependencies' modules (swiftc -wmo -emit-module, Swift 6, the podspecs' flags, warnings as errors)"
echo "podspec: self-test: a core glob missing a folder, another version, a bundle without its privacy manifest and" \
  "an umbrella without its Location dependency each fail; IFTTTConnectCore.ConnectColor planted in the UIKit button is reported"
echo "podspec: ${#swift_sources[@]} Swift files of Sources/, 0 names qualified with a module of the SDK (imports aside)"
cat "$work/check.out"
