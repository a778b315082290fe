#!/usr/bin/env bash
# Compiles the SDK's library targets for iOS against Apple's SDK, as App Store Connect's scanner would meet them
# (Mach-O objects for arm64), and writes per target the undefined symbols (OUTDIR/<target>.nm, from llvm-nm -u) and
# the Objective-C selectors its code sends (OUTDIR/<target>.selectors, the __objc_methname strings) for
# scripts/privacy/PrivacyCheck.swift to compare with the privacy manifests. scripts/checks/45-privacy.sh runs it.
#
#   scan-objects.sh OUTDIR TARGETS_TSV             TARGETS_TSV: `privacy-check --targets` (name, folder, dependencies)
#   scan-objects.sh --file OUTPREFIX FILE.swift     one file as a module of its own: OUTPREFIX.nm, OUTPREFIX.selectors
#
# Apple's SDK and the compiler flags it needs on Linux come from scripts/check-ios-sdk.sh, which knows how to set them
# up (a resource folder with the toolchain's shims and clang headers plus Dispatch and os API notes, and a view of the
# SDK with SwiftUI's interface patched): its `--flags` option when it has one, else what its last run left in its
# cache (IOS_SDK_CACHE, or .build-ios-sdk). Without either, this prints one line and writes nothing.
#
# Each target is compiled file by file in Swift 5 mode (the symbols are the same in both modes; Swift 5 mode meets
# fewer of the old SDK's missing concurrency annotations). With iPhoneOS16.5.sdk (Swift 5.8's standard library) some
# files yield no object: those using API Xcode 16 back-deploys (MainActor.assumeIsolated, AsyncStream.makeStream, the
# typed-throws Result.get(), listed by scripts/check-ios-sdk.sh), and those whose `throw` of a typed error crashes
# this compiler's SIL generation (that standard library lacks the entry point typed throws are lowered to). They are
# listed in OUTDIR/<target>.uncompiled with the reason, and only the source scan covers them. Results are cached per
# target in .build-privacy/objects, keyed by the target's sources, its dependencies' keys, the flags and the compiler.
set -uo pipefail
caller="$(pwd)"
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$caller/$1" ;; esac; }
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
script="$root/scripts/privacy/scan-objects.sh"
single=""
if [ "${1:-}" = "--file" ] && [ $# -eq 3 ]; then
  single="$(absolute "$3")"; out="$(absolute "$2")"
elif [ $# -eq 2 ]; then
  out="$(absolute "$1")"; targets_file="$(absolute "$2")"
else
  sed -n 7,8p "$0" >&2; exit 2
fi

# 1. The flags for Apple's iOS SDK.
flags=()
if [ -x scripts/check-ios-sdk.sh ] && scripts/check-ios-sdk.sh --help 2>/dev/null | grep -q -- '--flags'; then
  mapfile -t flags < <(scripts/check-ios-sdk.sh --flags 2>/dev/null)
else
  cache="${IOS_SDK_CACHE:-$root/.build-ios-sdk}"
  ready="$(find "$cache/sdk-view" -mindepth 3 -maxdepth 3 -path '*/iPhoneOS*.sdk/.ready' 2>/dev/null | sort | tail -1)"
  if [ -n "$ready" ] && [ -f "$cache/resource-dir/apinotes/Dispatch.apinotes" ]; then
    flags=(-sdk "${ready%/.ready}" -resource-dir "$cache/resource-dir")
  fi
fi
if [ ${#flags[@]} -eq 0 ]; then
  echo "privacy: object scan skipped: no iOS SDK set up (scripts/check-ios-sdk.sh sets one up)"
  exit 0
fi
case " ${flags[*]} " in *" -target "*) ;; *)
  deployment="$(sed -n 's/.*\.iOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | head -1 | tr _ .)"
  case "$deployment" in *.*) ;; *) deployment="$deployment.0" ;; esac
  flags+=(-target "arm64-apple-ios$deployment") ;;
esac
case " ${flags[*]} " in *" -module-cache-path "*) ;; *)
  module_key="$(printf '%s\n' "${flags[@]}" "$(swiftc --version 2>&1)" | sha256sum | cut -c1-12)"
  flags+=(-module-cache-path "$root/.build-privacy/ios-module-cache/$module_key") ;;
esac
nm_tool="$(command -v llvm-nm)" || { echo "privacy: object scan: llvm-nm is not on PATH"; exit 1; }
objdump_tool="$(command -v llvm-objdump)" || { echo "privacy: object scan: llvm-objdump is not on PATH"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/modules"
# What SwiftPM generates for a target with resources (Bundle.module), so that such a target compiles.
source "$(dirname "$0")/../lib/bundle-accessor.sh"
write_bundle_accessor "$work/resource_bundle_accessor.swift"

# Writes PREFIX.nm and PREFIX.selectors from the objects in DIR.
symbols() {
  local dir="$1" prefix="$2" object
  "$nm_tool" -u "$dir"/*.o 2>/dev/null | awk 'NF > 0 && $0 !~ /:$/ { print $NF }' | sort -u >"$prefix.nm"
  for object in "$dir"/*.o; do
    # llvm-objdump prints a C-string section one string a line, after its address.
    "$objdump_tool" --macho --section=__TEXT,__objc_methname "$object" 2>/dev/null \
      | awk '/^[0-9a-f]+  / { sub(/^[0-9a-f]+  /, ""); print }'
  done | sort -u >"$prefix.selectors"
}

# Compiles FILES... as module $1 into DIR $2 (objects in $2/objects, the module in $2/$1.swiftmodule). The driver
# stops at a compiler crash, so its per-file jobs (`-###`) run here one by one, two at a time, and a file that fails
# or crashes the compiler leaves just its own object out.
compile() {
  local module="$1" dir="$2"; shift 2
  local common=(-parse-as-library -swift-version 5 -module-name "$module" -package-name ifttt_connect_sdk -D SWIFT_PACKAGE
    -I "$work/modules" "${flags[@]}")
  mkdir -p "$dir/objects"
  swiftc -emit-module -wmo "${common[@]}" -Xfrontend -experimental-skip-non-inlinable-function-bodies \
    -Xfrontend -experimental-allow-module-with-compiler-errors -emit-module-path "$dir/$module.swiftmodule" "$@" \
    >"$dir/module.log" 2>&1
  (cd "$dir/objects" && swiftc -c "${common[@]}" -disable-batch-mode "$@" -###) >"$dir/jobs" 2>"$dir/jobs.log"
  : >"$dir/compile.log"
  local job running=0
  while IFS= read -r job; do
    case "$job" in *" -frontend -c "*) ;; *) continue ;; esac
    (cd "$dir/objects" && eval "$job") >>"$dir/compile.log" 2>&1 &
    running=$((running + 1))
    if [ $running -ge 2 ]; then wait -n; running=$((running - 1)); fi
  done <"$dir/jobs"
  wait
  return 0
}

if [ -n "$single" ]; then
  key="$( { printf '%s\n' "${flags[@]}" "$(swiftc --version 2>&1)"; cat "$script" "$single"; } | sha256sum | cut -c1-16)"
  dir="$root/.build-privacy/objects/file-$key"
  if [ ! -f "$dir/.done" ]; then
    rm -rf "$root/.build-privacy/objects/file-"*
    compile Planted "$dir" "$single"
    [ -n "$(find "$dir/objects" -name '*.o' | head -1)" ] || { tail -20 "$dir/compile.log"; exit 1; }
    symbols "$dir/objects" "$dir/file"
    touch "$dir/.done"
  fi
  cp "$dir/file.nm" "$out.nm"
  cp "$dir/file.selectors" "$out.selectors"
  exit 0
fi

# 2. Each target, after its dependencies.
mkdir -p "$out"
declare -A keys
summary=()
total=0
compiled=0
start=$SECONDS
compiler="$(swiftc --version 2>&1)"
while IFS=$'\t' read -r name folder dependencies; do
  [ -n "$name" ] || continue
  mapfile -t files < <(find "$root/$folder" -name '*.swift' | sort)
  files+=("$work/resource_bundle_accessor.swift")
  key="$( { printf '%s\n' "$name" "${flags[@]}" "$compiler"; cat "$script" "${files[@]}";
    for dependency in ${dependencies//,/ }; do echo "${keys[$dependency]}"; done; } | sha256sum | cut -c1-16)"
  keys[$name]="$key"
  dir="$root/.build-privacy/objects/$name-$key"
  if [ ! -f "$dir/.done" ]; then
    rm -rf "$root/.build-privacy/objects/$name-"*
    compile "$name" "$dir" "${files[@]}"
    symbols "$dir/objects" "$dir/$name"
    # Each file without an object, and why: the compiler crashed on it (typed throws: the old standard library
    # lacks the entry point Swift 6 lowers them to) or reported errors (API the old SDK lacks).
    for file in "${files[@]}"; do
      [ -f "$dir/objects/$(basename "${file%.swift}").o" ] && continue
      if grep -qF "Lowering AST to SIL for file \"$file\"" "$dir/compile.log"; then
        echo "$(basename "$file") (compiler crash)"
      else
        echo "$(basename "$file") (errors)"
      fi
    done >"$dir/uncompiled"
    touch "$dir/.done"
  fi
  ln -sfn "$dir/$name.swiftmodule" "$work/modules/$name.swiftmodule"
  cp "$dir/$name.nm" "$out/$name.nm"
  cp "$dir/$name.selectors" "$out/$name.selectors"
  cp "$dir/uncompiled" "$out/$name.uncompiled"
  # Counted without the generated resource accessor.
  objects_made=$(find "$dir/objects" -name '*.o' ! -name resource_bundle_accessor.o | wc -l)
  summary+=("$name $objects_made/$((${#files[@]} - 1))")
  total=$((total + ${#files[@]} - 1))
  compiled=$((compiled + objects_made))
done <"$targets_file"
echo "privacy: iOS objects of $compiled of $total files scanned ($(IFS=,; echo "${summary[*]}"; )) in $((SECONDS - start)) s"
