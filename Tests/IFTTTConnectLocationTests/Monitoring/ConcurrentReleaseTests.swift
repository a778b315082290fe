import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// D1 of issue 29: the dwell timer, a region event or location fix, `retryStorage()` and `start()` can each
/// release the same held crossing at the same moment. Before the engine had one owner for its state, two
/// releases both committed the crossing and each removed one pending entry: the second removal trapped ("Can't
/// remove first element from an empty collection") or removed the next crossing (a lost exit, a duplicated
/// entry). Each scenario runs 20 times, as the harness that found it did.
@Suite("Concurrent releases of one held crossing (issue 29, D1)")
struct ConcurrentReleaseTests {
    static let home = Geofence(
        triggerSubscriptionId: "home", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)
    static let outside = LocationFix(latitude: 37.70, longitude: -122.4194, timestamp: epoch)
    static func inside(_ seconds: TimeInterval) -> LocationFix {
        LocationFix(latitude: 37.7749, longitude: -122.4194, timestamp: epoch + seconds)
    }
    static func outside(_ seconds: TimeInterval) -> LocationFix {
        LocationFix(latitude: 37.70, longitude: -122.4194, timestamp: epoch + seconds)
    }

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("concurrent-\(UUID().uuidString)")
    }

    /// A started session outside `home` with an entry held at +100 s (due at +130 s).
    static func heldEntry(
        store: LocationEventStore, clock: ManualClock, dwell: TimeInterval = 30
    ) async -> (LocationMonitoringSession, SimulatedRegionMonitor) {
        let monitor = SimulatedRegionMonitor()
        await monitor.move(to: outside)
        let session = LocationMonitoringSession(monitor: monitor, store: store, clock: clock, dwellTime: dwell)
        await session.start()
        await session.update(geofences: [home])
        clock.advance(100)
        await monitor.move(to: inside(100))
        return (session, monitor)
    }

    static func described(_ events: [RegionEvent]) -> [String] {
        events.map { "\($0.transition.rawValue)@\(Int($0.occurredAt.timeIntervalSince(epoch)))" }
    }

    @Test(.timeLimit(.minutes(2)))
    func theDwellTimerAndTheAppReleasingAtOnceRecordTheEntryOnce() async throws {
        for _ in 0..<20 {
            let directory = Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = ManualClock(epoch)
            let store = try LocationEventStore(directory: directory)
            let (session, _) = await Self.heldEntry(store: store, clock: clock)
            clock.advance(30)  // the dwell timer fires now ...
            async let app = session.releaseHeldCrossings(now: epoch + 130)  // ... as the app releases
            async let again = session.releaseHeldCrossings(now: epoch + 130)
            _ = await (app, again)
            await session.releaseHeldCrossings(now: epoch + 130)  // the timer's release, if it was later
            #expect(Self.described(await session.recordedEvents) == ["entry@100"])
            #expect(try await store.pending(now: clock.now).count == 1)
            #expect(await session.heldCrossings.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aLocationFixArrivingAsTheAppReleasesRecordsTheEntryOnce() async throws {
        for _ in 0..<20 {
            let directory = Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = ManualClock(epoch)
            let store = try LocationEventStore(directory: directory)
            let (session, _) = await Self.heldEntry(store: store, clock: clock)
            clock.advance(30)
            async let app = session.releaseHeldCrossings(now: epoch + 130)
            async let fix = session.handle(.location(Self.inside(130)))
            async let retry = session.retryStorage()
            _ = await (app, fix, retry)
            await session.releaseHeldCrossings(now: epoch + 130)
            #expect(Self.described(await session.recordedEvents) == ["entry@100"])
            #expect(try await store.pending(now: clock.now).count == 1)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anUploadMakingRoomAsAFixArrivesKeepsTheExitAndRecordsTheEntryOnce() async throws {
        for _ in 0..<20 {
            let directory = Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = ManualClock(epoch)
            let store = try LocationEventStore(directory: directory, policy: .init(maximumPendingCount: 2))
            let fillers = (0..<2).map { _ in
                RegionEvent(transition: .entry, occurredAt: epoch, triggerSubscriptionId: "other")
            }
            for filler in fillers { try await store.append(filler) }
            let (session, monitor) = await Self.heldEntry(store: store, clock: clock, dwell: 0)
            await monitor.move(to: Self.outside(200))
            #expect(await session.recordedEvents.isEmpty)  // full: both wait in the journal
            try await store.acknowledge(fillers.map(\.recordId))  // an upload made room ...
            async let retry = session.retryStorage()  // ... and the Synchronizer's run retries ...
            async let fix = session.handle(.location(Self.outside(210)))  // ... as a fix arrives
            _ = await (retry, fix)
            await session.releaseHeldCrossings(now: epoch + 210)
            let recorded = await session.recordedEvents
            #expect(Self.described(recorded) == ["entry@100", "exit@200"])
            #expect(Set(recorded.map(\.recordId)).count == recorded.count)
            #expect(Self.described(try await store.pending(now: clock.now)) == ["entry@100", "exit@200"])
        }
    }
}
