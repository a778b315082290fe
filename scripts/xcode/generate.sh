#!/usr/bin/env bash
# Writes the example apps' Xcode projects (Examples/<app>/GroceryExpress.xcodeproj) from their folders, with
# scripts/xcode/ExampleProjects.swift: run it after adding, removing or renaming a file of an example app, and commit
# the result. scripts/checks/47-xcode-examples.sh fails when a checked-in project is not what this writes.
#   scripts/xcode/generate.sh               write the projects
#   scripts/xcode/generate.sh --print-tool  compile the tool if needed and print its path
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
# Compiled once per version of its source; .build-xcode is gitignored (.build-*). Unoptimized: it reads two small
# projects, which takes under a second either way, and -O would take six more seconds of CPU to compile it.
key="$( (cat scripts/xcode/ExampleProjects.swift; echo Onone) | sha256sum | cut -c1-12)"
tool="$root/.build-xcode/tool-$key/example-projects"
if [ ! -x "$tool" ]; then
  rm -rf "$root"/.build-xcode/tool-*
  mkdir -p "$(dirname "$tool")"
  if ! log="$(swiftc -Onone -swift-version 6 -warnings-as-errors scripts/xcode/ExampleProjects.swift -o "$tool" 2>&1)"; then
    echo "xcode: the project tool does not compile:"; echo "$log" | grep -E 'error|warning' | head -20; exit 1
  fi
fi
if [ "${1:-}" = "--print-tool" ]; then echo "$tool"; exit 0; fi
"$tool" generate "$root"
