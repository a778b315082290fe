import Foundation

/// Where the SDK finds its resources (the strings tables of every `.lproj`, the privacy manifest), however the app
/// got the SDK. This is the one place that knows; nothing else names `Bundle.module`.
///
/// - SwiftPM: the target's resource bundle, `Bundle.module` (SwiftPM generates it for a target with resources).
/// - CocoaPods: the resource bundle `IFTTTConnectCore.bundle` that `IFTTTConnectCore.podspec`'s `resource_bundles`
///   makes, inside the pod's framework (`use_frameworks!`) or, for a static library, inside the app.
/// - A plain framework or XCFramework (Carthage, manual): the same `IFTTTConnectCore.bundle` inside the framework,
///   or, when the resources were copied into the framework itself, the framework's own bundle.
enum ConnectResources {
    /// The name of the resource bundle outside SwiftPM (the `resource_bundles` key of IFTTTConnectCore.podspec).
    static let bundleName = "IFTTTConnectCore"

    /// The bundle that holds the SDK's resources (looked up on each use: LocalizationTables reads it once).
    static var bundle: Bundle {
        #if SWIFT_PACKAGE
        return Bundle.module
        #else
        let code = Bundle(for: ResourceBundleToken.self)
        return resourceBundle(in: [code, Bundle.main]) ?? code
        #endif
    }

    /// The first `IFTTTConnectCore.bundle` found directly inside one of `candidates` (a framework, then the app).
    static func resourceBundle(in candidates: [Bundle]) -> Bundle? {
        for candidate in candidates {
            if let url = candidate.url(forResource: bundleName, withExtension: "bundle"), let bundle = Bundle(url: url)
            {
                return bundle
            }
            // Bundle(url:)'s resource lookup wants an Info.plist on some platforms: look at the folder as well.
            if let base = candidate.resourceURL ?? Optional(candidate.bundleURL) {
                let url = base.appendingPathComponent("\(bundleName).bundle", isDirectory: true)
                if FileManager.default.fileExists(atPath: url.path), let bundle = Bundle(url: url) { return bundle }
            }
        }
        return nil
    }
}

/// A class of this module, for `Bundle(for:)`: the bundle of the code is the framework the SDK was linked as.
private final class ResourceBundleToken {}
