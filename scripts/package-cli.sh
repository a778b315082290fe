#!/usr/bin/env bash
# Builds the prebuilt `ifttt-connect` for Linux on this machine's architecture and packs it for release:
#   ifttt-connect-VERSION-linux-ARCH.tar.gz (+ .sha256), holding ifttt-connect-VERSION-linux-ARCH/ with
#   ifttt-connect            release build, the Swift standard library and Foundation linked statically
#                            (--static-swift-stdlib), and with them the C libraries Foundation and the sandbox use:
#                            libcurl, libxml2, OpenSSL, zlib and SQLite (scripts/lib/static-deps.sh); symbols stripped
#   *.resources/             its resource bundles (the sandbox's pages, seed and OpenAPI document; the button's
#                            localizations), which it finds beside itself
# What it needs from the system is what every Debian, even a minimal one, has: glibc (libc, libm), libstdc++ and
# libgcc_s; the build fails when the binary would load anything else. scripts/checks/69-prebuilt-cli.sh proves it in
# a minimal Debian root (debootstrap --variant=minbase, nothing added). Build it on the oldest glibc it must run on
# (the release workflow uses Debian 12, glibc 2.36); what scripts/lib/static-deps.sh needs (dpkg-dev, make,
# libssl-dev, zlib1g-dev, libsqlite3-dev) is installed with scripts/bootstrap.sh when missing.
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
scripts/bootstrap.sh dpkg-dev make libssl-dev zlib1g-dev libsqlite3-dev
deps="$(scripts/lib/static-deps.sh "$scratch/static-deps")"
# swiftc's -L (through -Xclang-linker) comes before the system's library directories, so -lcurl, -lxml2 and -lsqlite3
# find the static builds in $deps first.
flags=(--package-path Sandbox -c release --static-swift-stdlib --scratch-path "$scratch"
  -Xswiftc -Xclang-linker -Xswiftc "-L$deps")
echo "package-cli: building ifttt-connect $version for linux-$arch (release, static Swift stdlib and C libraries)" >&2
bin="$(swift build "${flags[@]}" --show-bin-path)"
# SwiftPM does not track the linker scripts: a binary linked before they were (re)made is linked again.
if [ -f "$bin/ifttt-connect" ] && [ "$deps/libcurl.so" -nt "$bin/ifttt-connect" ]; then rm -f "$bin/ifttt-connect"; fi
swift build "${flags[@]}" --product ifttt-connect >&2
# Only what a minimal Debian has: glibc's libraries, libstdc++ and libgcc_s.
needed="$(readelf -d "$bin/ifttt-connect" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
extra="$(echo "$needed" | grep -v -E '^(libc|libm|libdl|libpthread|librt|libutil|libstdc\+\+|libgcc_s)\.so\.[0-9]+$|^ld-linux' || true)"
if [ -n "$extra" ]; then
  echo "package-cli: the binary would need $(echo "$extra" | tr '\n' ' ')beyond glibc, libstdc++ and libgcc_s" >&2
  exit 1
fi
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
Needs only glibc, libstdc++ and libgcc_s (any Debian 12 or Ubuntu 22.04 and newer, even a minimal one); libcurl,
libxml2, OpenSSL, zlib and SQLite are linked in. HTTPS URLs (--api https://...) use the system's CA certificates
(/etc/ssl/certs, or SSL_CERT_FILE). Keep the *.resources folders beside the binary.
Start:  ./ifttt-connect sandbox --port 8080 --ephemeral    (ready when it prints "IFTTT Connect sandbox listening on URL")
Help:   ./ifttt-connect --help
TEXT
tar -C "$output" --owner=0 --group=0 -czf "$output/$name.tar.gz" "$name"
(cd "$output" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$output/$name.tar.gz"
