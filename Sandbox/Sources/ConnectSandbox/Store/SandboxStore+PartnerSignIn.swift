import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// The partner's own sign-in (the service's OAuth authorization page) and its single-use, short-lived authorization
// codes; salted password hashes for users and partner accounts.

/// What redeeming a partner authorization code in an activation did.
enum PartnerLinkResult: Sendable, Equatable {
    /// The partner account is now linked to the flow's IFTTT user (or already was).
    case linked(SeedData.PartnerAccount)
    /// The code is unknown, expired, already used, of another service, or bound to another flow or redirect URI.
    case invalidCode
    /// The partner account is linked to another IFTTT user; nothing changed, and the code stays unused.
    case linkedToAnotherUser(SeedData.PartnerAccount)
}

/// What a code issued by the partner's sign-in page is bound to, as a careful OAuth server binds it: the redirect URI
/// it was issued for (RFC 6749 §4.1.3) and the flow that asked for it (PKCE, RFC 7636: the code challenge is the
/// SHA-256 of the flow's verifier). Codes from the seed (the provisional codes an app passes as the activation
/// URL's `code`) are bound to neither and are redeemed only that way.
struct PartnerCodeBinding: Sendable, Equatable {
    /// The redirect URI the code was issued for.
    var redirectURI: String
    /// The flow's PKCE verifier (redeeming) or challenge (issuing).
    var proof: String
}

extension SandboxStore {
    /// How long a code from the seed stays valid after it is loaded (IFTTT's provisional access codes: 48 hours).
    static let seededCodeLifetime: TimeInterval = 48 * 3600
    /// How long a code issued by the partner's sign-in page stays valid.
    static let issuedCodeLifetime: TimeInterval = 10 * 60

    /// Registers the partner sign-in migrations, in order.
    static func registerPartnerSignInMigration(_ migrator: inout DatabaseMigrator, now: Date) {
        registerPartnerSignInTables(&migrator, now: now)
        // Codes issued by the partner's sign-in page are bound to their redirect URI and the flow's PKCE challenge;
        // seeded codes have neither.
        migrator.registerMigration("v-partner-code-binding") { db in
            try db.alter(table: "partner_oauth_codes") { t in
                t.add(column: "redirect_uri", .text)
                t.add(column: "code_challenge", .text)
            }
        }
    }

    private static func registerPartnerSignInTables(_ migrator: inout DatabaseMigrator, now: Date) {
        migrator.registerMigration("v-partner-sign-in") { db in
            try db.alter(table: "partner_accounts") { t in
                t.add(column: "login", .text)
                t.add(column: "password_hash", .text)
            }
            try db.create(table: "partner_oauth_codes") { t in
                t.primaryKey("code", .text)
                t.column("service_id", .text).notNull()
                t.column("partner_user_id", .text).notNull()
                t.column("expires_at", .datetime).notNull()
                t.column("used_at", .datetime)
                t.foreignKey(["service_id", "partner_user_id"], references: "partner_accounts", onDelete: .cascade)
            }
            // Codes of an older database become single-use codes; plain-text passwords become hashes.
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO partner_oauth_codes (code, service_id, partner_user_id, expires_at)
                    SELECT oauth_code, service_id, partner_user_id, ? FROM partner_accounts WHERE oauth_code IS NOT NULL
                    """,
                arguments: [now.addingTimeInterval(seededCodeLifetime)])
            for row in try Row.fetchAll(db, sql: "SELECT id, password FROM users WHERE password IS NOT NULL") {
                let password: String = row["password"]
                if !PasswordHash.isHash(password) {
                    try db.execute(
                        sql: "UPDATE users SET password = ? WHERE id = ?",
                        arguments: [PasswordHash.make(password), row["id"] as String])
                }
            }
        }
    }

    /// Stores the partner account's sign-in (login, hashed password) and makes its seeded `oauth_code` a single-use
    /// code valid for ``seededCodeLifetime`` (a code already known keeps its state, so a used one stays used).
    static func upsertPartnerSignIn(_ p: SeedData.PartnerAccount, now: Date, in db: Database) throws {
        try db.execute(
            sql:
                "UPDATE partner_accounts SET login = ?, password_hash = ? WHERE service_id = ? AND partner_user_id = ?",
            arguments: [p.login, p.password.map(PasswordHash.storable), p.serviceId, p.partnerUserId])
        if let code = p.oauthCode, !code.isEmpty {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO partner_oauth_codes (code, service_id, partner_user_id, expires_at)
                    VALUES (?, ?, ?, ?)
                    """,
                arguments: [code, p.serviceId, p.partnerUserId, now.addingTimeInterval(seededCodeLifetime)])
        }
    }

    /// The user whose e-mail address (case-insensitive) or login is `identifier`: the account a sign-in attempt is
    /// for, whichever of the two it names (throttling counts per account).
    func signInUser(identifier: String) async throws -> SeedData.User? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM users WHERE email = ? COLLATE NOCASE OR login = ?",
                arguments: [identifier, identifier]
            ).map { try Self.user($0) }
        }
    }

    /// `user` when `password` matches its salted hash (compared in constant time); `nil` otherwise. Without a user
    /// it does the same work against a dummy hash, so the time does not tell whether the account exists. Hashing
    /// runs outside the database's serial queue: a wrong guess must not hold up every other request.
    static func verified<Account>(_ account: Account?, stored: (Account) -> String?, password: String) -> Account? {
        guard let account else {
            _ = PasswordHash.verify(password, against: dummyHash)
            return nil
        }
        guard let hash = stored(account), PasswordHash.verify(password, against: hash) else { return nil }
        return account
    }

    /// A hash of nothing anyone knows, to spend the same time on unknown identifiers.
    static let dummyHash = PasswordHash.make(UUID().uuidString)

    /// The partner account of `serviceId` whose sign-in login is `login` (case-insensitive).
    func partnerSignInAccount(serviceId: String, login: String) async throws -> SeedData.PartnerAccount? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND login = ? COLLATE NOCASE",
                arguments: [serviceId, login]
            ).map { try Self.partnerAccount($0) }
        }
    }

    /// Issues a new single-use authorization code for the partner account, valid for ``issuedCodeLifetime`` and bound to
    /// `binding` (its redirect URI and the flow's PKCE challenge).
    func issuePartnerCode(
        serviceId: String, partnerUserId: String, binding: PartnerCodeBinding
    ) async throws -> String {
        let now = clock.now
        var generator = SystemRandomNumberGenerator()
        let code =
            "\(serviceId)-code-" + PasswordHash.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO partner_oauth_codes
                        (code, service_id, partner_user_id, expires_at, redirect_uri, code_challenge)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    code, serviceId, partnerUserId, now.addingTimeInterval(Self.issuedCodeLifetime),
                    binding.redirectURI, binding.proof,
                ])
        }
        return code
    }

    /// Issues a new single-use code for the partner account that its app passes as the activation URL's `code`
    /// (bound to no redirect URI: the URL's `code_challenge` binds it to the app's flow), valid for
    /// ``issuedCodeLifetime``. The backend's sign-in for the native app issues one per sign-in, so a code once spent
    /// is never handed out again.
    func issueURLCode(serviceId: String, partnerUserId: String) async throws -> String {
        let now = clock.now
        var generator = SystemRandomNumberGenerator()
        let code =
            "\(serviceId)-code-" + PasswordHash.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO partner_oauth_codes (code, service_id, partner_user_id, expires_at)
                    VALUES (?, ?, ?, ?)
                    """,
                arguments: [code, serviceId, partnerUserId, now.addingTimeInterval(Self.issuedCodeLifetime)])
        }
        return code
    }

    /// Redeems an authorization code of `serviceId` for the IFTTT user `userId`, in one transaction.
    ///
    /// * An unknown, expired or used code changes nothing (`invalidCode`).
    /// * With `binding` (the partner's redirect back to the flow), the code must have been issued for that redirect
    ///   URI and for the flow whose PKCE verifier `binding.proof` is; a seeded code is refused. Without it (the
    ///   activation URL's `code`), only a seeded code is accepted. A mismatch changes nothing (`invalidCode`).
    /// * A code for a partner account that another IFTTT user has linked changes nothing, and the code stays unused
    ///   for its owner (`linkedToAnotherUser`).
    /// * Otherwise the code is used up and its partner account linked to `userId`; or, with `urlChallenge` (the
    ///   activation URL's `code_challenge`), only claimed for `userId` until the app that built the URL proves the
    ///   flow finished (``completePartnerLinks(userId:verifier:)``).
    func redeemPartnerCode(
        serviceId: String, code: String, userId: String, binding: PartnerCodeBinding?, urlChallenge: String? = nil
    ) async throws -> PartnerLinkResult {
        let now = clock.now
        return try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT partner_user_id, redirect_uri, code_challenge FROM partner_oauth_codes
                        WHERE code = ? AND service_id = ? AND used_at IS NULL AND expires_at > ?
                        """,
                    arguments: [code, serviceId, now])
            else { return .invalidCode }
            let redirectURI: String? = row["redirect_uri"]
            let challenge: String? = row["code_challenge"]
            if let binding {
                guard redirectURI == binding.redirectURI, let challenge,
                    PKCE.matches(verifier: binding.proof, challenge: challenge)
                else { return .invalidCode }
            } else if redirectURI != nil || challenge != nil {
                return .invalidCode
            }
            let partnerUserId: String = row["partner_user_id"]
            guard
                let accountRow = try Row.fetchOne(
                    db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND partner_user_id = ?",
                    arguments: [serviceId, partnerUserId])
            else { return .invalidCode }
            let account = try Self.partnerAccount(accountRow)
            if let linked = account.userId, linked != userId { return .linkedToAnotherUser(account) }
            try db.execute(sql: "UPDATE partner_oauth_codes SET used_at = ? WHERE code = ?", arguments: [now, code])
            if let urlChallenge {
                try Self.claimPartnerLink(
                    serviceId: serviceId, partnerUserId: partnerUserId, userId: userId, challenge: urlChallenge,
                    now: now, in: db)
                return .linked(account)
            }
            try db.execute(
                sql: "UPDATE partner_accounts SET user_id = ? WHERE service_id = ? AND partner_user_id = ?",
                arguments: [userId, serviceId, partnerUserId])
            var updated = account
            updated.userId = userId
            return .linked(updated)
        }
    }

    /// The partner account an activation URL's `code` of `serviceId` would link, without using it up: `nil` for an
    /// unknown, expired or used code, or one the partner's sign-in page issued (bound to a flow, never valid in a
    /// URL). The authorize page names this account before the user allows it.
    func partnerAccount(urlCode code: String, serviceId: String) async throws -> SeedData.PartnerAccount? {
        let now = clock.now
        return try await database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT a.* FROM partner_oauth_codes c
                    JOIN partner_accounts a ON a.service_id = c.service_id AND a.partner_user_id = c.partner_user_id
                    WHERE c.code = ? AND c.service_id = ? AND c.used_at IS NULL AND c.expires_at > ?
                        AND c.redirect_uri IS NULL AND c.code_challenge IS NULL
                    """,
                arguments: [code, serviceId, now]
            ).map { try Self.partnerAccount($0) }
        }
    }

    /// Makes `code` expire at `date` (tests of expiry).
    func expirePartnerCode(_ code: String, at date: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE partner_oauth_codes SET expires_at = ? WHERE code = ?", arguments: [date, code])
        }
    }
}
