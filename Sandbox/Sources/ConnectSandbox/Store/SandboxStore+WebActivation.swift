import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

// The store operations of the web activation pages (`/access/api/{connection_id}`).
extension SandboxStore {
    /// A user by id.
    func user(id: String) async throws -> SeedData.User? {
        try await database.read { db in try Self.fetchUser(id: id, in: db) }
    }

    /// Creates a user with `email` and `password`; the id and login are derived from the address and made unique.
    /// Returns `nil` when a user already has this address. The password is always hashed, whatever it looks like
    /// (a password shaped like a stored hash is a password, not a hash).
    func createUser(email: String, password: String) async throws -> SeedData.User? {
        try await database.write { db in
            let exists =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE email = ? COLLATE NOCASE)", arguments: [email])
                ?? false
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
            let user = SeedData.User(id: candidate, email: email, password: PasswordHash.make(password))
            try db.execute(
                sql: "INSERT INTO users (id, login, email, password) VALUES (?, ?, ?, ?)",
                arguments: [user.id, user.login, user.email, user.password])
            return user
        }
    }

    /// Turns the connection on for the user without configuring it (`skip_config=true`): the user connection is
    /// `enabled` and `pending` until `PUT .../user_connection` configures it. An existing configuration is kept.
    func enablePending(userId: String, connectionId: String) async throws {
        let now = clock.now
        try await database.write { db in
            let existing = try Self.fetchUserConnection(userId: userId, connectionId: connectionId, in: db)
            try Self.upsert(
                SeedData.UserConnection(
                    userId: userId, connectionId: connectionId, status: .enabled, pending: true,
                    userFeatures: existing?.userFeatures ?? []),
                now: now, in: db)
        }
    }
}
