#!/usr/bin/env bash
# Links `ifttt-connect` into a directory on the PATH, so the README's CLI examples work as typed. By default the
# binary is the debug build that scripts/demo.sh and scripts/test.sh share (after either of them this only links);
# --release builds the optimized binary instead (about 8 minutes the first time on 2 cores), the one whose speed the
# load check measures. The link points into Sandbox/.build (the CLI finds its resources next to the real binary), so
# run this again after pulling changes.
#
# Usage: scripts/install.sh [--prefix DIR] [--release]
#   default DIR: /usr/local/bin when it is writable (e.g. as root), else ~/.local/bin
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

usage() { echo "usage: scripts/install.sh [--prefix DIR] [--release]" >&2; exit 64; }
prefix=""
configuration=debug
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ -n "${2:-}" ] || usage; prefix="$2"; shift 2 ;;
    --release) configuration=release; shift ;;
    *) usage ;;
  esac
done
if [ -z "$prefix" ]; then
  if [ -w /usr/local/bin ]; then prefix=/usr/local/bin; else prefix="$HOME/.local/bin"; fi
fi

scripts/bootstrap.sh libsqlite3-dev
source scripts/lib/cli-build.sh
echo "install: building the $configuration ifttt-connect (after scripts/demo.sh or scripts/test.sh: seconds)"
start=$SECONDS
binary="$(build_cli install "$configuration")" || exit 1
mkdir -p "$prefix"
ln -sf "$binary" "$prefix/ifttt-connect"
echo "install: built in $((SECONDS - start)) s; $prefix/ifttt-connect -> $binary"
case ":$PATH:" in
  *":$prefix:"*) echo "install: done; try: ifttt-connect --help" ;;
  *) echo "install: $prefix is not on your PATH; add it with:"
     echo "  export PATH=\"$prefix:\$PATH\"" ;;
esac
