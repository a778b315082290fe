#!/usr/bin/env bash
# lane: 2
# Privacy manifests against the code, as App Store Connect reads them (ITMS-91053): every library target's Swift
# sources are scanned for Apple's required-reason APIs (scripts/privacy/required-reason-apis.tsv) and compared with
# its Sources/<target>/PrivacyInfo.xcprivacy, which must also pass a schema check of Apple's keys, be in the target's
# resources: and agree with scripts/privacy/targets.tsv (see scripts/privacy/PrivacyCheck.swift).
# With Apple's iOS SDK at hand, scripts/privacy/scan-objects.sh also compiles the targets for iOS and the check reads
# their objects' undefined symbols and selectors (what Apple's scanner sees); without it, that part is skipped.
# Then self-tests plant faults in a copy of the tree (a UserDefaults call in a target that does not declare it,
# an unused declaration, schema errors) and expect each to fail, and API names in comments and strings to pass.
#
#   scripts/checks/45-privacy.sh            the check: the per-product summary, details on failure
#   scripts/checks/45-privacy.sh --report   the whole per-target report, then the check
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
report=0
[ "${1:-}" = "--report" ] && report=1

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The checker is compiled once per version of its source (.build-privacy is gitignored, as .build-*).
key="$(sha256sum scripts/privacy/PrivacyCheck.swift | cut -c1-12)"
checker="$root/.build-privacy/checker-$key/privacy-check"
if [ ! -x "$checker" ]; then
  rm -rf "$root"/.build-privacy/checker-*
  mkdir -p "$(dirname "$checker")"
  if ! swiftc -O -swift-version 6 -warnings-as-errors scripts/privacy/PrivacyCheck.swift -o "$checker" >"$work/compile" 2>&1; then
    echo "privacy: the checker does not compile"; grep -E 'error|warning' "$work/compile" | head -20; exit 1
  fi
fi
if ! swift package dump-package >"$work/package.json" 2>"$work/dump.err"; then
  echo "privacy: swift package dump-package failed"; cat "$work/dump.err"; exit 1
fi

# 1. The compiled objects, where Apple's SDK is at hand (scan-objects.sh prints one line when it is not).
objects=()
"$checker" --targets "$work/package.json" >"$work/targets.tsv" || { echo "privacy: cannot list the targets"; exit 1; }
if out="$(scripts/privacy/scan-objects.sh "$work/objects" "$work/targets.tsv" 2>&1)"; then
  [ -d "$work/objects" ] && objects=(--objects "$work/objects")
  echo "$out" | tail -1
else
  echo "privacy: compiling the targets for iOS failed:"; echo "$out" | tail -30; exit 1
fi

# 2. The tree itself.
status=0
"$checker" "$root" "$work/package.json" "${objects[@]}" >"$work/report" 2>&1 || status=1
if [ $status -ne 0 ] || [ $report -eq 1 ]; then
  cat "$work/report"
else
  sed -n '/^products/,$p' "$work/report"
fi

# 3. Self-tests: each plant in a copy of the tree must fail with the expected message, or pass where it should.
copy() {  # a fresh copy of what the checker reads
  rm -rf "$work/tree"; mkdir -p "$work/tree/scripts"
  cp -R Sources "$work/tree/Sources"; cp -R Examples "$work/tree/Examples"; cp -R scripts/privacy "$work/tree/scripts/privacy"
}
expect() {  # expect fail|pass LABEL [MESSAGE]: runs the checker on the copy
  local want="$1" label="$2" message="${3:-}" rc=0
  "$checker" "$work/tree" "$work/package.json" >"$work/self" 2>&1 || rc=$?
  if [ "$want" = fail ] && { [ $rc -ne 1 ] || ! grep -qF -- "$message" "$work/self"; }; then
    echo "privacy self-test FAILED: $label: expected a failure saying \"$message\" (exit $rc):"; tail -15 "$work/self"
    status=1
  elif [ "$want" = pass ] && [ $rc -ne 0 ]; then
    echo "privacy self-test FAILED: $label: expected a pass (exit $rc):"; grep FAIL "$work/self" | head; status=1
  else
    passed=$((passed + 1))
  fi
}
passed=0
manifest=Sources/IFTTTConnectCore/PrivacyInfo.xcprivacy

copy
printf 'import Foundation\n\nfunc planted() -> Bool { UserDefaults.standard.bool(forKey: "planted") }\n' \
  >"$work/tree/Sources/IFTTTConnectLocation/Planted.swift"
expect fail "UserDefaults in a target that declares only file timestamps" \
  "IFTTTConnectLocation: uses NSPrivacyAccessedAPICategoryUserDefaults but its manifest does not declare it: UserDefaults Planted.swift:3"

copy
printf 'import Foundation\n\nlet planted = Foundation.UserDefaults(suiteName: "x")\n' \
  >"$work/tree/Sources/IFTTTConnectDesktop/Planted.swift"
expect fail "UserDefaults in a target without a manifest" \
  "IFTTTConnectDesktop: uses NSPrivacyAccessedAPICategoryUserDefaults but has no privacy manifest"

copy
printf 'import Foundation\n\nlet uptime = ProcessInfo.processInfo\n    .systemUptime\n' >"$work/tree/Sources/IFTTTSDK/Planted.swift"
expect fail "systemUptime on a continued line" "IFTTTSDK: uses NSPrivacyAccessedAPICategorySystemBootTime"

copy
rm "$work/tree/Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy"
expect fail "a target that calls stat without a manifest" \
  "IFTTTConnectLocation: uses NSPrivacyAccessedAPICategoryFileTimestamp but has no privacy manifest: fstat Store/JournalFile.swift:"

copy
# The manifest's list of required-reason categories, empty (<array/>) or not (<array>), gains SystemBootTime.
sed -i '/<key>NSPrivacyAccessedAPITypes<\/key>/{n;s|<array/>|<array><dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategorySystemBootTime</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>35F9.1</string></array></dict></array>|;s|<array>$|<array><dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategorySystemBootTime</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>35F9.1</string></array></dict>|}' "$work/tree/$manifest"
expect fail "a declared category nothing uses" \
  "IFTTTConnectCore: declares NSPrivacyAccessedAPICategorySystemBootTime, but nothing in its sources uses it"

copy
sed -i 's|<key>NSPrivacyTracking</key>|<key>NSPrivacyTrackingEnabled</key><true/>&|' "$work/tree/$manifest"
expect fail "an unexpected key" "unexpected key NSPrivacyTrackingEnabled in the manifest"

copy
sed -i '/<key>NSPrivacyTracking<\/key>/{n;s|<false/>|<integer>0</integer>|}' "$work/tree/$manifest"
expect fail "a wrong type" "NSPrivacyTracking must be a boolean, not <integer>"

copy
sed -i 's|<string>C617.1</string>|<string>CA92.1</string>|' "$work/tree/Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy"
expect fail "a reason of another category" "CA92.1 is not a reason for NSPrivacyAccessedAPICategoryFileTimestamp"

copy
sed -i '0,/NSPrivacyCollectedDataTypeUserID/s//NSPrivacyCollectedDataTypeEmailAddress/' "$work/tree/$manifest"
expect fail "a data type declared twice" "NSPrivacyCollectedDataTypeEmailAddress is declared twice"

copy
sed -i '0,/NSPrivacyCollectedDataTypePurposeAnalytics/s//NSPrivacyCollectedDataTypePurposeMarketing/' "$work/tree/$manifest"
expect fail "an unknown purpose" "NSPrivacyCollectedDataTypePurposeMarketing is not a collection purpose"

copy
sed -i '/^IFTTTConnectDesktop\t/d' "$work/tree/scripts/privacy/targets.tsv"
expect fail "a library target without a decision" "IFTTTConnectDesktop: not listed in scripts/privacy/targets.tsv"

copy
cat >"$work/tree/Sources/IFTTTConnectDesktop/Planted.swift" <<'EOF'
import Foundation

// UserDefaults.standard in a comment, /* and */ NSUserDefaults in a block comment:
/* outer /* nested UserDefaults */ systemUptime */
let text = "UserDefaults \(1 + "a(b".count) stat(path, &buffer)"
let raw = #"raw "UserDefaults" \(systemUptime) mach_absolute_time()"#
let block = """
    UserDefaults "quoted" \""" mach_absolute_time()
    """
var buffer = stat()
func stat(_ value: Int) -> Int { value }
struct Record { var creationDate: Date }
func created(_ record: Record) -> Date { record.creationDate }  // privacy-scan: ignore (our own property)
EOF
expect pass "API names in comments, strings, a struct initializer, a declaration and an ignored line"

copy
printf 'import Foundation\n\nlet text = "seconds: \\(ProcessInfo.processInfo.systemUptime)"\n' \
  >"$work/tree/Sources/IFTTTConnectDesktop/Planted.swift"
expect fail "an API called inside a string interpolation" "IFTTTConnectDesktop: uses NSPrivacyAccessedAPICategorySystemBootTime"

copy
sed -i -E 's/UserDefaults\.standard\.set\([^)]*\)/_ = 0/g; s/UserDefaults\.standard\.[a-z]+\(forKey: [^)]*\)/(ProcessInfo.processInfo.systemUptime > 0 ? nil : nil)/g; s/UserDefaults \{ \.standard \}/Int { 0 }/g' \
  "$work/tree/Examples/GroceryExpress-UIKit/GroceryExpress/AppConfiguration.swift"
expect fail "an example app that stops using UserDefaults and starts reading the boot time" \
  "GroceryExpress-UIKit: declares NSPrivacyAccessedAPICategoryUserDefaults, but nothing in its sources uses it"
grep -qF "GroceryExpress-UIKit: uses NSPrivacyAccessedAPICategorySystemBootTime but its manifest does not declare it" \
  "$work/self" || { echo "privacy self-test FAILED: the app's undeclared systemUptime was not reported"; status=1; }

# The object scan reads real llvm-nm output: a one-file module that uses UserDefaults, compiled for iOS.
if [ ${#objects[@]} -gt 0 ]; then
  copy
  mkdir -p "$work/planted"
  cp -R "$work/objects/." "$work/planted/"
  printf 'import Foundation\npublic func planted() -> Bool { UserDefaults.standard.bool(forKey: "p") }\n' \
    >"$work/Planted.swift"
  if scripts/privacy/scan-objects.sh --file "$work/planted-object" "$work/Planted.swift" >"$work/planted.log" 2>&1; then
    cp "$work/planted-object.nm" "$work/planted/IFTTTConnectDesktop.nm"
    cp "$work/planted-object.selectors" "$work/planted/IFTTTConnectDesktop.selectors"
    rc=0
    "$checker" "$work/tree" "$work/package.json" --objects "$work/planted" >"$work/self" 2>&1 || rc=$?
    if [ $rc -eq 1 ] && grep -qF 'IFTTTConnectDesktop: uses NSPrivacyAccessedAPICategoryUserDefaults but has no privacy manifest: _OBJC_CLASS_$_NSUserDefaults' "$work/self"; then
      passed=$((passed + 1))
    else
      echo "privacy self-test FAILED: UserDefaults seen only in an object was not reported (exit $rc):"; tail -15 "$work/self"
      status=1
    fi
  else
    echo "privacy self-test FAILED: the planted object does not compile:"; tail -20 "$work/planted.log"; status=1
  fi
fi

echo "privacy: $passed self-tests passed"
exit $status
