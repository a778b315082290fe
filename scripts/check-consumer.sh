#!/usr/bin/env bash
# Proves that an app depending on the SDK package resolves no package at all: builds a throwaway consumer
# package that depends on the repository root by path and checks its resolved dependency graph.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/Consumer"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v12)],
    dependencies: [.package(name: "IFTTTConnectSDK", path: "$root")],
    targets: [.executableTarget(name: "Consumer", dependencies: [
        .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
        .product(name: "IFTTTSDK", package: "IFTTTConnectSDK"),
    ])]
)
SWIFT
cat > "$work/Sources/Consumer/main.swift" <<'SWIFT'
import IFTTTConnectSDK
import IFTTTSDK
let controller = ConnectionNetworkController()
print(controller.configuration.connectBaseURL)
SWIFT

cd "$work"
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
swift build --scratch-path "$work/.build" >/dev/null
echo "consumer check: a package depending on the SDK resolved 0 packages besides the SDK and built"
