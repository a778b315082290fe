#!/usr/bin/env bash
# Fails when the public API of a library product (what an app sees without `@_spi`) differs from the committed
# digest api/<Module>.txt: a new, changed or removed public declaration or conformance must be deliberate. After a
# deliberate change, regenerate the digest with `scripts/api/digest.sh` and commit api/*.txt with the change.
# The digest is that of the Linux build (Apple-only adapters such as the UIKit button are not in it), so on other
# systems this check skips. It also proves itself: a public function planted into a copy of the core's symbol graph
# must fail the comparison, and an SPI one planted beside it must not show (`scripts/api/digest.sh --self-test`).
# Last, the count of public declarations must stay within its budget.
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ "$(uname -s)" != Linux ]; then
  echo "api-digest: skipped (the digest describes the Linux build)"
  exit 0
fi
status=0
scripts/api/digest.sh --check || status=1
IFTTT_TEST_BUILT=1 scripts/api/digest.sh --self-test || status=1
# The API budget (scripts/api/count-public.sh): 400 as an iOS app sees it, 379 for the Linux build without the
# Apple layer.
IFTTT_TEST_BUILT=1 scripts/api/count-public.sh --budget 379 | tail -1 | sed 's/^/api budget (379, Linux): /' \
  || status=1
exit $status
