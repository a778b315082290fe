import Foundation

/// The crossings a ``LocationMonitoringSession`` holds, as a pure state machine: presence and pending crossings per
/// geofence, which of them the store has not taken yet, and the one crossing whose event is being appended.
///
/// `handle(_:)` takes one event and returns the effects for the session (its shell) to perform: store writes,
/// reports, the dwell timer. The session performs them one at a time and feeds each result back as an event
/// (``Event/appended(_:error:)``, ``Event/saved(_:error:)``, ``Event/storeOpened(_:)``), the way
/// `ConnectButtonController` drives `ActivationFlow`. It performs no I/O and reads no clock.
///
/// **One release at a time.** A due crossing is removed from its track only when the result of *its own* append
/// arrives, matched by record id; while an append is in flight, another ``Event/release(now:)`` only moves the
/// release time forward. However the timer, region events, `retryStorage()`, `start()` and upload completions are
/// ordered, a crossing is appended once and removed once (issue 29, D1).
struct CrossingLedger: Sendable, Equatable {
    /// Whether crossings are written to a store.
    enum Storage: Sendable, Equatable {
        /// No store and no way to open one: a due crossing is recorded in memory only.
        case memoryOnly
        /// A store can be opened but is not open yet (or could not be opened).
        case closed
        /// The store is open.
        case open
    }

    /// The crossing whose event is being appended.
    struct Append: Sendable, Equatable {
        var geofence: String
        var event: RegionEvent
        /// The time the release that started it runs at (moved forward by releases that arrive meanwhile).
        var now: Date
    }

    /// What the ledger reacts to.
    enum Event: Sendable, Equatable {
        /// Geofences given to the session (a pending crossing of one no longer monitored is still recorded).
        case geofencesKnown([Geofence])
        /// The engine's presence after an event, the crossings it recorded (by geofence), and the event's time.
        case presenceChanged([String: RegionSelector.Presence], crossings: [String: RegionSelector.Crossing], at: Date)
        /// Record what is due at `now`: the dwell timer, any region event, `retryStorage()`, `start()`.
        case release(now: Date)
        /// The store was opened (its saved tracks), or could not be (`nil`).
        case storeOpened([String: GeofenceTrack]?)
        /// The append of the event with this record id returned (`error` when the store refused it).
        case appended(UUID, error: LocationError?)
        /// A write of these tracks returned.
        case saved([String: GeofenceTrack], error: LocationError?)
        /// Deactivation: presence and pending crossings are forgotten.
        case forget
    }

    /// What the shell performs.
    enum Effect: Sendable, Equatable {
        /// Open the store; answer with ``Event/storeOpened(_:)``.
        case openStore
        /// Append the event durably; answer with ``Event/appended(_:error:)``.
        case append(RegionEvent)
        /// Save these tracks in one record; answer with ``Event/saved(_:error:)``.
        case save([String: GeofenceTrack])
        /// The event is stored (or the session keeps no store): report it.
        case record(RegionEvent)
        /// Tell the app a crossing could not be stored.
        case fail(LocationError)
        /// Release again at this deadline (`nil`: nothing is held).
        case scheduleRelease(Date?)
    }

    let dwellTime: TimeInterval
    let unstoredLimit: Int
    /// Presence and pending crossings per geofence: the store's copy, plus what it could not take yet.
    private(set) var tracks: [String: GeofenceTrack] = [:]
    /// Geofences whose track changed since the store last took it.
    private(set) var unsaved = Set<String>()
    /// Every geofence given so far, by identifier.
    private(set) var known: [String: Geofence] = [:]
    private(set) var storage: Storage
    /// The crossing being appended, if any.
    private(set) var appending: Append?
    /// The release waiting for the store to open, if any.
    private(set) var waitingForStore: Date?
    /// Failures already reported, so that each is reported once (not at every retry): crossings whose append the
    /// store refused, whether saving tracks fails, whether the store cannot be opened.
    private(set) var reportedAppendFailures = Set<UUID>()
    private(set) var reportedSaveFailure = false
    private(set) var reportedOpenFailure = false

    init(storage: Storage, dwellTime: TimeInterval, unstoredLimit: Int) {
        self.storage = storage
        self.dwellTime = max(0, dwellTime)
        self.unstoredLimit = unstoredLimit
    }

    /// The pending events that match `include`, oldest first.
    func pendingEvents(where include: (PendingCrossing) -> Bool) -> [RegionEvent] {
        tracks.values.flatMap(\.pending).filter(include).compactMap(\.event).sorted { $0.occurredAt < $1.occurredAt }
    }

    /// The earliest deadline of a crossing that waits first in its track.
    var nextDeadline: Date? { tracks.values.compactMap { $0.pending.first?.deadline }.min() }

    // MARK: - Transitions

    /// Applies `event` and returns the effects to perform, in order.
    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .geofencesKnown(let fences):
            known.merge(fences.map { ($0.identifier, $0) }) { _, new in new }
            return []

        case .presenceChanged(let presence, let crossings, let time):
            return observe(presence, crossings: crossings, at: time)

        case .release(let now):
            if var current = appending {
                current.now = max(current.now, now)  // its answer continues this release
                appending = current
                return []
            }
            if let waiting = waitingForStore {
                waitingForStore = max(waiting, now)
                return []
            }
            return release(now: now)

        case .storeOpened(let stored):
            let resume = waitingForStore
            waitingForStore = nil
            guard let stored else {
                var effects: [Effect] = []
                if resume != nil, !reportedOpenFailure {
                    reportedOpenFailure = true
                    effects.append(
                        .fail(LocationError(.storage, "the event store cannot be opened; crossings wait in memory")))
                }
                return effects + [.scheduleRelease(nextDeadline)]
            }
            storage = .open
            reportedOpenFailure = false
            // Geofences the store knows and this session does not yet (another launch wrote them) are read; this
            // session's own tracks are newer and are written over the store's.
            for (id, track) in stored where tracks[id] == nil { tracks[id] = track }
            unsaved.formUnion(tracks.keys.filter { stored[$0] != tracks[$0] })
            var effects = saveUnsaved()
            if let resume { effects += release(now: resume) }
            return effects

        case .appended(let recordId, let error):
            guard let current = appending, current.event.recordId == recordId else { return [] }
            appending = nil
            if let error {
                // Refused (full, read-only, failing): it stays pending, durably, and is tried again later; the app
                // hears of it once, not at every retry.
                let report: [Effect] = reportedAppendFailures.insert(recordId).inserted ? [.fail(error)] : []
                return report + saveUnsaved() + [.scheduleRelease(nextDeadline)]
            }
            reportedAppendFailures.remove(recordId)
            remove(recordId, from: current.geofence)
            return [.record(current.event)] + release(now: current.now)

        case .saved(let written, let error):
            if let error {
                unsaved.formUnion(written.keys)
                guard !reportedSaveFailure else { return [] }
                reportedSaveFailure = true
                return [.fail(error)]
            }
            reportedSaveFailure = false
            for (id, track) in written where (tracks[id] ?? GeofenceTrack()) == track { unsaved.remove(id) }
            return []

        case .forget:
            tracks = [:]
            unsaved = []
            appending = nil
            waitingForStore = nil
            reportedAppendFailures = []
            return [.scheduleRelease(nil)]
        }
    }

    /// Records what is due at `now`, oldest first, one append at a time.
    private mutating func release(now: Date) -> [Effect] {
        var effects: [Effect] = []
        while let (id, crossing) = nextDue(at: now) {
            if let event = crossing.event {
                switch storage {
                case .memoryOnly:
                    remove(event.recordId, from: id)
                    effects.append(.record(event))
                    continue
                case .closed:
                    waitingForStore = now
                    return effects + [.openStore]
                case .open:
                    appending = Append(geofence: id, event: event, now: now)
                    return effects + [.append(event)]
                }
            }
            // A transition the trigger does not ask for: nothing to record, but the track changed.
            tracks[id]?.pending.removeFirst()
            unsaved.insert(id)
        }
        return effects + saveUnsaved() + [.scheduleRelease(nextDeadline)]
    }

    /// Turns presence changes into pending crossings: a crossing that reverses the geofence's last pending one
    /// within the dwell time removes it, and neither is recorded.
    private mutating func observe(
        _ presence: [String: RegionSelector.Presence], crossings: [String: RegionSelector.Crossing], at time: Date
    ) -> [Effect] {
        var changed = Set<String>()
        var effects: [Effect] = []
        for (id, presence) in presence.sorted(by: { $0.key < $1.key }) {
            var track = tracks[id] ?? GeofenceTrack()
            // The saved presence already says so (a relaunch inside, geofences turned off and on): nothing new.
            guard track.presence != presence else { continue }
            let old = track.presence
            track.presence = presence
            let crossing = crossings[id]
            // A first "outside" without a crossing is the initial state; every other change is a crossing, also
            // when the engine records none for it (a transition the trigger does not ask for, or an exit learnt
            // from the state after a relaunch).
            if crossing != nil || old != nil {
                let transition: RegionTransition = presence == .inside ? .entry : .exit
                let at = crossing?.occurredAt ?? time
                if let last = track.pending.last, !last.isDue(at: at), !isAppending(last) {
                    track.pending.removeLast()  // back within the dwell time: neither crossing counts
                } else {
                    let fence = crossing?.geofence ?? known[id]
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
                    if track.pending.count > unstoredLimit { effects.append(dropOldestPair(of: &track, id: id)) }
                }
            }
            tracks[id] = track
            changed.insert(id)
        }
        guard !changed.isEmpty else { return effects }
        unsaved.formUnion(changed)
        return effects + saveUnsaved()
    }

    private func isAppending(_ crossing: PendingCrossing) -> Bool {
        guard let appending, let event = crossing.event else { return false }
        return appending.event.recordId == event.recordId
    }

    /// The save of every unsaved track, when the store is open.
    private func saveUnsaved() -> [Effect] {
        guard storage == .open, !unsaved.isEmpty else { return [] }
        return [.save(Dictionary(uniqueKeysWithValues: unsaved.map { ($0, tracks[$0] ?? GeofenceTrack()) }))]
    }

    /// Removes the crossing whose event has `recordId` from the track of `id` (by identity: never "the first").
    private mutating func remove(_ recordId: UUID, from id: String) {
        guard let index = tracks[id]?.pending.firstIndex(where: { $0.event?.recordId == recordId }) else { return }
        tracks[id]?.pending.remove(at: index)
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

    /// Keeps a track within the unstored limit by dropping its two oldest crossings (an entry and an exit), never
    /// the one being appended.
    private mutating func dropOldestPair(of track: inout GeofenceTrack, id: String) -> Effect {
        let candidates = track.pending.filter { !isAppending($0) }.prefix(2)
        let dropped = Set(candidates.compactMap(\.event?.recordId))
        var removed = 0
        track.pending.removeAll { crossing in
            guard removed < candidates.count, !isAppending(crossing) else { return false }
            removed += 1
            return true
        }
        return .fail(
            LocationError(
                .storage,
                "more than \(unstoredLimit) crossings of \(id) wait for the store; the oldest two (\(dropped.map(\.uuidString).sorted().joined(separator: ", "))) were dropped"
            ))
    }
}
