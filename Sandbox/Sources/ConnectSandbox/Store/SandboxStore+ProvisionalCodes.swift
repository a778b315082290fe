import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// Provisional access codes (`POST /v2/provisional_access_code`): a partner trades a user's OAuth code for a short
// code to put into the Connect URL; the Connect URL page redeems it once, within 48 hours, for the OAuth code.
extension SandboxStore {
    /// How long a provisional access code stays valid (IFTTT's docs: "expires after 48 hours, or upon use").
    static let provisionalCodeLifetime: TimeInterval = 48 * 3600

    static func registerProvisionalCodeMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v-provisional-access-codes") { db in
            try db.create(table: "provisional_access_codes") { t in
                t.primaryKey("code", .text)
                t.column("service_id", .text).notNull().references("services", onDelete: .cascade)
                t.column("oauth_code", .text).notNull()
                t.column("expires_at", .datetime).notNull()
                t.column("used_at", .datetime)
            }
        }
    }

    /// Stores `oauthCode` for `serviceId` and returns a new single-use provisional access code for it.
    func issueProvisionalCode(serviceId: String, oauthCode: String) async throws -> String {
        let now = clock.now
        var generator = SystemRandomNumberGenerator()
        let code = PasswordHash.hex((0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try await database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO provisional_access_codes (code, service_id, oauth_code, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [code, serviceId, oauthCode, now.addingTimeInterval(Self.provisionalCodeLifetime)])
        }
        return code
    }

    /// Uses up a provisional access code of `serviceId` and returns its OAuth code; `nil` (and nothing changes) for
    /// an unknown, expired or used code.
    func redeemProvisionalCode(_ code: String, serviceId: String) async throws -> String? {
        let now = clock.now
        return try await database.write { db in
            guard
                let oauthCode = try String.fetchOne(
                    db,
                    sql: """
                        SELECT oauth_code FROM provisional_access_codes
                        WHERE code = ? AND service_id = ? AND used_at IS NULL AND expires_at > ?
                        """,
                    arguments: [code, serviceId, now])
            else { return nil }
            try db.execute(
                sql: "UPDATE provisional_access_codes SET used_at = ? WHERE code = ?", arguments: [now, code])
            return oauthCode
        }
    }
}
