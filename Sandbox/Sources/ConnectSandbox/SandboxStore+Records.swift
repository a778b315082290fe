import Foundation
import GRDB

// Mapping between table rows and the seed model types, and the upsert statements. The seed types double as the
// sandbox's domain model, so a row is always read into a `SeedData.*` value.

extension SandboxStore {
    // MARK: Row → model

    static func service(_ row: Row) -> SeedData.Service {
        SeedData.Service(
            id: row["id"], name: row["name"], shortName: row["short_name"], brandColor: row["brand_color"],
            url: row["url"], serviceKey: row["service_key"], monochromeIconURL: row["monochrome_icon_url"],
            colorIconURL: row["color_icon_url"])
    }

    static func user(_ row: Row, tokens: [String] = []) -> SeedData.User {
        SeedData.User(
            id: row["id"], login: row["login"], email: row["email"], password: row["password"], tokens: tokens)
    }

    static func partnerAccount(_ row: Row) -> SeedData.PartnerAccount {
        SeedData.PartnerAccount(
            serviceId: row["service_id"], partnerUserId: row["partner_user_id"], accessToken: row["access_token"],
            oauthCode: row["oauth_code"], userId: row["user_id"], login: row["login"], password: row["password_hash"])
    }

    static func connection(_ row: Row) throws -> SeedData.Connection {
        let serviceIds: String? = row["service_ids"]
        let coverImage: String? = row["cover_image"]
        let valuePropositions: String? = row["value_propositions"]
        return SeedData.Connection(
            id: row["id"], name: row["name"], description: row["description"], published: row["published"],
            inviteCode: row["invite_code"], primaryServiceId: row["primary_service_id"],
            serviceIds: try serviceIds.map { try fromJSONText([String].self, $0) },
            coverImage: try coverImage.map { try fromJSONText([String: String].self, $0) },
            valuePropositions: try valuePropositions.map { try fromJSONText([SeedData.ValueProposition].self, $0) },
            features: try fromJSONText([SeedData.Feature].self, row["features"]),
            fieldOptions: try fromJSONText([String: [String: [SeedData.FieldOption]]].self, row["field_options"]),
            publishedAt: row["published_at"],
            platform: (row["platform"] as String?).flatMap(SeedData.AppletPlatform.init(rawValue:)))
    }

    static func userConnection(_ row: Row) throws -> SeedData.UserConnection {
        let status: String = row["status"]
        return SeedData.UserConnection(
            userId: row["user_id"], connectionId: row["connection_id"],
            status: SeedData.UserConnectionStatus(rawValue: status) ?? .disabled, pending: row["pending"],
            userFeatures: try fromJSONText([SeedData.UserFeature].self, row["user_features"]))
    }

    // MARK: Upserts (INSERT ... ON CONFLICT DO UPDATE never deletes, so no cascade fires)

    static func upsert(_ s: SeedData.Service, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO services (id, name, short_name, brand_color, url, service_key, monochrome_icon_url,
                                      color_icon_url)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, short_name = excluded.short_name,
                    brand_color = excluded.brand_color, url = excluded.url, service_key = excluded.service_key,
                    monochrome_icon_url = excluded.monochrome_icon_url, color_icon_url = excluded.color_icon_url
                """,
            arguments: [
                s.id, s.name, s.shortName, s.brandColor, s.url, s.serviceKey, s.monochromeIconURL,
                s.colorIconURL,
            ])
    }

    static func upsert(_ u: SeedData.User, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO users (id, login, email, password) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET login = excluded.login, email = excluded.email,
                    password = excluded.password
                """,
            arguments: [u.id, u.login, u.email, u.password.map(PasswordHash.storable)])
        for token in u.tokens {
            try insertToken(token, userId: u.id, in: db)
        }
    }

    static func insertToken(_ token: String, userId: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO user_tokens (token, user_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT(token) DO UPDATE SET user_id = excluded.user_id
                """,
            arguments: [token, userId, Date()])
    }

    static func upsert(_ p: SeedData.PartnerAccount, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO partner_accounts (service_id, partner_user_id, access_token, oauth_code, user_id)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(service_id, partner_user_id) DO UPDATE SET access_token = excluded.access_token,
                    oauth_code = excluded.oauth_code, user_id = excluded.user_id
                """,
            arguments: [p.serviceId, p.partnerUserId, p.accessToken, p.oauthCode, p.userId])
        try upsertPartnerSignIn(p, in: db)
    }

    static func upsert(_ c: SeedData.Connection, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO connections (id, name, description, published, invite_code, primary_service_id,
                                         service_ids, features, field_options, cover_image, value_propositions,
                                         published_at, platform)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
                    published = excluded.published, invite_code = excluded.invite_code,
                    primary_service_id = excluded.primary_service_id, service_ids = excluded.service_ids,
                    features = excluded.features, field_options = excluded.field_options,
                    cover_image = excluded.cover_image, value_propositions = excluded.value_propositions,
                    published_at = excluded.published_at, platform = excluded.platform
                """,
            arguments: [
                c.id, c.name, c.description, c.published, c.inviteCode, c.primaryServiceId,
                try c.serviceIds.map { try jsonText($0) }, try jsonText(c.features), try jsonText(c.fieldOptions),
                try c.coverImage.map { try jsonText($0) }, try c.valuePropositions.map { try jsonText($0) },
                c.publishedAt, c.platform?.rawValue,
            ])
    }

    static func upsert(_ uc: SeedData.UserConnection, in db: Database) throws {
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
                Date(),
            ])
    }

    // MARK: Fetches inside a transaction

    static func fetchService(id: String, in db: Database) throws -> SeedData.Service? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM services WHERE id = ?"), arguments: [id]).map(service)
    }

    static func fetchUser(id: String, in db: Database) throws -> SeedData.User? {
        try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]).map { user($0) }
    }

    static func fetchConnection(id: String, in db: Database) throws -> SeedData.Connection? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM connections WHERE id = ?"), arguments: [id]).map(
            connection)
    }

    static func fetchUserConnection(userId: String, connectionId: String, in db: Database) throws
        -> SeedData.UserConnection?
    {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM user_connections WHERE user_id = ? AND connection_id = ?"),
            arguments: [userId, connectionId]
        ).map(userConnection)
    }
}
