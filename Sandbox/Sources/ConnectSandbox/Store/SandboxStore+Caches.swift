import Foundation
import GRDB
import NIOConcurrencyHelpers

/// Counts the committed transactions that changed a table the store's caches depend on.
///
/// It observes every table except the append-only event logs (`location_events`, `sdk_events`), so a table added
/// later invalidates the caches by default. The count goes up in `databaseDidCommit`, before the write that committed
/// returns, so a request that follows a write never sees a value cached before it.
///
/// Another process may write the same database file (an embedded sandbox of a CLI command on the default database
/// while `ifttt-connect sandbox` runs). For a database file the count therefore also goes up whenever SQLite's
/// WAL index header (the first 48 bytes of the `-shm` file, which every commit of any connection rewrites) differs
/// from what this process saw after its own last commit. A commit of this process that is read before its
/// `databaseDidCommit` only costs an extra invalidation.
final class SandboxStoreGeneration: TransactionObserver, Sendable {
    /// Tables whose changes never alter a cached read.
    static let ignoredTables: Set<String> = ["location_events", "sdk_events", "dispatches"]

    private struct State {
        var count: UInt64 = 0
        var dirty = false  // set by databaseDidChange on the writer's queue
        var sharedMemory: FileHandle?
        var knownHeader = Data()
        // Between databaseWillCommit and databaseDidCommit/Rollback (we hold the write lock).
        var committing = false
    }

    private let state = NIOLockedValueBox(State())
    private let sharedMemoryPath: String?

    /// - Parameter databasePath: The database file, or `nil` in memory.
    init(databasePath: String?) {
        sharedMemoryPath = databasePath.map { $0 + "-shm" }
    }

    /// The current count.
    var value: UInt64 {
        state.withLockedValue { state in
            // While this process commits, the header changes before databaseDidCommit runs: not another process.
            guard !state.committing else { return state.count }
            let header = walIndexHeader(&state)
            if header != state.knownHeader {
                state.knownHeader = header
                state.count &+= 1
            }
            return state.count
        }
    }

    /// The WAL index header as it is now (empty in memory or before the file exists). Call inside the lock.
    private func walIndexHeader(_ state: inout State) -> Data {
        guard let sharedMemoryPath else { return Data() }
        if state.sharedMemory == nil { state.sharedMemory = FileHandle(forReadingAtPath: sharedMemoryPath) }
        guard let sharedMemory = state.sharedMemory else { return Data() }
        do {
            try sharedMemory.seek(toOffset: 0)
            return try sharedMemory.read(upToCount: 48) ?? Data()
        } catch {
            return Data()
        }
    }

    // Every table is observed, so that every write transaction of this process goes through databaseWillCommit and
    // databaseDidCommit; only changes to tables outside ignoredTables invalidate the caches.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if !Self.ignoredTables.contains(event.tableName) { state.withLockedValue { $0.dirty = true } }
    }

    func databaseWillCommit() throws {
        state.withLockedValue { state in
            // This transaction holds SQLite's write lock, so the header shows the last commit before it: if that was
            // another process's, count it now.
            let header = walIndexHeader(&state)
            if header != state.knownHeader {
                state.knownHeader = header
                state.count &+= 1
            }
            state.committing = true
        }
    }

    func databaseDidCommit(_ db: Database) {
        state.withLockedValue { state in
            state.knownHeader = walIndexHeader(&state)  // this commit is ours: not a change by another process
            state.committing = false
            if state.dirty { state.count &+= 1 }
            state.dirty = false
        }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLockedValue { state in
            state.dirty = false
            state.committing = false
        }
    }
}

/// A bounded map whose entries are valid for one store generation. When it is full it is emptied (the entries are
/// cheap to rebuild), so memory stays bounded whatever the number of users or Connections.
final class GenerationCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var entries: [Key: Value] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value stored for `key` at `generation`, if any.
    func value(for key: Key, generation: UInt64) -> Value? {
        state.withLockedValue { $0.generation == generation ? $0.entries[key] : nil }
    }

    /// Stores `value` as read at `generation`. A newer generation empties the map; an older one is ignored.
    func store(_ value: Value, for key: Key, generation: UInt64) {
        let capacity = capacity
        state.withLockedValue { state in
            if generation > state.generation {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            guard generation == state.generation else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = value
        }
    }
}

/// The key of a rendered Connection: its id and the viewing user (`nil`: anonymous, or a service without a
/// linked user).
struct RenderedConnectionKey: Hashable, Sendable {
    var connectionId: String
    var userId: String?
}

/// A Connection's JSON as one viewer sees it, with the definition needed to check access again on a hit.
struct RenderedConnection: Sendable {
    var connection: SeedData.Connection
    var body: Data
}

/// The store's read caches. Each is bounded and valid for one ``SandboxStore/generation``.
final class SandboxStoreCaches: Sendable {
    /// User token → user.
    let users = GenerationCache<String, SeedData.User>(capacity: 10_000)
    /// User id → its trigger subscriptions (user feature trigger id → connection id).
    let triggerSubscriptions = GenerationCache<String, [String: String]>(capacity: 10_000)
    /// (Connection, viewer) → rendered JSON of `GET /v2/connections/{id}`.
    let renderedConnections = GenerationCache<RenderedConnectionKey, RenderedConnection>(capacity: 2_000)
}
