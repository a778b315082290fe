import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
public actor LocationEventStore {
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
    private let journal: JournalFile
    private var pendingCount = 0
    private var deadRecords = 0
    /// Counters for monitoring and benchmarks.
    public private(set) var statistics = Statistics()

    /// Counters of the store's work since it was opened.
    public struct Statistics: Sendable, Hashable {
        /// Full reads and decodes of the journal.
        public var journalScans = 0
        /// Bytes that belonged to no valid record, summed over every scan (torn writes, damage).
        public var skippedBytes = 0
    }

    /// The default directory: `<Application Support>/IFTTTConnectLocation`.
    public static func defaultDirectory() -> URL {
        let base = (try? FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask,
                                                 appropriateFor: nil, create: true))
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("IFTTTConnectLocation", isDirectory: true)
    }

    /// Opens (creating if needed) the store in `directory`.
    ///
    /// - Throws: ``LocationError`` with ``LocationError/Code/storage`` when the directory or files cannot be
    ///   created or opened.
    public init(directory: URL = LocationEventStore.defaultDirectory(), policy: RetentionPolicy = RetentionPolicy()) throws(LocationError) {
        self.directory = directory
        self.policy = policy
        self.journal = try JournalFile(directory: directory)
        let state = try Self.state(of: try journal.read(), now: nil, policy: policy)
        statistics.journalScans += 1
        pendingCount = state.pending.count
        deadRecords = state.records - state.pending.count
    }

    /// Appends `event` durably: when this returns, the event survives a crash.
    ///
    /// - Throws: ``LocationError/Code/storeFull`` when the policy's count is reached, or
    ///   ``LocationError/Code/storage`` when the write fails.
    public func append(_ event: RegionEvent) throws(LocationError) {
        if pendingCount >= policy.maximumPendingCount {
            _ = try compact(now: event.occurredAt)
            guard pendingCount < policy.maximumPendingCount else {
                throw LocationError(.storeFull, "the store holds \(pendingCount) unacknowledged events")
            }
        }
        try journal.append(EventJournal.encode(.event(event)))
        pendingCount += 1
    }

    /// The unacknowledged, unexpired events in the order they were recorded.
    public func pending(now: Date) throws(LocationError) -> [RegionEvent] {
        let state = try Self.state(of: try journal.read(), now: now, policy: policy)
        statistics.journalScans += 1
        pendingCount = state.pending.count + state.expired
        deadRecords = state.records - state.pending.count
        return state.pending
    }

    /// Records that the server accepted the events with these record ids; they are never sent again.
    ///
    /// - Throws: ``LocationError/Code/storage`` when the write fails.
    public func acknowledge(_ recordIds: [UUID]) throws(LocationError) {
        guard !recordIds.isEmpty else { return }
        try journal.append(EventJournal.encode(.acknowledged(recordIds)))
        pendingCount = max(0, pendingCount - recordIds.count)
        deadRecords += recordIds.count + 1
        if deadRecords > max(64, pendingCount) {
            _ = try compact(now: nil)
        }
    }

    /// Rewrites the journal with only the live events, dropping acknowledged ones and, when `now` is given,
    /// those older than the policy's maximum age. Returns the number of expired events removed.
    ///
    /// - Throws: ``LocationError/Code/storage`` when the rewrite fails; the old journal is then intact.
    @discardableResult
    public func compact(now: Date?) throws(LocationError) -> Int {
        var expired = 0
        try journal.rewrite { data throws(LocationError) in
            let state = try Self.state(of: data, now: now, policy: policy)
            statistics.journalScans += 1
            expired = state.expired
            pendingCount = state.pending.count
            deadRecords = 0
            var output = Data()
            for event in state.pending { output.append(EventJournal.encode(.event(event))) }
            return output
        }
        return expired
    }

    /// Deletes every stored event (for deactivation by the user, never for a 401).
    public func removeAll() throws(LocationError) {
        try journal.rewrite { _ throws(LocationError) in Data() }
        pendingCount = 0
        deadRecords = 0
    }

    private struct JournalState {
        var pending: [RegionEvent] = []
        var expired = 0
        var records = 0
    }

    private static func state(of data: Data, now: Date?, policy: RetentionPolicy) throws(LocationError) -> JournalState {
        let scan = EventJournal.scan(data)
        var events: [RegionEvent] = []
        var seen = Set<UUID>()
        var acknowledged = Set<UUID>()
        for entry in scan.entries {
            switch entry {
            case .event(let event): if seen.insert(event.recordId).inserted { events.append(event) }
            case .acknowledged(let ids): acknowledged.formUnion(ids)
            }
        }
        var state = JournalState(records: scan.entries.count)
        let oldest = now.map { $0.addingTimeInterval(-policy.maximumAge) }
        for event in events where !acknowledged.contains(event.recordId) {
            if let oldest, event.occurredAt < oldest {
                state.expired += 1
            } else {
                state.pending.append(event)
            }
        }
        return state
    }
}

/// The journal's files: `events.journal` (append-only) and `events.lock` (for `flock`).
final class JournalFile {
    let journalPath: String
    let lockPath: String
    let directoryPath: String
    private var lockDescriptor: Int32
    private var appendDescriptor: Int32 = -1

    init(directory: URL) throws(LocationError) {
        directoryPath = directory.path
        journalPath = directory.appendingPathComponent("events.journal").path
        lockPath = directory.appendingPathComponent("events.lock").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw LocationError(.storage, "cannot create the store directory (\(Self.describe(error)))")
        }
        lockDescriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockDescriptor >= 0 else { throw Self.posixError("cannot open the lock file") }
        Self.protect(directory: directory, files: [lockPath])
    }

    deinit {
        if appendDescriptor >= 0 { close(appendDescriptor) }
        close(lockDescriptor)
    }

    /// Appends one record with a single write, then syncs it.
    func append(_ record: Data) throws(LocationError) {
        try withLock(LOCK_SH) { () throws(LocationError) in
            try openForAppendIfNeeded()
            try Self.writeAll(appendDescriptor, record)
            try Self.sync(appendDescriptor)
        }
    }

    /// The whole journal (empty when it does not exist yet).
    func read() throws(LocationError) -> Data {
        try withLock(LOCK_SH) { () throws(LocationError) in
            guard FileManager.default.fileExists(atPath: journalPath) else { return Data() }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: journalPath))
            } catch {
                throw LocationError(.storage, "cannot read the journal (\(Self.describe(error)))")
            }
        }
    }

    /// Replaces the journal atomically with `transform(current contents)`.
    func rewrite(_ transform: (Data) throws(LocationError) -> Data) throws(LocationError) {
        try withLock(LOCK_EX) { () throws(LocationError) in
            let current: Data
            if FileManager.default.fileExists(atPath: journalPath) {
                do { current = try Data(contentsOf: URL(fileURLWithPath: journalPath)) } catch {
                    throw LocationError(.storage, "cannot read the journal (\(Self.describe(error)))")
                }
            } else {
                current = Data()
            }
            let output = try transform(current)
            let temporary = journalPath + ".tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw Self.posixError("cannot create the compacted journal") }
            do throws(LocationError) {
                _ = fchmod(fd, 0o600)
                try Self.writeAll(fd, output)
                try Self.sync(fd)
                close(fd)
            } catch {
                close(fd)
                unlink(temporary)
                throw error
            }
            guard rename(temporary, journalPath) == 0 else {
                let error = Self.posixError("cannot replace the journal")
                unlink(temporary)
                throw error
            }
            Self.protect(directory: nil, files: [journalPath])
            let directoryDescriptor = open(directoryPath, O_RDONLY | O_CLOEXEC)
            if directoryDescriptor >= 0 {
                _ = fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
            if appendDescriptor >= 0 {
                close(appendDescriptor)
                appendDescriptor = -1
            }
        }
    }

    private func openForAppendIfNeeded() throws(LocationError) {
        if appendDescriptor >= 0 {
            // Compaction in another process may have replaced the file: append to the current one.
            var opened = stat(), named = stat()
            if fstat(appendDescriptor, &opened) == 0, stat(journalPath, &named) == 0,
               opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                return
            }
            close(appendDescriptor)
            appendDescriptor = -1
        }
        let created = !FileManager.default.fileExists(atPath: journalPath)
        appendDescriptor = open(journalPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard appendDescriptor >= 0 else { throw Self.posixError("cannot open the journal") }
        if created {
            _ = fchmod(appendDescriptor, 0o600)
            Self.protect(directory: nil, files: [journalPath])
        }
    }

    private func withLock<T>(_ operation: Int32, _ body: () throws(LocationError) -> T) throws(LocationError) -> T {
        while flock(lockDescriptor, operation) != 0 {
            guard errno == EINTR else { throw Self.posixError("cannot lock the store") }
        }
        defer { _ = flock(lockDescriptor, LOCK_UN) }
        return try body()
    }

    private static func writeAll(_ fd: Int32, _ data: Data) throws(LocationError) {
        var failure: LocationError?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            while remaining > 0 {
                let written = write(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = posixError("cannot write the journal")
                    return
                }
                remaining -= written
                pointer += written
            }
        }
        if let failure { throw failure }
    }

    private static func sync(_ fd: Int32) throws(LocationError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw posixError("cannot sync the journal") }
    }

    private static func posixError(_ what: String) -> LocationError {
        LocationError(.storage, "\(what) (errno \(errno))")
    }

    private static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        return "\(ns.domain) \(ns.code)"
    }

    /// File protection on Apple devices; backup exclusion for the directory.
    private static func protect(directory: URL?, files: [String]) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        for path in files + (directory.map { [$0.path] } ?? []) {
            try? FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
                                                   ofItemAtPath: path)
        }
        #endif
        #if canImport(Darwin)
        if var url = directory {
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        }
        #endif
    }
}
