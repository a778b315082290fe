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
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        .target(
            name: "ConnectSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // The parser-error envelope sits in the channel pipeline: NIO's HTTP/1 parts and their HTTPTypes.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
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
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // The WebDriver client (WebDriverClient.swift) speaks HTTP/1.1 over NIO.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

