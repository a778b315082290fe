import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// Runs geofencing: feeds a ``RegionMonitor``'s events to a ``RegionSelector``, performs its effects, and
/// records crossings in a ``LocationEventStore``.
///
/// * **A crossing is durable before anything depends on it.** The crossing, its dwell deadline and the presence it
///   changes are saved in one journal record (see ``LocationEventStore``) before the next event is handled, so
///   termination, a relaunch inside or outside, a suspension past the deadline or a full store each end with
///   the events the crossings call for: a crossing whose dwell time passed while the app did not run is recorded,
///   with its own time, when the app runs again (``start()``, any region event, ``retryStorage()``).
/// * **Nothing reported that was not stored.** With a store (or a store opener), `onEvent` runs only after the
///   event's append returned. A crossing the store refuses (full, read-only, failing) stays pending, in the
///   journal when it could be saved there, in memory otherwise (at most ``unstoredLimit`` per geofence), `onError`
///   says why, and it is recorded in order when the store takes it.
/// * **Presence survives relaunches and toggles.** A crossing that repeats the saved presence (a relaunch, or
///   geofences turned off and on while inside) is not recorded.
/// * **Dwell filter, on by default** (``defaultDwellTime``, 30 s): a crossing is recorded once the device stayed on
///   its new side that long; a crossing reversed within that time records neither, which turns GPS jitter at a
///   boundary into one arrival. `dwellTime: 0` records every crossing at once, as ConnectSDK-iOS 2.8 did.
///
/// This is the shell the synchronization API sits on: `initialize` creates a session and calls ``start()``
/// (so crossings are captured from launch), `activate` and Connection updates call ``update(connections:)``,
/// `deactivate` stops the regions, forgets every pending crossing and empties the store in one step.
///
/// ```swift
/// let session = LocationMonitoringSession(monitor: monitor, store: try LocationEventStore())
/// await session.start()
/// await session.update(connections: [connection])
/// ```
@_spi(Sandbox) public actor LocationMonitoringSession {
    /// The dwell time a session uses unless told otherwise, in seconds: 30 (see the "Geofences" article for the
    /// measurements it comes from).
    public static let defaultDwellTime: TimeInterval = 30

    private let monitor: any RegionMonitor
    /// The store, once open (the shell's handle to it; whether it is open is the ledger's state).
    private var store: LocationEventStore?
    private let openStore: (@Sendable () async -> LocationEventStore?)?
    /// Presence and pending crossings per geofence, and the append in flight: the crossings' one owner.
    private var ledger: CrossingLedger
    private var latestEventTime: Date?
    private var releaseTask: (deadline: Date, task: Task<Void, Never>)?
    /// The most crossings one geofence keeps waiting while the store cannot take them; beyond, the oldest pair is
    /// dropped (and logged).
    public static let unstoredLimit = 64
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
    /// Crossings whose dwell time has passed but that the store could not take yet, oldest first.
    public var unstoredEvents: [RegionEvent] {
        let now = self.now
        return ledger.pendingEvents { $0.isDue(at: now) }
    }
    /// Crossings still within their dwell time, oldest first.
    public var heldCrossings: [RegionEvent] {
        let now = self.now
        return ledger.pendingEvents { !$0.isDue(at: now) }
    }
    /// The radius limits geofences are monitored with: the configuration's, the maximum lowered to the platform's
    /// once ``start()`` ran.
    public var effectiveRadiusLimits: RadiusLimits { radiusLimits }

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
    ///   - dwellTime: the dwell filter in seconds (default ``defaultDwellTime``); `0` turns it off.
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
        dwellTime: TimeInterval = LocationMonitoringSession.defaultDwellTime,
        onEvent: (@Sendable (RegionEvent) -> Void)? = nil,
        onError: (@Sendable (LocationError) -> Void)? = nil,
        ownership: RegionOwnershipFile? = nil
    ) {
        self.monitor = monitor
        self.store = store
        self.openStore = openStore
        self.ledger = CrossingLedger(
            storage: store != nil ? .open : openStore != nil ? .closed : .memoryOnly, dwellTime: dwellTime,
            unstoredLimit: Self.unstoredLimit)
        self.clock = clock
        self.onEvent = onEvent
        self.onError = onError
        self.ownership = ownership
        self.selector = RegionSelector(
            configuration: configuration, presence: presence,
            ownedIdentifiers: ownership?.load() ?? [])
        self.radiusLimits = configuration.radiusLimits
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
        await submit(.start)
    }

    /// Monitors the geofences of `connections` (enabled Connections, enabled user features only).
    public func update(connections: [Connection]) async {
        await update(geofences: Geofence.geofences(for: connections, radiusLimits: radiusLimits))
    }

    /// Monitors `geofences`; a radius beyond the platform's maximum is lowered to it.
    public func update(geofences: [Geofence]) async {
        await submit(.geofences(geofences))
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
            await submit(.selector(.regionCrossed(identifier: id, transition), at))
        case .stateDetermined(let id, let inside, let at):
            await submit(.selector(.stateDetermined(identifier: id, inside: inside), at))
        case .location(let fix):
            await submit(.selector(.location(fix), fix.timestamp))
        case .monitoringFailed(let id, let at):
            await submit(.selector(.monitoringFailed(identifier: id), at))
        }
    }

    /// Deactivation, as one input no release can interleave: forgets presence and pending crossings (a crossing due
    /// meanwhile is dropped, not recorded), stops every region the SDK owns (the host app's stay), and removes every
    /// event and track from `store` (the session's own store when `nil`). Nothing is recorded once it returned, until
    /// geofences are given again. Returns the store's error, if removing failed.
    func deactivate(clearing store: LocationEventStore? = nil) async -> LocationError? {
        let outcome = DeactivationOutcome()
        await submit(.deactivate(store, outcome))
        return outcome.error.withLock { $0 }
    }

    /// Forgets presence and pending crossings in memory (the store's copy goes with
    /// ``LocationEventStore/removeAll()``), as deactivation does: the next state the platform reports counts as new.
    public func forgetPresence() {
        perform(ledger.handle(.forget))
    }

    /// Tries to open the store if it is not open, saves what it could not take, then records the crossings whose
    /// dwell time has passed. Returns whether the store is open and nothing waits in memory.
    @discardableResult
    public func retryStorage() async -> Bool {
        await submit(.retryStorage)
        if ledger.storage == .memoryOnly { return unstoredEvents.isEmpty }
        return ledger.storage == .open && ledger.unsaved.isEmpty && unstoredEvents.isEmpty
    }

    /// Records the pending crossings whose dwell time has passed at `now`, oldest first; a crossing the store
    /// refuses stays pending (durably) and is tried again on the next event, run or ``retryStorage()``.
    public func releaseHeldCrossings(now: Date) async {
        await submit(.release(now))
    }

    // MARK: - The shell: one input at a time

    /// What the session is asked to do. Each input runs to completion (its effects performed, their results fed
    /// back to the ledger) before the next one starts, so no two transitions interleave across an `await`.
    private enum Input: Sendable {
        case start
        case geofences([Geofence])
        case selector(RegionSelector.Event, Date)
        case release(Date)
        case retryStorage
        case deactivate(LocationEventStore?, DeactivationOutcome)
    }

    /// What a deactivation input reports back to its caller.
    final class DeactivationOutcome: Sendable {
        let error = Locked<LocationError?>(nil)
    }

    private var inputs: [Input] = []
    private var draining = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// The session whose inputs the current task is draining: a monitor that answers inside one of the session's
    /// own calls must not wait for the drain it is part of. (Spelled as the `@TaskLocal` macro expands, so that
    /// Swift 5.8's standard library, which has no such macro, compiles it too: scripts/check-ios-sdk.sh.)
    private static let drainingSession = TaskLocal<ObjectIdentifier?>(wrappedValue: nil)
    /// Inputs handled since the session was created (for tests and monitoring).
    private(set) var handledInputs = 0

    /// Queues `input`; the caller returns once it was handled (at once when the caller is the drain itself).
    private func submit(_ input: Input) async {
        inputs.append(input)
        if draining {
            if Self.drainingSession.get() == ObjectIdentifier(self) { return }
            await withCheckedContinuation { idleWaiters.append($0) }
            return
        }
        draining = true
        await Self.drainingSession.withValue(ObjectIdentifier(self)) {
            while !inputs.isEmpty {
                await run(inputs.removeFirst())
                handledInputs += 1
            }
        }
        draining = false
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func run(_ input: Input) async {
        switch input {
        case .start:
            if store == nil, let openStore, ledger.storage == .closed {
                store = await openStore()
                await perform(.storeOpened(await store?.tracks()))
            } else if let store {
                await perform(.storeOpened(await store.tracks()))
            }
            let limit = await monitor.maximumRegionCount
            let maximumRadius = await monitor.maximumRadius
            radiusLimits = RadiusLimits(
                minimum: radiusLimits.minimum, maximum: min(radiusLimits.maximum, maximumRadius))
            let configuration = RegionSelector.Configuration(
                regionLimit: min(selector.configuration.regionLimit, limit),
                radiusLimits: radiusLimits)
            selector = RegionSelector(
                configuration: configuration, presence: selector.presence,
                ownedIdentifiers: selector.ownedIdentifiers)
            await monitor.setEventHandler { [weak self] event in await self?.handle(event) }
            // Crossings whose dwell time passed while the app was not running are recorded first, with their
            // own time.
            await perform(.release(now: clock.now))
            await process(.monitoredRegionsObserved(await monitor.monitoredRegions()), at: clock.now)

        case .geofences(let geofences):
            let maximum = radiusLimits.maximum
            let fences = geofences.map { fence in
                guard fence.radius > maximum else { return fence }
                return Geofence(
                    triggerSubscriptionId: fence.triggerSubscriptionId, connectionId: fence.connectionId,
                    center: fence.center, radius: maximum, transitions: fence.transitions)
            }
            await perform(.geofencesKnown(fences))
            await process(.geofencesChanged(fences), at: clock.now)

        case .selector(let event, let time):
            await process(event, at: time)

        case .release(let now):
            await perform(.release(now: now))

        case .deactivate(let other, let outcome):
            perform(ledger.handle(.forget))
            await perform(.geofencesKnown([]))
            await process(.geofencesChanged([]), at: clock.now)
            do throws(LocationError) {
                try await (other ?? store)?.removeAll()
            } catch {
                outcome.error.withLock { $0 = error }
            }
            perform(ledger.handle(.forget))

        case .retryStorage:
            if store == nil, let openStore, ledger.storage == .closed {
                store = await openStore()
                await perform(.storeOpened(await store?.tracks()))
            }
            await perform(.release(now: now))
        }
    }

    /// Runs one engine event and performs its effects, then turns presence changes into pending crossings.
    ///
    /// A geofence's crossing and its new presence are saved in one journal record before anything depends on
    /// them; the crossing is recorded (its event appended) once its dwell time has passed. What is due by the
    /// event's time is recorded first, so crossings are recorded in the order they happened.
    private func process(_ event: RegionSelector.Event, at time: Date) async {
        // At the event's own time: a report delivered late (after a suspension, say) still reverses a crossing
        // whose dwell time had not passed when it happened.
        await perform(.release(now: time))
        let ownedBefore = selector.ownedIdentifiers
        let effects = selector.handle(event, now: time)
        let ownedAfter = selector.ownedIdentifiers
        // Saved before a region starts and after it stops, so the file never misses a region the SDK holds.
        if ownedAfter != ownedBefore { ownership?.save(ownedBefore.union(ownedAfter)) }
        var recorded: [String: RegionSelector.Crossing] = [:]
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
                recorded[crossing.geofence.identifier] = crossing
            }
        }
        if ownedAfter != ownedBefore, !ownedAfter.isSuperset(of: ownedBefore) { ownership?.save(ownedAfter) }
        await perform(.presenceChanged(selector.presence, crossings: recorded, at: time))
        await perform(.release(now: max(time, clock.now)))
    }

    /// Feeds `event` to the ledger and performs the effects, feeding each result back before the next effect.
    private func perform(_ event: CrossingLedger.Event) async {
        var queue = ledger.handle(event)
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            guard let result = await result(of: effect) else { continue }
            queue = ledger.handle(result) + queue
        }
    }

    /// Performs effects that need no answer (``forgetPresence()`` has no store work to do).
    private func perform(_ effects: [CrossingLedger.Effect]) {
        for effect in effects {
            switch effect {
            case .record(let event): remember(event)
            case .fail(let error): onError?(error)
            case .scheduleRelease(let deadline): scheduleRelease(deadline)
            case .openStore, .append, .save: break  // never produced by `.forget`
            }
        }
    }

    /// Performs one effect; returns the event that reports its result, if it has one.
    private func result(of effect: CrossingLedger.Effect) async -> CrossingLedger.Event? {
        switch effect {
        case .openStore:
            if store == nil, let openStore { store = await openStore() }
            return .storeOpened(await store?.tracks())
        case .append(let event):
            guard let store else {
                return .appended(event.recordId, error: LocationError(.storage, "the event store is not open"))
            }
            do throws(LocationError) {
                try await store.append(event)
                return .appended(event.recordId, error: nil)
            } catch {
                return .appended(event.recordId, error: error)
            }
        case .save(let tracks):
            guard let store else {
                return .saved(tracks, error: LocationError(.storage, "the event store is not open"))
            }
            do throws(LocationError) {
                try await store.saveTracks(tracks)
                return .saved(tracks, error: nil)
            } catch {
                return .saved(tracks, error: error)
            }
        case .record, .fail, .scheduleRelease:
            perform([effect])
            return nil
        }
    }

    /// The session's time: the latest event time or the clock, whichever is later (a replayed route's fixes carry
    /// their own times).
    private var now: Date { max(latestEventTime ?? .distantPast, clock.now) }

    /// Releases what is due once `deadline` has passed, also when no further event arrives.
    private func scheduleRelease(_ deadline: Date?) {
        guard let deadline, deadline > now else {
            releaseTask?.task.cancel()
            releaseTask = nil
            return
        }
        if let current = releaseTask, current.deadline == deadline { return }
        releaseTask?.task.cancel()
        let clock = self.clock
        let wait = UInt64(min(max(0, deadline.timeIntervalSince(clock.now)), 86_400) * 1_000)
        let target = clock.nowMilliseconds + wait
        releaseTask = (
            deadline,
            Task { [weak self] in
                do { try await clock.sleep(untilMilliseconds: target) } catch { return }
                guard let self else { return }
                await self.releaseHeldCrossings(now: self.now)
            }
        )
    }

    private func remember(_ event: RegionEvent) {
        recordedEvents.append(event)
        if recordedEvents.count > Self.recordedEventsLimit {
            recordedEvents.removeFirst(recordedEvents.count - Self.recordedEventsLimit)
        }
        onEvent?(event)
    }
}
