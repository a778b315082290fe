// swift-tools-version: 6.1
// Benchmarks of the IFTTT Connect SDK and its sandbox, on ordo-one/package-benchmark. A package of its own, so the
// SDK package holds only the SDK and resolves nothing. Run from this folder: `swift package benchmark`.
// Tools 6.1 and the `MallocInterposer` trait: the default traits of package-benchmark add a runtime interposer on
// Linux with Swift 6.3 that is not needed for wall clock and malloc counts.
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK"),
    "BenchmarkSupport",
    "Workloads",
]
let benchmarkPlugins: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "IFTTTConnectBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "IFTTTConnectSDK", path: ".."),
        .package(name: "ConnectSandbox", path: "../Sandbox"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Goal verdicts and interleaved timing shared by the suites.
        .target(name: "BenchmarkSupport"),
        // The measured work (decoding payloads and baselines, the button render), shared by the suites and
        // InstructionCount so that both run the same code.
        .target(
            name: "Workloads",
            dependencies: [.product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK")],
            resources: [.copy("Fixtures")]
        ),
        // One workload N times, for instruction counts under valgrind (scripts/instructions.sh).
        .executableTarget(
            name: "InstructionCount",
            dependencies: ["Workloads", .product(name: "IFTTTConnectSDK", package: "IFTTTConnectSDK")]
        ),
        .executableTarget(
            name: "Decoding",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/Decoding",
            plugins: benchmarkPlugins
        ),
        .executableTarget(
            name: "Location",
            dependencies: benchmarkDependencies + [
                .product(name: "IFTTTConnectLocation", package: "IFTTTConnectSDK"),
                .product(name: "IFTTTConnectTesting", package: "IFTTTConnectSDK"),
            ],
            path: "Benchmarks/Location",
            plugins: benchmarkPlugins
        ),
        .executableTarget(
            name: "Button",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/Button",
            plugins: benchmarkPlugins
        ),
        .executableTarget(
            name: "SandboxGET",
            dependencies: benchmarkDependencies + [
                .product(name: "ConnectSandbox", package: "ConnectSandbox"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/SandboxGET",
            plugins: benchmarkPlugins
        ),
    ],
    swiftLanguageModes: [.v6]
)
