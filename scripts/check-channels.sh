#!/usr/bin/env bash
# Every install channel other than SwiftPM, proven on Linux (SwiftPM's own proof is scripts/check-ios-sdk.sh's
# products, apps and link stages):
#   - CocoaPods: scripts/checks/48-podspec.sh (the podspecs against Package.swift, each pod built as its own module),
#     then scripts/check-ios-sdk.sh --channels (each pod compiled as CocoaPods does against Apple's iOS SDK, Swift 6
#     and 5, linked as a framework; an app that sees only the pods' modules compiles and links);
#   - XCFrameworks (manual, .binaryTarget, Carthage): scripts/check-ios-sdk.sh --channels (library evolution,
#     verified .swiftinterface files, a client compiled against the interfaces alone, no symbol in two images);
#   - Carthage: scripts/carthage.sh --check (one binary project file per framework, every released version).
# Without Apple's SDK the SDK stage prints one line saying so and the others still run (exit 0 if they pass).
#
#   scripts/check-channels.sh            the checks above
#   scripts/check-channels.sh --planted  plants each defect these checks exist for, one at a time in a throwaway copy
#                                        of the repository (or the check's own copy), and fails unless each is caught;
#                                        prints which check caught it:
#       IFTTTConnectCore.ConnectColor in the UIKit button        -> 48-podspec (module-qualified name)
#       a nonisolated read of UIApplication.shared               -> check-ios-sdk.sh (Swift 6 warning = error)  [SDK]
#       windowScene?.keyWindow in the About page                 -> 45-ios-availability (member resolved by type)
#                                                                   and check-ios-sdk.sh (iOS 15 API)           [SDK]
#       a dated CHANGELOG heading without its tag                -> release.sh --dry-run
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root="$(pwd)"
planted=0
case "${1:-}" in
  --planted) planted=1 ;;
  "") ;;
  -h|--help) sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d'; exit 0 ;;
  *) echo "usage: scripts/check-channels.sh [--planted]" >&2; exit 2 ;;
esac
have_sdk() { [ -n "${IOS_SDK:-}" ] || find .build-ios-sdk -maxdepth 2 -name .extracted -path '*/iPhoneOS*.sdk/*' 2>/dev/null | grep -q .; }
status=0
if [ "$planted" -eq 0 ]; then
  scripts/checks/48-podspec.sh || status=1
  if have_sdk; then
    scripts/check-ios-sdk.sh --channels | grep -vE '^    warning: ' || status=1
  else
    echo "channels: skipped the compile and link against Apple's iOS SDK: no SDK (scripts/check-ios-sdk.sh --theos-sdks MIRROR)"
  fi
  scripts/carthage.sh --check || status=1
  exit $status
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
caught=0 missed=0
# A throwaway copy of the repository's files as they are (tracked and new, not ignored), with git history for tags.
copy() {
  rm -rf "$work/repo"; mkdir -p "$work/repo"
  git ls-files -co --exclude-standard -z | xargs -0 -I{} cp --parents {} "$work/repo/" 2>/dev/null
  git -C "$work/repo" init -q && git -C "$work/repo" add -A && git -C "$work/repo" -c user.name=planted -c user.email=planted@localhost commit -qm planted
}
expect() {   # $1 = defect, $2 = check, $3 = output file, $4 = regex
  if grep -qE "$4" "$3"; then
    echo "planted: $1: caught by $2: $(grep -m1 -E "$4" "$3" | sed 's/^ *//' | cut -c1-220)"; caught=$((caught + 1))
  else
    echo "planted: $1: NOT caught by $2"; sed 's/^/    /' "$3" | tail -15; missed=$((missed + 1))
  fi
}

# 1. IFTTTConnectCore.ConnectColor in the UIKit button: 48-podspec.
copy
sed -i 's/^\(        _ text: String, in box: CGRect, color: \)ConnectColor,/\1IFTTTConnectCore.ConnectColor,/' \
  "$work/repo/Sources/IFTTTConnectCore/Button/Apple/ConnectButton+UIKit.swift"
(cd "$work/repo" && scripts/checks/48-podspec.sh) >"$work/1.out" 2>&1
expect "IFTTTConnectCore.ConnectColor in the UIKit button" "scripts/checks/48-podspec.sh" "$work/1.out" \
  "module-qualified name .*ConnectButton\+UIKit.swift:[0-9]+:.*IFTTTConnectCore\.ConnectColor"

# 2 and 3 against Apple's SDK: check-ios-sdk.sh --planted plants both (with its own known defects).
if have_sdk; then
  scripts/check-ios-sdk.sh --planted >"$work/sdk.out" 2>&1
  expect "a nonisolated read of UIApplication.shared" "scripts/check-ios-sdk.sh" "$work/sdk.out" \
    "planted: a nonisolated UIApplication.shared read: caught"
  expect "windowScene?.keyWindow in the About page" "scripts/check-ios-sdk.sh" "$work/sdk.out" \
    "planted: windowScene\?\.keyWindow in the About page: caught"
else
  echo "planted: a nonisolated read of UIApplication.shared: not tried here: no iOS SDK (scripts/check-ios-sdk.sh --theos-sdks MIRROR)"
fi
# 3 without the SDK: the CI stand-in, 45-ios-availability, plants it in its self-test.
scripts/checks/45-ios-availability.sh >"$work/3.out" 2>&1
expect "windowScene?.keyWindow in the About page" "scripts/checks/45-ios-availability.sh" "$work/3.out" \
  "self-test: .*windowScene\?\.keyWindow in the About page and keyWindow on a"

# 4. A dated CHANGELOG heading without its tag: release.sh --dry-run.
copy
sed -i 's/^## \[\([0-9.]*\)\] - Unreleased$/## [\1] - 2026-11-25/' "$work/repo/CHANGELOG.md"
git -C "$work/repo" commit -qam "planted: dated heading"
(cd "$work/repo" && version="$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' Sources/IFTTTConnectCore/Networking/SDKInfo.swift)" \
  && scripts/release.sh "$version" --dry-run --skip-tests) >"$work/4.out" 2>&1
expect "a dated CHANGELOG heading without its tag" "scripts/release.sh --dry-run" "$work/4.out" \
  "FAIL .* is dated 2026-11-25 but there is no tag"

echo "planted: $caught caught, $missed missed"
[ "$missed" -eq 0 ]
