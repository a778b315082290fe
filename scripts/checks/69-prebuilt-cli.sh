#!/usr/bin/env bash
# tier: full
# The prebuilt ifttt-connect runs where no Swift exists: scripts/package-cli.sh builds the release tarball (Swift
# standard library and Foundation linked statically), and this check unpacks it into a minimal Debian 12 root made
# by debootstrap from Debian's own packages (minbase, plus libsqlite3-0, libcurl4 and libxml2; no Swift toolchain
# inside, which it verifies), starts `ifttt-connect sandbox --port 0 --ephemeral` there under chroot, reads its
# readiness line, and passes smoke calls: /health, a Connection, /v2/me, a location event, the tarball's own CLI
# against it (`connection show`, `reset`), then SIGTERM and a clean exit. Prints the binary's size, its libraries
# (ldd inside the root) and the start-to-ready time.
#
# Needs root (chroot, mount) and debootstrap (apt-get install debootstrap); skips without them. The Debian root is
# cached in .build-debootstrap/ (outside git), so reruns take seconds; delete it to rebuild it.
#
# Usage: scripts/checks/69-prebuilt-cli.sh [--tarball FILE]   (default: build it with scripts/package-cli.sh)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
tarball=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tarball) tarball="$2"; shift 2 ;;
    *) echo "usage: scripts/checks/69-prebuilt-cli.sh [--tarball FILE]" >&2; exit 64 ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then echo "prebuilt-cli: skipped (needs root for chroot)"; exit 0; fi
if ! command -v debootstrap >/dev/null; then
  echo "prebuilt-cli: skipped (no debootstrap; apt-get install debootstrap)"; exit 0
fi

work="$(mktemp -d)"
debian="$root/.build-debootstrap/bookworm-minbase"
mounted=""
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null; fi
  [ -n "$mounted" ] && umount "$debian/proc" 2>/dev/null
  rm -rf "$debian/opt/ifttt-connect-check" "$work"
}
trap cleanup EXIT
fail() { echo "prebuilt-cli: FAILED: $*"; [ -s "$work/err" ] && tail -20 "$work/err"; exit 1; }

# 1. The tarball.
if [ -z "$tarball" ]; then
  if ! tarball="$(scripts/package-cli.sh 2>"$work/build.log" | tail -1)"; then
    grep -E -A3 'error:' "$work/build.log" | head -40; fail "scripts/package-cli.sh did not build the tarball"
  fi
fi
[ -f "$tarball" ] || fail "no tarball at $tarball"
(cd "$(dirname "$tarball")" && sha256sum -c --quiet "$(basename "$tarball").sha256") || fail "the checksum does not match"

# 2. A minimal Debian root, cached.
if [ ! -f "$debian/.complete" ]; then
  echo "prebuilt-cli: making a minimal Debian 12 root with debootstrap (cached in $debian)"
  rm -rf "$debian"; mkdir -p "$(dirname "$debian")"
  debootstrap --variant=minbase --include=libsqlite3-0,libcurl4,libxml2 bookworm "$debian" \
    http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
  touch "$debian/.complete"
fi
if chroot "$debian" /bin/sh -c 'command -v swift swiftc' >/dev/null 2>&1 \
  || [ -n "$(find "$debian" -name 'libswiftCore.so*' -print -quit)" ]; then
  fail "the Debian root has a Swift toolchain or runtime"
fi

# 3. The tarball, unpacked inside; its libraries as the root resolves them.
mkdir -p "$debian/opt/ifttt-connect-check"
tar -C "$debian/opt/ifttt-connect-check" -xzf "$tarball" --strip-components=1 || fail "cannot unpack $tarball"
bin=/opt/ifttt-connect-check/ifttt-connect
size="$(stat -c %s "$debian$bin")"
chroot "$debian" ldd "$bin" >"$work/ldd" 2>&1
grep -q "not found" "$work/ldd" && { cat "$work/ldd"; fail "a library is missing in the Debian root"; }
mount -t proc proc "$debian/proc" && mounted=1 || fail "cannot mount /proc in the root"
version="$(chroot "$debian" "$bin" --version)" || fail "--version"

# 4. The sandbox, started inside; the time from exec to its readiness line.
start_ns="$(date +%s%N)"
chroot "$debian" "$bin" sandbox --port 0 --ephemeral >"$work/out" 2>"$work/err" &
server_pid=$!
url=""
for _ in $(seq 600); do
  url="$(sed -n 's/^IFTTT Connect sandbox listening on //p' "$work/out" | head -1)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.01
done
ready_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
[ -n "$url" ] || fail "no readiness line"

# 5. Smoke calls: from outside over loopback, and with the tarball's own CLI inside the root.
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

echo "   $version in a minimal Debian 12 root (debootstrap minbase + libsqlite3-0 libcurl4 libxml2, no Swift)"
echo "   tarball $(basename "$tarball"): $(stat -c %s "$tarball") bytes; binary $size bytes"
echo "   ldd:"; sed 's/^/     /' "$work/ldd"
echo "   start to readiness line: ${ready_ms} ms; smoke calls passed: /health, a Connection, /v2/me, a location event,"
echo "   connection show and reset from the tarball's CLI, SIGTERM exit 0 with the ephemeral folder removed"
echo "   $(cat "$work/reset")"
