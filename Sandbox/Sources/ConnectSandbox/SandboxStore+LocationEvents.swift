import Foundation
import GRDB

/// A geofence crossing the sandbox received on `POST /v1/location_events`.
struct LocationEventRecord: Sendable, Equatable {
    /// The client's idempotency key (`record_id`), stored upper-case.
    var recordId: String
    /// The user whose token sent it.
    var userId: String
    /// The user feature trigger it fires (`trigger_subscription_id`).
    var triggerSubscriptionId: String
    /// The connection that trigger subscription belongs to.
    var connectionId: String
    /// `entry` or `exit`.
    var eventType: String
    /// `occurred_at` exactly as sent.
    var occurredAt: String
    /// `region_type` as sent (`geo`).
    var regionType: String
    /// `channel_id` as sent.
    var channelId: String
    /// `installation_id` as sent.
    var installationId: String
    /// How many times a request carried this record id (1 when it was never re-sent).
    var deliveries: Int = 1
}

/// The outcome of recording one batch.
struct LocationEventReceipt: Sendable, Equatable {
    /// Events recorded for the first time.
    var recorded: Int
    /// Events whose record id was already known (re-sent batches); not recorded again.
    var duplicates: Int
}

extension SandboxStore {
    /// Registers the schema of the location events (`location_events`), after the base tables.
    static func registerLocationEventMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("location-events-v1") { db in
            try db.create(table: "location_events") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("record_id", .text).notNull().unique()
                t.column("user_id", .text).notNull().indexed().references("users", onDelete: .cascade)
                t.column("trigger_subscription_id", .text).notNull().indexed()
                t.column("connection_id", .text).notNull()
                t.column("event_type", .text).notNull()
                t.column("occurred_at", .text).notNull()
                t.column("region_type", .text).notNull()
                t.column("channel_id", .text).notNull()
                t.column("installation_id", .text).notNull()
                t.column("deliveries", .integer).notNull().defaults(to: 1)
                t.column("received_at", .datetime).notNull()
            }
        }
    }

    /// The trigger subscriptions (user feature trigger ids) of `userId`, mapped to their connection ids.
    func triggerSubscriptions(userId: String) async throws -> [String: String] {
        try await dbQueue.read { db in
            var result: [String: String] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM user_connections WHERE user_id = ?", arguments: [userId])
            for row in rows {
                let userConnection = try Self.userConnection(row)
                for feature in userConnection.userFeatures {
                    for trigger in feature.userFeatureTriggers {
                        if let id = trigger.id { result[id] = userConnection.connectionId }
                    }
                }
            }
            return result
        }
    }

    /// Records `events` in one transaction, in order. An event whose record id is already stored is not recorded
    /// again; its delivery count goes up.
    func recordLocationEvents(_ events: [LocationEventRecord]) async throws -> LocationEventReceipt {
        try await dbQueue.write { db in
            var receipt = LocationEventReceipt(recorded: 0, duplicates: 0)
            for event in events {
                try db.execute(
                    sql: """
                    INSERT INTO location_events (record_id, user_id, trigger_subscription_id, connection_id, event_type,
                        occurred_at, region_type, channel_id, installation_id, deliveries, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
                    ON CONFLICT(record_id) DO UPDATE SET deliveries = deliveries + 1
                    """,
                    arguments: [event.recordId, event.userId, event.triggerSubscriptionId, event.connectionId,
                                event.eventType, event.occurredAt, event.regionType, event.channelId,
                                event.installationId, Date()])
                let deliveries = try Int.fetchOne(
                    db, sql: "SELECT deliveries FROM location_events WHERE record_id = ?", arguments: [event.recordId]) ?? 1
                if deliveries == 1 { receipt.recorded += 1 } else { receipt.duplicates += 1 }
            }
            return receipt
        }
    }

    /// The events recorded for `userId` in the order they were received, optionally of one trigger subscription.
    func locationEvents(userId: String, triggerSubscriptionId: String? = nil) async throws -> [LocationEventRecord] {
        try await dbQueue.read { db in
            var sql = "SELECT * FROM location_events WHERE user_id = ?"
            var arguments: StatementArguments = [userId]
            if let triggerSubscriptionId {
                sql += " AND trigger_subscription_id = ?"
                arguments += [triggerSubscriptionId]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY seq", arguments: arguments).map { row in
                LocationEventRecord(
                    recordId: row["record_id"], userId: row["user_id"], triggerSubscriptionId: row["trigger_subscription_id"],
                    connectionId: row["connection_id"], eventType: row["event_type"], occurredAt: row["occurred_at"],
                    regionType: row["region_type"], channelId: row["channel_id"], installationId: row["installation_id"],
                    deliveries: row["deliveries"])
            }
        }
    }
}
