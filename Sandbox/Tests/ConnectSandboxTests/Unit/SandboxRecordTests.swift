import Foundation
import GRDB
import Testing

@testable import ConnectSandbox

/// The seed types read and write the store's tables as GRDB records (their coding keys are the columns), seen through
/// the store's own methods.
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
        let stored = try await store.exportSeed()  // every table read as its seed type
        #expect(stored.services == demo.services.sorted { $0.id < $1.id })
        let id = "gx-weekly-deals"
        #expect(stored.connections.first { $0.id == id } == demo.connections.first { $0.id == id })
        #expect(stored.userConnections.count == demo.userConnections.count)
    }

    @Test func aPartnerAccountReadsItsPasswordHashColumn() async throws {
        let (store, demo) = try await demoStore()
        let seeded = try #require(demo.partnerAccounts.first { $0.password != nil })
        let account = try #require(
            try await store.partnerAccount(serviceId: seeded.serviceId, partnerUserId: seeded.partnerUserId))
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
        try await store.load(SeedData(services: [service]), source: "a changed service")
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
        await #expect(throws: SandboxError.self) {
            try await store.load(SeedData(services: [other]), source: "a second service with a taken key")
        }
        #expect(try await store.service(id: taken.id) == taken)
        #expect(try await store.service(id: other.id) == nil)
    }
}
