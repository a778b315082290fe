import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A crossing is saved with its dwell deadline and the presence it changes before anything depends on it, and is
/// recorded when the deadline passes: by the session's timer while the app runs, at the next start after a
/// termination, and in order once a full store makes room. (`LocationLifecycleTests` in the sandbox package kills
/// real processes at every step.)
@Suite("Durable crossings: the dwell deadline survives the app")
struct DurableCrossingTests {
    static let home = Geofence(
        triggerSubscriptionId: "home", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)
    static let outside = (37.70, -122.4194)
    static let inside = (37.7749, -122.4194)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)")

    /// A session on a fresh monitor that starts `outside` at `start`.
    func launch(
        store: LocationEventStore, clock: ManualClock, dwell: TimeInterval = 30,
        at position: (Double, Double) = outside,
        events: AsyncStream<RegionEvent>.Continuation? = nil
    ) async -> (LocationMonitoringSession, SimulatedRegionMonitor) {
        let monitor = SimulatedRegionMonitor()
        await monitor.move(to: LocationFix(latitude: position.0, longitude: position.1, timestamp: clock.now))
        let session = LocationMonitoringSession(monitor: monitor, store: store, clock: clock, dwellTime: dwell)
        // As the synchronizer's engine: the timer's deadline comes back here, and what it recorded is returned
        await session.start { [weak session] input in
            for event in session?.handle(routed: input).recorded ?? [] { events?.yield(event) }
        }
        await session.update(geofences: [Self.home])
        return (session, monitor)
    }

    @Test(.timeLimit(.minutes(1)))
    func theTimerRecordsTheEntryAtItsDeadlineWithTheCrossingsTime() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock(epoch)
        let (stream, continuation) = AsyncStream.makeStream(of: RegionEvent.self)
        let store = try LocationEventStore(directory: directory)
        let (session, monitor) = await launch(store: store, clock: clock, events: continuation)
        clock.advance(100)
        await monitor.move(to: LocationFix(latitude: Self.inside.0, longitude: Self.inside.1, timestamp: clock.now))
        #expect(await session.recordedEvents.isEmpty)
        #expect(await session.heldCrossings.map(\.transition) == [.entry])
        #expect(try await reopenedStore(directory).tracks["ifttt_home"]?.pending.count == 1)  // durable already

        clock.advance(30)  // the deadline: the session's timer records it, nothing else happens
        var iterator = stream.makeAsyncIterator()
        let recorded = await iterator.next()
        #expect(recorded?.transition == .entry)
        #expect(recorded?.occurredAt == epoch + 100)
        #expect(try await store.pending(now: clock.now).map(\.recordId) == [recorded?.recordId])
    }

    @Test func aRelaunchPastTheDeadlineRecordsTheEntryFirstThenTheExit() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock(epoch)
        do {
            let (session, monitor) = await launch(store: try LocationEventStore(directory: directory), clock: clock)
            clock.advance(100)
            await monitor.move(to: LocationFix(latitude: Self.inside.0, longitude: Self.inside.1, timestamp: clock.now))
            #expect(await session.recordedEvents.isEmpty)
        }  // terminated before the deadline
        clock.advance(900)
        let store = try LocationEventStore(directory: directory)
        let (session, _) = await launch(store: store, clock: clock, at: Self.outside)
        await session.releaseHeldCrossings(now: clock.now + 30)
        let recorded = try await store.pending(now: clock.now).map {
            "\($0.transition.rawValue)@\(Int($0.occurredAt.timeIntervalSince(epoch)))"
        }
        #expect(recorded == ["entry@100", "exit@1000"])
    }

    @Test func aFullStoreKeepsTheCrossingsInOrderAndRecordsThemOnceItHasRoom() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock(epoch)
        let store = try LocationEventStore(directory: directory, policy: .init(maximumPendingCount: 2))
        let fillers = (0..<2).map { _ in
            RegionEvent(transition: .entry, occurredAt: epoch, triggerSubscriptionId: "other")
        }
        for filler in fillers { try await store.append(filler) }
        let (session, monitor) = await launch(store: store, clock: clock, dwell: 0)
        for (seconds, position) in [(100.0, Self.inside), (200, Self.outside)] {
            await monitor.move(
                to: LocationFix(latitude: position.0, longitude: position.1, timestamp: epoch + seconds))
        }
        // Full: nothing recorded, both crossings wait in the journal, the entry first
        #expect(await session.recordedEvents.isEmpty)
        #expect(try await reopenedStore(directory).tracks["ifttt_home"]?.pending.map(\.transition) == [.entry, .exit])
        // An upload makes room: both are recorded, in order, with their own times
        try await store.acknowledge(fillers.map(\.recordId))
        await session.retryStorage()
        #expect(await session.isStorageSettled)
        let recorded = await session.recordedEvents.map {
            "\($0.transition.rawValue)@\(Int($0.occurredAt.timeIntervalSince(epoch)))"
        }
        #expect(recorded == ["entry@100", "exit@200"])
        #expect(try await store.pending(now: clock.now).count == 2)
    }
}
