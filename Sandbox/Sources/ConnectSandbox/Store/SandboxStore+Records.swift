import Foundation
import GRDB

// The seed model types double as the sandbox's domain model and as GRDB records: their coding keys are the table
// columns, so a row decodes straight into a `SeedData.*` value (`FetchableRecord` + `Decodable`); JSON columns
// (`features`, `user_features`, ...) decode as nested Codable values. Writes that need more than the record's own
// columns (hashed passwords, user tokens, `updated_at`, the seed format's conditional `field_options`) stay upsert
// statements.

extension SeedData.Service: FetchableRecord, PersistableRecord {
    /// The table of services.
    public static var databaseTableName: String { "services" }
}

extension SeedData.User: FetchableRecord {
    // The `users` row has no `tokens` column: a user read from a row has no tokens until the caller adds them.
}

extension SeedData.PartnerAccount: FetchableRecord {
    /// Reads the `password_hash` column (added by the partner sign-in migration) into ``password``.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
        .custom { column in NamedKey(column == "password_hash" ? "password" : column) }
    }
}

extension SeedData.Connection: FetchableRecord {}

extension SeedData.UserConnection: FetchableRecord {}

extension SandboxStore {
    // MARK: Row → model

    static func service(_ row: Row) throws -> SeedData.Service { try SeedData.Service(row: row) }

    static func user(_ row: Row, tokens: [String] = []) throws -> SeedData.User {
        var user = try SeedData.User(row: row)
        user.tokens = tokens
        return user
    }

    static func partnerAccount(_ row: Row) throws -> SeedData.PartnerAccount { try SeedData.PartnerAccount(row: row) }

    static func connection(_ row: Row) throws -> SeedData.Connection { try SeedData.Connection(row: row) }

    static func userConnection(_ row: Row) throws -> SeedData.UserConnection { try SeedData.UserConnection(row: row) }

    // MARK: Upserts (INSERT ... ON CONFLICT DO UPDATE never deletes, so no cascade fires)

    static func upsert(_ s: SeedData.Service, in db: Database) throws {
        // INSERT ... ON CONFLICT(id) DO UPDATE SET every other column.
        _ = try s.upsertAndFetch(db, onConflict: ["id"])
    }

    static func upsert(_ u: SeedData.User, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO users (id, login, email, password) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET login = excluded.login, email = excluded.email,
                    password = excluded.password
                """,
            arguments: [u.id, u.login, u.email, u.password.map(PasswordHash.storable)])
        for token in u.tokens {
            try insertToken(token, userId: u.id, now: now, in: db)
        }
    }

    static func insertToken(_ token: String, userId: String, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO user_tokens (token, user_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT(token) DO UPDATE SET user_id = excluded.user_id
                """,
            arguments: [token, userId, now])
    }

    static func upsert(_ p: SeedData.PartnerAccount, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO partner_accounts (service_id, partner_user_id, access_token, oauth_code, user_id)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(service_id, partner_user_id) DO UPDATE SET access_token = excluded.access_token,
                    oauth_code = excluded.oauth_code, user_id = excluded.user_id
                """,
            arguments: [p.serviceId, p.partnerUserId, p.accessToken, p.oauthCode, p.userId])
        try upsertPartnerSignIn(p, now: now, in: db)
    }

    static func upsert(_ c: SeedData.Connection, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO connections (id, name, description, published, invite_code, primary_service_id,
                                         service_ids, features, field_options, cover_image, value_propositions,
                                         published_at, platform, query_results)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
                    published = excluded.published, invite_code = excluded.invite_code,
                    primary_service_id = excluded.primary_service_id, service_ids = excluded.service_ids,
                    features = excluded.features, field_options = excluded.field_options,
                    cover_image = excluded.cover_image, value_propositions = excluded.value_propositions,
                    published_at = excluded.published_at, platform = excluded.platform,
                    query_results = excluded.query_results
                """,
            arguments: [
                c.id, c.name, c.description, c.published, c.inviteCode, c.primaryServiceId,
                try c.serviceIds.map { try jsonText($0) }, try jsonText(c.features), try jsonText(c.fieldOptions),
                try c.coverImage.map { try jsonText($0) }, try c.valuePropositions.map { try jsonText($0) },
                c.publishedAt, c.platform?.rawValue, c.queryResults.isEmpty ? nil : try jsonText(c.queryResults),
            ])
    }

    static func upsert(_ uc: SeedData.UserConnection, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO user_connections (user_id, connection_id, status, pending, user_features, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id, connection_id) DO UPDATE SET status = excluded.status,
                    pending = excluded.pending, user_features = excluded.user_features,
                    updated_at = excluded.updated_at
                """,
            arguments: [
                uc.userId, uc.connectionId, uc.status.rawValue, uc.pending, try jsonText(uc.userFeatures),
                now,
            ])
    }

    // MARK: Fetches inside a transaction

    static func fetchService(id: String, in db: Database) throws -> SeedData.Service? {
        try SeedData.Service.fetchOne(db.cachedStatement(sql: "SELECT * FROM services WHERE id = ?"), arguments: [id])
    }

    static func fetchUser(id: String, in db: Database) throws -> SeedData.User? {
        try SeedData.User.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id])
    }

    static func fetchConnection(id: String, in db: Database) throws -> SeedData.Connection? {
        try SeedData.Connection.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM connections WHERE id = ?"), arguments: [id])
    }

    static func fetchUserConnection(userId: String, connectionId: String, in db: Database) throws
        -> SeedData.UserConnection?
    {
        try SeedData.UserConnection.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM user_connections WHERE user_id = ? AND connection_id = ?"),
            arguments: [userId, connectionId])
    }
}
