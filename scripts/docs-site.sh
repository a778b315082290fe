#!/usr/bin/env bash
# Builds the published documentation site: every DocC catalog of the SDK (Sources/<Module>/<Module>.docc) through the
# swift-docc-plugin's `swift package generate-documentation --transform-for-static-hosting`, each module under
# BASE/<Module>/, plus a front page that lists them, into DIR; then checks every internal link of the site and the
# README's links into it (scripts/lib/check-site-links.py) and prints the page count and the broken links.
# .github/workflows/docs.yml runs it and publishes DIR to GitHub Pages.
#
# The plugin is declared only when IFTTT_DOCC_PLUGIN=1 (Package.swift), so apps that depend on the SDK never resolve
# it; its build lives in .build-docs/ (gitignored), apart from the test command's .build.
#
# Usage: scripts/docs-site.sh [--output DIR] [--base-path PATH] [--site-url URL]
#   DIR default .build-docs/site; PATH default ConnectSDK-Swift (GitHub Pages' path for the repository);
#   URL default https://ifttt.github.io/ConnectSDK-Swift (the README's links into the site are checked against it).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root="$(pwd)"
out="$root/.build-docs/site"
base="ConnectSDK-Swift"
site_url="https://ifttt.github.io/ConnectSDK-Swift"
while [ $# -gt 0 ]; do
  case "$1" in
    --output) out="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    --base-path) base="${2#/}"; base="${base%/}"; shift 2 ;;
    --site-url) site_url="${2%/}"; shift 2 ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    *) echo "usage: scripts/docs-site.sh [--output DIR] [--base-path PATH] [--site-url URL]" >&2; exit 64 ;;
  esac
done
export IFTTT_DOCC_PLUGIN=1
scratch="$root/.build-docs/build"
logs="$root/.build-docs/logs"
rm -rf "$out" "$logs"; mkdir -p "$out" "$logs"

mapfile -t modules < <(find Sources -mindepth 2 -maxdepth 2 -name '*.docc' -type d | sort | xargs -n1 basename | sed 's/\.docc$//')
[ ${#modules[@]} -gt 0 ] || { echo "docs-site: no DocC catalog under Sources/"; exit 1; }
status=0
for module in "${modules[@]}"; do
  echo "docs-site: $module"
  if ! swift package --scratch-path "$scratch" --allow-writing-to-directory "$out" \
      generate-documentation --target "$module" --disable-indexing \
      --transform-for-static-hosting --hosting-base-path "$base/$module" \
      --output-path "$out/$module" >"$logs/$module.log" 2>&1; then
    echo "docs-site: $module failed:"; grep -E 'error|warning' "$logs/$module.log" | head -20 || tail -20 "$logs/$module.log"
    status=1; continue
  fi
  if grep -qE '^(warning|error):' "$logs/$module.log"; then
    echo "docs-site: $module has DocC warnings:"; grep -E -A4 '^(warning|error):' "$logs/$module.log" | head -30; status=1
  fi
done

# The front page: one link per module's documentation root.
{
  printf '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
  printf '<title>IFTTT Connect SDK for Swift</title>\n</head>\n<body>\n<h1>IFTTT Connect SDK for Swift</h1>\n<ul>\n'
  for module in "${modules[@]}"; do
    lower="$(echo "$module" | tr '[:upper:]' '[:lower:]')"
    printf '<li><a href="%s/documentation/%s/">%s</a></li>\n' "$module" "$lower" "$module"
  done
  printf '</ul>\n</body>\n</html>\n'
} >"$out/index.html"

python3 scripts/lib/check-site-links.py "$out" --base "/$base" --readme README.md --site-url "$site_url" || status=1
echo "docs-site: $out"
exit $status
