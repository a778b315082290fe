import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("A simulated trip through SimulatedRegionMonitor and selection")
struct SimulatedTripTests {
    static let start = ISO8601DateFormatter().date(from: "2024-05-01T08:00:00Z")!
    static let home = Geofence(
        triggerSubscriptionId: "home_arrive_leave", center: Coordinate(latitude: 37.7749, longitude: -122.4194),
        radius: 150)
    static let store = Geofence(
        triggerSubscriptionId: "store_enter", center: Coordinate(latitude: 37.8249, longitude: -122.4194), radius: 200,
        transitions: .enter)
    static let office = Geofence(
        triggerSubscriptionId: "office_exit", center: Coordinate(latitude: 37.8749, longitude: -122.4194), radius: 250,
        transitions: .exit)
    /// 60 geofences 2.2 km west of the route, 222 m apart: nearer than the store and office at the start, never crossed.
    static let decoys = (0..<60).map { i in
        Geofence(
            triggerSubscriptionId: String(format: "decoy_%02d", i),
            center: Coordinate(latitude: 37.7749 + Double(i) * 0.002, longitude: -122.4444), radius: 100)
    }

    static func route() throws -> Route {
        let url = try #require(
            Bundle.module.url(forResource: "commute", withExtension: "gpx", subdirectory: "Fixtures"))
        return try Route(gpx: try Data(contentsOf: url))
    }

    @Test func theGPXFixtureReads() throws {
        let route = try Self.route()
        #expect(route.fixes.count == 81)
        #expect(route.fixes[0].timestamp == Self.start)
        #expect(route.fixes[1].timestamp == Self.start.addingTimeInterval(30))
        #expect(route.fixes[0].horizontalAccuracy == 10)
        #expect(route.fixes[80].coordinate.latitude == 37.8949)
    }

    @Test func badGPXIsATypedError() {
        #expect(throws: LocationError.self) { try Route(gpx: Data("<gpx><trkpt lat=\"x\" lon=\"1\"/></gpx>".utf8)) }
        #expect(throws: LocationError.self) { try Route(gpx: Data("<gpx></gpx>".utf8)) }
        #expect(throws: LocationError.self) { try Route(gpx: Data("not xml".utf8)) }
    }

    @Test func theTripRecordsExactlyTheExpectedEventsInOrderOnce() async throws {
        // Given a store, a simulated platform with 3 host regions, and a session with 63 geofences
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let monitor = SimulatedRegionMonitor()
        let hosts = (0..<3).map {
            MonitoredRegion(
                identifier: "host.geofence.\($0)", center: Coordinate(latitude: 48.85, longitude: 2.35 + Double($0)),
                radius: 300)
        }
        for host in hosts { await monitor.addHostRegion(host) }
        let session = LocationMonitoringSession(monitor: monitor, store: store, clock: ManualClock(Self.start))
        await session.start()
        await session.update(geofences: [Self.office, Self.store, Self.home] + Self.decoys)

        // When the commute is replayed
        await monitor.replay(try Self.route())

        // Then exactly these events were recorded, in order, once each
        let recorded = await session.recordedEvents
        let summary = recorded.map {
            "\($0.triggerSubscriptionId) \($0.transition.rawValue) +\(Int($0.occurredAt.timeIntervalSince(Self.start)))s"
        }
        #expect(
            summary == [
                "home_arrive_leave entry +0s",  // already home when the trip starts: settled once
                "home_arrive_leave exit +30s",
                "store_enter entry +990s",  // fix 33; the store's exit is not asked for
                "office_exit exit +2070s",  // fix 69; the office's entry is not asked for
            ])
        let stored = try await store.pending(now: Self.start)
        #expect(stored == recorded)
        #expect(Set(stored.map(\.recordId)).count == 4)

        // The platform never held more than 20 regions; the host regions were never touched and are still there
        #expect(await monitor.peakRegionCount <= 20)
        let operations = await monitor.operations
        let touchedHosts = operations.filter {
            switch $0 {
            case .start(let id), .stop(let id), .requestState(let id): return id.hasPrefix("host.")
            }
        }
        #expect(touchedHosts.count == 3)  // only the host app's own three starts
        let remaining = await monitor.monitoredRegions().map(\.identifier)
        #expect(Set(hosts.map(\.identifier)).isSubset(of: Set(remaining)))
        // The store and office were not monitored at the start: they were added by reselection along the way
        let homeSettled = try #require(operations.firstIndex(of: .requestState("ifttt_home_arrive_leave")))
        let storeAdded = try #require(operations.firstIndex(of: .start("ifttt_store_enter")))
        let officeAdded = try #require(operations.firstIndex(of: .start("ifttt_office_exit")))
        #expect(storeAdded > homeSettled && officeAdded > storeAdded)
        #expect(operations.filter { $0 == .start(RegionSelector.refreshRegionIdentifier) }.count >= 3)
    }

    @Test func stopLeavesOnlyHostRegions() async {
        let monitor = SimulatedRegionMonitor()
        await monitor.addHostRegion(
            MonitoredRegion(identifier: "host", center: Coordinate(latitude: 1, longitude: 1), radius: 100))
        let session = LocationMonitoringSession(monitor: monitor, store: nil)
        await session.start()
        await session.update(geofences: Self.decoys)
        await monitor.move(to: LocationFix(coordinate: Self.home.center, timestamp: Self.start))
        #expect(await monitor.monitoredRegions().count == 20)
        await session.stop()
        #expect(await monitor.monitoredRegions().map(\.identifier) == ["host"])
    }
}
