// swift-tools-version: 6.0
// The IFTTT Connect SDK for Swift. Foundation only: this package has no package dependencies,
// so an app that depends on it resolves nothing else. The sandbox and CLI live in ./Sandbox.
import PackageDescription

let package = Package(
    name: "IFTTTConnectSDK",
    defaultLocalization: "en",
    platforms: [.iOS(.v13), .macOS(.v12)],
    products: [
        // The whole 2.8 API, location included: what `import IFTTTConnectSDK` gives a 2.8 app.
        .library(name: "IFTTTConnectSDK", targets: ["IFTTTConnectSDK"]),
        // The same without geofencing: links no CoreLocation or BackgroundTasks.
        .library(name: "IFTTTConnectCore", targets: ["IFTTTConnectCore"]),
        .library(name: "IFTTTSDK", targets: ["IFTTTSDK"]),
        .library(name: "IFTTTConnectService", targets: ["IFTTTConnectService"]),
        .library(name: "IFTTTConnectLocation", targets: ["IFTTTConnectLocation"]),
        .library(name: "IFTTTConnectTesting", targets: ["IFTTTConnectTesting"]),
        .library(name: "IFTTTConnectDesktop", targets: ["IFTTTConnectDesktop"]),
    ],
    targets: [
        .target(
            name: "IFTTTConnectCore",
            resources: [.process("Resources"), .copy("PrivacyInfo.xcprivacy")]
        ),
        // The umbrella: re-exports the core and the location module, so 2.8 apps need no new import.
        .target(name: "IFTTTConnectSDK", dependencies: ["IFTTTConnectCore", "IFTTTConnectLocation"]),
        .target(name: "IFTTTSDK", dependencies: ["IFTTTConnectCore"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(
            name: "IFTTTConnectService", dependencies: ["IFTTTConnectCore"],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .target(
            name: "IFTTTConnectLocation", dependencies: ["IFTTTConnectCore"],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .target(name: "IFTTTConnectTesting", dependencies: ["IFTTTConnectCore"]),
        .target(name: "IFTTTConnectDesktop", dependencies: ["IFTTTConnectCore"]),
        // Where the tests find the repository's committed files (no product: apps never see it).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "IFTTTConnectSDKTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectCore", "IFTTTConnectSDK", "TestSupport"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "IFTTTConnectDesktopTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectDesktop", "IFTTTConnectCore"]
        ),
        .testTarget(
            name: "IFTTTConnectServiceTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectService", "IFTTTConnectCore", "TestSupport"]
        ),
        .testTarget(
            name: "IFTTTConnectLocationTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectLocation", "IFTTTConnectCore", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "IFTTTSDKTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTSDK", "IFTTTConnectCore", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The DocC plugin, only to publish the documentation (scripts/docs-site.sh and .github/workflows/docs.yml set
// IFTTT_DOCC_PLUGIN=1): an app that depends on this package never resolves it.
if Context.environment["IFTTT_DOCC_PLUGIN"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
