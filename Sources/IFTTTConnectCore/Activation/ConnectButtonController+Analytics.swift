import Foundation

extension ConnectButtonController {
    /// Whether the Connect Button collects and sends usage analytics (impressions, clicks, state changes) to
    /// IFTTT. `true` by default.
    ///
    /// Setting it to `false` stops collection at once: events already queued are dropped and a request in
    /// flight is cancelled, so nothing more reaches IFTTT (the original SDK kept sending queued events, spec
    /// §9 W-14). The choice lasts while the process runs; store the user's preference and set it at every
    /// launch. It is `AnalyticsSwitch/shared`'s `AnalyticsSwitch/isEnabled` (process-wide: 2.8's static
    /// property has no instance to read a switch from).
    ///
    /// ```swift
    /// ConnectButtonController.analyticsEnabled = userAllowsAnalytics
    /// ```
    public nonisolated static var analyticsEnabled: Bool {
        get { AnalyticsSwitch.shared.isEnabled }
        set { AnalyticsSwitch.shared.isEnabled = newValue }
    }

    /// The uploader this controller sends its events to: ``Configuration/analyticsUploader`` when set, else
    /// one uploader per Connect API base URL and anonymous id from ``Configuration``'s uploader registry
    /// (by default shared by every controller of the process), with the 30 s periodic flush running.
    var analyticsUploader: AnalyticsUploader {
        if let uploader = configuration.analyticsUploader { return uploader }
        return configuration.analyticsUploaders.uploader(for: configuration.networkController.configuration)
    }

    /// The analytics events a funnel event produces (spec §5.3). Pure.
    ///
    /// - Parameters:
    ///   - kind: The funnel event.
    ///   - connection: The Connection as the flow knows it after the event.
    ///   - connectionId: The configured Connection id.
    ///   - priorStatus: The Connection's status when the activation started.
    ///   - hostName: The host app's name, the impression's location id.
    ///   - time: The events' timestamp.
    /// - Returns: The events, possibly none.
    @_spi(Sandbox) public nonisolated static func analyticsEvents(
        for kind: ActivationFunnelEvent.Kind, connection: Connection?, connectionId: String,
        priorStatus: Connection.Status? = nil, hostName: String?, at time: Date
    ) -> [AnalyticsEvent] {
        switch kind {
        case .impression:
            return connection.map { [.impression(of: $0, hostName: hostName, at: time)] } ?? []
        case .activationStarted, .deactivationStarted:
            let object =
                connection.map(AnalyticsEvent.Object.connection)
                ?? AnalyticsEvent.Object(type: "connection", id: connectionId)
            return [.click(object, connectionId: connectionId, at: time)]
        case .emailRequested:
            return [
                AnalyticsEvent(
                    name: .impression, timestamp: time, location: .connectButton(connectionId), object: .connectionEmail
                )
            ]
        case .userLookupStarted(byToken: false):
            return [.click(.connectionEmail, connectionId: connectionId, at: time)]
        case .activated:
            guard let connection else { return [.pageView(connectionId: connectionId, at: time)] }
            // `created` when the Connection was never enabled before this activation (spec §5.3, §3 step 1).
            let state: AnalyticsEvent.State = priorStatus == .initial ? .created : .enabled
            return [.stateChange(of: connection, to: state, at: time), .pageView(connectionId: connectionId, at: time)]
        default:
            return []
        }
    }

    /// The host app's `CFBundleName`, if any.
    nonisolated static var hostName: String? {
        Bundle.main.object(forInfoDictionaryKey: "CFBundleName") as? String
    }
}

/// One ``AnalyticsUploader`` per Connect API base URL and anonymous id, created on first use with its periodic
/// flush running for the life of the process (like the original SDK's singleton).
///
/// ``shared`` is process-wide on purpose: the original SDK sent every button's events through one queue, so
/// controllers created by different screens batch together and one 30 s timer runs per endpoint, not per
/// button. It is a ``ConnectButtonController/Configuration`` dependency, so tests inject their own registry
/// (or an ``AnalyticsUploader``) and share nothing.
final class AnalyticsUploaderRegistry: Sendable {
    /// The registry every controller uses unless its configuration names another.
    static let shared = AnalyticsUploaderRegistry()

    private let uploaders = Locked([String: AnalyticsUploader]())

    /// Creates an empty registry.
    init() {}

    /// The uploader for `network`'s base URL and anonymous id, created (with its periodic flush) on first use.
    /// Uploaders outlive the controllers that share them, so they run on ``SystemConnectClock``, not on one
    /// controller's clock.
    ///
    /// - Parameter network: Where the events go.
    /// - Returns: The uploader.
    func uploader(for network: ConnectionNetworkController.Configuration) -> AnalyticsUploader {
        let key = network.connectBaseURL.absoluteString + "|" + network.anonymousId
        return uploaders.withLock { uploaders in
            if let existing = uploaders[key] { return existing }
            let uploader = AnalyticsUploader(network: network, clock: SystemConnectClock())
            uploaders[key] = uploader
            Task { await uploader.runPeriodicFlush() }
            return uploader
        }
    }

    /// How many uploaders exist.
    var count: Int { uploaders.withLock { $0.count } }
}
