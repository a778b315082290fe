import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// Loading seed data into the store.
extension SandboxStore {
    /// Upserts `seed` into the store in one transaction: records with the same id are replaced, others stay.
    ///
    /// The seed is first checked on its own (``SeedData/validate(source:)``); references to records that are not in
    /// the seed (a user connection of an existing user, a connection on an existing service) must exist in the store.
    /// Missing user feature and step ids get deterministic values, missing `field_type`s come from the definitions.
    ///
    /// - Parameters:
    ///   - seed: The data to load.
    ///   - source: The seed's name in errors, e.g. its file path.
    /// - Throws: ``SandboxError/invalidSeedData(source:problem:)``; nothing is written then.
    public func load(_ seed: SeedData, source: String) async throws {
        try seed.validate(source: source)
        do {
            let now = clock.now
            try await database.write { db in try Self.apply(seed, source: source, now: now, in: db) }
        } catch let error as SandboxError {
            throw error
        } catch {
            throw SandboxError.invalidSeedData(source: source, problem: Self.describe(error))
        }
    }

    static func apply(_ seed: SeedData, source: String, now: Date, in db: Database) throws {
        func fail(_ problem: String) -> SandboxError { .invalidSeedData(source: source, problem: problem) }
        func serviceExists(_ id: String) throws -> Bool {
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM services WHERE id = ?)", arguments: [id]) ?? false
        }

        for service in seed.services {
            if let key = service.serviceKey,
                let owner = try String.fetchOne(
                    db, sql: "SELECT id FROM services WHERE service_key = ? AND id != ?",
                    arguments: [key, service.id])
            {
                throw fail("service \"\(service.id)\" uses the service_key of service \"\(owner)\"")
            }
            try upsert(service, in: db)
        }

        for user in seed.users {
            if let other = try String.fetchOne(
                db, sql: "SELECT id FROM users WHERE email = ? COLLATE NOCASE AND id != ?",
                arguments: [user.email, user.id])
            {
                throw fail("user \"\(user.id)\" has the e-mail address of user \"\(other)\"")
            }
            if let other = try String.fetchOne(
                db, sql: "SELECT id FROM users WHERE login = ? AND id != ?", arguments: [user.login, user.id])
            {
                throw fail("user \"\(user.id)\" has the login of user \"\(other)\"")
            }
            try upsert(user, now: now, in: db)
        }

        for (i, account) in seed.partnerAccounts.enumerated() {
            guard try serviceExists(account.serviceId) else {
                throw fail("partner_accounts[\(i)] names unknown service \"\(account.serviceId)\"")
            }
            if let userId = account.userId, try fetchUser(id: userId, in: db) == nil {
                throw fail("partner_accounts[\(i)] names unknown user \"\(userId)\"")
            }
            try upsert(account, now: now, in: db)
        }

        for (i, connection) in seed.connections.enumerated() {
            var referenced = [connection.primaryServiceId] + (connection.serviceIds ?? [])
            for feature in connection.features {
                for kind in SeedData.StepKind.allCases { referenced += feature.steps(kind).map(\.serviceId) }
            }
            for id in referenced where try !serviceExists(id) {
                throw fail("connections[\(i)] (\(connection.id)) names unknown service \"\(id)\"")
            }
            try upsert(connection, in: db)
        }

        for (i, userConnection) in seed.userConnections.enumerated() {
            guard try fetchUser(id: userConnection.userId, in: db) != nil else {
                throw fail("user_connections[\(i)] names unknown user \"\(userConnection.userId)\"")
            }
            guard let connection = try fetchConnection(id: userConnection.connectionId, in: db) else {
                throw fail("user_connections[\(i)] names unknown connection \"\(userConnection.connectionId)\"")
            }
            if let problem = SeedData.problem(in: userConnection, of: connection) {
                throw fail("user_connections[\(i)]: \(problem)")
            }
            try upsert(
                UserConnectionConfigurator.completeSeed(userConnection, connection: connection), now: now, in: db)
        }
    }
}
