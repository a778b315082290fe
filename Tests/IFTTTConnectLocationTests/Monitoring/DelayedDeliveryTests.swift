import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A clock whose time the test sets and whose waits never end on their own (the dwell timer does not fire): what a
/// suspended app sees, where a deadline passes while nothing runs and the platform then delivers what it held.
final class SuspendedClock: ConnectClock, Sendable {
    private let current: Locked<Date>

    init(_ start: Date) { current = Locked(start) }

    var now: Date { current.withLock { $0 } }
    var nowMilliseconds: UInt64 { UInt64(max(0, now.timeIntervalSince1970 * 1000)) }

    /// Moves the time without waking anything.
    func set(_ date: Date) { current.withLock { $0 = date } }

    func sleep(untilMilliseconds deadline: UInt64) async throws { throw CancellationError() }
}

/// Reports that arrive late, and deactivation while a crossing is due.
@Suite("Late deliveries and deactivation")
struct DelayedDeliveryTests {
    static let fence = Geofence(
        triggerSubscriptionId: "cafe", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)

    /// An exit taken 20 s after the entry, delivered 40 s after it (past the 30 s dwell deadline, before any release
    /// ran): the stay was 20 s, shorter than the dwell time, so nothing is recorded.
    @Test func aStayIsJudgedAtTheTimeOfItsFixNotItsDelivery() async throws {
        let clock = SuspendedClock(epoch)
        let monitor = SimulatedRegionMonitor()
        let session = LocationMonitoringSession(monitor: monitor, store: nil, clock: clock, dwellTime: 30)
        await session.start()
        await session.update(geofences: [Self.fence])
        let id = Self.fence.identifier
        await session.handle(.stateDetermined(identifier: id, inside: false, at: epoch))
        clock.set(epoch + 100)
        await session.handle(.regionCrossed(identifier: id, .entry, at: epoch + 100))
        clock.set(epoch + 140)
        await session.handle(.regionCrossed(identifier: id, .exit, at: epoch + 120))
        await session.releaseHeldCrossings(now: epoch + 400)
        let recorded = await session.recordedEvents.map {
            "\($0.transition.rawValue)@\(Int($0.occurredAt.timeIntervalSince(epoch)))"
        }
        #expect(recorded.isEmpty, "a 20 s stay was recorded: \(recorded)")
        #expect(await session.heldCrossings.isEmpty)
    }

    /// The same exit delivered on time still records nothing, and a 40 s stay records its entry and exit.
    @Test func aStayLongerThanTheDwellTimeIsRecordedWhateverTheDelivery() async throws {
        let clock = SuspendedClock(epoch)
        let monitor = SimulatedRegionMonitor()
        let session = LocationMonitoringSession(monitor: monitor, store: nil, clock: clock, dwellTime: 30)
        await session.start()
        await session.update(geofences: [Self.fence])
        let id = Self.fence.identifier
        await session.handle(.stateDetermined(identifier: id, inside: false, at: epoch))
        clock.set(epoch + 100)
        await session.handle(.regionCrossed(identifier: id, .entry, at: epoch + 100))
        clock.set(epoch + 200)
        await session.handle(.regionCrossed(identifier: id, .exit, at: epoch + 140))
        await session.releaseHeldCrossings(now: epoch + 400)
        #expect(await session.recordedEvents.map(\.transition) == [.entry, .exit])
        #expect(await session.recordedEvents.map(\.occurredAt) == [epoch + 100, epoch + 140])
    }

    /// A crossing whose dwell deadline passed while the app was suspended, when the user deactivates: deactivation is
    /// one step, so the crossing is neither recorded, nor reported to the app, nor left in the store, and nothing is
    /// recorded once `deactivate()` returned.
    @Test func nothingIsRecordedOrReportedAfterDeactivateReturns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deact-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let api = FakeIFTTT()
        api.setConnection(
            "gx", triggers: [FakeIFTTT.Trigger(id: "cafe", latitude: 37.7749, longitude: -122.4194, radius: 150)])
        let monitor = SimulatedRegionMonitor()
        let clock = SuspendedClock(epoch)
        var configuration = Synchronizer.Configuration(
            regionMonitor: monitor, storageDirectory: directory, transport: api,
            anonymousId: "install-1", secureStore: FileSecureStore(directory: directory), clock: clock,
            random: { 0.5 })
        configuration.useServer(at: URL(string: "https://ifttt.test")!)
        configuration.dwellTime = 30
        let synchronizer = Synchronizer(configuration: configuration)
        let reports = Recorder<String>()
        let deactivated = Locked(false)
        synchronizer.setLocationEventReportedClosure { events in
            for event in events where deactivated.withLock({ $0 }) {
                reports.append("\(event)")
            }
        }
        await synchronizer.setup(with: ConnectionCredentials(userToken: "tok", inviteCode: nil))
        await synchronizer.activate(connections: ["gx"])
        await synchronizer.waitUntilIdle()
        await monitor.move(
            to: LocationFix(latitude: 37.70, longitude: -122.4194, horizontalAccuracy: 5, timestamp: epoch))
        clock.set(epoch + 60)
        await monitor.move(
            to: LocationFix(latitude: 37.7749, longitude: -122.4194, horizontalAccuracy: 5, timestamp: epoch + 60))
        await synchronizer.waitUntilIdle()
        #expect(reports.values.isEmpty)
        clock.set(epoch + 200)  // the entry's deadline (epoch + 90) passed; no release ran
        deactivated.withLock { $0 = true }
        await synchronizer.deactivate()
        await synchronizer.waitUntilIdle()
        #expect(reports.values.isEmpty, "reported once deactivate was called: \(reports.values)")
        let store = try LocationEventStore(directory: directory)
        #expect(try await store.pending(now: epoch + 200).isEmpty)
        #expect(await store.tracks().values.allSatisfy { $0.pending.isEmpty })
    }
}
