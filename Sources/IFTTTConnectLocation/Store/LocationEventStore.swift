import Foundation

/// The durable store of recorded geofence crossings waiting for upload.
///
/// **Format.** An append-only journal (`events.journal`) of checksummed records (see the "Event store"
/// article): an event record per crossing and an acknowledgement record per batch the server accepted.
/// Each append is one `write(2)` to a file opened with `O_APPEND`, followed by `fsync` (`F_FULLFSYNC` on
/// Apple platforms) before ``append(_:)`` returns, so a returned append survives a crash or power loss.
///
/// **Crash safety.** A torn or damaged record is skipped on read; every record written in full is still read.
/// Damage to an acknowledgement can only make an event pending again; re-sending is harmless because the
/// server de-duplicates on `record_id`.
///
/// **Several processes.** Appends take a shared `flock` on `events.lock`, compaction an exclusive one, and
/// an appender reopens the journal when compaction replaced it. Another process (an app extension, a CLI)
/// may therefore append to the same directory at the same time.
///
/// **Retention policy.** An event leaves the store when the server acknowledged it, or when it is older than
/// ``RetentionPolicy/maximumAge`` (default 7 days). Nothing else removes an unacknowledged event: when the
/// store holds ``RetentionPolicy/maximumPendingCount`` unacknowledged events that are not expired (default
/// 10,000), ``append(_:)`` refuses the new one with ``LocationError/Code/storeFull`` instead of dropping an
/// older one. Compaction rewrites the journal atomically (temporary file, `fsync`, `rename`, directory `fsync`)
/// with only the live events once dead records outnumber them.
///
/// **Protection.** Files are created with mode 0600 in a 0700 directory; on iOS, tvOS, watchOS and visionOS
/// they get `completeUntilFirstUserAuthentication` protection so the store works in the background after the
/// first unlock. The default directory is `Application Support/IFTTTConnectLocation`, excluded from backups,
/// never `Documents`.
///
/// **Isolation.** The store runs on ``LocationEngineActor``, with the session and the uploader: their calls to it are
/// synchronous, so a crossing is saved, and an upload acknowledged, without a hop between isolation domains.
@_spi(Sandbox) @LocationEngineActor public final class LocationEventStore {
    /// How long and how many unacknowledged events the store keeps.
    public struct RetentionPolicy: Sendable, Hashable {
        /// Unacknowledged events older than this are removed, in seconds. Default: 7 days.
        public var maximumAge: TimeInterval
        /// The most unacknowledged, unexpired events the store holds. Default: 10,000.
        public var maximumPendingCount: Int

        /// Creates a policy.
        public init(maximumAge: TimeInterval = 7 * 24 * 3600, maximumPendingCount: Int = 10_000) {
            self.maximumAge = maximumAge
            self.maximumPendingCount = max(1, maximumPendingCount)
        }
    }

    /// The directory of the journal and its lock file.
    public nonisolated let directory: URL
    /// The retention policy.
    public nonisolated let policy: RetentionPolicy
    /// The most dead letters kept (the newest); older ones are dropped at compaction.
    public nonisolated static let maximumDeadLetters = 1_000
    private let journal: JournalFile
    private let logHandler: (@Sendable (String) -> Void)?
    /// Record ids of the unacknowledged events in the journal (expired ones included until compaction).
    private var pendingIds: Set<UUID>
    private var deadRecords: Int
    private var trackMap: [String: GeofenceTrack]
    private var lastSkippedBytes: Int
    /// In a read-only store: the record ids acknowledged or refused during this run, which cannot be written.
    private var unwrittenAcknowledgements = Set<UUID>()
    private var unwrittenRejections: [UUID: EventRejection] = [:]
    /// Counters for monitoring and benchmarks.
    public private(set) var statistics: Statistics

    /// Counters of the store's work since it was opened.
    public struct Statistics: Sendable, Hashable {
        /// Full reads and decodes of the journal.
        public var journalScans = 0
        /// Bytes that belonged to no valid record (torn writes, damage), as the last scan found them.
        public var skippedBytes = 0
        /// Scans that found skipped bytes.
        public var damagedScans = 0
    }

    /// The default directory: `<Application Support>/IFTTTConnectLocation`.
    public nonisolated static func defaultDirectory() -> URL {
        let base =
            (try? FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask,
                appropriateFor: nil, create: true))
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("IFTTTConnectLocation", isDirectory: true)
    }

    /// Opens (creating if needed) the store in `directory`.
    ///
    /// A directory the app cannot write (a read-only file system) opens read-only: ``readOnlyReason`` says why,
    /// the pending events can be read and uploaded (their acknowledgements are kept in memory for this run, so a
    /// later run may send them again, which `record_id` makes harmless), and every write throws
    /// ``LocationError/Code/readOnly``.
    ///
    /// - Parameters:
    ///   - directory: where the journal lives.
    ///   - policy: how long and how many unacknowledged events are kept.
    ///   - logHandler: receives a line when a scan skips damaged bytes (how many), and other store notices.
    /// - Throws: ``LocationError`` with ``LocationError/Code/storage`` when the directory or files cannot be
    ///   created or opened.
    public nonisolated convenience init(
        directory: URL = LocationEventStore.defaultDirectory(), policy: RetentionPolicy = RetentionPolicy(),
        logHandler: (@Sendable (String) -> Void)? = nil
    ) throws(LocationError) {
        try self.init(directory: directory, policy: policy, readOnly: false, logHandler: logHandler)
    }

    /// Opens the store; `readOnly` opens it for reading only whatever the file system allows, and `writes` is the
    /// system call its bytes are written with (tests inject failures).
    nonisolated init(
        directory: URL, policy: RetentionPolicy = RetentionPolicy(), readOnly: Bool,
        logHandler: (@Sendable (String) -> Void)? = nil, writes: JournalWrites = .system
    ) throws(LocationError) {
        let journal = try JournalFile(directory: directory, readOnly: readOnly, writes: writes)
        if let reason = journal.readOnlyReason {
            logHandler?(
                "\(reason): the event store is read-only; its events are uploaded, new crossings cannot be recorded")
        }
        let state = try Self.state(of: try journal.read(), now: nil, policy: policy)
        if state.skippedBytes > 0 {
            logHandler?(
                "the event journal has \(state.skippedBytes) damaged bytes that belong to no valid record; they were skipped"
            )
        }
        self.directory = directory
        self.policy = policy
        self.logHandler = logHandler
        self.journal = journal
        self.readOnlyReason = journal.readOnlyReason
        self.statistics = Statistics(
            journalScans: 1, skippedBytes: state.skippedBytes, damagedScans: state.skippedBytes > 0 ? 1 : 0)
        self.pendingIds = state.unacknowledged
        self.deadRecords = state.records - state.pending.count
        self.trackMap = state.tracks
        self.lastSkippedBytes = state.skippedBytes
    }

    /// The number of unacknowledged events in the journal, exact (an id acknowledged twice counts once).
    public var pendingCount: Int { pendingIds.count }

    /// Why the store cannot be written (for example a read-only file system), or `nil` when it can.
    public nonisolated let readOnlyReason: String?

    /// Whether the store is read-only (see ``readOnlyReason``).
    public nonisolated var isReadOnly: Bool { readOnlyReason != nil }

    /// Appends `event` durably: when this returns, the event survives a crash.
    ///
    /// - Throws: ``LocationError/Code/storeFull`` when the policy's count is reached, or
    ///   ``LocationError/Code/storage`` when the write fails.
    public func append(_ event: RegionEvent) throws(LocationError) {
        if pendingIds.count >= policy.maximumPendingCount, !pendingIds.contains(event.recordId) {
            _ = try compact(now: event.occurredAt)
            guard pendingIds.count < policy.maximumPendingCount else {
                throw LocationError(.storeFull, "the store holds \(pendingIds.count) unacknowledged events")
            }
        }
        try journal.append(EventJournal.encode(.event(event)))
        if !pendingIds.insert(event.recordId).inserted { deadRecords += 1 }
        Self.commit(event.recordId, in: &trackMap)
    }

    /// The unacknowledged, unexpired events in the order they were recorded. One scan of the journal; when dead
    /// records outnumber live ones, the same scan also compacts the journal.
    public func pending(now: Date) throws(LocationError) -> [RegionEvent] {
        if isReadOnly {
            let state = try Self.state(of: try journal.read(), now: now, policy: policy)
            adopt(state, compacted: false)
            return state.pending.filter {
                !unwrittenAcknowledgements.contains($0.recordId) && unwrittenRejections[$0.recordId] == nil
            }
        }
        if deadRecords > max(64, pendingIds.count) {
            // Compaction is housekeeping: when the rewrite fails (a full disk), the journal is read as it is, and the
            // dead-record count stays so that the next read tries again.
            do throws(LocationError) {
                return try compactAndRead(now: now).pending
            } catch {
                logHandler?("the event journal could not be compacted (\(error)); it was read as it is")
            }
        }
        let state = try Self.state(of: try journal.read(), now: now, policy: policy)
        adopt(state, compacted: false)
        return state.pending
    }

    /// Records that the server accepted the events with these record ids; they are never sent again.
    ///
    /// - Parameters:
    ///   - recordIds: The record ids the server acknowledged; ids already acknowledged are ignored.
    ///   - deferCompaction: `true` leaves compaction to the next ``pending(now:)`` (the uploader does
    ///     this, so an upload run reads the journal once); `false` compacts at once when dead records dominate.
    /// - Throws: ``LocationError/Code/storage`` when the write fails.
    public func acknowledge(_ recordIds: [UUID], deferCompaction: Bool = false) throws(LocationError) {
        guard !recordIds.isEmpty else { return }
        if isReadOnly {
            // Nothing can be written: remembered for this run, so the same events are not sent again meanwhile.
            unwrittenAcknowledgements.formUnion(recordIds)
            for id in recordIds { pendingIds.remove(id) }
            return
        }
        try journal.append(EventJournal.encode(.acknowledged(recordIds)))
        for id in Set(recordIds) where pendingIds.remove(id) != nil { deadRecords += 1 }
        deadRecords += 1
        if !deferCompaction, deadRecords > max(64, pendingIds.count) {
            // The acknowledgement is written; compaction is housekeeping that a full disk may refuse.
            do throws(LocationError) { _ = try compactAndRead(now: nil) } catch {
                logHandler?("the event journal could not be compacted (\(error)); it is compacted later")
            }
        }
    }

    /// Moves the events with these record ids to the dead-letter area with the server's reason: they are never
    /// sent again and no longer count as pending, and ``deadLetters()`` lists them until they pass the policy's
    /// maximum age (at most ``maximumDeadLetters``, the newest, are kept).
    ///
    /// - Throws: ``LocationError/Code/storage`` when the write fails.
    public func reject(_ recordIds: [UUID], _ rejection: EventRejection) throws(LocationError) {
        guard !recordIds.isEmpty else { return }
        if isReadOnly {
            for id in recordIds {
                unwrittenRejections[id] = rejection
                pendingIds.remove(id)
            }
            return
        }
        try journal.append(EventJournal.encode(.rejected(recordIds, rejection)))
        for id in Set(recordIds) { pendingIds.remove(id) }
        deadRecords += 1
    }

    /// The events the server refused, oldest rejection first, with the server's reasons. One scan of the journal.
    public func deadLetters() throws(LocationError) -> [DeadLetter] {
        let state = try Self.state(of: try journal.read(), now: nil, policy: policy)
        adopt(state, compacted: false)
        return state.deadLetters
    }

    /// Presence per geofence identifier as last saved (survives relaunches).
    public func presence() -> [String: RegionSelector.Presence] { trackMap.compactMapValues(\.presence) }

    /// Saves presence changes durably (one record). Identifiers not in `changes` keep their saved presence, and
    /// every geofence keeps its pending crossings.
    ///
    /// - Throws: ``LocationError/Code/storage`` when the write fails.
    public func savePresence(_ changes: [String: RegionSelector.Presence]) throws(LocationError) {
        var tracks: [String: GeofenceTrack] = [:]
        for (id, presence) in changes where trackMap[id]?.presence != presence {
            var track = trackMap[id] ?? GeofenceTrack()
            track.presence = presence
            tracks[id] = track
        }
        try saveTracks(tracks)
    }

    /// Each geofence's presence and pending crossings, as last saved.
    func tracks() -> [String: GeofenceTrack] { trackMap }

    /// Replaces the saved tracks of the geofences in `changes` in one durable record: presence and pending
    /// crossings change together or not at all. A track that is unknown and empty is dropped.
    ///
    /// It is written whatever the pending count: a pending crossing is not an event yet, and each geofence holds
    /// few. When its event is appended (``append(_:)``), the crossing leaves the track in the same record.
    func saveTracks(_ changes: [String: GeofenceTrack]) throws(LocationError) {
        let changed = changes.filter { trackMap[$0.key] ?? GeofenceTrack() != $0.value }
        guard !changed.isEmpty else { return }
        try journal.append(EventJournal.encode(.tracking(changed)))
        for (id, track) in changed { trackMap[id] = track.presence == nil && track.pending.isEmpty ? nil : track }
        deadRecords += 1
    }

    /// Rewrites the journal with only the live events (and the dead letters and presence), dropping acknowledged
    /// ones and, when `now` is given, those older than the policy's maximum age. Returns the number of expired
    /// events removed.
    ///
    /// - Throws: ``LocationError/Code/storage`` when the rewrite fails; the old journal is then intact.
    @discardableResult
    public func compact(now: Date?) throws(LocationError) -> Int {
        try compactAndRead(now: now).expired
    }

    /// Rewrites the journal with only its live records; the store adopts the new state (and resets its count of
    /// dead records) only once the rewrite succeeded.
    private func compactAndRead(now: Date?) throws(LocationError) -> JournalState {
        var compacted: JournalState?
        try journal.rewrite { data throws(LocationError) in
            let state = try Self.state(of: data, now: now, policy: policy)
            compacted = state
            return output(of: state)
        }
        guard let compacted else { throw LocationError(.storage, "the journal was not rewritten") }
        adopt(compacted, compacted: true)
        return compacted
    }

    /// Deletes every stored event, dead letter and saved presence (for deactivation by the user, never for a 401).
    public func removeAll() throws(LocationError) {
        try journal.rewrite { _ throws(LocationError) in Data() }
        pendingIds = []
        deadRecords = 0
        trackMap = [:]
    }

    private func adopt(_ state: JournalState, compacted: Bool) {
        statistics.journalScans += 1
        pendingIds = compacted ? Set(state.pending.map(\.recordId)) : state.unacknowledged
        if isReadOnly {
            pendingIds.subtract(unwrittenAcknowledgements)
            pendingIds.subtract(unwrittenRejections.keys)
        }
        deadRecords = compacted ? 0 : state.records - state.pending.count
        trackMap = state.tracks
        noteSkipped(state.skippedBytes)
    }

    private func output(of state: JournalState) -> Data {
        var output = Data()
        for event in state.pending { output.append(EventJournal.encode(.event(event))) }
        if !state.tracks.isEmpty { output.append(EventJournal.encode(.tracking(state.tracks))) }
        for letter in state.deadLetters {
            output.append(EventJournal.encode(.event(letter.event)))
            output.append(EventJournal.encode(.rejected([letter.event.recordId], letter.rejection)))
        }
        return output
    }

    private func noteSkipped(_ bytes: Int) {
        statistics.skippedBytes = bytes
        if bytes > 0 { statistics.damagedScans += 1 }
        if bytes != lastSkippedBytes, bytes > 0 {
            logHandler?(
                "the event journal has \(bytes) damaged bytes that belong to no valid record; they were skipped")
        }
        lastSkippedBytes = bytes
    }

    /// Removes the pending crossing whose event has `recordId` (its event was appended) from `tracks`.
    private nonisolated static func commit(_ recordId: UUID, in tracks: inout [String: GeofenceTrack]) {
        guard !tracks.isEmpty else { return }
        for (id, track) in tracks where !track.pending.isEmpty {
            guard let index = track.pending.firstIndex(where: { $0.event?.recordId == recordId }) else { continue }
            tracks[id]?.pending.remove(at: index)
            return
        }
    }

    private struct JournalState {
        var pending: [RegionEvent] = []
        var unacknowledged = Set<UUID>()
        var deadLetters: [DeadLetter] = []
        var tracks: [String: GeofenceTrack] = [:]
        var expired = 0
        var records = 0
        var skippedBytes = 0
    }

    private nonisolated static func state(of data: Data, now: Date?, policy: RetentionPolicy) throws(LocationError)
        -> JournalState
    {
        let scan = EventJournal.scan(data)
        var events: [RegionEvent] = []
        var seen = Set<UUID>()
        var acknowledged = Set<UUID>()
        var rejected: [UUID: EventRejection] = [:]
        var owners: [UUID: String] = [:]  // record id of a pending crossing's event -> its geofence
        var state = JournalState(records: scan.entries.count, skippedBytes: scan.skippedBytes)
        for entry in scan.entries {
            switch entry {
            case .event(let event):
                if seen.insert(event.recordId).inserted { events.append(event) }
                if let id = owners.removeValue(forKey: event.recordId) {
                    state.tracks[id]?.pending.removeAll { $0.event?.recordId == event.recordId }
                }
            case .acknowledged(let ids): acknowledged.formUnion(ids)
            case .rejected(let ids, let why): for id in ids where rejected[id] == nil { rejected[id] = why }
            case .presence(let changes):
                for (id, presence) in changes { state.tracks[id, default: GeofenceTrack()].presence = presence }
            case .tracking(let changes):
                for (id, track) in changes {
                    for old in state.tracks[id]?.pending ?? [] {
                        if let event = old.event { owners[event.recordId] = nil }
                    }
                    state.tracks[id] = track.presence == nil && track.pending.isEmpty ? nil : track
                    for new in track.pending { if let event = new.event { owners[event.recordId] = id } }
                }
            }
        }
        let oldest = now.map { $0.addingTimeInterval(-policy.maximumAge) }
        for event in events where !acknowledged.contains(event.recordId) {
            if let why = rejected[event.recordId] {
                if let oldest, why.rejectedAt < oldest { continue }
                state.deadLetters.append(DeadLetter(event: event, rejection: why))
                continue
            }
            state.unacknowledged.insert(event.recordId)
            if let oldest, event.occurredAt < oldest {
                state.expired += 1
            } else {
                state.pending.append(event)
            }
        }
        state.deadLetters.sort { $0.rejection.rejectedAt < $1.rejection.rejectedAt }
        if state.deadLetters.count > maximumDeadLetters {
            state.deadLetters.removeFirst(state.deadLetters.count - maximumDeadLetters)
        }
        return state
    }
}
