// swift-tools-version: 6.0
// The IFTTT Connect SDK for Swift. Foundation only: this package has no package dependencies,
// so an app that depends on it resolves nothing else. The sandbox and CLI live in ./Sandbox.
import PackageDescription

let package = Package(
    name: "IFTTTConnectSDK",
    defaultLocalization: "en",
    platforms: [.iOS(.v13), .macOS(.v12)],
    products: [
        .library(name: "IFTTTConnectSDK", targets: ["IFTTTConnectSDK"]),
        .library(name: "IFTTTSDK", targets: ["IFTTTSDK"]),
        .library(name: "IFTTTConnectService", targets: ["IFTTTConnectService"]),
        .library(name: "IFTTTConnectLocation", targets: ["IFTTTConnectLocation"]),
        .library(name: "IFTTTConnectTesting", targets: ["IFTTTConnectTesting"]),
        .library(name: "IFTTTConnectDesktop", targets: ["IFTTTConnectDesktop"]),
    ],
    targets: [
        .target(
            name: "IFTTTConnectSDK",
            resources: [.process("Resources"), .copy("PrivacyInfo.xcprivacy")]
        ),
        .target(name: "IFTTTSDK", dependencies: ["IFTTTConnectSDK"]),
        .target(name: "IFTTTConnectService", dependencies: ["IFTTTConnectSDK"]),
        .target(name: "IFTTTConnectLocation", dependencies: ["IFTTTConnectSDK"]),
        .target(name: "IFTTTConnectTesting", dependencies: ["IFTTTConnectSDK"]),
        .target(name: "IFTTTConnectDesktop", dependencies: ["IFTTTConnectSDK"]),
        .testTarget(
            name: "IFTTTConnectSDKTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectSDK", "IFTTTConnectDesktop"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "IFTTTConnectDesktopTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectDesktop", "IFTTTConnectSDK"]
        ),
        .testTarget(
            name: "IFTTTConnectServiceTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectService", "IFTTTConnectSDK"]
        ),
        .testTarget(
            name: "IFTTTConnectLocationTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTConnectLocation", "IFTTTConnectSDK"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "IFTTTSDKTests",
            dependencies: ["IFTTTConnectTesting", "IFTTTSDK", "IFTTTConnectSDK"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
