#!/usr/bin/env bash
# Builds the release `ifttt-connect` and links it into a directory on the PATH, so the README's CLI examples work
# as typed. The link points into Sandbox/.build/release (the CLI finds its resources next to the real binary), so
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
echo "install: building the release ifttt-connect (several minutes the first time)"
start=$SECONDS
swift build -c release --package-path Sandbox --product ifttt-connect >/tmp/ifttt-connect-install.$$.log 2>&1 || {
  grep -E -A3 'error:' /tmp/ifttt-connect-install.$$.log | head -40 || tail -30 /tmp/ifttt-connect-install.$$.log
  rm -f /tmp/ifttt-connect-install.$$.log; echo "install: the build failed" >&2; exit 1
}
rm -f /tmp/ifttt-connect-install.$$.log
binary="$(swift build -c release --package-path Sandbox --show-bin-path)/ifttt-connect"
mkdir -p "$prefix"
ln -sf "$binary" "$prefix/ifttt-connect"
echo "install: built in $((SECONDS - start)) s; $prefix/ifttt-connect -> $binary"
case ":$PATH:" in
  *":$prefix:"*) echo "install: done; try: ifttt-connect --help" ;;
  *) echo "install: $prefix is not on your PATH; add it with:"
     echo "  export PATH=\"$prefix:\$PATH\"" ;;
esac
