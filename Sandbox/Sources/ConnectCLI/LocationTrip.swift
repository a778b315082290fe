import Foundation
import IFTTTConnectLocation
import IFTTTConnectSDK

/// A simulated trip against a Connect API: fetches the user's Connections, monitors their geofences with a
/// ``SimulatedRegionMonitor``, replays a ``Route``, records crossings in a ``LocationEventStore``, uploads them with
/// ``LocationUploader`` and reads back what the server recorded (`GET /v1/location_events`).
///
/// Used by `ifttt-connect location simulate`, the demo and the tests. The user token is never printed.
struct LocationTrip: Sendable {
    /// One event as the server recorded it.
    struct ServerEvent: Sendable, Hashable, Codable {
        var recordId: String
        var triggerSubscriptionId: String
        var eventType: String
        var occurredAt: String
        /// `acknowledged` (the server recorded it) or `rejected` (refused for good and dead-lettered); `nil` when
        /// read from `GET /v1/location_events`.
        var status: String?
        /// For a rejected event: the HTTP status of the refusal.
        var statusCode: Int?
        /// For a rejected event: the server's reason.
        var reason: String?

        enum CodingKeys: String, CodingKey {
            case recordId = "record_id"
            case triggerSubscriptionId = "trigger_subscription_id"
            case eventType = "event_type"
            case occurredAt = "occurred_at"
            case status
            case statusCode = "status_code"
            case reason
        }
    }

    /// What the trip did.
    struct Outcome: Sendable {
        /// The geofences of the Connections, as monitored.
        var geofences: [Geofence]
        /// The crossings recorded, in order.
        var recorded: [RegionEvent]
        /// The events the server accepted (2xx), in upload order.
        var uploaded: [RegionEvent]
        /// Upload requests sent.
        var requests: Int
        /// This trip's events as the server lists them, in the order it received them.
        var acknowledged: [ServerEvent]
        /// The events the server refused for good, with its reasons (moved to the store's dead-letter area).
        var rejected: [DeadLetter] = []

        /// The acknowledged events (`status` `acknowledged`) followed by the rejected ones (`status` `rejected`,
        /// with `status_code` and `reason`), as `location simulate --json` prints them.
        var listing: [ServerEvent] {
            acknowledged.map {
                var event = $0
                event.status = "acknowledged"
                return event
            }
                + rejected.map {
                    ServerEvent(
                        recordId: $0.event.recordId.uuidString, triggerSubscriptionId: $0.event.triggerSubscriptionId,
                        eventType: $0.event.transition.rawValue,
                        occurredAt: LocationEventPayload.timestamp($0.event.occurredAt),
                        status: "rejected", statusCode: $0.rejection.statusCode, reason: $0.rejection.reason)
                }
        }
    }

    let root: URL
    let token: String
    let connectionIds: [String]
    let route: Route
    let storeDirectory: URL
    /// Upload rounds before giving up (the sandbox may inject failures).
    var maximumRounds = 20
    /// The dwell filter in seconds (`0`: off); the SDK's default unless set. See ``LocationMonitoringSession``.
    var dwellTime: TimeInterval = LocationMonitoringSession.defaultDwellTime

    /// Runs the trip, calling `log` with one human-readable line per step.
    func run(log: @Sendable (String) -> Void) async throws -> Outcome {
        let network = ConnectionNetworkController.Configuration.sandbox(root)
        let controller = ConnectionNetworkController(configuration: network)
        let credentials = ConnectionCredentials(userToken: token)
        var connections: [Connection] = []
        for id in connectionIds {
            let connection = try await controller.fetchConnection(for: id, credentialProvider: credentials)
            log("Connection \(id): \"\(connection.name)\", status \(connection.status)")
            connections.append(connection)
        }
        let geofences = Geofence.geofences(for: connections)
        guard !geofences.isEmpty else {
            throw LocationTripFailure(
                "nothing to monitor: no location trigger of "
                    + connectionIds.joined(separator: ", ")
                    + " has a region for this user (enable one with a location trigger, e.g. gx-arrive-store)")
        }
        log("Regions monitored (\(geofences.count)):")
        for g in geofences {
            let center = String(format: "%.5f,%.5f", g.center.latitude, g.center.longitude)
            log("  \(g.identifier)  \(center) r=\(Int(g.radius)) m  \(g.transitions.names.joined(separator: "+"))")
        }

        let store = try LocationEventStore(directory: storeDirectory)
        let monitor = SimulatedRegionMonitor()
        let start = route.fixes.first?.timestamp ?? Date()
        let session = LocationMonitoringSession(
            monitor: monitor, store: store, clock: ReadingClock { start }, dwellTime: dwellTime)
        await session.start()
        await session.update(geofences: geofences)
        log("Replaying \(route.fixes.count) fixes (dwell filter " + (dwellTime > 0 ? "\(Int(dwellTime)) s)" : "off)"))
        await monitor.replay(route)
        // The device stays at the route's last fix for the dwell time, so every crossing of the route is settled.
        await session.releaseHeldCrossings(
            now: (route.fixes.last?.timestamp ?? start).addingTimeInterval(dwellTime))
        let recorded = await session.recordedEvents
        log("Events recorded (\(recorded.count)):")
        for (i, e) in recorded.enumerated() {
            log(
                "  \(i + 1). \(e.transition.rawValue) \(e.triggerSubscriptionId) at \(LocationEventPayload.timestamp(e.occurredAt))"
            )
        }
        for fence in geofences {
            let own = recorded.filter { $0.triggerSubscriptionId == fence.triggerSubscriptionId }
            let entries = own.filter { $0.transition == .entry }.count
            log("  \(fence.identifier): \(entries) entries, \(own.count - entries) exits")
        }

        // The uploader runs on the trip's clock (the route's last fix, then real time passing), so the events of an
        // old GPX route are not dropped as expired and the backoff delays are real.
        let end = route.fixes.last?.timestamp ?? start
        let launched = Date()
        let clock: @Sendable () -> Date = { end.addingTimeInterval(Date().timeIntervalSince(launched)) }
        let progress = UploadProgress()
        let uploader = LocationUploader(
            store: store,
            configuration: .init(network: network, scheduler: .init(batchSize: 50, baseDelay: 0.2, maximumDelay: 2)),
            tokenProvider: { token }, clock: ReadingClock(clock),
            progressHandler: { await progress.handle($0) })
        var round = 0
        upload: while round < maximumRounds {
            round += 1
            let report = await uploader.uploadPending()
            switch report.next {
            case .done: break upload
            case .retry(let at):
                log("  upload failed (\(report.error.map { "\($0)" } ?? "?")); retrying")
                let delay = max(0, at.timeIntervalSince(clock()))
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            case .paused, .busy:
                throw LocationTripFailure("uploading stopped: \(report.error.map { "\($0)" } ?? "\(report.next)")")
            }
        }
        let uploaded = await progress.succeeded
        let requests = await progress.attempts
        let rejected = await progress.rejected
        log("Events uploaded: \(uploaded.count) in \(requests) request(s)")
        if !rejected.isEmpty {
            log("Events refused by the server and dead-lettered (\(rejected.count)):")
            for letter in rejected {
                log(
                    "  \(letter.event.transition.rawValue) \(letter.event.triggerSubscriptionId) (record \(letter.event.recordId.uuidString)): \(letter.rejection.statusCode) \(letter.rejection.reason)"
                )
            }
        }

        let ids = Set(recorded.map { $0.recordId.uuidString })
        let acknowledged = try await Self.serverEvents(root: root, token: token).filter { ids.contains($0.recordId) }
        log("Events acknowledged by the server (\(acknowledged.count)):")
        for e in acknowledged {
            log("  \(e.eventType) \(e.triggerSubscriptionId) at \(e.occurredAt) (record \(e.recordId))")
        }
        return Outcome(
            geofences: geofences, recorded: recorded, uploaded: uploaded, requests: requests,
            acknowledged: acknowledged, rejected: rejected)
    }

    /// `GET /v1/location_events` with the user token: every event recorded for the user, in the order received.
    static func serverEvents(root: URL, token: String) async throws -> [ServerEvent] {
        struct List: Decodable { var data: [ServerEvent] }
        let request = HTTPRequest(
            method: "GET", url: root.appendingPathComponent("v1/location_events"),
            headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
        let response = try await URLSessionTransport().send(request)
        guard response.statusCode == 200 else {
            throw LocationTripFailure("GET /v1/location_events answered \(response.statusCode)")
        }
        return try JSONDecoder().decode(List.self, from: response.body).data
    }
}

/// Collects the uploader's progress.
actor UploadProgress {
    private(set) var succeeded: [RegionEvent] = []
    private(set) var rejected: [DeadLetter] = []
    private(set) var attempts = 0

    func handle(_ progress: LocationUploader.Progress) {
        switch progress {
        case .attempted: attempts += 1
        case .succeeded(let events): succeeded += events
        case .rejected(let letters): rejected += letters
        case .failed: break
        }
    }
}

/// A failure of a simulated trip.
struct LocationTripFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
