#!/usr/bin/env bash
# The C libraries the prebuilt `ifttt-connect` links statically, so that it needs nothing a minimal Debian lacks:
#   libcurl  (Foundation's URLSession): Debian's curl source, built for HTTP and HTTPS only, with OpenSSL and zlib;
#            certificates from OpenSSL's default locations (/usr/lib/ssl/certs, i.e. /etc/ssl/certs on Debian and
#            Ubuntu, or the SSL_CERT_FILE / SSL_CERT_DIR variables)
#   libxml2  (Foundation's XMLParser): Debian's libxml2 source, without ICU, zlib, lzma, HTTP, FTP or catalogs
#   OpenSSL, zlib, SQLite: the distribution's own static archives (libssl-dev, zlib1g-dev, libsqlite3-dev)
# Debian's packaged libcurl.a cannot be used: it needs libraries Debian ships without static archives (GSS-API,
# LDAP, nghttp2, libpsl, libssh2, librtmp); its libxml2.a pulls in ICU's 30 MB of data.
#
# The sources come from Debian's own mirror with `apt-get source` (Debian's security patches applied), through a
# private sources list and package lists under DIR, so the system's apt configuration is left alone. Needs a Debian
# system with dpkg-dev, make, a C compiler, libssl-dev, zlib1g-dev and libsqlite3-dev.
#
# DIR/lib then holds linker scripts named libcurl.so, libxml2.so and libsqlite3.so, each a GROUP of the static
# archives: a link that searches DIR/lib first (swiftc's -L, placed before the system directories; the linker's own
# -L would come after them) resolves Foundation's and GRDB's -lcurl, -lxml2 and -lsqlite3 to them.
# A finished DIR is reused; delete it to rebuild it (for example after a Debian security update of curl or libxml2).
#
# Usage: scripts/lib/static-deps.sh DIR    (prints DIR/lib, absolute, last)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/lib/static-deps.sh DIR" >&2; exit 64; }
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
lib="$dir/lib"
if [ -f "$dir/.complete" ]; then echo "$lib"; exit 0; fi

say() { echo "static-deps: $*" >&2; }
install_hint="apt-get install dpkg-dev make libssl-dev zlib1g-dev libsqlite3-dev"
command -v dpkg-architecture >/dev/null || { say "no dpkg-architecture (a Debian system with $install_hint)"; exit 1; }
system="/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
missing=()
for archive in libssl.a libcrypto.a libz.a libsqlite3.a; do [ -f "$system/$archive" ] || missing+=("$archive"); done
for tool in dpkg-source make; do command -v "$tool" >/dev/null || missing+=("$tool"); done
[ ${#missing[@]} -eq 0 ] || { say "missing ${missing[*]}: $install_hint"; exit 1; }
cc="${CC:-$(command -v gcc || command -v clang || command -v cc)}"
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$codename" ] || { say "no VERSION_CODENAME in /etc/os-release"; exit 1; }
jobs="$(nproc 2>/dev/null || echo 2)"

rm -rf "$dir/apt" "$dir/src" "$dir/build" "$lib"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/src" "$dir/build" "$lib"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
cat >"$dir/apt/sources.list" <<LIST
deb-src $mirror $codename main
deb-src $mirror $codename-updates main
deb-src ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} $codename-security main
LIST
apt_options=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o APT::Sandbox::User=root -qq)
say "fetching the curl and libxml2 sources of Debian $codename"
apt-get "${apt_options[@]}" update >"$dir/build/apt.log" 2>&1 || { tail -5 "$dir/build/apt.log" >&2; exit 1; }
(cd "$dir/src" && apt-get "${apt_options[@]}" source curl libxml2 >>"$dir/build/apt.log" 2>&1) \
  || { tail -5 "$dir/build/apt.log" >&2; exit 1; }
curl_src="$(find "$dir/src" -mindepth 1 -maxdepth 1 -type d -name 'curl-*' | head -1)"
xml_src="$(find "$dir/src" -mindepth 1 -maxdepth 1 -type d -name 'libxml2-*' | head -1)"
[ -n "$curl_src" ] && [ -n "$xml_src" ] || { say "apt-get source unpacked no curl or libxml2"; exit 1; }

# Runs a build step, keeping its output for a failure.
step() {  # $1 = log name, $2 = directory, then the command
  local log="$dir/build/$1.log" where="$2"; shift 2
  (cd "$where" && "$@") >"$log" 2>&1 || { say "$1 failed:"; tail -30 "$log" >&2; exit 1; }
}

say "building libcurl $(basename "$curl_src" | sed 's/^curl-//') (HTTP and HTTPS, OpenSSL, zlib)"
step curl-configure "$curl_src" env CC="$cc" ./configure --disable-shared --enable-static --with-pic \
  --with-openssl --with-zlib --without-brotli --without-zstd --without-libpsl --without-libidn2 --without-nghttp2 \
  --without-nghttp3 --without-ngtcp2 --without-libssh2 --without-libssh --without-librtmp --without-libgsasl \
  --without-gssapi --disable-ldap --disable-ldaps --disable-rtsp --disable-dict --disable-telnet --disable-tftp \
  --disable-pop3 --disable-imap --disable-smb --disable-smtp --disable-gopher --disable-mqtt --disable-ftp \
  --disable-ntlm-wb --disable-manual --without-ca-bundle --without-ca-path --with-ca-fallback
step curl-make "$curl_src/lib" make -j"$jobs"
cp "$curl_src/lib/.libs/libcurl.a" "$lib/libcurl-static.a"

say "building libxml2 $(basename "$xml_src" | sed 's/^libxml2-//') (no ICU, zlib, lzma, HTTP, FTP)"
# Debian's patches touch Makefile.am (tests only): keep automake's outputs current instead of regenerating them.
find "$xml_src" -name Makefile.in -exec touch {} +
step xml-configure "$xml_src" env CC="$cc" ./configure --disable-shared --enable-static --with-pic --without-python \
  --without-icu --without-zlib --without-lzma --without-http --without-ftp --without-catalog --without-docbook \
  --without-modules --without-debug --without-legacy --without-schematron --without-xinclude --without-xptr
step xml-make "$xml_src" make -j"$jobs" libxml2.la
cp "$xml_src/.libs/libxml2.a" "$lib/libxml2-static.a"

echo "GROUP ( $lib/libcurl-static.a $system/libssl.a $system/libcrypto.a $system/libz.a )" >"$lib/libcurl.so"
echo "GROUP ( $lib/libxml2-static.a )" >"$lib/libxml2.so"
echo "GROUP ( $system/libsqlite3.a $system/libz.a )" >"$lib/libsqlite3.so"
{
  for dsc in "$dir"/src/*.dsc; do basename "$dsc" .dsc | sed 's/_/ /'; done
  dpkg-query -W -f='${Package} ${Version}\n' libssl-dev zlib1g-dev libsqlite3-dev 2>/dev/null || true
} >"$lib/VERSIONS"
rm -rf "$dir/src" "$dir/apt"
touch "$dir/.complete"
echo "$lib"
