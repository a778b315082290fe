#!/usr/bin/env bash
# Proves that an app depending on the SDK package resolves no package at all: builds a throwaway consumer
# package that depends on the repository root by path and checks its resolved dependency graph. It also proves
# that the desktop-only pieces stay out of an app that links only the core: the loopback redirect receiver is not
# visible to such an app's code and not in its binary, while a desktop program that links IFTTTConnectDesktop
# gets it.
#
# The consumer package and its build stay in .build-consumer (gitignored), so a second run rebuilds only what changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build-consumer/package"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT

# The package is written to a staging folder and copied over only where a file differs, so that an unchanged file
# keeps its time stamp and is not compiled again.
mkdir -p "$staging/Sources/Consumer" "$staging/Sources/DesktopConsumer" "$staging/Sources/CoreOnlyReceiver"
cat > "$staging/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v12)],
    dependencies: [.package(name: "IFTTTConnectSDK", path: "$root")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [
            .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
            .product(name: "IFTTTSDK", package: "IFTTTConnectSDK"),
        ]),
        .executableTarget(name: "DesktopConsumer", dependencies: [
            .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
            .product(name: "IFTTTConnectDesktop", package: "IFTTTConnectSDK"),
        ]),
        // Must NOT compile: it names the receiver but links only the core.
        .executableTarget(name: "CoreOnlyReceiver", dependencies: [
            .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
        ]),
    ]
)
SWIFT
cat > "$staging/Sources/Consumer/main.swift" <<'SWIFT'
import Foundation
import IFTTTConnectSDK
import IFTTTSDK
let sandbox = URL(string: "http://127.0.0.1:8080")!
let controller = ConnectionNetworkController(configuration: .sandbox(sandbox))
print(String(describing: type(of: controller)), String(describing: IFTTTAPIManager.self))
SWIFT
cat > "$staging/Sources/DesktopConsumer/main.swift" <<'SWIFT'
import IFTTTConnectDesktop
import IFTTTConnectSDK
let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
print(receiver.redirectURL)
receiver.stop()
SWIFT
cat > "$staging/Sources/CoreOnlyReceiver/main.swift" <<'SWIFT'
import IFTTTConnectSDK
let receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
print(receiver.redirectURL)
SWIFT
(cd "$staging" && find . -type f) | while read -r file; do
  mkdir -p "$work/$(dirname "$file")"
  cmp -s "$staging/$file" "$work/$file" || cp "$staging/$file" "$work/$file"
done

cd "$work"
# No index store: nothing reads this build's index (it has no tests to discover), and writing it is a tenth of the CPU.
build=(--scratch-path "$work/.build" --disable-index-store)
swift package resolve >/dev/null
graph="$(swift package show-dependencies --format json)"
nodes="$(printf '%s\n' "$graph" | grep -c '"identity"' || true)"   # the consumer itself and the SDK
pins=0
[ -f Package.resolved ] && pins="$(grep -c '"identity"' Package.resolved || true)"
if [ "$pins" != "0" ] || [ "$nodes" != "2" ]; then
  echo "consumer check FAILED: the SDK pulls in packages:" >&2
  printf '%s\n' "$graph" >&2
  exit 1
fi
swift build "${build[@]}" --product Consumer >/dev/null
echo "consumer check: a package depending on the SDK resolved 0 packages besides the SDK and built"

# The desktop product: a program that links it builds and carries the receiver.
swift build "${build[@]}" --product DesktopConsumer >/dev/null
bin="$(swift build "${build[@]}" --show-bin-path)"
desktop_symbols="$(nm "$bin/DesktopConsumer" | grep -c 'LoopbackRedirectReceiver' || true)"
core_symbols="$(nm "$bin/Consumer" | grep -c 'LoopbackRedirectReceiver' || true)"
if [ "$desktop_symbols" = "0" ]; then
  echo "consumer check FAILED: the IFTTTConnectDesktop program has no LoopbackRedirectReceiver symbol" >&2
  exit 1
fi
if [ "$core_symbols" != "0" ]; then
  echo "consumer check FAILED: an app linking only IFTTTConnectSDK carries $core_symbols receiver symbols" >&2
  exit 1
fi
# An app that links only the core cannot even name the receiver.
if swift build "${build[@]}" --target CoreOnlyReceiver >"$work/core-only.log" 2>&1; then
  echo "consumer check FAILED: LoopbackRedirectReceiver compiles with only IFTTTConnectSDK linked" >&2
  exit 1
fi
if ! grep -q "cannot find 'LoopbackRedirectReceiver' in scope" "$work/core-only.log"; then
  echo "consumer check FAILED: the core-only build failed for another reason:" >&2
  tail -20 "$work/core-only.log" >&2
  exit 1
fi
echo "consumer check: the loopback receiver is in the IFTTTConnectDesktop program ($desktop_symbols symbols)," \
  "not in the core-only app (0 symbols), and the core alone cannot name it"
