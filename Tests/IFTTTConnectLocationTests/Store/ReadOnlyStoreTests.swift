import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A store whose directory cannot be written still uploads what it holds and says why it records nothing new.
/// (`LocationDeliveryTests` in the sandbox package does the same on a read-only mount.)
@Suite("A read-only event store")
struct ReadOnlyStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readonly-\(UUID().uuidString)")

    func written(_ count: Int) async throws -> [RegionEvent] {
        let store = try LocationEventStore(directory: directory)
        let events = (0..<count).map {
            RegionEvent(
                transition: .entry, occurredAt: epoch.addingTimeInterval(Double($0)), triggerSubscriptionId: "s\($0)")
        }
        for event in events { try await store.append(event) }
        return events
    }

    @Test func itUploadsWhatItHoldsOnceAndRefusesNewCrossingsWithTheReason() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = try await written(60)
        let log = Recorder<String>()
        let store = try LocationEventStore(directory: directory, readOnly: true, logHandler: { log.append($0) })
        #expect(store.isReadOnly)
        #expect(log.values.contains { $0.contains("read-only") })
        #expect(try await store.pending(now: epoch) == events)

        // A new crossing is refused with the reason
        do {
            try await store.append(RegionEvent(transition: .exit, occurredAt: epoch, triggerSubscriptionId: "s0"))
            Issue.record("a read-only store took an event")
        } catch {
            #expect(error.code == .readOnly)
            #expect(error.message.contains("cannot be recorded"))
        }

        // Everything it holds is uploaded, once during this run
        let api = RefusingLocationAPI(refusing: [], style: .namesNothing)
        let uploader = LocationUploader(
            store: store,
            configuration: .init(
                network: .init(
                    transport: api, locationBaseURL: URL(string: "https://location.test/v1")!, anonymousId: "i")),
            clock: ManualClock(epoch))
        let report = await uploader.uploadPending(userToken: "token")
        #expect(report.uploaded == 60 && report.next == .done)
        #expect(Set(api.acceptedIds.keys) == Set(events.map(\.recordId.uuidString)))
        #expect(try await store.pending(now: epoch).isEmpty)
        #expect(await uploader.uploadPending(userToken: "token").uploaded == 0)
        // Nothing was written: another run reads the same events (re-sending them is harmless, by record_id)
        #expect(try await LocationEventStore(directory: directory, readOnly: true).pending(now: epoch) == events)
    }

    @Test func aSessionOnAReadOnlyStoreReportsNothingAndSaysWhy() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await written(1)
        let store = try LocationEventStore(directory: directory, readOnly: true)
        let outcomes = Recorder<LocationMonitoringSession.Outcome>()
        let monitor = SimulatedRegionMonitor()
        let session = LocationMonitoringSession(
            monitor: monitor, store: store, clock: ManualClock(epoch), dwellTime: 0)
        await session.start(keepingOutcomesIn: outcomes)
        let fence = Geofence(
            triggerSubscriptionId: "home", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)
        await monitor.move(
            to: LocationFix(latitude: 37.70, longitude: -122.4194, horizontalAccuracy: 5, timestamp: epoch))
        outcomes.append(await session.update(geofences: [fence]))
        await monitor.move(
            to: LocationFix(latitude: 37.7749, longitude: -122.4194, horizontalAccuracy: 5, timestamp: epoch + 60))
        #expect(outcomes.recorded.isEmpty)
        #expect(outcomes.errors.contains { $0.code == .readOnly })
        #expect(await session.unstoredEvents.map(\.transition) == [.entry])  // kept in memory, not lost
    }

    /// Two crossings on a read-only store, with fixes in between: the app hears of each failure once (each crossing
    /// that cannot be stored, and the presence that cannot be saved), not at every event that retries it (before: 22
    /// callbacks).
    @Test func eachFailureIsReportedOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await written(1)
        let store = try LocationEventStore(directory: directory, readOnly: true)
        let outcomes = Recorder<LocationMonitoringSession.Outcome>()
        let monitor = SimulatedRegionMonitor()
        let session = LocationMonitoringSession(monitor: monitor, store: store, clock: ManualClock(epoch), dwellTime: 0)
        await session.start(keepingOutcomesIn: outcomes)
        let fence = Geofence(
            triggerSubscriptionId: "home", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)
        await monitor.move(
            to: LocationFix(latitude: 37.70, longitude: -122.4194, horizontalAccuracy: 5, timestamp: epoch))
        outcomes.append(await session.update(geofences: [fence]))
        for (n, latitude) in [37.7749, 37.7749, 37.7750, 37.7748, 37.70, 37.70, 37.701].enumerated() {
            await monitor.move(
                to: LocationFix(
                    latitude: latitude, longitude: -122.4194, horizontalAccuracy: 5,
                    timestamp: epoch + 60 * Double(n + 1)))
        }
        outcomes.append(await session.retryStorage())
        #expect(await session.unstoredEvents.map(\.transition) == [.entry, .exit])
        let errors = outcomes.errors
        #expect(errors.count <= 3, "\(errors.count) errors returned for 2 crossings: \(errors.map(\.message))")
        #expect(errors.contains { $0.code == .readOnly })
    }
}
