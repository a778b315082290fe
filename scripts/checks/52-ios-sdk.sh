#!/usr/bin/env bash
# lane: 2
# The check against Apple's own iOS SDK (scripts/check-ios-sdk.sh: every product in Swift 6 and 5 modes, the example
# apps, Tests/ClientCompat, the link of the products and the apps with ld64.lld and their imports against the older
# iOS SDKs 13.7, 14.5 and 15.6 (THEOS_SDKS names the theos/sdks clone they come from; lists cached earlier serve
# without it), the install channels other than SwiftPM (each pod compiled as CocoaPods does and linked, each framework
# with a verified .swiftinterface, a client of each, no symbol defined in two images), Swift 6 warnings as errors,
# the stubs against Apple's declarations and requirements, the availability tables), when an SDK is at hand:
# IOS_SDK, or the one scripts/check-ios-sdk.sh --theos-sdks MIRROR extracted into .build-ios-sdk. Without one it prints
# one line saying so and passes: the stub check (50-apple.sh) and the availability check (45-ios-availability.sh)
# stand in. IFTTT_CONNECTSDK_IOS (a checkout or git mirror of IFTTT/ConnectSDK-iOS) adds IFTTT's GroceryExpress app.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
sdk="${IOS_SDK:-}"
if [ -z "$sdk" ]; then
  marker="$(find .build-ios-sdk -maxdepth 2 -name .extracted -path '*/iPhoneOS*.sdk/*' 2>/dev/null | sort -V | tail -1)"
  sdk="${marker%/.extracted}"
fi
if [ -z "$sdk" ]; then
  echo "ios-sdk: skipped: no iOS SDK (set IOS_SDK, or extract one with scripts/check-ios-sdk.sh --theos-sdks MIRROR)"
  exit 0
fi
arguments=(--sdk "$sdk")
[ -n "${IFTTT_CONNECTSDK_IOS:-}" ] && arguments+=(--grocery-express "$IFTTT_CONNECTSDK_IOS")
out="$(scripts/check-ios-sdk.sh "${arguments[@]}" 2>&1)"
status=$?
if [ $status -eq 0 ]; then
  echo "$out" | grep -E '^ios-sdk: ' | grep -vE '^ios-sdk: ignored'
  rules="$(echo "$out" | grep -cE '^  [0-9]+ x "')"
  echo "ios-sdk: $rules rules of known SDK artifacts matched (scripts/check-ios-sdk.sh prints each with its reason)"
else
  echo "$out"
fi
# The API budget as an iOS app sees it (scripts/api/count-public.sh --ios).
if ! IOS_SDK="$sdk" scripts/api/count-public.sh --ios --budget 400 | tail -1 | sed 's/^/api budget (400, iOS): /'; then
  status=1
fi
exit $status
