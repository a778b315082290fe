import Foundation
import GRDB

// The partner's own sign-in (the service's OAuth authorization page) and its single-use, short-lived authorization
// codes; salted password hashes for users and partner accounts.
extension PasswordHash {
    /// `password` as stored: a hash stays as it is (a re-imported export), plain text is hashed.
    static func storable(_ password: String) -> String {
        isHash(password) ? password : make(password)
    }
}

/// What redeeming a partner authorization code in an activation did.
enum PartnerLinkResult: Sendable, Equatable {
    /// The partner account is now linked to the flow's IFTTT user (or already was).
    case linked(SeedData.PartnerAccount)
    /// The code is unknown, expired, already used or of another service.
    case invalidCode
    /// The partner account is linked to another IFTTT user; nothing changed.
    case linkedToAnotherUser(SeedData.PartnerAccount)
}

extension SandboxStore {
    /// How long a code from the seed stays valid after it is loaded (IFTTT's provisional access codes: 48 hours).
    static let seededCodeLifetime: TimeInterval = 48 * 3600
    /// How long a code issued by the partner's sign-in page stays valid.
    static let issuedCodeLifetime: TimeInterval = 10 * 60

    static func registerPartnerSignInMigration(_ migrator: inout DatabaseMigrator, now: Date) {
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

    /// The user whose e-mail address (case-insensitive) or login is `identifier` and whose password is `password`
    /// (checked against the salted hash, in constant time); `nil` when there is none or the password differs.
    func verifiedUser(identifier: String, password: String) async throws -> SeedData.User? {
        let found = try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM users WHERE email = ? COLLATE NOCASE OR login = ?",
                arguments: [identifier, identifier]
            ).map { try Self.user($0) }
        }
        // Hash outside the database's serial queue: a wrong guess must not hold up every other request.
        guard let user = found else {
            _ = PasswordHash.verify(password, against: Self.dummyHash)  // the same work whether or not the user exists
            return nil
        }
        guard let stored = user.password, PasswordHash.verify(password, against: stored) else { return nil }
        return user
    }

    /// A hash of nothing anyone knows, to spend the same time on unknown identifiers.
    static let dummyHash = PasswordHash.make(UUID().uuidString)

    /// The partner account of `serviceId` whose sign-in login is `login` (case-insensitive) and whose password is
    /// `password`; `nil` otherwise.
    func partnerSignIn(serviceId: String, login: String, password: String) async throws -> SeedData.PartnerAccount? {
        let found = try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND login = ? COLLATE NOCASE",
                arguments: [serviceId, login]
            ).map { try Self.partnerAccount($0) }
        }
        guard let account = found, let stored = account.password else {
            _ = PasswordHash.verify(password, against: Self.dummyHash)
            return nil
        }
        return PasswordHash.verify(password, against: stored) ? account : nil
    }

    /// Issues a new single-use authorization code for the partner account, valid for ``issuedCodeLifetime``.
    func issuePartnerCode(serviceId: String, partnerUserId: String, now: Date? = nil) async throws -> String {
        let now = now ?? clock.now
        var generator = SystemRandomNumberGenerator()
        let code =
            "\(serviceId)-code-" + PasswordHash.hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try await database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO partner_oauth_codes (code, service_id, partner_user_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [code, serviceId, partnerUserId, now.addingTimeInterval(Self.issuedCodeLifetime)])
        }
        return code
    }

    /// Redeems an authorization code of `serviceId` for the IFTTT user `userId`, in one transaction: an unknown,
    /// expired or used code changes nothing; a valid one is used up, and its partner account is linked to `userId`
    /// unless another IFTTT user already has it (then it stays as it is).
    func redeemPartnerCode(serviceId: String, code: String, userId: String, now: Date? = nil) async throws
        -> PartnerLinkResult
    {
        let now = now ?? clock.now
        return try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT partner_user_id FROM partner_oauth_codes
                        WHERE code = ? AND service_id = ? AND used_at IS NULL AND expires_at > ?
                        """,
                    arguments: [code, serviceId, now])
            else { return .invalidCode }
            let partnerUserId: String = row["partner_user_id"]
            try db.execute(sql: "UPDATE partner_oauth_codes SET used_at = ? WHERE code = ?", arguments: [now, code])
            guard
                let accountRow = try Row.fetchOne(
                    db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND partner_user_id = ?",
                    arguments: [serviceId, partnerUserId])
            else { return .invalidCode }
            let account = try Self.partnerAccount(accountRow)
            if let linked = account.userId, linked != userId { return .linkedToAnotherUser(account) }
            try db.execute(
                sql: "UPDATE partner_accounts SET user_id = ? WHERE service_id = ? AND partner_user_id = ?",
                arguments: [userId, serviceId, partnerUserId])
            var updated = account
            updated.userId = userId
            return .linked(updated)
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

extension SandboxStore {
    /// Creates the database's missing parent directories with mode 0700 and the database file with mode 0600, and
    /// tightens an existing file to 0600: the database holds every user token, password hash and service key.
    /// SQLite gives its journal and WAL files the database file's mode.
    static func preparePrivateFile(_ path: String) throws {
        let manager = FileManager.default
        var missing: [URL] = []
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !manager.fileExists(atPath: directory.path), directory.path != "/" {
            missing.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        for created in missing.reversed() {
            try manager.createDirectory(
                at: created, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw SandboxError.database(path: path, message: "cannot create the database file")
            }
        } else {
            try? manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
    }
}
