import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// Every order of the five things that can release one held crossing (the dwell timer, a region event,
/// `retryStorage()`, `start()` and an upload that makes room in a full store), with each store call's answer
/// arriving at once or only after the next of them (as an `await` lets it), driven through ``CrossingLedger``
/// exactly as the session's shell drives it. The crossing is appended once, removed once and reported once, and
/// the exit that follows it is neither lost nor reported before it.
@Suite("Crossing ledger: every interleaving around one held crossing (issue 29, D1)")
struct CrossingInterleavingTests {
    static let home = Geofence(
        triggerSubscriptionId: "home", center: Coordinate(latitude: 37.7749, longitude: -122.4194), radius: 150)
    static let id = home.identifier

    /// The ledger and a model of the store (its journal, its free slots) and of the `await`s between a store call
    /// and its answer.
    struct World {
        var ledger = CrossingLedger(storage: .open, dwellTime: 30, unstoredLimit: 64)
        var journal: [RegionEvent] = []
        var storeTracks: [String: GeofenceTrack] = [:]
        var freeSlots = 0  // full until the upload makes room
        var reported: [RegionEvent] = []
        var answers: [CrossingLedger.Event] = []
        var appendsInFlight = Set<UUID>()
        var violations: [String] = []

        mutating func feed(_ event: CrossingLedger.Event) {
            for effect in ledger.handle(event) { perform(effect) }
        }

        mutating func perform(_ effect: CrossingLedger.Effect) {
            switch effect {
            case .append(let event):
                if !appendsInFlight.insert(event.recordId).inserted {
                    violations.append("\(event.transition) appended while its append was in flight")
                }
                if journal.contains(where: { $0.recordId == event.recordId }) {
                    violations.append("\(event.transition) appended twice")
                }
                guard freeSlots > 0 else {
                    answers.append(.appended(event.recordId, error: LocationError(.storeFull, "full")))
                    return
                }
                freeSlots -= 1
                journal.append(event)
                for (id, track) in storeTracks {
                    storeTracks[id]?.pending = track.pending.filter { $0.event?.recordId != event.recordId }
                }
                answers.append(.appended(event.recordId, error: nil))
            case .save(let tracks):
                storeTracks.merge(tracks) { _, new in new }
                answers.append(.saved(tracks, error: nil))
            case .openStore:
                answers.append(.storeOpened(storeTracks))
            case .record(let event):
                if reported.contains(where: { $0.recordId == event.recordId }) {
                    violations.append("\(event.transition) reported twice")
                }
                reported.append(event)
            case .fail, .scheduleRelease:
                break
            }
        }

        /// Delivers the store's answers that are waiting (and the ones they cause).
        mutating func answer() {
            while !answers.isEmpty {
                let next = answers.removeFirst()
                if case .appended(let id, _) = next { appendsInFlight.remove(id) }
                feed(next)
            }
        }
    }

    enum Action: String, CaseIterable {
        case timer, regionEvent, retryStorage, start, uploadCompletion
    }

    /// One held entry at +100 s (due at +130 s) in a full store.
    static func heldEntry() -> World {
        var world = World()
        world.feed(.geofencesKnown([home]))
        world.feed(.presenceChanged([id: .outside], crossings: [:], at: epoch))
        world.answer()
        let entry = RegionSelector.Crossing(geofence: home, transition: .entry, occurredAt: epoch + 100)
        world.feed(.presenceChanged([id: .inside], crossings: [id: entry], at: epoch + 100))
        world.answer()
        return world
    }

    /// What the shell feeds the ledger for `action` (the session's `run`).
    static func perform(_ action: Action, in world: inout World) {
        switch action {
        case .timer:
            world.feed(.release(now: epoch + 130))
        case .regionEvent:  // the device leaves at +140 s: release, presence, release
            world.feed(.release(now: epoch + 140))
            let exit = RegionSelector.Crossing(geofence: home, transition: .exit, occurredAt: epoch + 140)
            world.feed(.presenceChanged([id: .outside], crossings: [id: exit], at: epoch + 140))
            world.feed(.release(now: epoch + 140))
        case .retryStorage:
            world.feed(.release(now: epoch + 135))
        case .start:
            world.feed(.storeOpened(world.storeTracks))
            world.feed(.release(now: epoch + 130))
        case .uploadCompletion:
            world.freeSlots += 10
            world.feed(.release(now: epoch + 150))  // the Synchronizer's retryStorage() after an upload
        }
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index -> [[T]] in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test func everyOrderRecordsTheEntryOnceAndKeepsTheExit() {
        let orders = Self.permutations(Action.allCases)
        var schedules = 0
        var failures: [String] = []
        for order in orders {
            // Bit i set: the answers to the i-th action's store calls arrive only after the next action.
            for deferred in 0..<(1 << order.count) {
                var world = Self.heldEntry()
                for (index, action) in order.enumerated() {
                    Self.perform(action, in: &world)
                    if deferred & (1 << index) == 0 { world.answer() }
                }
                world.answer()
                world.feed(.release(now: epoch + 200))  // the exit's dwell time has passed
                world.answer()
                schedules += 1
                let recorded = world.reported.map {
                    "\($0.transition.rawValue)@\(Int($0.occurredAt.timeIntervalSince(epoch)))"
                }
                let stored = world.journal.map(\.recordId)
                if recorded != ["entry@100", "exit@140"] || stored != world.reported.map(\.recordId)
                    || !world.violations.isEmpty || !(world.ledger.tracks[Self.id]?.pending.isEmpty ?? true)
                {
                    failures.append("\(order.map(\.rawValue)) deferred \(deferred): \(recorded) \(world.violations)")
                }
            }
        }
        #expect(orders.count == 120)
        #expect(schedules == 3_840)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func aReleaseWhileAnAppendIsInFlightWaitsForItsAnswer() {
        var world = Self.heldEntry()
        world.freeSlots = 1
        world.feed(.release(now: epoch + 130))
        #expect(world.ledger.appending?.event.transition == .entry)
        world.feed(.release(now: epoch + 130))  // the dwell timer, a fix, retryStorage(), start()
        world.feed(.storeOpened(world.storeTracks))
        world.feed(.release(now: epoch + 131))
        #expect(world.journal.count == 1)  // one append, not four
        world.answer()
        #expect(world.reported.map(\.transition) == [.entry])
        #expect(world.ledger.tracks[Self.id]?.pending.isEmpty == true)
        #expect(world.violations.isEmpty)
    }

    @Test func aStaleAnswerChangesNothing() {
        var world = Self.heldEntry()
        let before = world.ledger
        #expect(world.ledger.handle(.appended(UUID(), error: nil)).isEmpty)
        #expect(world.ledger == before)
    }
}

/// The same races through real sessions, stores and tasks, many times over: every order in which the five
/// callers start, then random mixes of them, on several geofences. Run under ThreadSanitizer by the full tier
/// (`scripts/checks/56-location-tsan.sh`).
@Suite("Location session under concurrent callers (issue 29, D1 stress)")
struct LocationSessionStressTests {
    static let home = CrossingInterleavingTests.home

    /// A session started after an earlier launch held an entry at +100 s; the store is full until an upload.
    static func relaunch(
        directory: URL, clock: ManualClock
    ) async throws -> (LocationMonitoringSession, LocationEventStore, [RegionEvent]) {
        let store = try LocationEventStore(directory: directory, policy: .init(maximumPendingCount: 2))
        let fillers = (0..<2).map { _ in RegionEvent(transition: .entry, occurredAt: epoch, triggerSubscriptionId: "x")
        }
        for filler in fillers { try await store.append(filler) }
        do {
            let monitor = SimulatedRegionMonitor()
            await monitor.move(to: LocationFix(latitude: 37.70, longitude: -122.4194, timestamp: epoch))
            let first = LocationMonitoringSession(monitor: monitor, store: store, clock: clock)
            await first.start()
            await first.update(geofences: [home])
            await monitor.move(to: LocationFix(latitude: 37.7749, longitude: -122.4194, timestamp: epoch + 100))
        }  // terminated before the deadline
        let monitor = SimulatedRegionMonitor()
        await monitor.move(to: LocationFix(latitude: 37.7749, longitude: -122.4194, timestamp: epoch + 100))
        let session = LocationMonitoringSession(monitor: monitor, store: store, clock: clock)
        return (session, store, fillers)
    }

    @Test(.timeLimit(.minutes(3)))
    func everyStartingOrderOfTheFiveCallersRecordsTheEntryOnce() async throws {
        let orders = CrossingInterleavingTests.permutations(CrossingInterleavingTests.Action.allCases)
        for order in orders {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stress-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = ManualClock(epoch + 100)
            let (session, store, fillers) = try await Self.relaunch(directory: directory, clock: clock)
            await withTaskGroup(of: Void.self) { group in
                for action in order {
                    switch action {
                    case .timer: group.addTask { clock.advance(30) }
                    case .regionEvent:
                        group.addTask {
                            await session.handle(
                                .location(LocationFix(latitude: 37.7749, longitude: -122.4194, timestamp: epoch + 131)))
                        }
                    case .retryStorage: group.addTask { await session.retryStorage() }
                    case .start: group.addTask { await session.start() }
                    case .uploadCompletion:
                        group.addTask {
                            try? await store.acknowledge(fillers.map(\.recordId))
                            await session.retryStorage()
                        }
                    }
                }
            }
            await session.start()
            await session.releaseHeldCrossings(now: epoch + 200)
            let recorded = await session.recordedEvents
            #expect(recorded.map(\.transition) == [.entry], "\(order)")
            #expect(try await store.pending(now: epoch + 200).map(\.recordId) == recorded.map(\.recordId), "\(order)")
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func manyCallersOnManyGeofencesLoseAndDuplicateNothing() async throws {
        var rng = SplitMix64(seed: 29)
        let fences = (0..<4).map { i in
            Geofence(
                triggerSubscriptionId: "g\(i)",
                center: Coordinate(latitude: 37.70 + Double(i) * 0.02, longitude: -122.4194), radius: 150)
        }
        for round in 0..<25 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stress-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let clock = ManualClock(epoch)
            let store = try LocationEventStore(directory: directory)
            let monitor = SimulatedRegionMonitor()
            await monitor.move(to: LocationFix(latitude: 37.60, longitude: -122.4194, timestamp: epoch))
            let session = LocationMonitoringSession(monitor: monitor, store: store, clock: clock, dwellTime: 5)
            await session.start()
            await session.update(geofences: fences)
            // A walk through the geofences (one fix every 4 to 12 s), while releases come from everywhere.
            let steps = (1...12).map { step -> (TimeInterval, Double) in
                (
                    Double(step) * Double.random(in: 4..<12, using: &rng),
                    37.69 + Double.random(in: 0..<0.08, using: &rng)
                )
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for (seconds, latitude) in steps.sorted(by: { $0.0 < $1.0 }) {
                        await monitor.move(
                            to: LocationFix(latitude: latitude, longitude: -122.4194, timestamp: epoch + seconds))
                    }
                }
                for _ in 0..<8 {
                    group.addTask { clock.advance(3) }
                    group.addTask { await session.retryStorage() }
                    group.addTask { await session.releaseHeldCrossings(now: clock.now) }
                }
            }
            await session.releaseHeldCrossings(now: epoch + 1_000)
            let recorded = await session.recordedEvents
            let stored = try await store.pending(now: epoch)
            #expect(Set(recorded.map(\.recordId)).count == recorded.count, "round \(round): reported twice")
            #expect(stored.map(\.recordId) == recorded.map(\.recordId), "round \(round)")
            // Per geofence the recorded crossings alternate, starting with an entry.
            for fence in fences {
                let kinds = recorded.filter { $0.triggerSubscriptionId == fence.triggerSubscriptionId }.map(
                    \.transition)
                let alternating = kinds.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? .entry : .exit) }
                #expect(alternating, "round \(round) \(fence.triggerSubscriptionId): \(kinds)")
            }
            #expect(await session.heldCrossings.isEmpty)
            #expect(await session.unstoredEvents.isEmpty)
        }
    }
}
