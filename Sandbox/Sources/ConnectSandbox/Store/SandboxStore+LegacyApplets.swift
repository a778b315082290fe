import Foundation
import GRDB

// The legacy Applets API's tables and reads (the seed's side is in Seed/SeedData+LegacyApplets.swift).

extension SandboxStore {
    /// Adds the legacy Applet columns. Both are nullable, so existing rows get the defaults: the publication date
    /// ``SeedData/defaultPublishedAt`` and a platform derived from the connection's services.
    static func registerLegacyAppletMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-legacy-applet-attributes") { db in
            try db.alter(table: "connections") { t in
                t.add(column: "published_at", .text)  // ISO 8601 as given in the seed; NULL → default
                t.add(column: "platform", .text)  // SeedData.AppletPlatform raw value; NULL → derived
            }
        }
    }

    /// The connections whose primary service is `serviceId`, as seen by `userId`, in id order.
    func snapshots(primaryServiceId serviceId: String, userId: String?) async throws -> [ConnectionSnapshot] {
        try await database.read { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM connections WHERE primary_service_id = ? ORDER BY id", arguments: [serviceId])
            return try ids.compactMap { try Self.snapshot(connectionId: $0, userId: userId, in: db) }
        }
    }

    /// The partner account of `serviceId` whose access token is `accessToken` (a partner session in the example
    /// partner backend).
    func partnerAccount(serviceId: String, accessToken: String) async throws -> SeedData.PartnerAccount? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM partner_accounts WHERE service_id = ? AND access_token = ?",
                arguments: [serviceId, accessToken]
            ).map(Self.partnerAccount)
        }
    }
}
