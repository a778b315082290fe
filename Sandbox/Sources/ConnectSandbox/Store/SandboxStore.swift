import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

/// The sandbox's persistent state: an SQLite database (through GRDB) with services, users, user tokens, partner
/// accounts, connections and user connections.
///
/// The schema is created by named migrations (`DatabaseMigrator`), so a database file written by an older sandbox is
/// upgraded in place and state survives restarts. A store is safe to use from many tasks. A database file is opened
/// as a `DatabasePool` in WAL mode (`synchronous = NORMAL`): readers run concurrently with each other and with the
/// one writer; the in-memory database is a serial `DatabaseQueue`.
///
/// Reads that many requests repeat (user tokens, trigger subscriptions, rendered Connections) are cached in
/// ``caches``; every committed transaction that changes a table other than the append-only event logs bumps
/// ``generation`` and so invalidates them all, whichever process commits it (see ``SandboxStoreGeneration``).
public final class SandboxStore: Sendable {
    /// The database file, or ``SandboxConfiguration/inMemoryDatabasePath``.
    public let path: String
    /// Where every time the store writes comes from (``SandboxConfiguration/clock``).
    package let clock: any ConnectClock
    /// The database: a `DatabasePool` for a file, a `DatabaseQueue` in memory.
    let database: any DatabaseWriter
    /// Counts committed changes to the tables cached reads depend on.
    let changes: SandboxStoreGeneration
    /// The caches of repeated reads, valid for one ``generation``.
    let caches = SandboxStoreCaches()
    /// Connections that read pages of location events without a thread hop (see ``LocationEventReaders``).
    let locationEventReaders: LocationEventReaders
    /// The group commit of location event uploads (see ``LocationEventWriter``).
    let locationEventWriter = LocationEventWriter()

    /// Opens (creating when needed) the database at `path` and migrates it to the current schema.
    ///
    /// - Parameters:
    ///   - path: A file path, or ``SandboxConfiguration/inMemoryDatabasePath`` for a private in-memory database.
    ///     Missing parent directories are created.
    ///   - clock: The clock of every time the store writes; default the system's.
    /// - Throws: ``SandboxError/database(path:message:)`` when the file cannot be created, opened or migrated.
    package init(path: String, clock: any ConnectClock = SystemConnectClock()) throws(SandboxError) {
        self.path = path
        self.clock = clock
        locationEventReaders = LocationEventReaders(
            path: path == SandboxConfiguration.inMemoryDatabasePath ? nil : path)
        changes = SandboxStoreGeneration(
            databasePath: path == SandboxConfiguration.inMemoryDatabasePath ? nil : path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.label = "ConnectSandbox"
        configuration.prepareDatabase { db in
            // WAL makes NORMAL safe against corruption; only the last commits can be lost on a power cut.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        do {
            if path == SandboxConfiguration.inMemoryDatabasePath {
                database = try DatabaseQueue(named: nil, configuration: configuration)
            } else {
                // Directory 0700, file 0600 (SQLite gives -wal and -shm the same mode).
                try Self.preparePrivateFile(path)
                database = try DatabasePool(path: path, configuration: configuration)
            }
            try Self.migrator(now: clock.now).migrate(database)
            try database.write { db in try SandboxStoreGeneration.installCounterTriggers(db) }
            database.add(transactionObserver: changes, extent: .databaseLifetime)
        } catch let error as SandboxError {
            throw error
        } catch {
            throw .database(path: path, message: Self.describe(error))
        }
    }

    /// The named schema migrations, applied in order. Never edit a shipped migration; add a new one.
    static func migrator(now: Date) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-create-tables") { db in
            try db.create(table: "services") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("short_name", .text).notNull()
                t.column("brand_color", .text).notNull()
                t.column("url", .text).notNull()
                t.column("service_key", .text).unique()
                t.column("monochrome_icon_url", .text)
                t.column("color_icon_url", .text)
            }
            try db.create(table: "users") { t in
                t.primaryKey("id", .text)
                t.column("login", .text).notNull().unique()
                t.column("email", .text).notNull().unique().collate(.nocase)
                t.column("password", .text)
            }
            try db.create(table: "user_tokens") { t in
                t.primaryKey("token", .text)
                t.column("user_id", .text).notNull().indexed().references("users", onDelete: .cascade)
                t.column("created_at", .datetime).notNull()
            }
            try db.create(table: "partner_accounts") { t in
                t.column("service_id", .text).notNull().references("services", onDelete: .cascade)
                t.column("partner_user_id", .text).notNull()
                t.column("access_token", .text).notNull()
                t.column("oauth_code", .text)
                t.column("user_id", .text).indexed().references("users", onDelete: .setNull)
                t.primaryKey(["service_id", "partner_user_id"])
            }
            try db.create(table: "connections") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("description", .text).notNull()
                t.column("published", .boolean).notNull()
                t.column("invite_code", .text)
                t.column("primary_service_id", .text).notNull().references("services")
                t.column("service_ids", .jsonText)  // JSON array or NULL (derived from the features)
                t.column("features", .jsonText).notNull()  // JSON, IFTTT wire format
                t.column("field_options", .jsonText).notNull()  // JSON {type_id: {field_id: [option]}}
                t.column("cover_image", .jsonText)
                t.column("value_propositions", .jsonText)
            }
            try db.create(table: "user_connections") { t in
                t.column("user_id", .text).notNull().references("users", onDelete: .cascade)
                t.column("connection_id", .text).notNull().indexed().references("connections", onDelete: .cascade)
                t.column("status", .text).notNull()
                t.column("pending", .boolean).notNull().defaults(to: false)
                t.column("user_features", .jsonText).notNull()  // JSON, IFTTT wire format
                t.column("updated_at", .datetime).notNull()
                t.primaryKey(["user_id", "connection_id"])
            }
        }
        registerSDKEventsMigration(&migrator)
        registerLocationEventMigrations(in: &migrator)
        registerLegacyAppletMigrations(&migrator)
        registerPartnerSignInMigration(&migrator, now: now)
        registerLocationEventJSONMigration(&migrator)
        registerRedirectAndQueryMigration(&migrator)
        registerProvisionalCodeMigration(&migrator)
        registerDispatchMigration(&migrator)
        registerSDKEventServiceMigration(&migrator)
        SandboxStoreGeneration.registerCounterMigration(&migrator)
        registerPartnerLinkClaimMigration(&migrator)
        registerPartnerSessionMigration(&migrator)
        return migrator
    }

    /// The number of committed transactions so far that changed a table cached reads depend on (every table but the
    /// append-only event logs). A value read before a read transaction starts tags what that transaction reads.
    var generation: UInt64 { changes.value }

    /// The result of `PRAGMA integrity_check`: `["ok"]` for a sound database.
    func integrityCheck() async throws -> [String] {
        try await database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// The SQLite journal mode (`wal` for a database file, `memory` in memory).
    func journalMode() async throws -> String {
        try await database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// `true` when the database holds no services, users or connections (a fresh database).
    public func isEmpty() async throws -> Bool {
        try await database.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT (SELECT COUNT(*) FROM services) + (SELECT COUNT(*) FROM users) "
                    + "+ (SELECT COUNT(*) FROM connections)") == 0
        }
    }

    /// A human-readable description of a database error that never includes statement arguments.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
        }
        return "\(error)"
    }

    // MARK: JSON columns

    static func jsonText<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
