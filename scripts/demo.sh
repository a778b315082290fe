#!/usr/bin/env bash
# The README's run command: builds the release `ifttt-connect` (the one build scripts/install.sh then links without
# building again) and runs `ifttt-connect demo`, the end-to-end demo against an in-process sandbox on an ephemeral
# port. Arguments go to the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
source scripts/lib/release-cli.sh
echo "demo: building the release ifttt-connect (the first run compiles the server stack: minutes, see the README)" >&2
start=$SECONDS
bin="$(build_release_cli demo)"
echo "demo: built in $((SECONDS - start)) s" >&2
exec "$bin" demo "$@"
