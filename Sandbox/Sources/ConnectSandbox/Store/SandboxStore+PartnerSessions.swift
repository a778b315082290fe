import Crypto
import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// The partner backend's sessions for its native app: what `POST /partner/{service_id}/api/session` hands out, a
// random token valid for `partnerSessionLifetime`, revoked by `DELETE` of the same path (sign-out). Only the token's
// SHA-256 is stored, so the database file does not hold working sessions.
extension SandboxStore {
    /// How long a partner session lasts.
    static let partnerSessionLifetime: TimeInterval = 12 * 3600

    static func registerPartnerSessionMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v-partner-sessions") { db in
            try db.create(table: "partner_sessions") { t in
                t.primaryKey("token_hash", .text)
                t.column("service_id", .text).notNull()
                t.column("partner_user_id", .text).notNull()
                t.column("expires_at", .datetime).notNull()
                t.foreignKey(["service_id", "partner_user_id"], references: "partner_accounts", onDelete: .cascade)
            }
        }
    }

    /// The stored form of a session token.
    static func sessionHash(_ token: String) -> String {
        PasswordHash.hex(Array(SHA256.hash(data: Data(token.utf8))))
    }

    /// Starts a session for the partner account and returns its token.
    func startPartnerSession(serviceId: String, partnerUserId: String) async throws -> String {
        let now = clock.now
        var generator = SystemRandomNumberGenerator()
        let token =
            "\(serviceId)-session-"
            + PasswordHash.hex((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try await database.write { db in
            try db.execute(sql: "DELETE FROM partner_sessions WHERE expires_at <= ?", arguments: [now])
            try db.execute(
                sql:
                    "INSERT INTO partner_sessions (token_hash, service_id, partner_user_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    Self.sessionHash(token), serviceId, partnerUserId,
                    now.addingTimeInterval(Self.partnerSessionLifetime),
                ])
        }
        return token
    }

    /// The partner account a live session of `serviceId` belongs to.
    func partnerAccount(serviceId: String, session token: String) async throws -> SeedData.PartnerAccount? {
        let now = clock.now
        return try await database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT a.* FROM partner_sessions s JOIN partner_accounts a
                        ON a.service_id = s.service_id AND a.partner_user_id = s.partner_user_id
                    WHERE s.token_hash = ? AND s.service_id = ? AND s.expires_at > ?
                    """,
                arguments: [Self.sessionHash(token), serviceId, now]
            ).map(Self.partnerAccount)
        }
    }

    /// Ends a session of `serviceId`; `false` when it was not a live one.
    func endPartnerSession(serviceId: String, session token: String) async throws -> Bool {
        let now = clock.now
        return try await database.write { db in
            try db.execute(
                sql: "DELETE FROM partner_sessions WHERE token_hash = ? AND service_id = ? AND expires_at > ?",
                arguments: [Self.sessionHash(token), serviceId, now])
            return db.changesCount > 0
        }
    }
}
