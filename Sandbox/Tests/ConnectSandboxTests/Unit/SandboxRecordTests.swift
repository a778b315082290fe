import Foundation
import GRDB
import Testing

@testable import ConnectSandbox

/// The seed types read and write the store's tables as GRDB records: their coding keys are the columns.
@Suite("Sandbox: seed types as GRDB records")
struct SandboxRecordTests {
    private func demoStore() async throws -> (SandboxStore, SeedData) {
        let demo = try SeedData.demo()
        let store = try SandboxStore(path: SandboxConfiguration.inMemoryDatabasePath)
        try await store.load(demo, source: "demo")
        return (store, demo)
    }

    @Test func rowsDecodeIntoTheSeedTypes() async throws {
        let (store, demo) = try await demoStore()
        let services = try await store.database.read { db in try SeedData.Service.fetchAll(db) }
        #expect(services.sorted { $0.id < $1.id } == demo.services.sorted { $0.id < $1.id })
        let connection = try await store.database.read { db in
            try SeedData.Connection.fetchOne(
                db, sql: "SELECT * FROM connections WHERE id = ?", arguments: ["gx-weekly-deals"])
        }
        #expect(connection == demo.connections.first { $0.id == "gx-weekly-deals" })
        let userConnections = try await store.database.read { db in
            try SeedData.UserConnection.fetchAll(
                db, sql: "SELECT * FROM user_connections ORDER BY user_id, connection_id")
        }
        #expect(userConnections.count == demo.userConnections.count)
    }

    @Test func aPartnerAccountReadsItsPasswordHashColumn() async throws {
        let (store, demo) = try await demoStore()
        let seeded = try #require(demo.partnerAccounts.first { $0.password != nil })
        let account = try #require(
            try await store.database.read { db in
                try SeedData.PartnerAccount.fetchOne(
                    db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND partner_user_id = ?",
                    arguments: [seeded.serviceId, seeded.partnerUserId])
            })
        let stored = try #require(account.password)
        #expect(stored != seeded.password)
        #expect(PasswordHash.verify(try #require(seeded.password), against: stored))
        #expect(account.login == seeded.login)
        #expect(account.accessToken == seeded.accessToken)
    }

    @Test func aServiceUpsertUpdatesInPlaceAndKeepsItsDependents() async throws {
        let (store, demo) = try await demoStore()
        var changed = try #require(demo.services.first { $0.id == "grocery_express" })
        let accountsBefore = try await store.exportSeed().partnerAccounts.filter { $0.serviceId == changed.id }
        #expect(!accountsBefore.isEmpty)
        changed.name = "Grocery Express Renamed"
        changed.monochromeIconURL = "https://example.com/icon.svg"
        let service = changed
        try await store.database.write { db in try SandboxStore.upsert(service, in: db) }
        #expect(try await store.service(id: service.id) == service)
        // An upsert never deletes the row, so no cascade removes the service's partner accounts.
        let accountsAfter = try await store.exportSeed().partnerAccounts.filter { $0.serviceId == service.id }
        #expect(accountsAfter == accountsBefore)
    }

    @Test func aServiceKeyTakenByAnotherServiceIsRefused() async throws {
        let (store, demo) = try await demoStore()
        let taken = try #require(demo.services.first { $0.serviceKey != nil })
        let other = SeedData.Service(
            id: "another_service", name: "Another", brandColor: "#000000", serviceKey: taken.serviceKey)
        await #expect(throws: DatabaseError.self) {
            try await store.database.write { db in try SandboxStore.upsert(other, in: db) }
        }
        #expect(try await store.service(id: taken.id) == taken)
        #expect(try await store.service(id: other.id) == nil)
    }
}
