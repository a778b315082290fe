import Foundation
import GRDB

// The store operations of the web activation pages (`/access/api/{connection_id}`).
extension SandboxStore {
    /// A user by id.
    func user(id: String) async throws -> SeedData.User? {
        try await dbQueue.read { db in try Self.fetchUser(id: id, in: db) }
    }

    /// The user whose e-mail address (case-insensitive) or login is `identifier` and whose password is `password`;
    /// `nil` when there is none or the password differs.
    func signIn(identifier: String, password: String) async throws -> SeedData.User? {
        try await dbQueue.read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT * FROM users WHERE email = ? COLLATE NOCASE OR login = ?",
                arguments: [identifier, identifier])
            else { return nil }
            let user = Self.user(row)
            guard let stored = user.password, !stored.isEmpty, stored == password else { return nil }
            return user
        }
    }

    /// Creates a user with `email` and `password`; the id and login are derived from the address and made unique.
    /// Returns `nil` when a user already has this address.
    func createUser(email: String, password: String) async throws -> SeedData.User? {
        try await dbQueue.write { db in
            let exists = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE email = ? COLLATE NOCASE)", arguments: [email]) ?? false
            guard !exists else { return nil }
            let local = email.split(separator: "@").first.map(String.init) ?? "user"
            let base = String(local.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(24))
            var candidate = base.isEmpty ? "user" : base
            var suffix = 1
            while try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ? OR login = ?)",
                arguments: [candidate, candidate]) ?? false
            {
                suffix += 1
                candidate = "\(base.isEmpty ? "user" : base)\(suffix)"
            }
            let user = SeedData.User(id: candidate, email: email, password: password)
            try Self.upsert(user, in: db)
            return user
        }
    }

    /// Links the partner account of `serviceId` whose OAuth authorization code is `oauthCode` to `userId`.
    /// Returns the partner account, or `nil` for an unknown code.
    func authorizePartner(serviceId: String, oauthCode: String, userId: String) async throws -> SeedData.PartnerAccount? {
        try await dbQueue.write { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND oauth_code = ?",
                arguments: [serviceId, oauthCode])
            else { return nil }
            var account = Self.partnerAccount(row)
            account.userId = userId
            try Self.upsert(account, in: db)
            return account
        }
    }

    /// Turns the connection on for the user without configuring it (`skip_config=true`): the user connection is
    /// `enabled` and `pending` until `PUT .../user_connection` configures it. An existing configuration is kept.
    func enablePending(userId: String, connectionId: String) async throws {
        try await dbQueue.write { db in
            let existing = try Self.fetchUserConnection(userId: userId, connectionId: connectionId, in: db)
            try Self.upsert(
                SeedData.UserConnection(
                    userId: userId, connectionId: connectionId, status: .enabled, pending: true,
                    userFeatures: existing?.userFeatures ?? []),
                in: db)
        }
    }
}
