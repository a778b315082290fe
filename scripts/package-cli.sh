#!/usr/bin/env bash
# Builds the prebuilt `ifttt-connect` for Linux on this machine's architecture and packs it for release:
#   ifttt-connect-VERSION-linux-ARCH.tar.gz (+ .sha256), holding ifttt-connect-VERSION-linux-ARCH/ with
#   ifttt-connect            release build, the Swift standard library and Foundation linked statically
#                            (--static-swift-stdlib), symbols stripped
#   *.resources/             its resource bundles (the sandbox's pages, seed and OpenAPI document; the button's
#                            localizations), which it finds beside itself
# What it still needs from the system: glibc, libstdc++, and from the distribution libsqlite3 (SQLite), libcurl
# (Foundation's URLSession) and libxml2 (Foundation's XMLParser, for GPX routes); on Debian and Ubuntu
# `apt-get install libsqlite3-0 libcurl4 libxml2`. scripts/checks/69-prebuilt-cli.sh proves it in a minimal Debian.
# Build it on the oldest glibc it must run on (the release workflow uses Debian 12, glibc 2.36), with the development
# packages the link needs: `apt-get install libsqlite3-dev libcurl4-openssl-dev libxml2-dev`.
#
# Usage: scripts/package-cli.sh [--scratch-path DIR] [--output DIR]
#   defaults: --scratch-path .build-static, --output .build-static/dist. Prints the tarball's path last.
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
scratch=".build-static"
output=""
while [ $# -gt 0 ]; do
  case "$1" in
    --scratch-path) scratch="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo pipefail/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "usage: scripts/package-cli.sh [--scratch-path DIR] [--output DIR]" >&2; exit 2 ;;
  esac
done
[ -n "$output" ] || output="$scratch/dist"
version="$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' Sources/IFTTTConnectCore/Networking/SDKInfo.swift)"
[ -n "$version" ] || { echo "package-cli: no version in SDKInfo.swift" >&2; exit 1; }
arch="$(uname -m)"
flags=(--package-path Sandbox -c release --static-swift-stdlib --scratch-path "$scratch")
echo "package-cli: building ifttt-connect $version for linux-$arch (release, static Swift stdlib)" >&2
swift build "${flags[@]}" --product ifttt-connect >&2
bin="$(swift build "${flags[@]}" --show-bin-path)"
name="ifttt-connect-$version-linux-$arch"
mkdir -p "$output"
stage="$output/$name"
rm -rf "$stage" "$output/$name.tar.gz" "$output/$name.tar.gz.sha256"
mkdir -p "$stage"
cp "$bin/ifttt-connect" "$stage/"
strip "$stage/ifttt-connect"
for bundle in "$bin"/*.resources; do cp -R "$bundle" "$stage/"; done
cat >"$stage/README.txt" <<TEXT
ifttt-connect $version for Linux ($arch): the IFTTT Connect sandbox and command-line tools.
Needs glibc and, from the distribution, libsqlite3, libcurl and libxml2
(Debian/Ubuntu: apt-get install libsqlite3-0 libcurl4 libxml2). Keep the *.resources folders beside the binary.
Start:  ./ifttt-connect sandbox --port 8080 --ephemeral    (ready when it prints "IFTTT Connect sandbox listening on URL")
Help:   ./ifttt-connect --help
TEXT
tar -C "$output" --owner=0 --group=0 -czf "$output/$name.tar.gz" "$name"
(cd "$output" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$output/$name.tar.gz"
