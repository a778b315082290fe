import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// The SDK stops only regions it registered itself, across relaunches, and uses a single free slot for a geofence.
@Suite("Region ownership across launches")
struct RegionOwnershipTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let fences = (0..<30).map { i in
        Geofence(
            triggerSubscriptionId: String(format: "fence_%02d", i),
            center: Coordinate(latitude: 37.0 + Double(i) * 0.01, longitude: -122.0), radius: 200)
    }

    @Test func aRelaunchStopsTheSDKsRegionsButNeverAnIFTTTNamedHostRegion() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ownership-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ownership = RegionOwnershipFile(directory: directory)
        // Given a host app with a region named like the SDK's, and a first launch that monitors 30 geofences
        let monitor = SimulatedRegionMonitor()
        let host = MonitoredRegion(
            identifier: "ifttt_host_depot", center: Coordinate(latitude: 40, longitude: -74), radius: 250)
        await monitor.addHostRegion(host)
        await monitor.move(
            to: LocationFix(coordinate: Coordinate(latitude: 37.05, longitude: -122.0), timestamp: Self.start))
        let first = LocationMonitoringSession(monitor: monitor, store: nil, ownership: ownership)
        await first.start()
        await first.update(geofences: Self.fences)
        let registered = Set(await first.monitoredRegions.map(\.identifier))
        #expect(registered.count == 19)
        #expect(ownership.load() == registered)  // saved: the file names exactly the SDK's regions
        // When the app relaunches (a new session, the platform still monitoring everything) and geofencing stops
        let second = LocationMonitoringSession(monitor: monitor, store: nil, ownership: ownership)
        let operationsBefore = await monitor.operations.count
        await second.start()
        await second.update(geofences: Self.fences)
        // (the relaunch re-arms nothing: the same regions stay, untouched)
        let relaunchOperations = await monitor.operations.dropFirst(operationsBefore)
        #expect(
            !relaunchOperations.contains {
                if case .start = $0 { return true }
                if case .stop = $0 { return true }
                return false
            })
        #expect(Set(await second.monitoredRegions.map(\.identifier)) == registered)
        await second.stop()
        // Then every region of the first launch is stopped, and the host's `ifttt_` region stays
        #expect(await monitor.monitoredRegions() == [host])
        #expect(ownership.load().isEmpty)
    }

    @Test func theCrossingThatLaunchedTheAppIsRecordedOnceTheGeofencesAreRead() throws {
        let fence = Self.fences[0]
        var selector = RegionSelector(ownedIdentifiers: [fence.identifier])
        #expect(selector.handle(.monitoredRegionsObserved([fence.monitoredRegion]), now: Self.start).isEmpty)
        let crossedAt = Self.start.addingTimeInterval(1)
        #expect(selector.handle(.regionCrossed(identifier: fence.identifier, .entry), now: crossedAt).isEmpty)
        let effects = selector.handle(.geofencesChanged(Self.fences), now: Self.start.addingTimeInterval(2))
        let records = effects.compactMap { if case .record(let crossing) = $0 { return crossing } else { return nil } }
        #expect(records.map(\.geofence.identifier) == [fence.identifier])
        #expect(records.first?.occurredAt == crossedAt)
        #expect(!effects.contains(.stopMonitoring(identifier: fence.identifier)))
    }

    @Test func withOneFreeSlotEveryGeofenceOnTheWayReports() async throws {
        // Given a host app that monitors 19 regions
        let monitor = SimulatedRegionMonitor()
        for i in 0..<19 {
            await monitor.addHostRegion(
                MonitoredRegion(
                    identifier: "host_\(i)", center: Coordinate(latitude: 10, longitude: Double(i)), radius: 100))
        }
        let events = EventLog()
        let session = LocationMonitoringSession(monitor: monitor, store: nil)
        // The session's owner takes the monitor's events and hands them back; each returns what it recorded
        await session.start { [weak session] input in
            for event in session?.handle(routed: input).recorded ?? [] { events.append(event) }
        }
        await monitor.move(
            to: LocationFix(coordinate: Coordinate(latitude: 36.99, longitude: -122.0), timestamp: Self.start))
        for event in await session.update(geofences: Self.fences).recorded { events.append(event) }
        // Outside every geofence: a refresh region that reaches the nearest one
        #expect(await session.monitoredRegions.map(\.identifier) == [RegionSelector.refreshRegionIdentifier])
        // When the user walks north through the first three geofences (the platform reports a significant change every 500 m)
        for step in 1...30 {
            await monitor.move(
                to: LocationFix(
                    coordinate: Coordinate(latitude: 36.99 + Double(step) * 0.001, longitude: -122.0),
                    timestamp: Self.start.addingTimeInterval(Double(step) * 20)))
        }
        // Then each was entered and left, in order, and the host regions were never touched
        #expect(events.all == (await session.recordedEvents))
        let recorded = events.all.map { "\($0.transition.rawValue) \($0.triggerSubscriptionId)" }
        #expect(
            recorded.prefix(5) == [
                "entry fence_00", "exit fence_00", "entry fence_01", "exit fence_01", "entry fence_02",
            ])
        #expect(await monitor.monitoredRegions().filter { $0.identifier.hasPrefix("host_") }.count == 19)
        #expect(await monitor.peakRegionCount == 20)
    }
}

/// Collects events from any thread.
final class EventLog: Sendable {
    private let events = Locked<[RegionEvent]>([])
    func append(_ event: RegionEvent) { events.withLock { $0.append(event) } }
    var all: [RegionEvent] { events.withLock { $0 } }
}
