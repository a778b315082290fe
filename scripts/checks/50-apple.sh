#!/usr/bin/env bash
# Every Apple-only line of the SDK, the example apps and Tests/ClientCompat compile against the Apple stubs
# (scripts/check-apple.sh). Prints the "Apple-only lines compiled: N of M" line; details only on failure.
# Then the stubs must declare every requirement of Apple's protocols they declare and every `required` initializer of
# Apple's classes they declare (scripts/apple/ios-obligations.tsv, which scripts/check-ios-sdk.sh generates from the
# SDK and checks the stubs against directly): a stub without one lets a conformer or subclass compile here that does
# not compile on iOS. It first checks itself: the stub protocol ASWebAuthenticationPresentationContextProviding without
# presentationAnchor(for:) must be reported.
cd "$(dirname "$0")/../.." || exit 1
out="$(scripts/check-apple.sh 2>&1)"
status=$?
if [ $status -eq 0 ]; then
  echo "$out" | grep -E '^(Apple-only lines compiled|  not coverable)'
else
  echo "$out"
fi

table=scripts/apple/ios-obligations.tsv
tool="$(scripts/apple/build-tool.sh AppleSymbols .build-availability -Onone)" || exit 1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp Tests/AppleStubs/*.swift "$work/"
sed -i '/^    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor$/d' \
  "$work/AuthenticationServices.swift"
if grep -q 'func presentationAnchor(for' "$work/AuthenticationServices.swift"; then
  echo "apple: stub self-test could not remove presentationAnchor(for:) (its declaration changed)"; exit 1
fi
"$tool" obligations --table "$table" "$work"/*.swift >"$work/planted.out" 2>&1
if [ $? -ne 1 ] || ! grep -q "ASWebAuthenticationPresentationContextProviding: the stub lacks Apple's requirement presentationAnchor(for:)" \
    "$work/planted.out"; then
  cat "$work/planted.out"
  echo "apple: stub self-test FAILED: a stub protocol without presentationAnchor(for:) was not reported"; exit 1
fi
if "$tool" obligations --table "$table" Tests/AppleStubs/*.swift >"$work/stubs.out" 2>&1; then
  echo "apple: stub self-test: a stub protocol without Apple's requirement presentationAnchor(for:) is reported"
  tail -1 "$work/stubs.out"
else
  cat "$work/stubs.out"; status=1
fi
exit $status
