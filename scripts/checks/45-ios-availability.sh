#!/usr/bin/env bash
# Apple API newer than the iOS deployment target must be guarded by `@available` or `#available`: checked here
# without Apple's SDK, against scripts/apple/ios-availability.tsv (the API newer than the target, with the iOS version
# that introduced it, which scripts/check-ios-sdk.sh --update-availability generates from the SDK). The package's
# sources and Tests/ClientCompat are read for the package's deployment target, each example app for the iOS version
# its README asks for. The check first checks itself: in a temporary copy of Sources/, AnalyticsUploader's Duration
# form without its `@available` must be reported, and so must a planted `Duration` parameter; guarded uses must not.
# It also reports a stored property of a typed-throws function type (its metadata needs iOS 18: see
# scripts/apple/AvailabilityCheck.swift), and checks that the RecordingTransport.answer of before its fix is caught.
# In Apple-only code (what iOS compiles and Linux does not), every member and type name must be this code's, the
# table's, or one of the SDK's names (scripts/apple/ios-names.txt): a name none of them knows (API newer than the
# table's SDK, like iOS 17's containerRelativeFrame) fails rather than passes. Calls of API Apple disabled
# (scripts/apple/disabled-apis.tsv: UIApplication.openURL(_:), UIWebView) fail. Each of these is planted and must fail:
# split(separator: ", ") (iOS 16) in the core, .containerRelativeFrame in the SwiftUI example, openURL(_:) in the
# URL opener, windowScene?.keyWindow in the About page (a property newer on UIWindowScene only: the table lists it per
# type, `.keyWindow@UIWindowScene`, and the checker resolves the receiver's type or fails when it cannot).
# (That resolution covers Apple-only lines and written receivers: a declared type, `Type(...)`, `x as? Type`, or a
# variable named after the type; an implicit member `.name` and the result of another call are not resolved.)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
table=scripts/apple/ios-availability.tsv
tool="$(scripts/apple/build-tool.sh AvailabilityCheck .build-availability)" || exit 1
deployment="$(sed -n 's/.*\.iOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | head -1 | tr _ .)"
case "$deployment" in *.*) ;; "") echo "availability: no iOS platform in Package.swift"; exit 1 ;; *) deployment="$deployment.0" ;; esac
if ! head -1 "$table" | grep -q "newer than iOS $deployment,"; then
  echo "availability: $table was generated for another deployment target than Package.swift's iOS $deployment;"
  echo "  regenerate it with scripts/check-ios-sdk.sh --update-availability"
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. Self-test, in a copy of Sources/: the real Duration API without its @available ...
cp -r Sources "$work/Sources"
uploader="$work/Sources/IFTTTConnectCore/Tracking/AnalyticsUploader.swift"
sed -i '/^    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, \*)$/{N;/runPeriodicFlush(every interval: Duration)/s/^[^\n]*\n//}' "$uploader"
if grep -B1 'runPeriodicFlush(every interval: Duration)' "$uploader" | grep -q '@available'; then
  echo "availability: self-test could not remove the @available of runPeriodicFlush(every:) (its declaration changed)"
  exit 1
fi
"$tool" --table "$table" "$work/Sources=$deployment" >"$work/planted-1.out" 2>&1
if [ $? -ne 1 ] || ! grep -q "AnalyticsUploader.swift:[0-9]*: 'Duration' needs iOS 16.0" "$work/planted-1.out"; then
  cat "$work/planted-1.out"
  echo "availability: self-test FAILED: AnalyticsUploader's Duration form without @available was not reported"
  exit 1
fi
# ... and a planted Duration parameter (reported), beside the guarded forms (not reported), in a folder of their own.
mkdir -p "$work/Guarded/IFTTTConnectCore"
cat >"$work/Guarded/IFTTTConnectCore/Planted.swift" <<'SWIFT'
import Foundation

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func plantedGuardedByDeclaration(every interval: Duration = .seconds(1)) -> Duration { interval }

func plantedGuardedByCondition() {
    if #available(iOS 16.0, macOS 13.0, *) {
        _ = Duration.seconds(1)
    }
    guard #available(iOS 16, macOS 13, *) else { return }
    _ = Duration.seconds(2)
}
SWIFT
cp -r "$work/Guarded" "$work/Unguarded"
printf '\nfunc plantedUnguarded(every interval: Duration = .seconds(30)) {}\n' >>"$work/Unguarded/IFTTTConnectCore/Planted.swift"
if ! "$tool" --table "$table" "$work/Guarded=$deployment" >"$work/planted-2.out" 2>&1; then
  cat "$work/planted-2.out"; echo "availability: self-test FAILED: a guarded Duration use was reported"; exit 1
fi
"$tool" --table "$table" "$work/Unguarded=$deployment" >"$work/planted-3.out" 2>&1
if [ $? -ne 1 ] || ! grep -q "Planted.swift:14: 'Duration' needs iOS 16.0" "$work/planted-3.out"; then
  cat "$work/planted-3.out"; echo "availability: self-test FAILED: a planted unguarded Duration was not reported"; exit 1
fi

# ... and a stored property of a typed-throws function type (the RecordingTransport.answer of before the fix, whose
# metadata needs swift_getExtendedFunctionTypeMetadata, iOS 18) must be reported.
transport="$work/Sources/IFTTTConnectTesting/RecordingTransport.swift"
sed -i 's/^    private let answer: @Sendable (HTTPRequest) -> Result<HTTPResponse, ConnectAPIError>$/    private let answer: @Sendable (HTTPRequest) throws(ConnectAPIError) -> HTTPResponse/' "$transport"
if ! grep -q 'private let answer: @Sendable (HTTPRequest) throws(ConnectAPIError)' "$transport"; then
  echo "availability: self-test could not plant the typed-throws RecordingTransport.answer (its declaration changed)"
  exit 1
fi
"$tool" --table "$table" "$work/Sources=$deployment" >"$work/planted-4.out" 2>&1
if [ $? -ne 1 ] || ! grep -q "RecordingTransport.swift:[0-9]*: stored property 'answer' has a typed-throws function type" \
    "$work/planted-4.out"; then
  cat "$work/planted-4.out"
  echo "availability: self-test FAILED: a stored typed-throws function type (RecordingTransport.answer) was not reported"
  exit 1
fi

# The three misses of the stand-in before it learnt them, planted one at a time, each in its own copy: each must fail.
names=scripts/apple/ios-names.txt
disabled=scripts/apple/disabled-apis.tsv
[ -f "$names" ] || { echo "availability: no $names (scripts/check-ios-sdk.sh --update-availability writes it)"; exit 1; }
checked=(--table "$table" --names "$names" --disabled "$disabled")
plant() {   # $1 = what, $2 = file to change (in a fresh copy of the repository's sources), $3 = sed, $4 = expected line
  rm -rf "$work/plant"; mkdir -p "$work/plant"
  cp -r Sources "$work/plant/Sources"; cp -r Examples "$work/plant/Examples"
  local file="$work/plant/$2"
  sed -i "$3" "$file"
  if cmp -s "$2" "$file"; then echo "availability: self-test could not plant $1 (its line changed)"; exit 1; fi
  "$tool" "${checked[@]}" "$work/plant/Sources=$deployment" "$work/plant/Examples/GroceryExpress-SwiftUI=16.0" \
    "$work/plant/Examples/GroceryExpress-UIKit=15.0" >"$work/plant.out" 2>&1
  if [ $? -ne 1 ] || ! grep -qE "$4" "$work/plant.out"; then
    cat "$work/plant.out"; echo "availability: self-test FAILED: $1 was not reported"; exit 1
  fi
}
# (a) `header.split(separator: ", ")`: the iOS 16 overload, with the same labels as Swift 5's split(separator:).
plant "split(separator: \", \") in the core" Sources/IFTTTConnectCore/Activation/AppleAdapters.swift \
  's|^    public func canOpen(_ url: URL) -> Bool {$|    func plantedSplit(_ header: String) -> [Substring] { header.split(separator: ", ") }\n&|' \
  "AppleAdapters.swift:[0-9]+: 'split\(separator:\)' needs iOS 16.0"
# (b) `.containerRelativeFrame` (iOS 17, newer than the table's SDK) in the SwiftUI example.
plant ".containerRelativeFrame in the SwiftUI example" Examples/GroceryExpress-SwiftUI/GroceryExpress/SettingsScreen.swift \
  's|^        .navigationTitle("Settings")$|        .containerRelativeFrame(.horizontal)\n&|' \
  "SettingsScreen.swift:[0-9]+: 'containerRelativeFrame' is neither this code's nor a name of the SDK"
# (c) `UIApplication.shared.openURL(_:)` in the URL opener: deprecated, and disabled for apps built with the iOS 18 SDK.
plant "UIApplication.shared.openURL(_:) in the URL opener" Sources/IFTTTConnectCore/Activation/AppleAdapters.swift \
  's|^        await UIApplication.shared.open(url, options: \[:\])$|        UIApplication.shared.openURL(url)|' \
  "AppleAdapters.swift:[0-9]+: 'openURL' is an API Apple disabled"
# (d) `windowScene?.keyWindow` (UIWindowScene's keyWindow needs iOS 15; UIApplication's keyWindow is older): a member
#     newer on one type only is resolved by its receiver's type (here by the name `windowScene`), and fails when the
#     receiver cannot be resolved.
plant "windowScene?.keyWindow in the About page" Sources/IFTTTConnectCore/Button/Apple/AboutViewController.swift \
  's|^        let application = UIApplication.shared$|&\n        _ = host.view.window?.windowScene?.keyWindow|' \
  "AboutViewController.swift:[0-9]+: 'UIWindowScene.keyWindow' needs iOS 15.0"
# (e) The same through a variable whose type the tokens do not say: not resolved, so it fails.
plant "an unresolved receiver of keyWindow in the About page" Sources/IFTTTConnectCore/Button/Apple/AboutViewController.swift \
  's|^        let application = UIApplication.shared$|&\n        let planted = host.view.window?.windowScene\n        _ = planted?.keyWindow|' \
  "AboutViewController.swift:[0-9]+: '.keyWindow' needs iOS 15.0 \(UIKit; newer on UIWindowScene, and the type of .planted. is not resolved"

# 2. The real sources.
roots=("Sources=$deployment" "Tests/ClientCompat=$deployment")
for app in Examples/*/; do
  app="${app%/}"
  ios="$(grep -oE 'iOS [0-9]+(\.[0-9]+)? or later' "$app/README.md" 2>/dev/null | head -1 | grep -oE '[0-9.]+')"
  [ -n "$ios" ] || { echo "availability: $app/README.md names no 'iOS NN or later'"; exit 1; }
  roots+=("$app=$ios")
done
"$tool" "${checked[@]}" "${roots[@]}" >"$work/scan.out" 2>&1
status=$?
if [ $status -ne 0 ]; then cat "$work/scan.out"; exit 1; fi
echo "availability: self-test: a Duration without @available (AnalyticsUploader, a planted parameter) is reported," \
  "guarded ones are not; a stored typed-throws function type (RecordingTransport.answer before its fix) is reported"
echo "availability: self-test: split(separator: \", \") in the core, .containerRelativeFrame in the SwiftUI example," \
  "UIApplication.shared.openURL(_:) in the URL opener, windowScene?.keyWindow in the About page and keyWindow on a" \
  "receiver of unresolved type are each reported"
tail -4 "$work/scan.out"
