import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The one resource-bundle accessor finds the SDK's strings however the SDK was installed: SwiftPM's bundle here, and
/// the `IFTTTConnectCore.bundle` that CocoaPods' `resource_bundles` or a framework carries (laid out on disk below).
@Suite("Resource bundle accessor")
struct ResourceBundleTests {
    @Test func underSwiftPMTheAccessorIsTheTargetsBundleWithEveryLocalization() throws {
        let bundle = ConnectResources.bundle
        let english = try #require(LocalizationTables.url(for: "en"))
        #expect(english.path.hasPrefix(bundle.bundleURL.path))
        #expect(LocalizationTables.shared.tables["en"]?.isEmpty == false)
    }

    @Test func aFrameworkCarryingTheCocoaPodsResourceBundleIsFound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("resource-bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let framework = root.appendingPathComponent("IFTTTConnectSDK.framework", isDirectory: true)
        let resources = framework.appendingPathComponent("IFTTTConnectCore.bundle/en.lproj", isDirectory: true)
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        try Data("\"hello\" = \"Hello\";\n".utf8).write(to: resources.appendingPathComponent("Localizable.strings"))
        let frameworkBundle = try #require(Bundle(url: framework))
        let found = try #require(ConnectResources.resourceBundle(in: [frameworkBundle]))
        #expect(found.bundleURL.lastPathComponent == "IFTTTConnectCore.bundle")
        #expect(
            FileManager.default.fileExists(
                atPath: found.bundleURL.appendingPathComponent("en.lproj/Localizable.strings").path))
    }

    @Test func withoutAResourceBundleNothingIsFound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "no-resource-bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let bundle = try #require(Bundle(url: root))
        #expect(ConnectResources.resourceBundle(in: [bundle]) == nil)
    }
}
