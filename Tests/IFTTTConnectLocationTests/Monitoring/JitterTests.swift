import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// The two jittery trips (`Sandbox/Examples/jittery-boundary.gpx`, `jittery-loop.gpx`) replayed through a session:
/// how many events a dwell time gives per arrival, and what the default gives.
@Suite("Jitter: the default dwell time gives one event per crossing a person makes")
struct JitterTests {
    /// gx-arrive-store of the demo seed (923 Market St), entry and exit recorded.
    static let store = Geofence(
        triggerSubscriptionId: "alice-arrive-trigger-1", center: Coordinate(latitude: 37.7840, longitude: -122.4075),
        radius: 150)
    /// The three geofences of `Sandbox/Examples/jittery-loop-seed.json`.
    static let loop = [
        ("alice-loop-home", 37.779000, -122.414000), ("alice-loop-cafe", 37.784396, -122.410018),
        ("alice-loop-gym", 37.779000, -122.406035),
    ].map { Geofence(triggerSubscriptionId: $0.0, center: Coordinate(latitude: $0.1, longitude: $0.2), radius: 120) }

    /// One trip: its route, its geofences, and the events a person expects.
    struct Trip: Sendable, CustomStringConvertible {
        var name: String
        var fences: [Geofence]
        var expected: Int
        var description: String { name }

        static let boundary = Trip(name: "jittery-boundary", fences: [JitterTests.store], expected: 2)
        static let loop = Trip(name: "jittery-loop", fences: JitterTests.loop, expected: 12)

        func route() throws -> Route {
            let url = try #require(Bundle.module.url(forResource: name, withExtension: "gpx", subdirectory: "Fixtures"))
            return try Route(gpx: try Data(contentsOf: url))
        }
    }

    /// Replays `trip` with `dwell` (the session's default when `nil`); returns the events recorded, as
    /// `identifier transition`, once the last dwell time has passed.
    static func replay(_ trip: Trip, dwell: TimeInterval?) async throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jitter-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let monitor = SimulatedRegionMonitor()
        let route = try trip.route()
        let start = try #require(route.fixes.first).timestamp
        let session =
            if let dwell {
                LocationMonitoringSession(monitor: monitor, store: store, clock: ManualClock(start), dwellTime: dwell)
            } else {
                LocationMonitoringSession(monitor: monitor, store: store, clock: ManualClock(start))
            }
        await session.start()
        await session.update(geofences: trip.fences)
        await monitor.replay(route)
        await session.releaseHeldCrossings(now: try #require(route.fixes.last).timestamp.addingTimeInterval(3600))
        let recorded = await session.recordedEvents
        #expect(try await store.pending(now: start).map(\.recordId) == recorded.map(\.recordId))
        return recorded.map { "\($0.triggerSubscriptionId) \($0.transition.rawValue)" }
    }

    /// The measurement behind the default: events recorded per trip for each dwell time. Printed for the
    /// "Geofences" article; the assertions pin the two ends.
    @Test func eventsPerDwellTime() async throws {
        var lines: [String] = []
        for trip in [Trip.boundary, .loop] {
            var counts: [String] = []
            for dwell in [0, 5, 10, 15, 20, 25, 30, 45, 60, 90, 120] as [TimeInterval] {
                let events = try await Self.replay(trip, dwell: dwell)
                counts.append("\(Int(dwell)) s: \(events.count)")
                if dwell == 0 { #expect(events.count > trip.expected * 2, "\(trip): jitter without a filter") }
                if dwell >= 30 { #expect(events.count == trip.expected, "\(trip) at \(Int(dwell)) s") }
            }
            lines.append("\(trip.name) (a person expects \(trip.expected)): " + counts.joined(separator: ", "))
        }
        print(lines.joined(separator: "\n"))
    }

    @Test(arguments: [Trip.boundary, .loop])
    func theDefaultGivesExactlyTheExpectedEvents(trip: Trip) async throws {
        let events = try await Self.replay(trip, dwell: nil)
        #expect(events.count == trip.expected)
        // Alternating entry and exit per geofence, starting with an entry: no arrival lost, none repeated.
        for fence in trip.fences {
            let own = events.filter { $0.hasPrefix(fence.triggerSubscriptionId + " ") }.map {
                $0.split(separator: " ")[1]
            }
            #expect(
                own == Array(repeating: ["entry", "exit"], count: own.count / 2).flatMap { $0 }, "\(fence.identifier)")
            #expect(!own.isEmpty)
        }
    }
}
