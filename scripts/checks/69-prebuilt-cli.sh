#!/usr/bin/env bash
# tier: full
# The prebuilt ifttt-connect runs where nothing but a minimal Debian exists: this check takes the release tarball
# (scripts/package-cli.sh: the Swift standard library, Foundation, libcurl, libxml2, OpenSSL, zlib and SQLite linked
# statically), unpacks it into a Debian 12 root made by `debootstrap --variant=minbase` from Debian's own packages
# with nothing added (it verifies that no Swift runtime, libcurl, libxml2 or SQLite library is inside, and that every
# library the binary loads resolves there), starts `ifttt-connect sandbox --port 0 --ephemeral` under chroot, reads
# its readiness line, and passes smoke calls: /health, a Connection, /v2/me, a location event (curl from the host
# against the sandbox's loopback address: the root gets no curl), the tarball's own CLI inside the root against it
# (`connection show`, `reset`), then SIGTERM and a clean exit. Prints the binary's size, its libraries (ldd inside
# the root), the start-to-ready time and how long each part took.
#
# The build is the one scripts/checks/55-sandbox-bench.sh already made (package-cli.sh's scratch directory,
# .build-static): running package-cli.sh again only checks it and packs it. The Debian root is made afresh in a
# temporary directory on every run and removed afterwards, as on a fresh machine.
#
# Needs root (chroot, mount) and debootstrap (installed with scripts/bootstrap.sh when missing); skips without root.
#
# Usage: scripts/checks/69-prebuilt-cli.sh [--tarball FILE]   (default: scripts/package-cli.sh's tarball)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
tarball=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tarball) tarball="$2"; shift 2 ;;
    *) echo "usage: scripts/checks/69-prebuilt-cli.sh [--tarball FILE]" >&2; exit 64 ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then echo "prebuilt-cli: skipped (needs root for debootstrap and chroot)"; exit 0; fi
scripts/bootstrap.sh debootstrap curl || exit 1

work="$(mktemp -d)"
unset TMPDIR   # the sandbox's ephemeral folder goes to the root's own /tmp
debian="$work/root"
server_pid=""
mounts_under() { awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r; }
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null; fi
  # debootstrap (when interrupted) and this check leave file systems mounted inside the root: unmount them, deepest
  # first, and remove the directory only when nothing is mounted under it any more.
  for m in $(mounts_under); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
  [ -z "$(mounts_under)" ] && rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "prebuilt-cli: FAILED: $*"; [ -s "$work/err" ] && tail -20 "$work/err"; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0="$(now_ms)"

# 1. The tarball.
if [ -z "$tarball" ]; then
  if ! tarball="$(scripts/package-cli.sh 2>"$work/build.log" | tail -1)"; then
    grep -E -A3 'error:|package-cli:|static-deps:' "$work/build.log" | head -40
    fail "scripts/package-cli.sh did not build the tarball"
  fi
fi
[ -f "$tarball" ] || fail "no tarball at $tarball"
(cd "$(dirname "$tarball")" && sha256sum -c --quiet "$(basename "$tarball").sha256") || fail "the checksum does not match"
t1="$(now_ms)"

# 2. A minimal Debian root: minbase, nothing added.
debootstrap --variant=minbase bookworm "$debian" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
t2="$(now_ms)"
packages="$(chroot "$debian" dpkg-query -W -f='${Package}\n' | wc -l)"
for lib in 'libswiftCore.so*' 'libFoundation*.so*' 'libcurl.so*' 'libxml2.so*' 'libsqlite3.so*' 'libssl.so*'; do
  found="$(find "$debian" -name "$lib" -print -quit)"
  [ -z "$found" ] || fail "the minimal root has ${found#"$debian"}: it should not"
done
chroot "$debian" /bin/sh -c 'command -v swift swiftc curl' >/dev/null 2>&1 && fail "the root has swift or curl"

# 3. The tarball, unpacked inside; its libraries as the root resolves them.
mkdir -p "$debian/opt/ifttt-connect-check"
tar -C "$debian/opt/ifttt-connect-check" -xzf "$tarball" --strip-components=1 || fail "cannot unpack $tarball"
bin=/opt/ifttt-connect-check/ifttt-connect
size="$(stat -c %s "$debian$bin")"
chroot "$debian" ldd "$bin" >"$work/ldd" 2>&1 || { cat "$work/ldd"; fail "ldd in the root"; }
grep -q "not found" "$work/ldd" && { cat "$work/ldd"; fail "a library is missing in the Debian root"; }
mount -t proc proc "$debian/proc" || fail "cannot mount /proc in the root"
version="$(chroot "$debian" "$bin" --version)" || fail "--version"

# 4. The sandbox, started inside; the time from exec to its readiness line.
start_ns="$(date +%s%N)"
chroot "$debian" "$bin" sandbox --port 0 --ephemeral >"$work/out" 2>"$work/err" &
server_pid=$!
url=""
for _ in $(seq 1000); do
  url="$(sed -n 's/^IFTTT Connect sandbox listening on //p' "$work/out" | head -1)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.01
done
ready_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
[ -n "$url" ] || fail "no readiness line"

# 5. Smoke calls: curl from the host over loopback (the chroot shares the host's network), and the tarball's own
# CLI inside the root (its URLSession, that is the linked-in libcurl).
call() { curl -sS -o "$work/body" -w '%{http_code}' "$@" 2>>"$work/err"; }
[ "$(call "$url/health")" = 200 ] && grep -q '"ok"' "$work/body" || fail "GET /health"
[ "$(call "$url/v2/connections/gx-weekly-deals")" = 200 ] || fail "GET /v2/connections/gx-weekly-deals"
[ "$(call -H 'Authorization: Bearer sandbox-user-token-alice' "$url/v2/me")" = 200 ] || fail "GET /v2/me"
event='[{"record_id":"7f0c1b7e-3c1e-4c55-9a51-3e0f3c6b9d10","region_type":"geo","occurred_at":"2026-05-01T09:00:00Z",'
event+='"event_type":"entry","channel_id":"941030000","trigger_subscription_id":"alice-arrive-trigger-1","installation_id":"ci"}]'
[ "$(call -X POST -H 'Authorization: Bearer sandbox-user-token-alice' -H 'Content-Type: application/json' \
  --data "$event" "$url/v1/location_events")" = 200 ] || fail "POST /v1/location_events"
chroot "$debian" "$bin" connection show gx-weekly-deals --api "$url" >"$work/show" 2>>"$work/err" \
  && grep -q '"gx-weekly-deals"' "$work/show" || fail "ifttt-connect connection show inside the root"
IFTTT_SERVICE_KEY=sandbox-service-key-grocery-express chroot "$debian" "$bin" reset --api "$url" >"$work/reset" \
  2>>"$work/err" || fail "ifttt-connect reset inside the root"
[ "$(call -H 'Authorization: Bearer sandbox-user-token-alice' "$url/v1/location_events")" = 200 ] \
  && grep -q '"data":\[\]' "$work/body" || fail "the reset left alice's event"

# 6. SIGTERM: a clean exit, and the ephemeral folder gone.
kill -TERM "$server_pid"
wait "$server_pid"; rc=$?
server_pid=""
[ "$rc" -eq 0 ] || fail "the sandbox exited $rc on SIGTERM"
leftover="$(find "$debian/tmp" -maxdepth 1 -name 'ifttt-connect-*' | head -1)"
[ -z "$leftover" ] || fail "the ephemeral folder $leftover was left behind"
t3="$(now_ms)"

echo "   $version in a minimal Debian 12 root (debootstrap --variant=minbase, $packages packages, nothing added, no Swift)"
echo "   tarball $(basename "$tarball"): $(stat -c %s "$tarball") bytes; binary $size bytes"
echo "   ldd:"; sed 's/^/     /' "$work/ldd"
echo "   start to readiness line: ${ready_ms} ms; smoke calls passed: /health, a Connection, /v2/me, a location event,"
echo "   connection show and reset from the tarball's CLI, SIGTERM exit 0 with the ephemeral folder removed"
echo "   $(cat "$work/reset")"
echo "   time: tarball $(( (t1 - t0) / 1000 )) s, debootstrap $(( (t2 - t1) / 1000 )) s, the rest $(( (t3 - t2) / 1000 )) s"
