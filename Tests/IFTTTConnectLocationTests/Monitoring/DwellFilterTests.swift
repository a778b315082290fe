import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Dwell filter (beyond 2.8): jittery GPS at a geofence edge")
struct DwellFilterTests {
    static let start = ISO8601DateFormatter().date(from: "2026-05-01T10:00:00Z")!
    static let store = Geofence(
        triggerSubscriptionId: "alice-arrive-trigger-1",
        center: Coordinate(latitude: 37.7840, longitude: -122.4075), radius: 150)

    static func route() throws -> Route {
        let url = try #require(
            Bundle.module.url(forResource: "jittery-boundary", withExtension: "gpx", subdirectory: "Fixtures"))
        return try Route(gpx: try Data(contentsOf: url))
    }

    func replay(dwell: TimeInterval, fence: Geofence = Self.store) async throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let monitor = SimulatedRegionMonitor()
        let session = LocationMonitoringSession(
            monitor: monitor, store: store, clock: ManualClock(Self.start), dwellTime: dwell)
        await session.start()
        await session.update(geofences: [fence])
        let route = try Self.route()
        await monitor.replay(route)
        await session.releaseHeldCrossings(now: try #require(route.fixes.last).timestamp)
        let recorded = await session.recordedEvents
        // What was reported is exactly what the store holds
        #expect(try await store.pending(now: Self.start).map(\.recordId) == recorded.map(\.recordId))
        return recorded.map { "\($0.transition.rawValue) +\(Int($0.occurredAt.timeIntervalSince(Self.start)))s" }
    }

    @Test func withoutTheFilterJitterRecordsACrossingPerBlip() async throws {
        let recorded = try await replay(dwell: 0)
        // 10 in-and-out blips in 200 s, the arrival, one blip out during the stay, and the departure
        #expect(recorded.count == 24)
        #expect(recorded.prefix(4) == ["entry +60s", "exit +70s", "entry +80s", "exit +90s"])
        #expect(recorded.suffix(4) == ["entry +260s", "exit +400s", "entry +410s", "exit +590s"])
    }

    @Test func withASixtySecondDwellTheTripRecordsOneEntryAndOneExit() async throws {
        let recorded = try await replay(dwell: 60)
        #expect(recorded == ["entry +260s", "exit +590s"])
    }

    @Test func anEntryOnlyTriggerGetsOneArrivalAndTheBlipOutDoesNotRepeatIt() async throws {
        let enterOnly = Geofence(
            triggerSubscriptionId: "alice-arrive-trigger-1", center: Self.store.center, radius: 150, transitions: .enter
        )
        #expect(try await replay(dwell: 0, fence: enterOnly).count == 12)
        #expect(try await replay(dwell: 60, fence: enterOnly) == ["entry +260s"])
    }

    @Test func aCrossingStillWithinTheDwellAtTheEndIsNotRecorded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let monitor = SimulatedRegionMonitor()
        let session = LocationMonitoringSession(
            monitor: monitor, store: store, clock: ManualClock(Self.start), dwellTime: 600)
        await session.start()
        await session.update(geofences: [Self.store])
        await monitor.replay(try Self.route())
        await session.releaseHeldCrossings(now: Self.start.addingTimeInterval(700))
        #expect(await session.recordedEvents.isEmpty)  // every stay was shorter than 600 s
        #expect(await session.heldCrossings.isEmpty)
        #expect(try await store.pending(now: Self.start).isEmpty)
    }
}
