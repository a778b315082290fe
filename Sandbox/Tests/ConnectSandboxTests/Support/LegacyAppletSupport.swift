import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTSDK
import Logging
import NIOConcurrencyHelpers

/// A demo sandbox plus two Applets that use platform-only mobile services and extra user connections, so that
/// every `order` and `platform` gives a distinct list.
///
/// | Applet | published (UTC) | platform | enabled by |
/// |---|---|---|---|
/// | gx-weekly-deals | 2024-03-01 | none | alice (bob disabled) |
/// | gx-arrive-store | 2025-01-15 | ios_and_android (location) | alice, bob |
/// | gx-store-visits | 2025-06-10 | ios_and_android (location) | - |
/// | gx-siri-list | 2019-05-01 | ios (derived from ios_reminders) | alice, bob, carol |
/// | gx-android-sms | 2018-01-31 | android (explicit) | - |
/// | gx-early-access | 2026-01-05 | ios_and_android, unpublished | - |
enum LegacyFixture {
    static let extraSeed = """
        {
          "services": [
            {"id": "ios_reminders", "name": "iOS Reminders", "short_name": "Reminders", "brand_color": "#F7A800",
             "url": "https://ifttt.com/ios_reminders"},
            {"id": "android_sms", "name": "Android SMS", "short_name": "SMS", "brand_color": "#3DDC84",
             "url": "https://ifttt.com/android_sms"}
          ],
          "connections": [
            {"id": "gx-siri-list", "name": "Add deals to your Reminders", "primary_service_id": "grocery_express",
             "published_at": "2019-05-01T00:00:00Z",
             "features": [{"id": "siri-list", "title": "Reminders",
               "feature_actions": [{"id": "fa-add-reminder", "action_id": "add_reminder", "service_id": "ios_reminders",
                                    "label": "Add a reminder", "fields": []}]}]},
            {"id": "gx-android-sms", "name": "Text me the deals", "primary_service_id": "grocery_express",
             "published_at": "2018-02-01T00:00:00+01:00", "platform": "android",
             "features": [{"id": "sms-deals", "title": "SMS",
               "feature_actions": [{"id": "fa-send-sms", "action_id": "send_sms", "service_id": "android_sms",
                                    "label": "Send an SMS", "fields": []}]}]}
          ],
          "user_connections": [
            {"user_id": "alice", "connection_id": "gx-siri-list", "status": "enabled", "user_features": []},
            {"user_id": "bob", "connection_id": "gx-siri-list", "status": "enabled", "user_features": []},
            {"user_id": "carol", "connection_id": "gx-siri-list", "status": "enabled", "user_features": []},
            {"user_id": "bob", "connection_id": "gx-arrive-store", "status": "enabled", "user_features": []}
          ]
        }
        """

    /// Runs `body` with the sandbox root URL; the sandbox logs to `logger` when given.
    static func withSandbox<T: Sendable>(logger: Logger? = nil, _ body: @Sendable (URL) async throws -> T) async throws
        -> T
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = directory.appendingPathComponent("extra-seed.json")
        try Data(extraSeed.utf8).write(to: seed)
        var configuration = SandboxTest.configuration(
            databasePath: directory.appendingPathComponent("db.sqlite").path,
            seedFile: seed)
        if let logger { configuration.logger = logger }
        return try await SandboxServer.withRunning(configuration) { url in try await body(url) }
    }

    /// A manager for `grocery_express` on the sandbox, completions on a concurrency thread.
    static func manager(
        _ url: URL, token: String? = nil,
        logHandler: (@Sendable (String) -> Void)? = nil
    ) -> IFTTTAPIManager {
        let manager = IFTTTAPIManager(
            baseURL: url, anonymousId: "legacy-e2e", callbackQueue: nil, logHandler: logHandler)
        manager.serviceSlug = "grocery_express"
        manager.userToken = token
        manager.timeout = 60  // as Client's: the whole suite at once on 2 cores
        return manager
    }
}

/// Collects log lines from any number of tasks.
final class LineCollector: Sendable {
    private let storage = NIOLockedValueBox<[String]>([])

    func append(_ line: String) { storage.withLockedValue { $0.append(line) } }

    var lines: [String] { storage.withLockedValue { $0 } }
}

/// A swift-log handler that writes every message, with its metadata, into a ``LineCollector``.
struct CollectingLogHandler: LogHandler {
    let collector: LineCollector
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = self.metadata.merging(event.metadata ?? [:]) { $1 }
        collector.append("\(event.level) \(event.message) \(all) \(event.error.map { String(describing: $0) } ?? "")")
    }
}
