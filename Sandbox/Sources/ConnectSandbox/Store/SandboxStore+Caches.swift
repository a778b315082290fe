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
/// `PRAGMA data_version` changes on a connection of its own that does nothing else: SQLite changes it whenever any
/// other connection, of any process, has committed (issue 30, hole 11: the former check, a copy of the WAL index
/// header in the `-shm` file, missed some of another writer's commits, 6 of 300 rounds served stale status, and a
/// deleted token stayed valid for about 10 s). This process's own commits change it too; they only cost an extra
/// invalidation.
final class SandboxStoreGeneration: TransactionObserver, Sendable {
    /// Tables whose changes never alter a cached read.
    static let ignoredTables: Set<String> = ["location_events", "sdk_events", "dispatches"]

    private struct State {
        var count: UInt64 = 0
        var dirty = false  // set by databaseDidChange on the writer's queue
        var monitor: DatabaseQueue?
        var knownVersion: Int?
    }

    private let state = NIOLockedValueBox(State())
    private let databasePath: String?

    /// - Parameter databasePath: The database file, or `nil` in memory.
    init(databasePath: String?) {
        self.databasePath = databasePath
    }

    /// The current count.
    ///
    /// The monitor connection is asked outside the lock: `databaseDidCommit` takes the lock on the writer's queue while
    /// SQLite's write lock is held, so asking SQLite inside it could wait on that writer while it waits on us. Two
    /// callers that read versions out of order only cost an extra invalidation.
    var value: UInt64 {
        let version = dataVersion()
        return state.withLockedValue { state in
            if let version, version != state.knownVersion {
                state.knownVersion = version
                state.count &+= 1
            }
            return state.count
        }
    }

    /// `PRAGMA data_version` of the monitor connection (`nil` in memory or before the file can be opened). Call
    /// outside the lock.
    private func dataVersion() -> Int? {
        guard let databasePath else { return nil }
        let monitor = state.withLockedValue { state -> DatabaseQueue? in
            if state.monitor == nil {
                var configuration = Configuration()
                configuration.readonly = true
                configuration.label = "ConnectSandbox.generation"
                state.monitor = try? DatabaseQueue(path: databasePath, configuration: configuration)
            }
            return state.monitor
        }
        return try? monitor?.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") }
    }

    // Every table is observed, so that every write transaction of this process goes through databaseDidCommit; only
    // changes to tables outside ignoredTables invalidate the caches.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if !Self.ignoredTables.contains(event.tableName) { state.withLockedValue { $0.dirty = true } }
    }

    func databaseDidCommit(_ db: Database) {
        state.withLockedValue { state in
            if state.dirty { state.count &+= 1 }
            state.dirty = false
        }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLockedValue { $0.dirty = false }
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
