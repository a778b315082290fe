import Foundation

/// Facts about this SDK that it sends to IFTTT.
@_spi(Sandbox) public enum SDKInfo {
    /// The package's release version, sent as `IFTTT-SDK-Version` (and `sdk_version`). It is defined here
    /// and nowhere else; the top release of `CHANGELOG.md` must match it (a test checks). It continues the
    /// numbering of ConnectSDK-iOS (2.8.0), whose bundle-based version was empty under SwiftPM (spec §9 W-24).
    public static let version = "3.0.0"

    /// The platform sent as `IFTTT-SDK-Platform`: `ios`, `macos`, `tvos`, `watchos`, `visionos` or `linux`.
    public static let platform: String = {
        #if os(iOS) || IFTTT_APPLE_STUB_CHECK
        return "ios"
        #elseif os(macOS)
        return "macos"
        #elseif os(tvOS)
        return "tvos"
        #elseif os(watchOS)
        return "watchos"
        #elseif os(visionOS)
        return "visionos"
        #elseif os(Linux)
        return "linux"
        #else
        return "unknown"
        #endif
    }()
}

/// The per-install anonymous id sent as `IFTTT-SDK-Anonymous-Id`: a random UUID created once and kept in a
/// file (mode 0600) under Application Support, so it survives relaunches but not reinstalls.
@_spi(Sandbox) public struct AnonymousIdentifierStore: Sendable {
    /// The file that holds the id.
    public let fileURL: URL

    /// Creates a store that keeps the id in `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The store in the default place: `<Application Support>/IFTTTConnectSDK/anonymous_id`.
    public static var standard: AnonymousIdentifierStore {
        let base =
            (try? FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask,
                appropriateFor: nil, create: false))
            ?? FileManager.default.temporaryDirectory
        return AnonymousIdentifierStore(
            fileURL: base.appendingPathComponent("IFTTTConnectSDK", isDirectory: true)
                .appendingPathComponent("anonymous_id"))
    }

    /// The stored id, created and saved on first use. If the file cannot be written the id still works for
    /// this process; it is recreated on the next launch.
    public func identifier() -> String {
        if let data = try? Data(contentsOf: fileURL),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            UUID(uuidString: text) != nil
        {
            return text
        }
        let id = UUID().uuidString
        let directory = fileURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if (try? Data(id.utf8).write(to: fileURL, options: .atomic)) != nil {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
        }
        return id
    }

    /// The id of this install, read once per process from ``standard``.
    public static let current: String = standard.identifier()
}
