import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

extension LocationMonitoringSession {
    /// Starts the session as the synchronizer's engine does: its monitor events and dwell deadlines come back to
    /// the owner, which hands each to the session; every outcome (these and the start's) goes to `outcomes`.
    func start(keepingOutcomesIn outcomes: Recorder<Outcome>) async {
        let started = await start { [weak self] input in
            guard let self else { return }
            outcomes.append(self.handle(routed: input))
        }
        outcomes.append(started)
    }
}

extension Recorder where Value == LocationMonitoringSession.Outcome {
    var recorded: [RegionEvent] { values.flatMap(\.recorded) }
    var errors: [LocationError] { values.flatMap(\.errors) }
}

/// The session returns what each input did, to the one caller that acts on it; nothing is called back.
@Suite("Session outcomes: what an input recorded, returned")
struct SessionOutcomeTests {
    static let home = Geofence(
        triggerSubscriptionId: "home", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)
    static func fix(_ latitude: Double, at seconds: TimeInterval) -> LocationFix {
        LocationFix(latitude: latitude, longitude: -122.4194, horizontalAccuracy: 5, timestamp: epoch + seconds)
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outcome-\(UUID().uuidString)")

    @Test func aCrossingIsReturnedByTheInputThatRecordedItOnceStored() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let clock = ManualClock(epoch)
        let session = LocationMonitoringSession(
            monitor: SimulatedRegionMonitor(), store: store, clock: clock, dwellTime: 30)
        await session.start()
        #expect(await session.update(geofences: [Self.home]).isEmpty)
        #expect(
            await session.handle(.stateDetermined(identifier: Self.home.identifier, inside: false, at: epoch)).isEmpty)
        // The entry is held for its dwell time: the region event records nothing yet
        let entry = await session.handle(.regionCrossed(identifier: Self.home.identifier, .entry, at: epoch + 100))
        #expect(entry.isEmpty)
        // The release at its deadline returns it, already in the store
        clock.advance(130)
        let released = await session.releaseHeldCrossings(now: epoch + 130)
        #expect(released.errors.isEmpty)
        #expect(released.recorded.map(\.transition) == [.entry])
        #expect(released.recorded.first?.occurredAt == epoch + 100)
        #expect(try await store.pending(now: clock.now).map(\.recordId) == released.recorded.map(\.recordId))
        // Returned once: nothing is due any more
        #expect(await session.releaseHeldCrossings(now: epoch + 200).isEmpty)
    }

    @Test func aRefusedStoreWriteIsReturnedAsOneErrorAndTheCrossingLaterWhenItFits() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory, policy: .init(maximumPendingCount: 1))
        let filler = RegionEvent(transition: .entry, occurredAt: epoch, triggerSubscriptionId: "other")
        try await store.append(filler)
        let session = LocationMonitoringSession(
            monitor: SimulatedRegionMonitor(), store: store, clock: ManualClock(epoch), dwellTime: 0)
        await session.start()
        await session.update(geofences: [Self.home])
        await session.handle(.stateDetermined(identifier: Self.home.identifier, inside: false, at: epoch))
        // The store is full: the crossing is not recorded, the input returns why, once
        let refused = await session.handle(.regionCrossed(identifier: Self.home.identifier, .entry, at: epoch + 10))
        #expect(refused.recorded.isEmpty)
        #expect(refused.errors.count == 1)
        #expect(refused.errors.first?.code == .storeFull)
        // Later inputs that retry it do not repeat the error
        #expect(await session.handle(.location(Self.fix(37.7749, at: 20))).isEmpty)
        #expect(await session.retryStorage().isEmpty)
        #expect(!(await session.isStorageSettled))
        // Room is made: the retry returns the crossing, with its own time
        try await store.acknowledge([filler.recordId])
        let retried = await session.retryStorage()
        #expect(retried.errors.isEmpty)
        #expect(retried.recorded.map(\.occurredAt) == [epoch + 10])
        #expect(await session.isStorageSettled)
    }

    /// A session whose store could not be opened yet asks for it in its outcomes instead of opening it through a
    /// callback; the crossing waits and is recorded, with its own time, once the store is given.
    @Test func aStoreNotOpenYetIsAskedForAndTheCrossingRecordedOnceItIsGiven() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = LocationMonitoringSession(
            monitor: SimulatedRegionMonitor(), store: nil, clock: ManualClock(epoch), storeLater: true, dwellTime: 0)
        #expect(await session.start().needsStore)
        await session.update(geofences: [Self.home])
        await session.handle(.stateDetermined(identifier: Self.home.identifier, inside: false, at: epoch))
        let crossing = await session.handle(.regionCrossed(identifier: Self.home.identifier, .entry, at: epoch + 10))
        #expect(crossing.needsStore && crossing.recorded.isEmpty)
        // Still cannot be opened: said once, the crossing waits
        let failed = await session.storeOpened(nil)
        #expect(failed.recorded.isEmpty)
        #expect(failed.errors.filter { $0.message.contains("cannot be opened") }.count == 1)
        #expect(await session.unstoredEvents.map(\.transition) == [.entry])
        // Given: recorded in the store, with its own time; nothing is asked for any more
        let store = try LocationEventStore(directory: directory)
        let opened = await session.storeOpened(store)
        #expect(opened.recorded.map(\.occurredAt) == [epoch + 10])
        #expect(try await store.pending(now: epoch).map(\.recordId) == opened.recorded.map(\.recordId))
        #expect(!(await session.retryStorage().needsStore))
        #expect(await session.isStorageSettled)
    }

    /// A monitor that answers a command at once (the simulated one) routes its answer to the owner while the
    /// command runs: the answer's crossing is part of the command's outcome, not lost and not returned twice.
    @Test func anAnswerRoutedDuringACommandIsPartOfTheCommandsOutcome() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let monitor = SimulatedRegionMonitor()
        await monitor.move(to: Self.fix(37.70, at: 0))
        let session = LocationMonitoringSession(monitor: monitor, store: store, clock: ManualClock(epoch), dwellTime: 0)
        let outcomes = Recorder<LocationMonitoringSession.Outcome>()
        await session.start(keepingOutcomesIn: outcomes)
        await monitor.move(to: Self.fix(37.7749, at: 10))  // inside before the geofence is known
        let update = await session.update(geofences: [Self.home])
        // The state the monitor answered at once records the arrival; the routed answer itself returned nothing
        #expect(update.recorded.map(\.transition) == [.entry])
        #expect(outcomes.recorded.isEmpty)
        await monitor.move(to: Self.fix(37.70, at: 100))
        #expect(outcomes.recorded.map(\.transition) == [.exit])
        #expect(await session.recordedEvents.map(\.recordId) == (update.recorded + outcomes.recorded).map(\.recordId))
    }
}
