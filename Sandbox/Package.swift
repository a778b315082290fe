// swift-tools-version: 6.0
// The local IFTTT sandbox (Connect API, web pages, SQLite state) and the `ifttt-connect` CLI.
// Server and CLI dependencies live here so that apps using the SDK resolve none of them.
import PackageDescription

let package = Package(
    name: "ConnectSandbox",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ConnectSandbox", targets: ["ConnectSandbox"]),
        .executable(name: "ifttt-connect", targets: ["ifttt-connect"]),
    ],
    dependencies: [
        .package(name: "IFTTTConnectSDK", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // 3.12.3 is the oldest release with the PBKDF2 the sandbox uses; up to 4.x, which the server stack resolves.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "ConnectSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // The HTML and SVG pages are Mustache templates (Resources/templates), escaped by default.
                .product(name: "Mustache", package: "swift-mustache"),
                // Password hashing: SHA-256 and PBKDF2 (_CryptoExtras).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectService", package: "IFTTTConnectSDK"),
                // Its seeded SplitMix64 makes injected faults reproducible (--seed).
                .product(name: "IFTTTConnectTesting", package: "IFTTTConnectSDK"),
            ],
            resources: [.copy("Resources")]
        ),
        .target(
            name: "ConnectCLI",
            dependencies: [
                "ConnectSandbox",
                .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectService", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTSDK", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectLocation", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectDesktop", package: "IFTTTConnectSDK"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "ifttt-connect", dependencies: ["ConnectCLI"]),
        .testTarget(
            name: "ConnectSandboxTests",
            dependencies: [
                "ConnectSandbox", "ConnectCLI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectService", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTSDK", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectLocation", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectTesting", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectDesktop", package: "IFTTTConnectSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
