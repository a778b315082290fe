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
/// * **What happened is returned, not called back.** Every input (``handle(_:)``, ``update(geofences:)``,
///   ``releaseHeldCrossings(now:)``, ``retryStorage()``, ``start()``) returns an ``Outcome``: the crossings it
///   recorded and the storage failures it met, to its caller (the synchronizer's engine, which reports them to the
///   app and requests an upload). Inputs with no caller of their own, a monitor event or a dwell deadline, go to the
///   owner given to ``start(routing:)``, which hands them back to ``handle(routed:)`` and takes the outcome.
/// * **Nothing reported that was not stored.** With a store (or a store opener), a crossing is in an outcome's
///   ``Outcome/recorded`` only after the event's append returned. A crossing the store refuses (full, read-only,
///   failing) stays pending, in the journal when it could be saved there, in memory otherwise (at most
///   ``unstoredLimit`` per geofence), an outcome's ``Outcome/errors`` says why (once per failure), and it is
///   recorded in order when the store takes it.
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
/// **Isolation.** The session runs on ``LocationEngineActor`` with its store and monitor: a region event is judged,
/// saved and recorded in one synchronous call, so no other input can interleave with it. Only ``start()`` waits (for
/// the platform's limits); geofences given meanwhile are applied when it completes. A monitor that answers a command
/// at once (the simulated one) has its answer handled right after the input that caused it.
///
/// ```swift
/// let session = LocationMonitoringSession(monitor: monitor, store: try LocationEventStore())
/// await session.start()
/// let outcome = await session.update(connections: [connection])
/// for event in outcome.recorded { print("recorded", event.transition) }
/// ```
@_spi(Sandbox) @LocationEngineActor public final class LocationMonitoringSession {
    /// The dwell time a session uses unless told otherwise, in seconds: 30 (see the "Geofences" article for the
    /// measurements it comes from).
    public nonisolated static let defaultDwellTime: TimeInterval = 30

    private let monitor: any RegionMonitor
    /// The store, once open (the shell's handle to it; whether it is open is the ledger's state).
    private var store: LocationEventStore?
    /// Presence and pending crossings per geofence, and the append in flight: the crossings' one owner.
    private var ledger: CrossingLedger
    private var latestEventTime: Date?
    private var releaseTask: (deadline: Date, task: Task<Void, Never>)?
    /// The most crossings one geofence keeps waiting while the store cannot take them; beyond, the oldest pair is
    /// dropped (and logged).
    public nonisolated static let unstoredLimit = 64
    /// How many of the latest recorded events ``recordedEvents`` keeps.
    public nonisolated static let recordedEventsLimit = 1_000
    private let clock: any ConnectClock
    /// Where inputs with no caller (monitor events, dwell deadlines) go: the owner given to ``start(routing:)``;
    /// `nil` handles them here (their outcomes are then kept only in ``recordedEvents`` and the store).
    private var route: (@LocationEngineActor @Sendable (Input) -> Void)?
    /// What the current input did, returned when it ends.
    private var outcome = Outcome()
    private let ownership: RegionOwnershipFile?
    private var selector: RegionSelector
    private var radiusLimits: RadiusLimits
    private var phase = Phase.new
    /// Geofences given while ``start()`` waits for the platform's limits; applied when it completes.
    private var geofencesAfterStart: [Geofence]?
    /// Whether an input is being handled: a monitor event delivered meanwhile (a synchronous answer to one of the
    /// session's own commands) is handled right after it, in order.
    private var handling = false
    private var answers: [RegionMonitorEvent] = []
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

    private enum Phase { case new, starting, started }

    /// What one input did: the crossings it recorded (stored first, when there is a store) and the storage failures
    /// it met, each once, in order.
    public struct Outcome: Sendable, Hashable {
        /// The crossings recorded, oldest first: each is in the store (or, without one, only in
        /// ``LocationMonitoringSession/recordedEvents``).
        public var recorded: [RegionEvent] = []
        /// Why crossings could not be stored (they stay pending and are recorded once the store takes them).
        public var errors: [LocationError] = []
        /// Whether the session needs its store, which is not open yet (see the initializer's `storeLater`): open it
        /// and give it with ``LocationMonitoringSession/storeOpened(_:)``.
        public var needsStore = false

        /// Creates an outcome.
        public init(recorded: [RegionEvent] = [], errors: [LocationError] = [], needsStore: Bool = false) {
            self.recorded = recorded
            self.errors = errors
            self.needsStore = needsStore
        }

        /// Whether the input recorded nothing, met no failure and needs nothing.
        public var isEmpty: Bool { recorded.isEmpty && errors.isEmpty && !needsStore }
    }

    /// An input with no caller of its own, routed to the session's owner (see ``start(routing:)``).
    public enum Input: Sendable, Hashable {
        /// The monitor reported an event.
        case monitor(RegionMonitorEvent)
        /// A dwell deadline passed: what is due now is released.
        case deadline
    }

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - monitor: the platform's region monitoring (or a ``SimulatedRegionMonitor``).
    ///   - store: where crossings are recorded; `nil` keeps them only in ``recordedEvents``.
    ///   - configuration: region limit and radii; the limit is lowered to the monitor's when ``start()`` runs.
    ///   - presence: inside/outside per geofence saved from an earlier launch (see ``presence``).
    ///   - clock: the clock for events whose platform report carries no time, and for the dwell filter's waits.
    ///   - storeLater: `store` is `nil` because it could not be opened yet: crossings wait (durably once it opens),
    ///     an outcome's ``Outcome/needsStore`` asks for the store whenever a crossing, ``start()`` or
    ///     ``retryStorage()`` needs it, and ``storeOpened(_:)`` gives it. Without a store and without it, crossings
    ///     are kept only in ``recordedEvents`` (and returned at once).
    ///   - dwellTime: the dwell filter in seconds (default ``defaultDwellTime``); `0` turns it off.
    ///   - ownership: where the identifiers of the regions the SDK registered are kept across launches; `nil`
    ///     keeps them in memory (then, after a relaunch, the earlier regions count as the host app's).
    public nonisolated init(
        monitor: any RegionMonitor, store: LocationEventStore?,
        configuration: RegionSelector.Configuration = RegionSelector.Configuration(),
        presence: [String: RegionSelector.Presence] = [:],
        clock: any ConnectClock = SystemConnectClock(),
        storeLater: Bool = false,
        dwellTime: TimeInterval = LocationMonitoringSession.defaultDwellTime,
        ownership: RegionOwnershipFile? = nil
    ) {
        self.monitor = monitor
        self.store = store
        self.ledger = CrossingLedger(
            storage: store != nil ? .open : storeLater ? .closed : .memoryOnly, dwellTime: dwellTime,
            unstoredLimit: Self.unstoredLimit)
        self.clock = clock
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
    ///
    /// Monitor events and dwell deadlines are handled by the session itself: what they record is in
    /// ``recordedEvents`` and the store. To receive their outcomes, use ``start(routing:)``.
    @discardableResult
    public func start() async -> Outcome {
        guard beginStarting() else { return Outcome() }
        return await finishStarting()
    }

    /// ``start()``, with the inputs that have no caller of their own (monitor events, dwell deadlines) routed to
    /// `owner`, on the engine's actor, synchronously: the owner hands each to ``handle(routed:)`` and acts on the
    /// outcome it returns. An input routed while another is being handled (a monitor's synchronous answer to one
    /// of the session's commands) is handled right after it, and its outcome is part of that input's.
    @discardableResult
    public func start(routing owner: @escaping @LocationEngineActor @Sendable (Input) -> Void) async -> Outcome {
        guard beginStarting() else { return Outcome() }
        return await finishStarting(routing: owner)
    }

    /// Marks the session as starting (geofences given from now on wait for ``finishStarting()``); `false` when it
    /// started already.
    func beginStarting() -> Bool {
        guard phase == .new else { return false }
        phase = .starting
        return true
    }

    /// Reads the platform's limits and regions (the session's one wait), then starts in one step; monitor events
    /// and dwell deadlines go to `owner` from then on (to the session itself when `nil`).
    func finishStarting(routing owner: (@LocationEngineActor @Sendable (Input) -> Void)? = nil) async -> Outcome {
        let limit = await monitor.maximumRegionCount
        let maximumRadius = await monitor.maximumRadius
        let regions = await monitor.monitoredRegions()
        return input {
            if let owner { route = owner }
            if store == nil, ledger.storage == .closed {
                outcome.needsStore = true
            } else if let store {
                perform(.storeOpened(store.tracks()))
            }
            radiusLimits = RadiusLimits(
                minimum: radiusLimits.minimum, maximum: min(radiusLimits.maximum, maximumRadius))
            let configuration = RegionSelector.Configuration(
                regionLimit: min(selector.configuration.regionLimit, limit), radiusLimits: radiusLimits)
            selector = RegionSelector(
                configuration: configuration, presence: selector.presence, ownedIdentifiers: selector.ownedIdentifiers)
            monitor.setEventHandler { [weak self] event in self?.routed(.monitor(event)) }
            phase = .started
            // Crossings whose dwell time passed while the app was not running are recorded first, with their
            // own time.
            perform(.release(now: clock.now))
            process(.monitoredRegionsObserved(regions), at: clock.now)
            if let geofences = geofencesAfterStart {
                geofencesAfterStart = nil
                apply(geofences)
            }
        }
    }

    /// Monitors the geofences of `connections` (enabled Connections, enabled user features only).
    @discardableResult
    public func update(connections: [Connection]) -> Outcome {
        update(geofences: Geofence.geofences(for: connections, radiusLimits: radiusLimits))
    }

    /// Monitors `geofences`; a radius beyond the platform's maximum is lowered to it.
    @discardableResult
    public func update(geofences: [Geofence]) -> Outcome {
        guard phase != .starting else {
            geofencesAfterStart = geofences
            return Outcome()
        }
        return input { apply(geofences) }
    }

    /// Stops every region the SDK owns; the host app's regions stay. Recorded events stay in the store.
    @discardableResult
    public func stop() -> Outcome {
        update(geofences: [])
    }

    /// Handles one monitor event and returns what it recorded. An event given while another input is being
    /// handled (a monitor's synchronous answer to one of the session's commands) is handled right after it: its
    /// outcome is part of that input's, and this call returns an empty one.
    @discardableResult
    public func handle(_ event: RegionMonitorEvent) -> Outcome {
        guard !handling else {
            answers.append(event)
            return Outcome()
        }
        return input { judge(event) }
    }

    /// Handles an input routed to the session's owner (see ``start(routing:)``) and returns what it recorded.
    @discardableResult
    public func handle(routed input: Input) -> Outcome {
        switch input {
        case .monitor(let event): return handle(event)
        case .deadline: return releaseHeldCrossings(now: now)
        }
    }

    /// Sends an input with no caller to the owner, or handles it here.
    private func routed(_ input: Input) {
        if let route { route(input) } else { handle(routed: input) }
    }

    /// Deactivation, in one synchronous step no release can interleave: forgets presence and pending crossings (a
    /// crossing due meanwhile is dropped, not recorded), stops every region the SDK owns (the host app's stay), and
    /// removes every event and track from `store` (the session's own store when `nil`). Nothing is recorded once it
    /// returned, until geofences are given again. Returns the failures it met (the store's, if removing failed); it
    /// records nothing: pending crossings are forgotten first.
    func deactivate(clearing other: LocationEventStore? = nil) -> Outcome {
        if phase == .starting { geofencesAfterStart = [] }
        return input {
            perform(ledger.handle(.forget))
            apply([])
            do throws(LocationError) {
                try (other ?? store)?.removeAll()
            } catch {
                outcome.errors.append(error)
            }
            perform(ledger.handle(.forget))
        }
    }

    /// Forgets presence and pending crossings in memory (the store's copy goes with
    /// ``LocationEventStore/removeAll()``), as deactivation does: the next state the platform reports counts as new.
    @discardableResult
    public func forgetPresence() -> Outcome {
        input { perform(ledger.handle(.forget)) }
    }

    /// Saves what the store could not take, then records the crossings whose dwell time has passed; returns what
    /// it recorded (and ``Outcome/needsStore`` while the store is not open). ``isStorageSettled`` then says whether
    /// it all fit.
    @discardableResult
    public func retryStorage() -> Outcome {
        input {
            if store == nil, ledger.storage == .closed { outcome.needsStore = true }
            perform(.release(now: now))
        }
    }

    /// Gives the session the store an outcome asked for (``Outcome/needsStore``), or `nil` when it still cannot be
    /// opened (said once in the outcome's errors; asked for again by the next crossing or ``retryStorage()``).
    /// Saves what waited in memory and records what is due; returns what it recorded. Ignored once a store is open.
    @discardableResult
    public func storeOpened(_ opened: LocationEventStore?) -> Outcome {
        input {
            guard store == nil, ledger.storage == .closed else { return }
            store = opened
            perform(.storeOpened(opened?.tracks()))
            if opened != nil { perform(.release(now: now)) }
        }
    }

    /// Whether the store is open and nothing waits in memory (without a store: whether nothing due waits).
    public var isStorageSettled: Bool {
        if ledger.storage == .memoryOnly { return unstoredEvents.isEmpty }
        return ledger.storage == .open && ledger.unsaved.isEmpty && unstoredEvents.isEmpty
    }

    /// Records the pending crossings whose dwell time has passed at `now`, oldest first, and returns them; a
    /// crossing the store refuses stays pending (durably) and is tried again on the next event, run or
    /// ``retryStorage()``.
    @discardableResult
    public func releaseHeldCrossings(now: Date) -> Outcome {
        input { perform(.release(now: now)) }
    }

    // MARK: - The shell

    /// Runs `body`, then the monitor's answers it caused, each to completion: no transition interleaves another.
    /// Returns what they recorded and the failures they met (empty for an input nested in another: its outcome is
    /// the outer input's).
    private func input(_ body: () -> Void) -> Outcome {
        guard !handling else {
            body()
            return Outcome()
        }
        handling = true
        outcome = Outcome()
        body()
        while !answers.isEmpty { judge(answers.removeFirst()) }
        handling = false
        defer { outcome = Outcome() }
        return outcome
    }

    private func judge(_ event: RegionMonitorEvent) {
        let time: Date
        switch event {
        case .regionCrossed(_, _, let at), .stateDetermined(_, _, let at), .monitoringFailed(_, let at): time = at
        case .location(let fix): time = fix.timestamp
        }
        if latestEventTime.map({ $0 < time }) ?? true { latestEventTime = time }
        switch event {
        case .regionCrossed(let id, let transition, let at):
            process(.regionCrossed(identifier: id, transition), at: at)
        case .stateDetermined(let id, let inside, let at):
            process(.stateDetermined(identifier: id, inside: inside), at: at)
        case .location(let fix):
            process(.location(fix), at: fix.timestamp)
        case .monitoringFailed(let id, let at):
            process(.monitoringFailed(identifier: id), at: at)
        }
    }

    private func apply(_ geofences: [Geofence]) {
        let maximum = radiusLimits.maximum
        let fences = geofences.map { fence in
            guard fence.radius > maximum else { return fence }
            return Geofence(
                triggerSubscriptionId: fence.triggerSubscriptionId, connectionId: fence.connectionId,
                center: fence.center, radius: maximum, transitions: fence.transitions)
        }
        perform(.geofencesKnown(fences))
        process(.geofencesChanged(fences), at: clock.now)
    }

    /// Runs one engine event and performs its effects, then turns presence changes into pending crossings.
    ///
    /// A geofence's crossing and its new presence are saved in one journal record before anything depends on
    /// them; the crossing is recorded (its event appended) once its dwell time has passed. What is due by the
    /// event's time is recorded first, so crossings are recorded in the order they happened.
    private func process(_ event: RegionSelector.Event, at time: Date) {
        // At the event's own time: a report delivered late (after a suspension, say) still reverses a crossing
        // whose dwell time had not passed when it happened.
        perform(.release(now: time))
        let ownedBefore = selector.ownedIdentifiers
        let effects = selector.handle(event, now: time)
        let ownedAfter = selector.ownedIdentifiers
        // Saved before a region starts and after it stops, so the file never misses a region the SDK holds.
        if ownedAfter != ownedBefore { ownership?.save(ownedBefore.union(ownedAfter)) }
        var recorded: [String: RegionSelector.Crossing] = [:]
        for effect in effects {
            switch effect {
            case .stopMonitoring(let id): monitor.stopMonitoring(identifier: id)
            case .startMonitoring(let region): monitor.startMonitoring(region)
            case .requestState(let id): monitor.requestState(for: id)
            case .requestLocation: monitor.requestLocation()
            case .record(let crossing): recorded[crossing.geofence.identifier] = crossing
            }
        }
        if ownedAfter != ownedBefore, !ownedAfter.isSuperset(of: ownedBefore) { ownership?.save(ownedAfter) }
        perform(.presenceChanged(selector.presence, crossings: recorded, at: time))
        perform(.release(now: max(time, clock.now)))
    }

    /// Feeds `event` to the ledger and performs the effects, feeding each result back before the next effect.
    private func perform(_ event: CrossingLedger.Event) {
        var queue = ledger.handle(event)
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            guard let result = result(of: effect) else { continue }
            queue = ledger.handle(result) + queue
        }
    }

    /// Performs effects that need no answer (``forgetPresence()`` has no store work to do).
    private func perform(_ effects: [CrossingLedger.Effect]) {
        for effect in effects {
            switch effect {
            case .record(let event): remember(event)
            case .fail(let error): outcome.errors.append(error)
            case .scheduleRelease(let deadline): scheduleRelease(deadline)
            case .openStore, .append, .save: break  // never produced by `.forget`
            }
        }
    }

    /// Performs one effect; returns the event that reports its result, if it has one.
    private func result(of effect: CrossingLedger.Effect) -> CrossingLedger.Event? {
        switch effect {
        case .openStore:
            // The owner opens it and gives it with `storeOpened(_:)`; the ledger waits for that answer.
            guard let store else {
                outcome.needsStore = true
                return nil
            }
            return .storeOpened(store.tracks())
        case .append(let event):
            guard let store else {
                return .appended(event.recordId, error: LocationError(.storage, "the event store is not open"))
            }
            do throws(LocationError) {
                try store.append(event)
                return .appended(event.recordId, error: nil)
            } catch {
                return .appended(event.recordId, error: error)
            }
        case .save(let tracks):
            guard let store else {
                return .saved(tracks, error: LocationError(.storage, "the event store is not open"))
            }
            do throws(LocationError) {
                try store.saveTracks(tracks)
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

    /// Releases what is due once `deadline` has passed, also when no further event arrives: a timer task on the
    /// engine's actor, whose one wait is the clock's.
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
            Task { @LocationEngineActor [weak self] in
                do { try await clock.sleep(untilMilliseconds: target) } catch { return }
                self?.routed(.deadline)
            }
        )
    }

    private func remember(_ event: RegionEvent) {
        recordedEvents.append(event)
        if recordedEvents.count > Self.recordedEventsLimit {
            recordedEvents.removeFirst(recordedEvents.count - Self.recordedEventsLimit)
        }
        outcome.recorded.append(event)
    }
}
