#!/usr/bin/env bash
# The README's run command: the end-to-end demo against an in-process sandbox on an ephemeral port.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
exec swift run --package-path Sandbox ifttt-connect demo "$@"
