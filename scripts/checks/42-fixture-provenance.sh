#!/usr/bin/env bash
# Fixture provenance: every file in Tests/Fixtures is listed in the provenance table of Tests/Fixtures/INDEX.md, and
# a file listed with a git blob id still has exactly those bytes (`git hash-object`, which needs no repository), so
# "byte for byte from its cited source" stays true. A row whose blob column says `derived` must say what changed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
index="Tests/Fixtures/INDEX.md"
status=0
checked=0
declare -A listed=()
while IFS='|' read -r _ file _ blob changes _; do
  file="$(echo "$file" | tr -d ' `')"; blob="$(echo "$blob" | tr -d ' `')"; changes="$(echo "$changes" | sed 's/^ *//; s/ *$//')"
  [ -n "$file" ] || continue
  listed["$file"]=1
  if [ ! -f "Tests/Fixtures/$file" ]; then echo "fixture provenance: $file is listed but missing"; status=1; continue; fi
  if [ "$blob" = "derived" ]; then
    if [ -z "$changes" ] || [ "$changes" = "none" ]; then
      echo "fixture provenance: $file is derived but does not say what changed"; status=1
    fi
    continue
  fi
  actual="$(git hash-object "Tests/Fixtures/$file")"
  if [ "$actual" != "$blob" ]; then
    echo "fixture provenance: $file has blob $actual, not its source's $blob (edited? then list it as derived)"
    status=1
  fi
  checked=$((checked + 1))
done < <(sed -n '/^## Provenance/,/^## /p' "$index" | grep -E '^\| `[^`]+\.json` \|')
for path in Tests/Fixtures/*.json; do
  name="$(basename "$path")"
  if [ -z "${listed[$name]:-}" ]; then echo "fixture provenance: $name is not in $index's provenance table"; status=1; fi
done
[ "$status" -eq 0 ] && echo "   $checked fixtures byte for byte from their cited sources"
exit $status
