#!/usr/bin/env bash
# libFuzzer runs of the parsers that read untrusted bytes (docs/fuzzing.md):
#   json        the SDK's JSON parser, compared with JSONSerialization on every input (differential)
#   connection  Connection decoding
#   redirect    the redirect URL check (RedirectURLMatcher)
#   journal     the location event journal scanner (EventJournal.scan)
#   seed        the sandbox's seed-file loader (SeedData.decode + validate)
# Each target starts from its committed corpus (Fuzz/Corpus/<target>) plus its regression inputs
# (Fuzz/Regressions/<target>); new interesting inputs go to .build-fuzz/corpus/<target>, crashes to
# .build-fuzz/crashes/. Prints executions per target; exits non-zero on any crash or build failure.
#
#   scripts/fuzz.sh                    # 5 seconds per target (the test command's short run)
#   scripts/fuzz.sh --seconds 600      # the long run
#   scripts/fuzz.sh --target json      # one target (repeatable)
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
seconds=5
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --target) targets+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "usage: scripts/fuzz.sh [--seconds N] [--target json|connection|redirect|journal|seed]..." >&2; exit 64 ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=(json connection redirect journal seed)

out="$root/.build-fuzz"
mkdir -p "$out/bin" "$out/lib" "$out/crashes" "$out/logs"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name IFTTTConnectSDK)

# Rebuilds a product only when one of its inputs changed (a hash of the file list and contents).
fresh() {  # $1 = stamp name, rest = input files
  local stamp="$out/$1.stamp"; shift
  local sum; sum=$(cat "$@" | sha256sum | cut -d' ' -f1)$(printf '%s\n' "$@" | sha256sum | cut -d' ' -f1)
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] && return 0
  echo "$sum" > "$stamp.new"; return 1
}
commit_stamp() { mv "$out/$1.stamp.new" "$out/$1.stamp"; }

build() {  # $1 = stamp, $2 = log name, rest = swiftc arguments
  local stamp="$1" log="$out/logs/$2.log"; shift 2
  if ! swiftc "$@" >"$log" 2>&1; then
    echo "fuzz: building $stamp failed:"; grep -E 'error' "$log" | head -20; rm -f "$out/$stamp.stamp.new"; return 1
  fi
  commit_stamp "$stamp"
}

mapfile -t sdk_sources < <(find Sources/IFTTTConnectCore -name '*.swift' | sort)
mapfile -t location_sources < <(find Sources/IFTTTConnectLocation -name '*.swift' | sort)
# The seed loader without the parts that need GRDB: `import GRDB` and `extension SandboxStore` blocks are cut.
mapfile -t seed_sources < <(ls Sandbox/Sources/ConnectSandbox/Seed/SeedData*.swift Sandbox/Sources/ConnectSandbox/Server/SandboxError.swift \
  Sandbox/Sources/ConnectSandbox/Server/JSONValue+Sandbox.swift Sandbox/Sources/ConnectSandbox/Seed/JSONSyntaxPosition.swift 2>/dev/null)
mapfile -t sandbox_sources < <(find Sandbox/Sources/ConnectSandbox -name '*.swift' | sort)

need_sdk=0; need_location=0; need_seed=0
for t in "${targets[@]}"; do
  case "$t" in
    json|connection|redirect) need_sdk=1 ;;
    journal) need_sdk=1; need_location=1 ;;
    seed) need_sdk=1; need_seed=1 ;;  # the seed loader may use the SDK's public JSONValue
    *) echo "unknown target $t"; exit 64 ;;
  esac
done

if [ $need_sdk -eq 1 ] && ! fresh sdk-lib "${sdk_sources[@]}" Fuzz/BundleModule.swift; then
  echo "fuzz: building IFTTTConnectCore with -sanitize=fuzzer,address"
  (cd "$out/lib" && build sdk-lib sdk-lib "${flags[@]}" -enable-testing -module-name IFTTTConnectCore -emit-library -static \
      -emit-module -emit-module-path "$out/lib/IFTTTConnectCore.swiftmodule" -o "$out/lib/libIFTTTConnectCore.a" \
      "${sdk_sources[@]/#/$root/}" "$root/Fuzz/BundleModule.swift") || exit 1
fi
if [ $need_sdk -eq 1 ] && ! fresh sdk-bin "$out/lib/libIFTTTConnectCore.a" Fuzz/SDKFuzzTargets.swift Tests/IFTTTConnectSDKTests/JSON/JSONDifferential.swift; then
  build sdk-bin sdk-bin "${flags[@]}" -I "$out/lib" -module-name SDKFuzz -o "$out/bin/sdk-fuzz" \
    Fuzz/SDKFuzzTargets.swift Tests/IFTTTConnectSDKTests/JSON/JSONDifferential.swift "$out/lib/libIFTTTConnectCore.a" || exit 1
fi
if [ $need_location -eq 1 ] && ! fresh location-lib "$out/lib/libIFTTTConnectCore.a" "${location_sources[@]}"; then
  echo "fuzz: building IFTTTConnectLocation with -sanitize=fuzzer,address"
  (cd "$out/lib" && build location-lib location-lib "${flags[@]}" -enable-testing -I "$out/lib" -module-name IFTTTConnectLocation \
      -emit-library -static -emit-module -emit-module-path "$out/lib/IFTTTConnectLocation.swiftmodule" \
      -o "$out/lib/libIFTTTConnectLocation.a" "${location_sources[@]/#/$root/}") || exit 1
fi
if [ $need_location -eq 1 ] && ! fresh location-bin "$out/lib/libIFTTTConnectLocation.a" Fuzz/LocationFuzzTargets.swift; then
  build location-bin location-bin "${flags[@]}" -I "$out/lib" -module-name LocationFuzz -o "$out/bin/journal-fuzz" \
    Fuzz/LocationFuzzTargets.swift "$out/lib/libIFTTTConnectLocation.a" "$out/lib/libIFTTTConnectCore.a" || exit 1
fi
if [ $need_seed -eq 1 ] && ! fresh seed-bin "$out/lib/libIFTTTConnectCore.a" "${sandbox_sources[@]}" Fuzz/SeedFuzzTargets.swift Fuzz/BundleModule.swift; then
  echo "fuzz: building the seed loader with -sanitize=fuzzer,address"
  rm -rf "$out/seed-src"; mkdir -p "$out/seed-src"
  # The seed sources without what needs GRDB or Hummingbird: their `import GRDB` and `extension SandboxStore`
  # blocks are cut; from the other sandbox files only the `extension SeedData...` blocks that use no server type
  # are kept (model helpers such as displayedServiceIds).
  for f in "${seed_sources[@]}"; do
    awk '/^import GRDB$/ { next }
         /^(@_spi\(Sandbox\) )?import IFTTTConnectSDK$/ { print "@_spi(Sandbox) import IFTTTConnectCore"; next }
         /^extension SandboxStore/ { skip = 1 }
         skip { if ($0 == "}") skip = 0; next }
         { print }' "$f" > "$out/seed-src/$(basename "$f")"
  done
  { echo "import Foundation"
    echo "@_spi(Sandbox) import IFTTTConnectCore"
    for f in "${sandbox_sources[@]}"; do
      case " ${seed_sources[*]} " in *" $f "*) continue ;; esac
      # Blocks that need GRDB (record conformances, rows) or the server are left out; a one-line `extension ... {}`
      # is a whole block.
      awk '/^extension SeedData/ { block = ""; keep = 1 }
           keep { block = block $0 "\n"; if ($0 == "}" || $0 ~ /^extension .*\{ *\}$/) { keep = 0
                  if (block !~ /(Request|Response|Principal|APIError|Database|Row|HTTP|SandboxStore|Logger|Record)/) printf "%s", block } }' "$f"
    done
  } > "$out/seed-src/SeedModelHelpers.swift"
  build seed-bin seed-bin "${flags[@]}" -I "$out/lib" -module-name SeedFuzz -o "$out/bin/seed-fuzz" \
    "$out"/seed-src/*.swift Fuzz/SeedFuzzTargets.swift Fuzz/BundleModule.swift "$out/lib/libIFTTTConnectCore.a" || exit 1
fi

status=0
for t in "${targets[@]}"; do
  case "$t" in
    json|connection|redirect) bin="$out/bin/sdk-fuzz" ;;
    journal) bin="$out/bin/journal-fuzz" ;;
    seed) bin="$out/bin/seed-fuzz" ;;
  esac
  work="$out/corpus/$t"; mkdir -p "$work"
  dirs=("$work" "Fuzz/Corpus/$t")
  [ -d "Fuzz/Regressions/$t" ] && dirs+=("Fuzz/Regressions/$t")
  dict=(); [ -f "Fuzz/Dictionaries/$t.dict" ] && dict=(-dict="Fuzz/Dictionaries/$t.dict")
  log="$out/logs/run-$t.log"
  FUZZ_TARGET="$t" ASAN_OPTIONS="detect_leaks=0" SWIFT_BACKTRACE="enable=no" "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$out/crashes/$t-" "${dict[@]}" "${dirs[@]}" >"$log" 2>&1
  rc=$?
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  inputs=$(find "Fuzz/Corpus/$t" -type f | wc -l)
  if [ $rc -ne 0 ]; then
    status=1
    echo "fuzz $t: FAILED (exit $rc) after ${runs:-?} executions"
    grep -E 'Fatal error|Precondition failed|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | head -8
  else
    echo "fuzz $t: ${runs:-?} executions in ${seconds}s from $inputs corpus inputs, no crash"
  fi
done
exit $status
