import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import NIOConcurrencyHelpers

/// A simulated trip against a Connect API, run through the ``Synchronizer`` every app runs: the user token saved with
/// `setup(with:)`, the Connections activated with `activate(connections:)` (the synchronizer fetches them and
/// monitors their geofences with a ``SimulatedRegionMonitor``), a ``Route`` replayed through the monitor (the
/// synchronizer records each crossing, reports it and uploads it), then what the server recorded read back
/// (`GET /v1/location_events`). Time is the route's: a ``ManualClock`` follows the fixes, so the dwell filter and the
/// upload back-off run on trip time.
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
        // The Connections, for the log (and the same error as before when one cannot be fetched); the synchronizer
        // fetches them again itself, as in an app.
        let controller = ConnectionNetworkController(configuration: .sandbox(root))
        let credentials = ConnectionCredentials(userToken: token)
        for id in connectionIds {
            let connection = try await controller.fetchConnection(for: id, credentialProvider: credentials)
            log("Connection \(id): \"\(connection.name)\", status \(connection.status)")
        }

        let start = route.fixes.first?.timestamp ?? Date()
        let clock = ManualClock(start)
        let monitor = SimulatedRegionMonitor()
        var configuration = Synchronizer.Configuration(
            regionMonitor: monitor, storageDirectory: storeDirectory, anonymousId: UUID().uuidString,
            secureStore: FileSecureStore(directory: storeDirectory), clock: clock,
            upload: .init(batchSize: 50, baseDelay: 0.2, maximumDelay: 2))
        configuration.useServer(at: root)
        configuration.dwellTime = dwellTime
        let synchronizer = Synchronizer(configuration: configuration)
        let reports = TripReports()
        synchronizer.setLocationEventReportedClosure { reports.add($0) }
        await synchronizer.setup(with: credentials, lifecycleSynchronizationOptions: [])
        await synchronizer.activate(connections: connectionIds)
        await synchronizer.waitUntilIdle()

        let geofences = await synchronizer.storedConnections.flatMap { $0.geofences(radiusLimits: RadiusLimits()) }
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

        log("Replaying \(route.fixes.count) fixes (dwell filter " + (dwellTime > 0 ? "\(Int(dwellTime)) s)" : "off)"))
        for fix in route.fixes {
            clock.advance(to: fix.timestamp)
            await monitor.move(to: fix)
            await synchronizer.waitUntilIdle()
        }
        // The device stays at the route's last fix for the dwell time, so every crossing of the route is settled;
        // each synchronization records what is due, then uploads. A failed upload is retried after its back-off, on
        // trip time.
        clock.advance(dwellTime)
        var round = 0
        repeat {
            round += 1
            let result = await synchronizer.synchronize(source: .forceUpdate)
            await synchronizer.waitUntilIdle()
            if reports.unsettled > 0 {
                log("  upload not finished (\(result.rawValue)); retrying")
                clock.advance(configuration.upload.maximumDelay)
            }
        } while reports.unsettled > 0 && round < maximumRounds
        guard reports.unsettled == 0 else {
            throw LocationTripFailure("\(reports.unsettled) events were not uploaded after \(round) rounds")
        }

        let recorded = reports.recorded
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
        let uploaded = reports.succeeded
        let rejected = reports.rejected
        log("Events uploaded: \(uploaded.count) in \(reports.attempts) request(s)")
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
            geofences: geofences, recorded: recorded, uploaded: uploaded, requests: reports.attempts,
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

/// What the synchronizer reported to the app during a trip (`setLocationEventReportedClosure`), in order.
final class TripReports: Sendable {
    private struct State {
        var recorded: [RegionEvent] = []
        var succeeded: [RegionEvent] = []
        var rejected: [DeadLetter] = []
        var attempts = 0
        var settled = Set<UUID>()
    }

    private let state = NIOLockedValueBox(State())

    /// Takes one report of the synchronizer: a recorded crossing, or one batch's progress.
    func add(_ events: [LocationEvent]) {
        state.withLockedValue { state in
            if case .uploadAttempted? = events.first { state.attempts += 1 }
            for event in events {
                switch event {
                case .reported(let region):
                    state.recorded.append(region)
                case .uploadSuccessful(let region, _):
                    if state.settled.insert(region.recordId).inserted { state.succeeded.append(region) }
                case .uploadFailed(let region, _, _):
                    guard let rejection = region.rejection, state.settled.insert(region.recordId).inserted else {
                        continue
                    }
                    state.rejected.append(DeadLetter(event: region, rejection: rejection))
                case .uploadAttempted:
                    break
                }
            }
        }
    }

    var recorded: [RegionEvent] { state.withLockedValue { $0.recorded } }
    var succeeded: [RegionEvent] { state.withLockedValue { $0.succeeded } }
    var rejected: [DeadLetter] { state.withLockedValue { $0.rejected } }
    var attempts: Int { state.withLockedValue { $0.attempts } }
    /// Recorded crossings neither accepted nor refused for good yet.
    var unsettled: Int {
        state.withLockedValue { state in state.recorded.filter { !state.settled.contains($0.recordId) }.count }
    }
}

/// A failure of a simulated trip.
struct LocationTripFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
