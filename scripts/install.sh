#!/usr/bin/env bash
# Builds the release `ifttt-connect` (the same build as scripts/demo.sh's, so after the demo this only links) and
# links it into a directory on the PATH, so the README's CLI examples work as typed. The link points into Sandbox/.build/release (the CLI finds its resources next to the real binary), so
# run this again after pulling changes.
#
# Usage: scripts/install.sh [--prefix DIR]
#   default DIR: /usr/local/bin when it is writable (e.g. as root), else ~/.local/bin
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

prefix=""
if [ "${1:-}" = "--prefix" ] && [ -n "${2:-}" ]; then
  prefix="$2"
elif [ $# -gt 0 ]; then
  echo "usage: scripts/install.sh [--prefix DIR]" >&2; exit 64
fi
if [ -z "$prefix" ]; then
  if [ -w /usr/local/bin ]; then prefix=/usr/local/bin; else prefix="$HOME/.local/bin"; fi
fi

scripts/bootstrap.sh libsqlite3-dev
source scripts/lib/release-cli.sh
echo "install: building the release ifttt-connect (after scripts/demo.sh: already built, seconds)"
start=$SECONDS
binary="$(build_release_cli install)" || exit 1
mkdir -p "$prefix"
ln -sf "$binary" "$prefix/ifttt-connect"
echo "install: built in $((SECONDS - start)) s; $prefix/ifttt-connect -> $binary"
case ":$PATH:" in
  *":$prefix:"*) echo "install: done; try: ifttt-connect --help" ;;
  *) echo "install: $prefix is not on your PATH; add it with:"
     echo "  export PATH=\"$prefix:\$PATH\"" ;;
esac
