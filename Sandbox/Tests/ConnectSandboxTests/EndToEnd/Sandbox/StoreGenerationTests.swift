@testable import ConnectSandbox
import Foundation
import GRDB
import Testing

/// The caches' invalidation when the shared change counter is gone.
@Suite("The store's change counter fails closed")
struct StoreGenerationTests {
    /// Another program deleted the `store_generation` row, then a user token: the token stayed valid from the cache
    /// (the triggers raised nothing and the missing counter read as "no change"), and opening the store again did
    /// not bring the row back. Failed before the fix. Now a missing counter counts as a change at every read, and
    /// every open recreates the row.
    @Test func aMissingGenerationRowFailsClosedAndIsRecreatedAtOpen() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("generation.sqlite").path
        let store = try SandboxStore(path: path)
        try await store.load(try SeedData.demo(), source: SeedData.demoSource)
        #expect(try await store.user(forToken: SandboxTest.aliceToken)?.id == "alice")  // cached
        let other = try DatabaseQueue(path: path)
        try await other.write { db in
            try db.execute(sql: "DELETE FROM store_generation")
            try db.execute(sql: "DELETE FROM user_tokens WHERE token = ?", arguments: [SandboxTest.aliceToken])
        }
        #expect(try await store.user(forToken: SandboxTest.aliceToken) == nil)
        _ = try SandboxStore(path: path)
        let rows = try await other.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM store_generation") }
        #expect(rows == 1)
        // With the row back, changes are counted again and cached reads hit between them.
        let token = try await store.mintToken(forUserId: "alice")
        #expect(try await store.user(forToken: token)?.id == "alice")
        let before = store.generation
        #expect(store.generation == before)
        try await other.write { db in
            try db.execute(sql: "DELETE FROM user_tokens WHERE token = ?", arguments: [token])
        }
        #expect(try await store.user(forToken: token) == nil)
        try other.close()
    }
}
