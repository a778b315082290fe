import Foundation
import IFTTTConnectCore

/// Runs geofencing: feeds a ``RegionMonitor``'s events to a ``RegionSelector``, performs its effects, and
/// records crossings in a ``LocationEventStore``.
///
/// * **Nothing reported that was not stored.** With a store (or a store opener), `onEvent` runs only after the
///   crossing's append returned. A crossing that cannot be stored is kept in memory (at most
///   ``unstoredLimit``), `onError` says why, and it is stored and reported when the store works again (the
///   opener is retried on every crossing and on ``retryStorage()``).
/// * **Presence survives relaunches and toggles.** Inside/outside per geofence is saved with the journal; a
///   crossing that repeats the saved presence (a relaunch, or geofences turned off and on while inside) is
///   not recorded.
/// * **Optional dwell filter** (`dwellTime`, off by default): an entry is recorded only once the device stayed
///   inside that long, and an exit followed by a re-entry within that time records neither.
///
/// This is the shell the synchronization API sits on: `initialize` creates a session and calls ``start()``
/// (so crossings are captured from launch), `activate` and Connection updates call ``update(connections:)``,
/// `deactivate` calls ``stop()``.
///
/// ```swift
/// let session = LocationMonitoringSession(monitor: monitor, store: try LocationEventStore())
/// await session.start()
/// await session.update(connections: [connection])
/// ```
public actor LocationMonitoringSession {
    private let monitor: any RegionMonitor
    private var store: LocationEventStore?
    private let openStore: (@Sendable () async -> LocationEventStore?)?
    private let dwellTime: TimeInterval
    private var savedPresence: [String: RegionSelector.Presence] = [:]
    private var unstored: [RegionEvent] = []
    private var heldEntries: [String: RegionEvent] = [:]
    /// Exits within the dwell time, by geofence: the event to record, or `nil` when the trigger does not record
    /// exits (the exit still cancels a re-entry within the dwell time).
    private var heldExits: [String: (event: RegionEvent?, at: Date)] = [:]
    /// Geofences whose last recorded crossing (with the dwell filter) was an entry.
    private var reportedInside = Set<String>()
    private var latestEventTime: Date?
    /// The most crossings kept in memory while the store cannot take them; beyond, the oldest is dropped (and logged).
    public static let unstoredLimit = 1_000
    /// How many of the latest recorded events ``recordedEvents`` keeps.
    public static let recordedEventsLimit = 1_000
    private let clock: any ConnectClock
    private let onEvent: (@Sendable (RegionEvent) -> Void)?
    private let onError: (@Sendable (LocationError) -> Void)?
    private let ownership: RegionOwnershipFile?
    private var selector: RegionSelector
    private var radiusLimits: RadiusLimits
    private var started = false
    /// The latest events recorded by this session (at most ``recordedEventsLimit``), in order (also appended to
    /// the store).
    public private(set) var recordedEvents: [RegionEvent] = []
    /// Crossings waiting for the store to accept them, oldest first.
    public var unstoredEvents: [RegionEvent] { unstored }
    /// Crossings the dwell filter holds until their dwell time passes, oldest first.
    public var heldCrossings: [RegionEvent] {
        (Array(heldEntries.values) + heldExits.values.compactMap(\.event)).sorted { $0.occurredAt < $1.occurredAt }
    }

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - monitor: the platform's region monitoring (or a ``SimulatedRegionMonitor``).
    ///   - store: where crossings are recorded; `nil` keeps them only in ``recordedEvents``.
    ///   - configuration: region limit and radii; the limit is lowered to the monitor's when ``start()`` runs.
    ///   - presence: inside/outside per geofence saved from an earlier launch (see ``presence``).
    ///   - clock: the clock for events whose platform report carries no time, and for the dwell filter's waits.
    ///   - openStore: opens the store when `store` is `nil` or could not be opened yet; tried again on every
    ///     crossing and on ``retryStorage()``. With neither `store` nor `openStore`, crossings are kept only in
    ///     ``recordedEvents`` (and reported at once).
    ///   - dwellTime: the dwell filter in seconds; `0` (the default) turns it off.
    ///   - onEvent: called for each recorded crossing, after it is stored.
    ///   - onError: called when a crossing cannot be stored.
    ///   - ownership: where the identifiers of the regions the SDK registered are kept across launches; `nil`
    ///     keeps them in memory (then, after a relaunch, the earlier regions count as the host app's).
    public init(
        monitor: any RegionMonitor, store: LocationEventStore?,
        configuration: RegionSelector.Configuration = RegionSelector.Configuration(),
        presence: [String: RegionSelector.Presence] = [:],
        clock: any ConnectClock = SystemConnectClock(),
        openStore: (@Sendable () async -> LocationEventStore?)? = nil,
        dwellTime: TimeInterval = 0,
        onEvent: (@Sendable (RegionEvent) -> Void)? = nil,
        onError: (@Sendable (LocationError) -> Void)? = nil,
        ownership: RegionOwnershipFile? = nil
    ) {
        self.monitor = monitor
        self.store = store
        self.openStore = openStore
        self.dwellTime = max(0, dwellTime)
        self.clock = clock
        self.onEvent = onEvent
        self.onError = onError
        self.ownership = ownership
        self.selector = RegionSelector(
            configuration: configuration, presence: presence,
            ownedIdentifiers: ownership?.load() ?? [])
        self.radiusLimits = configuration.radiusLimits
    }

    /// Creates a session whose clock reads `now` (the spelling before the `clock:` parameter
    /// existed; prefer `clock:`, which tests can drive with `ManualClock`).
    ///
    /// - Parameters:
    ///   - monitor: the platform's region monitoring (or a ``SimulatedRegionMonitor``).
    ///   - store: where crossings are recorded; `nil` keeps them only in ``recordedEvents``.
    ///   - configuration: region limit and radii.
    ///   - presence: inside/outside per geofence saved from an earlier launch.
    ///   - now: the wall-clock time for events whose platform report carries no time.
    ///   - openStore: opens the store when `store` is `nil` or could not be opened yet.
    ///   - dwellTime: the dwell filter in seconds; `0` (the default) turns it off.
    ///   - onEvent: called for each recorded crossing, after it is stored.
    ///   - onError: called when a crossing cannot be stored.
    ///   - ownership: where the identifiers of the regions the SDK registered are kept across launches.
    public init(
        monitor: any RegionMonitor, store: LocationEventStore?,
        configuration: RegionSelector.Configuration = RegionSelector.Configuration(),
        presence: [String: RegionSelector.Presence] = [:],
        now: @escaping @Sendable () -> Date,
        openStore: (@Sendable () async -> LocationEventStore?)? = nil,
        dwellTime: TimeInterval = 0,
        onEvent: (@Sendable (RegionEvent) -> Void)? = nil,
        onError: (@Sendable (LocationError) -> Void)? = nil,
        ownership: RegionOwnershipFile? = nil
    ) {
        self.init(
            monitor: monitor, store: store, configuration: configuration, presence: presence,
            clock: ClosureClock(now), openStore: openStore, dwellTime: dwellTime, onEvent: onEvent,
            onError: onError, ownership: ownership)
    }

    /// Inside/outside per geofence; save it and pass it to the next launch's session.
    public var presence: [String: RegionSelector.Presence] { selector.presence }
    /// The SDK-owned regions monitored now.
    public var monitoredRegions: [MonitoredRegion] {
        selector.monitored.values.sorted { $0.identifier < $1.identifier }
    }
    /// The engine's state, for inspection.
    public var regionSelector: RegionSelector { selector }

    /// Subscribes to the monitor's events and adopts the regions it already monitors (from an earlier
    /// launch, and the host app's). Call it early at launch; calling it again does nothing.
    public func start() async {
        guard !started else { return }
        started = true
        if store == nil, let openStore { store = await openStore() }
        savedPresence = await store?.presence() ?? [:]
        let limit = await monitor.maximumRegionCount
        let maximumRadius = await monitor.maximumRadius
        radiusLimits = RadiusLimits(minimum: radiusLimits.minimum, maximum: min(radiusLimits.maximum, maximumRadius))
        let configuration = RegionSelector.Configuration(
            regionLimit: min(selector.configuration.regionLimit, limit),
            radiusLimits: radiusLimits)
        selector = RegionSelector(
            configuration: configuration, presence: selector.presence,
            ownedIdentifiers: selector.ownedIdentifiers)
        await monitor.setEventHandler { [weak self] event in await self?.handle(event) }
        await process(.monitoredRegionsObserved(await monitor.monitoredRegions()), at: clock.now)
    }

    /// Monitors the geofences of `connections` (enabled Connections, enabled user features only).
    public func update(connections: [Connection]) async {
        await update(geofences: Geofence.geofences(for: connections, radiusLimits: radiusLimits))
    }

    /// Monitors `geofences`.
    public func update(geofences: [Geofence]) async {
        await process(.geofencesChanged(geofences), at: clock.now)
    }

    /// Stops every region the SDK owns; the host app's regions stay. Recorded events stay in the store.
    public func stop() async {
        await update(geofences: [])
    }

    /// Handles one monitor event. The monitor's handler calls this; tests may call it directly.
    public func handle(_ event: RegionMonitorEvent) async {
        let time: Date
        switch event {
        case .regionCrossed(_, _, let at), .stateDetermined(_, _, let at), .monitoringFailed(_, let at): time = at
        case .location(let fix): time = fix.timestamp
        }
        if latestEventTime.map({ $0 < time }) ?? true { latestEventTime = time }
        switch event {
        case .regionCrossed(let id, let transition, let at):
            await process(.regionCrossed(identifier: id, transition), at: at)
        case .stateDetermined(let id, let inside, let at):
            await process(.stateDetermined(identifier: id, inside: inside), at: at)
        case .location(let fix):
            await process(.location(fix), at: fix.timestamp)
        case .monitoringFailed(let id, let at):
            await process(.monitoringFailed(identifier: id), at: at)
        }
    }

    private var queue: [(RegionSelector.Event, Date)] = []
    private var processing = false

    /// Runs events one at a time: an event that arrives while effects are being performed (the monitor may
    /// answer during a call) waits until they are done, so the engine and the platform never disagree.
    private func process(_ event: RegionSelector.Event, at time: Date) async {
        queue.append((event, time))
        guard !processing else { return }
        processing = true
        while !queue.isEmpty {
            let (next, time) = queue.removeFirst()
            let ownedBefore = selector.ownedIdentifiers
            let effects = selector.handle(next, now: time)
            let ownedAfter = selector.ownedIdentifiers
            // Saved before a region starts and after it stops, so the file never misses a region the SDK holds.
            if ownedAfter != ownedBefore { ownership?.save(ownedBefore.union(ownedAfter)) }
            await apply(effects)
            if ownedAfter != ownedBefore, !ownedAfter.isSuperset(of: ownedBefore) { ownership?.save(ownedAfter) }
        }
        processing = false
    }

    private func apply(_ effects: [RegionSelector.Effect]) async {
        var cancelled = Set<String>()
        if dwellTime > 0 {
            await releaseHeldCrossings(now: latestEventTime ?? clock.now)
            // A held entry whose geofence the device has left again, or a held exit it has re-entered, stayed
            // shorter than the dwell time: neither it nor the crossing that undid it is recorded.
            for (id, _) in heldEntries where selector.presence[id] == .outside {
                heldEntries[id] = nil
                cancelled.insert(id)
            }
            for (id, _) in heldExits where selector.presence[id] == .inside {
                heldExits[id] = nil
                cancelled.insert(id)
            }
            // The device left a geofence whose entry was recorded: a re-entry within the dwell time records
            // nothing, also when the trigger does not record exits (then no exit record follows).
            let time = latestEventTime ?? clock.now
            for id in reportedInside where selector.presence[id] == .outside && heldExits[id] == nil {
                heldExits[id] = (nil, time)
                scheduleRelease()
            }
        }
        for effect in effects {
            switch effect {
            case .stopMonitoring(let id):
                await monitor.stopMonitoring(identifier: id)
            case .startMonitoring(let region):
                await monitor.startMonitoring(region)
            case .requestState(let id):
                await monitor.requestState(for: id)
            case .requestLocation:
                await monitor.requestLocation()
            case .record(let crossing):
                let id = crossing.geofence.identifier
                let observed: RegionSelector.Presence = crossing.transition == .entry ? .inside : .outside
                // The saved presence already says so (a relaunch inside, geofences turned off and on): nothing new.
                if savedPresence[id] == observed { continue }
                await savePresence([id: observed])
                if cancelled.contains(id) { continue }
                let event = RegionEvent(
                    transition: crossing.transition, occurredAt: crossing.occurredAt,
                    triggerSubscriptionId: crossing.geofence.triggerSubscriptionId)
                if dwellTime > 0 {
                    hold(event, identifier: id)
                } else {
                    await commit(event)
                }
            }
        }
        let changes = selector.presence.filter { savedPresence[$0.key] != $0.value }
        if !changes.isEmpty { await savePresence(changes) }
    }

    /// Forgets the saved presence in memory (the store's copy goes with ``LocationEventStore/removeAll()``), as
    /// deactivation does: the next state the platform reports counts as new.
    public func forgetPresence() {
        savedPresence = [:]
    }

    /// Tries to open the store if it is not open, then stores (and reports) the crossings kept in memory.
    /// Returns whether the store is open and nothing waits in memory.
    @discardableResult
    public func retryStorage() async -> Bool {
        if store == nil, let openStore {
            store = await openStore()
            if let store {
                let stored = await store.presence()
                savedPresence.merge(stored) { mine, _ in mine }
                let changes = savedPresence.filter { stored[$0.key] != $0.value }
                if !changes.isEmpty { await savePresence(changes) }
            }
        }
        guard let store else { return openStore == nil && unstored.isEmpty }
        while let event = unstored.first {
            do throws(LocationError) {
                try await store.append(event)
            } catch {
                onError?(error)
                return false
            }
            unstored.removeFirst()
            remember(event)
        }
        return true
    }

    /// Records the crossings the dwell filter holds whose dwell time has passed at `now`, oldest first.
    public func releaseHeldCrossings(now: Date) async {
        var due: [(id: String, at: Date, event: RegionEvent?)] = []
        for (id, event) in heldEntries where event.occurredAt.addingTimeInterval(dwellTime) <= now {
            due.append((id, event.occurredAt, event))
        }
        for (id, held) in heldExits where held.at.addingTimeInterval(dwellTime) <= now {
            due.append((id, held.at, held.event))
        }
        for item in due.sorted(by: { $0.at < $1.at }) {
            if item.event?.transition == .entry {
                heldEntries[item.id] = nil
                reportedInside.insert(item.id)
            } else {
                heldExits[item.id] = nil
                reportedInside.remove(item.id)
            }
            if let event = item.event { await commit(event) }
        }
    }

    private func hold(_ event: RegionEvent, identifier id: String) {
        switch event.transition {
        case .entry: heldEntries[id] = event
        case .exit: heldExits[id] = (event, event.occurredAt)
        }
        scheduleRelease()
    }

    /// Releases what is due once the dwell time has passed, also when no further event arrives.
    private func scheduleRelease() {
        let clock = self.clock
        let deadline = clock.nowMilliseconds + UInt64(min(dwellTime, 86_400) * 1_000)
        Task { [weak self] in
            try? await clock.sleep(untilMilliseconds: deadline)
            guard let self else { return }
            await self.releaseHeldCrossings(now: self.clock.now)
        }
    }

    private func savePresence(_ changes: [String: RegionSelector.Presence]) async {
        savedPresence.merge(changes) { _, new in new }
        guard let store else { return }
        do throws(LocationError) { try await store.savePresence(changes) } catch { onError?(error) }
    }

    /// Stores `event` durably, then reports it; keeps it in memory when it cannot be stored.
    private func commit(_ event: RegionEvent) async {
        if store == nil, openStore == nil {
            remember(event)  // a memory-only session: nothing to store
            return
        }
        unstored.append(event)
        if unstored.count > Self.unstoredLimit {
            let dropped = unstored.removeFirst()
            onError?(
                LocationError(
                    .storage,
                    "more than \(Self.unstoredLimit) crossings wait for the store; the oldest (\(dropped.recordId.uuidString)) was dropped"
                ))
        }
        if store == nil {
            await retryStorage()
            if store == nil {
                onError?(
                    LocationError(
                        .storage, "the event store cannot be opened; \(unstored.count) crossings wait in memory"))
            }
            return
        }
        await retryStorage()
    }

    private func remember(_ event: RegionEvent) {
        recordedEvents.append(event)
        if recordedEvents.count > Self.recordedEventsLimit {
            recordedEvents.removeFirst(recordedEvents.count - Self.recordedEventsLimit)
        }
        onEvent?(event)
    }
}
