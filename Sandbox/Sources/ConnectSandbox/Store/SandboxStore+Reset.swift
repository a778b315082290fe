import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// Putting the whole state back to the seed, and leaving the database file whole when the sandbox stops.
extension SandboxStore {
    /// Loads several seeds in order in **one** transaction: either all of them are written or, when one is
    /// inconsistent, nothing is (the demo seed and a seed file at start).
    ///
    /// - Throws: ``SandboxError/invalidSeedData(source:problem:)``; nothing is written then.
    public func load(_ seeds: [(seed: SeedData, source: String)]) async throws {
        for item in seeds { try item.seed.validate(source: item.source) }
        try await write(seeds, emptyingFirst: false)
    }

    /// Empties every table of the state (users, tokens, Connections, events, dispatches, codes, sessions...) and loads
    /// `seeds` again, in one transaction: other requests see the old state or the new one, never a mix. The schema,
    /// its migrations and the change counter of the caches stay; every cached read is invalidated.
    ///
    /// - Throws: ``SandboxError/invalidSeedData(source:problem:)``; nothing changes then.
    public func reset(to seeds: [(seed: SeedData, source: String)]) async throws {
        for item in seeds { try item.seed.validate(source: item.source) }
        try await write(seeds, emptyingFirst: true)
    }

    private func write(_ seeds: [(seed: SeedData, source: String)], emptyingFirst: Bool) async throws {
        let now = clock.now
        do {
            try await database.write { db in
                if emptyingFirst {
                    // Every row goes, so references are checked once, at commit.
                    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                    let tables = try String.fetchAll(
                        db,
                        sql: """
                            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                            AND name NOT IN ('grdb_migrations', ?) ORDER BY name
                            """,
                        arguments: [SandboxStoreGeneration.counterTable])
                    for table in tables { try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)") }
                    if try db.tableExists("sqlite_sequence") { try db.execute(sql: "DELETE FROM sqlite_sequence") }
                }
                for item in seeds { try Self.apply(item.seed, source: item.source, now: now, in: db) }
            }
        } catch let error as SandboxError {
            throw error
        } catch {
            throw SandboxError.invalidSeedData(
                source: seeds.map(\.source).joined(separator: ", "), problem: Self.describe(error))
        }
    }

    /// Copies every page of the write-ahead log into the database file and empties the log (`PRAGMA
    /// wal_checkpoint(TRUNCATE)`), so that the database file alone holds the whole state: run when the sandbox stops.
    /// A no-op in memory.
    func checkpoint() throws {
        guard path != SandboxConfiguration.inMemoryDatabasePath else { return }
        try database.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }
}
