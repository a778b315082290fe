import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

/// Everything `GET /v2/connections/{id}` needs, read in one transaction.
struct ConnectionSnapshot: Sendable {
    /// The definition.
    var connection: SeedData.Connection
    /// The services to show, primary first.
    var services: [SeedData.Service]
    /// The viewing user's configuration, if any.
    var userConnection: SeedData.UserConnection?
    /// How many users have the connection enabled.
    var enabledCount: Int
}

// The reads and writes behind the API routes.
extension SandboxStore {
    /// The user owning a user token.
    /// Cached per generation: a valid token costs no database read until the next change of users or tokens.
    func user(forToken token: String) async throws -> SeedData.User? {
        try await user(forToken: token, generation: generation)
    }

    /// The user owning a user token, at `generation` (a ``generation`` the request read before, so that one request
    /// reads the store's shared change count once for all its cached reads).
    func user(forToken token: String, generation: UInt64) async throws -> SeedData.User? {
        if let user = caches.users.value(for: token, generation: generation) { return user }
        let user = try await database.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT users.* FROM user_tokens JOIN users ON users.id = user_tokens.user_id WHERE token = ?"),
                arguments: [token]
            ).map { try Self.user($0) }
        }
        if let user { caches.users.store(user, for: token, generation: generation) }
        return user
    }

    /// The service whose key is `key`.
    func service(forKey key: String) async throws -> SeedData.Service? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM services WHERE service_key = ?", arguments: [key]).map(
                Self.service)
        }
    }

    /// A service by id.
    func service(id: String) async throws -> SeedData.Service? {
        try await database.read { db in try Self.fetchService(id: id, in: db) }
    }

    /// A partner account.
    func partnerAccount(serviceId: String, partnerUserId: String) async throws -> SeedData.PartnerAccount? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND partner_user_id = ?",
                arguments: [serviceId, partnerUserId]
            ).map(Self.partnerAccount)
        }
    }

    /// The IFTTT user linked to a partner account, if the account exists and is linked.
    func linkedUser(serviceId: String, partnerUserId: String) async throws -> SeedData.User? {
        try await database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT users.* FROM partner_accounts JOIN users ON users.id = partner_accounts.user_id
                    WHERE partner_accounts.service_id = ? AND partner_accounts.partner_user_id = ?
                    """,
                arguments: [serviceId, partnerUserId]
            ).map { try Self.user($0) }
        }
    }

    /// Whether a user has this e-mail address (case-insensitive).
    func userExists(email: String) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE email = ? COLLATE NOCASE)",
                arguments: [email]) ?? false
        }
    }

    /// Creates and returns a new user token for `userId`.
    func mintToken(forUserId userId: String) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }.joined()
        let token = "sandbox-user-token-\(random)"
        let now = clock.now
        try await database.write { db in try Self.insertToken(token, userId: userId, now: now, in: db) }
        return token
    }

    /// A connection with its services, the user's configuration and the enabled count; `nil` for an unknown id.
    func snapshot(connectionId: String, userId: String?) async throws -> ConnectionSnapshot? {
        try await database.read { db in try Self.snapshot(connectionId: connectionId, userId: userId, in: db) }
    }

    static func snapshot(connectionId: String, userId: String?, in db: Database) throws -> ConnectionSnapshot? {
        guard let connection = try fetchConnection(id: connectionId, in: db) else { return nil }
        var services: [SeedData.Service] = []
        for id in connection.displayedServiceIds {
            if let service = try fetchService(id: id, in: db) { services.append(service) }
        }
        let userConnection = try userId.flatMap {
            try fetchUserConnection(userId: $0, connectionId: connectionId, in: db)
        }
        let enabledCount =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT COUNT(*) FROM user_connections WHERE connection_id = ? AND status = 'enabled'"),
                arguments: [connectionId]) ?? 0
        return ConnectionSnapshot(
            connection: connection, services: services, userConnection: userConnection, enabledCount: enabledCount)
    }

    /// Sets the status of an existing user connection and returns the new snapshot; `nil` if the user has none.
    func setStatus(_ status: SeedData.UserConnectionStatus, userId: String, connectionId: String) async throws
        -> ConnectionSnapshot?
    {
        let now = clock.now
        return try await database.write { db in
            try db.execute(
                sql: "UPDATE user_connections SET status = ?, updated_at = ? WHERE user_id = ? AND connection_id = ?",
                arguments: [status.rawValue, now, userId, connectionId])
            guard db.changesCount > 0 else { return nil }
            return try Self.snapshot(connectionId: connectionId, userId: userId, in: db)
        }
    }

    /// Replaces a user's configuration of a connection in one transaction: `configure` receives the definition and
    /// the current configuration (or `nil`) and returns the new user features, or throws (e.g. an ``APIError``).
    /// The user connection becomes `enabled` and not pending. Returns the new snapshot.
    func replaceUserConnection(
        userId: String, connectionId: String,
        configure: @escaping @Sendable (SeedData.Connection, SeedData.UserConnection?) throws -> [SeedData.UserFeature]
    ) async throws -> ConnectionSnapshot {
        let now = clock.now
        return try await database.write { db in
            guard let connection = try Self.fetchConnection(id: connectionId, in: db) else {
                throw APIError.notFound("Connection \"\(connectionId)\" was not found.")
            }
            let existing = try Self.fetchUserConnection(userId: userId, connectionId: connectionId, in: db)
            let features = try configure(connection, existing)
            try Self.upsert(
                SeedData.UserConnection(
                    userId: userId, connectionId: connectionId, status: .enabled, pending: false,
                    userFeatures: features),
                now: now, in: db)
            guard let snapshot = try Self.snapshot(connectionId: connectionId, userId: userId, in: db) else {
                throw APIError.internalError()
            }
            return snapshot
        }
    }

    /// The whole state in the seed format (services, users with all their tokens, partner accounts, connections,
    /// user connections), sorted by id. Loading it into an empty store reproduces the state.
    public func exportSeed() async throws -> SeedData {
        try await database.read { db in
            var tokens: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT token, user_id FROM user_tokens ORDER BY created_at, token") {
                tokens[row["user_id"], default: []].append(row["token"])
            }
            return SeedData(
                services: try SeedData.Service.fetchAll(db, sql: "SELECT * FROM services ORDER BY id"),
                users: try SeedData.User.fetchAll(db, sql: "SELECT * FROM users ORDER BY id").map {
                    var user = $0
                    user.tokens = tokens[user.id] ?? []
                    return user
                },
                partnerAccounts: try SeedData.PartnerAccount.fetchAll(
                    db, sql: "SELECT * FROM partner_accounts ORDER BY service_id, partner_user_id"),
                connections: try SeedData.Connection.fetchAll(db, sql: "SELECT * FROM connections ORDER BY id"),
                userConnections: try SeedData.UserConnection.fetchAll(
                    db, sql: "SELECT * FROM user_connections ORDER BY user_id, connection_id"))
        }
    }
}

extension SeedData.Connection {
    /// The ids of the services shown on the connection: the primary service first, then ``serviceIds`` or the
    /// services of the steps in order of appearance, without duplicates.
    var displayedServiceIds: [String] {
        var ids = [primaryServiceId]
        let others =
            serviceIds
            ?? features.flatMap { feature in
                SeedData.StepKind.allCases.flatMap { feature.steps($0).map(\.serviceId) }
            }
        for id in others where !ids.contains(id) { ids.append(id) }
        return ids
    }
}
