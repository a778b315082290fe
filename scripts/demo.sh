#!/usr/bin/env bash
# The README's run command: builds `ifttt-connect` (the debug build that scripts/install.sh and scripts/test.sh share,
# see scripts/lib/cli-build.sh) and runs `ifttt-connect demo`, the end-to-end demo against an in-process sandbox on
# an ephemeral port. Arguments go to the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
source scripts/lib/cli-build.sh
echo "demo: building ifttt-connect (the first run compiles the server stack: about 4 minutes on 2 cores)" >&2
start=$SECONDS
bin="$(build_cli demo debug)"
echo "demo: built in $((SECONDS - start)) s" >&2
exec "$bin" demo "$@"
