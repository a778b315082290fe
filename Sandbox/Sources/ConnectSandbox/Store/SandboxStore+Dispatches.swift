import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

/// What IFTTT would have sent to a service because of a Connect API call: the trigger event webhook of
/// `POST .../triggers/{id}/test`, the action of `POST .../actions/{id}/run`. The sandbox calls no service; it records
/// each dispatch, and `GET /sandbox/dispatches` lists them.
struct DispatchRecord: Sendable, Equatable {
    /// `trigger_test` or `action_run`.
    var kind: String
    /// The Connection.
    var connectionId: String
    /// The step type id, e.g. `grocery_express.new_weekly_deals`.
    var stepTypeId: String
    /// The IFTTT user.
    var userId: String
    /// The user feature whose configuration was used.
    var userFeatureId: String
    /// The JSON IFTTT would have sent (the webhook body, or the action's fields).
    var body: JSONValue
}

extension SandboxStore {
    static func registerDispatchMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v-dispatches") { db in
            try db.create(table: "dispatches") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("connection_id", .text).notNull()
                t.column("step_type_id", .text).notNull()
                t.column("user_id", .text).notNull()
                t.column("user_feature_id", .text).notNull()
                t.column("body", .jsonText).notNull()
                t.column("created_at", .datetime).notNull()
            }
        }
    }

    /// Appends a dispatch, stamped on the store's clock.
    func recordDispatch(_ record: DispatchRecord) async throws {
        let now = clock.now
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO dispatches (kind, connection_id, step_type_id, user_id, user_feature_id, body, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.kind, record.connectionId, record.stepTypeId, record.userId, record.userFeatureId,
                    record.body.serialized(), now,
                ])
        }
    }

    /// The dispatches of `serviceId`'s Connections (those whose primary service it is), oldest first, optionally of
    /// one kind and one Connection.
    func dispatches(serviceId: String, kind: String?, connectionId: String?) async throws -> [DispatchRecord] {
        try await database.read { db in
            var sql = """
                SELECT * FROM dispatches WHERE connection_id IN
                    (SELECT id FROM connections WHERE primary_service_id = ?)
                """
            var arguments: StatementArguments = [serviceId]
            if let kind {
                sql += " AND kind = ?"
                arguments += [kind]
            }
            if let connectionId {
                sql += " AND connection_id = ?"
                arguments += [connectionId]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY id", arguments: arguments).map { row in
                DispatchRecord(
                    kind: row["kind"], connectionId: row["connection_id"], stepTypeId: row["step_type_id"],
                    userId: row["user_id"], userFeatureId: row["user_feature_id"],
                    body: try JSONValue.decodeSorted(from: Data((row["body"] as String).utf8)))
            }
        }
    }
}
