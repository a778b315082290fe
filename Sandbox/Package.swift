// swift-tools-version: 6.1
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
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // 3.12.3 is the oldest release with the PBKDF2 the sandbox uses; up to 4.x, which the server stack resolves.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
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
                // The HTML and SVG pages are Mustache templates (Resources/templates), escaped by default.
                .product(name: "Mustache", package: "swift-mustache"),
                // Password hashing: SHA-256 and PBKDF2 (_CryptoExtras).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectService", package: "IFTTTConnectSDK"),
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
                // `location simulate` and the demo run the synchronizer on trip time (ManualClock).
                .product(name: "IFTTTConnectTesting", package: "IFTTTConnectSDK"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
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
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
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

// The benchmarks (Benchmarks/, on ordo-one/package-benchmark), in this package as Hummingbird keeps its own: declared
// only when ENABLE_IFTTT_BENCHMARKS is set, so that building the sandbox and its tests resolves and compiles none of
// them, and building them reuses the sandbox's own build instead of compiling the server stack again.
//   ENABLE_IFTTT_BENCHMARKS=1 swift package --package-path Sandbox benchmark
// Tools 6.1 for the `MallocInterposer` trait: package-benchmark's default traits add a runtime interposer on Linux
// with Swift 6.3 that wall clock and malloc counts do not need. A suite is an executable target in Benchmarks/<Suite>
// (how package-benchmark finds them); what they share is in Benchmarks/Support.
if Context.environment["ENABLE_IFTTT_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    let sdk = Target.Dependency.product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK")
    let suite: [Target.Dependency] = [
        .product(name: "Benchmark", package: "benchmark"), sdk, "BenchmarkSupport", "Workloads",
    ]
    let plugins: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    package.targets += [
        // Goal verdicts and interleaved timing shared by the suites.
        .target(name: "BenchmarkSupport", path: "Benchmarks/Support/BenchmarkSupport"),
        // The measured work (decoding payloads and baselines, the button render), shared by the suites and
        // InstructionCount so that both run the same code.
        .target(
            name: "Workloads", dependencies: [sdk], path: "Benchmarks/Support/Workloads", resources: [.copy("Fixtures")]
        ),
        // One workload N times, for instruction counts under valgrind (scripts/instructions.sh).
        .executableTarget(
            name: "InstructionCount", dependencies: ["Workloads", sdk], path: "Benchmarks/Support/InstructionCount"),
        .executableTarget(name: "Decoding", dependencies: suite, path: "Benchmarks/Decoding", plugins: plugins),
        .executableTarget(
            name: "Location",
            dependencies: suite + [
                .product(name: "IFTTTConnectLocation", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectTesting", package: "IFTTTConnectSDK"),
            ],
            path: "Benchmarks/Location", plugins: plugins),
        .executableTarget(name: "Button", dependencies: suite, path: "Benchmarks/Button", plugins: plugins),
        .executableTarget(
            name: "SandboxGET",
            dependencies: suite + [
                "ConnectSandbox", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Benchmarks/SandboxGET", plugins: plugins),
    ]
}
