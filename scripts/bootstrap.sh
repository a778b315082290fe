#!/usr/bin/env bash
# Installs what a fresh machine lacks for building and testing: Debian packages only when missing.
# Usage: scripts/bootstrap.sh [package ...]   (default: the packages the sandbox needs)
set -euo pipefail

packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(libsqlite3-dev chromium chromium-driver librsvg2-bin imagemagick fonts-dejavu-core wrk curl ruby)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bootstrap: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
