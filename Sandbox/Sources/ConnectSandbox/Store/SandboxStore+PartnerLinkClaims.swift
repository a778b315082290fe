import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// The partner links an activation URL's `code` asks for, held until the app that started the flow proves it
// finished it: the code names a partner account, but whoever can put a link in front of someone can put his own
// code in it. So the code only *claims* the link, bound to the PKCE challenge the URL carried (`code_challenge`,
// S256) and to the IFTTT user who authorized it; the link is made when the same user's token arrives together with
// the challenge's verifier (`POST /v2/connections/{id}/partner_link`). The verifier stays in the app that built the
// URL and the user token goes only to the device that finished the flow, so a link crafted by someone else is never
// completed: the sender holds the verifier but never sees the token, the victim's device gets the token but not the
// verifier.
extension SandboxStore {
    /// How long a claim waits for its verifier: as long as an activation flow lives.
    static let partnerLinkClaimLifetime: TimeInterval = 30 * 60

    static func registerPartnerLinkClaimMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v-partner-link-claims") { db in
            try db.create(table: "partner_link_claims") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("service_id", .text).notNull()
                t.column("partner_user_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("code_challenge", .text).notNull()
                t.column("expires_at", .datetime).notNull()
                t.foreignKey(["service_id", "partner_user_id"], references: "partner_accounts", onDelete: .cascade)
            }
            try db.create(index: "partner_link_claims_user", on: "partner_link_claims", columns: ["user_id"])
        }
    }

    /// Records that `userId` authorized the link of a partner account through a URL code bound to `challenge`.
    static func claimPartnerLink(
        serviceId: String, partnerUserId: String, userId: String, challenge: String, now: Date, in db: Database
    ) throws {
        try db.execute(sql: "DELETE FROM partner_link_claims WHERE expires_at <= ?", arguments: [now])
        try db.execute(
            sql: """
                INSERT INTO partner_link_claims (service_id, partner_user_id, user_id, code_challenge, expires_at)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [serviceId, partnerUserId, userId, challenge, now.addingTimeInterval(partnerLinkClaimLifetime)])
    }

    /// Makes the links `userId` claimed with the challenge of `verifier` (S256): each partner account is linked to
    /// `userId` unless another IFTTT user has linked it meanwhile, and the claims are used up. Returns the partner
    /// accounts now linked; none when no live claim of this user matches the verifier.
    func completePartnerLinks(userId: String, verifier: String) async throws -> [SeedData.PartnerAccount] {
        let now = clock.now
        let challenge = PKCE.challenge(verifier)
        return try await database.write { db in
            let claims = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, service_id, partner_user_id FROM partner_link_claims
                    WHERE user_id = ? AND code_challenge = ? AND expires_at > ?
                    """,
                arguments: [userId, challenge, now])
            var linked: [SeedData.PartnerAccount] = []
            for claim in claims {
                let id: Int64 = claim["id"]
                try db.execute(sql: "DELETE FROM partner_link_claims WHERE id = ?", arguments: [id])
                guard
                    let row = try Row.fetchOne(
                        db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND partner_user_id = ?",
                        arguments: [claim["service_id"] as String, claim["partner_user_id"] as String])
                else { continue }
                var account = try Self.partnerAccount(row)
                if let other = account.userId, other != userId { continue }
                try db.execute(
                    sql: "UPDATE partner_accounts SET user_id = ? WHERE service_id = ? AND partner_user_id = ?",
                    arguments: [userId, account.serviceId, account.partnerUserId])
                account.userId = userId
                linked.append(account)
            }
            return linked
        }
    }
}
