import Foundation
import IFTTTConnectCore

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
/// `deactivate` calls ``stop()``.
///
/// ```swift
/// let session = LocationMonitoringSession(monitor: monitor, store: try LocationEventStore())
/// await session.start()
/// await session.update(connections: [connection])
/// ```
public actor LocationMonitoringSession {
    /// The dwell time a session uses unless told otherwise, in seconds: 30 (see the "Geofences" article for the
    /// measurements it comes from).
    public static let defaultDwellTime: TimeInterval = 30

    private let monitor: any RegionMonitor
    private var store: LocationEventStore?
    private let openStore: (@Sendable () async -> LocationEventStore?)?
    private let dwellTime: TimeInterval
    /// Presence and pending crossings per geofence: the store's copy, plus what it could not take yet.
    private var tracks: [String: GeofenceTrack] = [:]
    /// Geofences whose track changed since the store last took it (the store could not be opened or written).
    private var unsavedTracks = Set<String>()
    /// Every geofence given so far, by identifier (a pending crossing of one no longer monitored is still recorded).
    private var knownGeofences: [String: Geofence] = [:]
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
        return pendingEvents { $0.isDue(at: now) }
    }
    /// Crossings still within their dwell time, oldest first.
    public var heldCrossings: [RegionEvent] {
        let now = self.now
        return pendingEvents { !$0.isDue(at: now) }
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
        tracks = await store?.tracks() ?? [:]
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
        // Crossings whose dwell time passed while the app was not running are recorded first, with their own time.
        await releaseHeldCrossings(now: clock.now)
        await process(.monitoredRegionsObserved(await monitor.monitoredRegions()), at: clock.now)
    }

    /// Monitors the geofences of `connections` (enabled Connections, enabled user features only).
    public func update(connections: [Connection]) async {
        await update(geofences: Geofence.geofences(for: connections, radiusLimits: radiusLimits))
    }

    /// Monitors `geofences`; a radius beyond the platform's maximum is lowered to it.
    public func update(geofences: [Geofence]) async {
        let maximum = radiusLimits.maximum
        let fences = geofences.map { fence in
            guard fence.radius > maximum else { return fence }
            return Geofence(
                triggerSubscriptionId: fence.triggerSubscriptionId, connectionId: fence.connectionId,
                center: fence.center, radius: maximum, transitions: fence.transitions)
        }
        knownGeofences.merge(fences.map { ($0.identifier, $0) }) { _, new in new }
        await process(.geofencesChanged(fences), at: clock.now)
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
            await apply(effects, at: time)
            if ownedAfter != ownedBefore, !ownedAfter.isSuperset(of: ownedBefore) { ownership?.save(ownedAfter) }
        }
        processing = false
    }

    /// Performs the engine's effects, then turns presence changes into pending crossings.
    ///
    /// A geofence's crossing and its new presence are saved in one journal record before anything depends on
    /// them; the crossing is recorded (its event appended) once its dwell time has passed. A crossing that
    /// reverses the geofence's last pending one within that time removes it, and neither is recorded.
    private func apply(_ effects: [RegionSelector.Effect], at time: Date) async {
        // What is due by now goes first, so crossings are recorded in the order they happened.
        await releaseHeldCrossings(now: max(time, clock.now))
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
        var changed: [String: GeofenceTrack] = [:]
        for (id, presence) in selector.presence.sorted(by: { $0.key < $1.key }) {
            var track = tracks[id] ?? GeofenceTrack()
            // The saved presence already says so (a relaunch inside, geofences turned off and on): nothing new.
            guard track.presence != presence else { continue }
            let old = track.presence
            track.presence = presence
            let crossing = recorded[id]
            // A first "outside" without a crossing is the initial state; every other change is a crossing, also
            // when the engine records none for it (a transition the trigger does not ask for, or an exit learnt
            // from the state after a relaunch).
            if crossing != nil || old != nil {
                let transition: RegionTransition = presence == .inside ? .entry : .exit
                let at = crossing?.occurredAt ?? time
                if let last = track.pending.last, !last.isDue(at: at) {
                    track.pending.removeLast()  // back within the dwell time: neither crossing counts
                } else {
                    let fence = crossing?.geofence ?? knownGeofences[id]
                    let event = fence.flatMap {
                        $0.records(transition)
                            ? RegionEvent(
                                transition: transition, occurredAt: at, triggerSubscriptionId: $0.triggerSubscriptionId)
                            : nil
                    }
                    track.pending.append(
                        PendingCrossing(
                            transition: transition, occurredAt: at, deadline: at.addingTimeInterval(dwellTime),
                            event: event))
                    if track.pending.count > Self.unstoredLimit { dropOldestPair(of: &track, id: id) }
                }
            }
            changed[id] = track
        }
        guard !changed.isEmpty else { return }
        tracks.merge(changed) { _, new in new }
        await saveTracks(Set(changed.keys))
        await releaseHeldCrossings(now: max(time, clock.now))
    }

    /// Forgets presence and pending crossings in memory (the store's copy goes with
    /// ``LocationEventStore/removeAll()``), as deactivation does: the next state the platform reports counts as new.
    public func forgetPresence() {
        tracks = [:]
        unsavedTracks = []
        releaseTask?.task.cancel()
        releaseTask = nil
    }

    /// Tries to open the store if it is not open, saves what it could not take, then records the crossings whose
    /// dwell time has passed. Returns whether the store is open and nothing waits in memory.
    @discardableResult
    public func retryStorage() async -> Bool {
        if store == nil, let openStore {
            store = await openStore()
            if let store {
                // Geofences the store knows and this session does not yet (another launch wrote them) are read;
                // this session's own tracks are newer and are written over the store's.
                let stored = await store.tracks()
                for (id, track) in stored where tracks[id] == nil { tracks[id] = track }
                unsavedTracks.formUnion(tracks.keys.filter { stored[$0] != tracks[$0] })
            }
        }
        guard store != nil else { return openStore == nil && unstoredEvents.isEmpty }
        if !unsavedTracks.isEmpty { await saveTracks(unsavedTracks) }
        await releaseHeldCrossings(now: now)
        return unsavedTracks.isEmpty && unstoredEvents.isEmpty
    }

    /// Records the pending crossings whose dwell time has passed at `now`, oldest first; a crossing the store
    /// refuses stays pending (durably) and is tried again on the next event, run or ``retryStorage()``.
    public func releaseHeldCrossings(now: Date) async {
        while let (id, crossing) = nextDue(at: now) {
            if let event = crossing.event {
                guard await commit(event) else { break }
            }
            tracks[id]?.pending.removeFirst()
            if crossing.event == nil { unsavedTracks.insert(id) }  // nothing else writes the track this time
        }
        if !unsavedTracks.isEmpty, store != nil { await saveTracks(unsavedTracks) }
        scheduleRelease()
    }

    /// The geofence and crossing due first at `now`: the oldest first crossing of a track that is due.
    private func nextDue(at now: Date) -> (String, PendingCrossing)? {
        var best: (String, PendingCrossing)?
        for (id, track) in tracks {
            guard let first = track.pending.first, first.isDue(at: now) else { continue }
            if let current = best, (current.1.occurredAt, current.0) <= (first.occurredAt, id) { continue }
            best = (id, first)
        }
        return best
    }

    private func pendingEvents(where include: (PendingCrossing) -> Bool) -> [RegionEvent] {
        tracks.values.flatMap(\.pending).filter(include).compactMap(\.event).sorted { $0.occurredAt < $1.occurredAt }
    }

    /// The session's time: the latest event time or the clock, whichever is later (a replayed route's fixes carry
    /// their own times).
    private var now: Date { max(latestEventTime ?? .distantPast, clock.now) }

    /// Releases what is due once the earliest deadline has passed, also when no further event arrives.
    private func scheduleRelease() {
        let deadline = tracks.values.compactMap { $0.pending.first?.deadline }.min()
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

    /// Writes the tracks of `ids` to the store in one record; keeps them marked unsaved when it cannot.
    private func saveTracks(_ ids: Set<String>) async {
        guard let store else {
            unsavedTracks.formUnion(ids)
            return
        }
        let changes = Dictionary(uniqueKeysWithValues: ids.map { ($0, tracks[$0] ?? GeofenceTrack()) })
        do throws(LocationError) {
            try await store.saveTracks(changes)
            unsavedTracks.subtract(ids)
        } catch {
            unsavedTracks.formUnion(ids)
            onError?(error)
        }
    }

    /// Keeps a track within ``unstoredLimit`` by dropping its two oldest crossings (an entry and an exit).
    private func dropOldestPair(of track: inout GeofenceTrack, id: String) {
        let dropped = track.pending.prefix(2)
        track.pending.removeFirst(min(2, track.pending.count))
        onError?(
            LocationError(
                .storage,
                "more than \(Self.unstoredLimit) crossings of \(id) wait for the store; the oldest two (\(dropped.compactMap(\.event?.recordId.uuidString).joined(separator: ", "))) were dropped"
            ))
    }

    /// Stores `event` durably, then reports it. Returns whether it was stored (or the session keeps no store).
    private func commit(_ event: RegionEvent) async -> Bool {
        if store == nil, openStore == nil {
            remember(event)  // a memory-only session: nothing to store
            return true
        }
        if store == nil, let openStore {
            store = await openStore()
            if store == nil {
                onError?(LocationError(.storage, "the event store cannot be opened; crossings wait in memory"))
                return false
            }
            if !unsavedTracks.isEmpty { await saveTracks(unsavedTracks) }
        }
        guard let store else { return false }
        do throws(LocationError) {
            try await store.append(event)
        } catch {
            onError?(error)
            return false
        }
        remember(event)
        return true
    }

    private func remember(_ event: RegionEvent) {
        recordedEvents.append(event)
        if recordedEvents.count > Self.recordedEventsLimit {
            recordedEvents.removeFirst(recordedEvents.count - Self.recordedEventsLimit)
        }
        onEvent?(event)
    }
}
