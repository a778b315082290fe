import Foundation
import GRDB
import NIOConcurrencyHelpers
import NIOCore

/// Counts the committed transactions that changed a table the store's caches depend on.
///
/// It observes every table except the append-only event logs (`location_events`, `sdk_events`, `dispatches`), so a
/// table added later invalidates the caches by default. The count goes up in `databaseDidCommit`, before the write
/// that committed returns, so a request that follows a write never sees a value cached before it.
///
/// Another process may write the same database file (an embedded sandbox of a CLI command on the default database
/// while `ifttt-connect sandbox` runs). The database itself therefore counts those changes too: `store_generation`
/// holds one number that triggers on every table but the event logs (``installCounterTriggers(_:)``, run at every
/// open, so a table a later migration adds is covered) raise in the same transaction as the change, whichever
/// connection of whichever process commits it. ``value`` reads that number on a connection of its own and counts a
/// change whenever it moved. Appending events (`POST /v1/location_events` under load commits hundreds of times a
/// second) leaves it alone, so the cached user tokens and trigger subscriptions stay valid while events arrive.
///
/// (Issue 30, hole 11, replaced a copy of the WAL index header, which missed some of another writer's commits, with
/// SQLite's `PRAGMA data_version`; that one changes on every commit of any other connection, this process's own
/// event appends included, so under an upload load every request missed every cache. Issue 31 counts only the
/// changes that matter, in the database.)
final class SandboxStoreGeneration: TransactionObserver, Sendable {
    /// Tables whose changes never alter a cached read.
    static let ignoredTables: Set<String> = ["location_events", "sdk_events", "dispatches"]

    /// The one-row table whose `value` the triggers raise on every change of a table outside ``ignoredTables``.
    static let counterTable = "store_generation"

    private struct State {
        var count: UInt64 = 0
        var dirty = false  // set by databaseDidChange on the writer's queue
        var monitor: DatabaseQueue?
        var knownCounter: Int64?
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
    /// callers that read counters out of order only cost an extra invalidation.
    ///
    /// Fails closed: when the database has a file but its counter cannot be read (the row was deleted, the monitor
    /// cannot open the file), every read counts a change, so no cached answer outlives a change nobody could see.
    var value: UInt64 {
        let counter = sharedCounter()
        return state.withLockedValue { state in
            switch counter {
            case .inMemory:
                break
            case .unreadable:
                state.knownCounter = nil
                state.count &+= 1
            case .value(let counter):
                if counter != state.knownCounter {
                    state.knownCounter = counter
                    state.count &+= 1
                }
            }
            return state.count
        }
    }

    /// What the shared counter read gave.
    private enum SharedCounter {
        /// An in-memory database: only this process writes it, and the observer counts every change.
        case inMemory
        /// A file whose counter could not be read.
        case unreadable
        case value(Int64)
    }

    /// The registered migration of ``counterTable``: one row, `value` 0.
    static func registerCounterMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("store-generation-v1") { db in
            try db.create(table: counterTable) { t in
                t.primaryKey("id", .integer)
                t.column("value", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO \(counterTable) (id, value) VALUES (1, 0)")
        }
    }

    /// Creates the triggers that raise ``counterTable``'s `value` after every insert, update and delete of each table
    /// outside ``ignoredTables`` (and the counter itself), when they do not exist yet. Run after the migrations at
    /// every open, in one immediate transaction, so a table added by any migration is covered without the migration
    /// saying so.
    ///
    /// The counter's row is recreated when it is missing (deleted by hand or by another program): without it the
    /// triggers would raise nothing.
    static func installCounterTriggers(_ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO \(counterTable) (id, value) VALUES (1, 0)")
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        for table in tables where !ignoredTables.contains(table) && table != counterTable {
            for event in ["insert", "update", "delete"] {
                let trigger = "\(counterTable)_after_\(event)_on_\(table)"
                try db.execute(
                    sql: """
                        CREATE TRIGGER IF NOT EXISTS \(trigger.quotedDatabaseIdentifier)
                        AFTER \(event.uppercased()) ON \(table.quotedDatabaseIdentifier)
                        BEGIN UPDATE \(counterTable) SET value = value + 1 WHERE id = 1; END
                        """)
            }
        }
    }

    /// ``counterTable``'s `value`, read on the monitor connection. Call outside the lock.
    private func sharedCounter() -> SharedCounter {
        guard let databasePath else { return .inMemory }
        let monitor = state.withLockedValue { state -> DatabaseQueue? in
            if state.monitor == nil {
                var configuration = Configuration()
                configuration.readonly = true
                configuration.label = "ConnectSandbox.generation"
                state.monitor = try? DatabaseQueue(path: databasePath, configuration: configuration)
            }
            return state.monitor
        }
        let value = try? monitor?.inDatabase { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM \(Self.counterTable) WHERE id = 1"))
        }
        return value.map { .value($0) } ?? .unreadable
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
    var body: ByteBuffer
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
