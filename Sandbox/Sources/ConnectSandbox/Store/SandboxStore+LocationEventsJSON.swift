import Foundation
import GRDB
import Hummingbird

/// The rendered JSON of each location event, stored with it (`location_events.json`), so a page of
/// `GET /v1/location_events` is one indexed range read of ready bytes written straight into the response buffer.
extension SandboxStore {
    /// `json_object` of an event's members, in the order `GET /v1/location_events` writes them (the sandbox's only
    /// writer of an event's JSON); `column` maps a member name to the SQL that gives its value.
    static func locationEventJSONExpression(_ column: (String) -> String) -> String {
        let members = [
            "record_id", "trigger_subscription_id", "connection_id", "event_type", "occurred_at", "region_type",
            "channel_id", "installation_id", "deliveries",
        ]
        return "json_object(" + members.map { "'\($0)', \(column($0))" }.joined(separator: ", ") + ")"
    }

    /// The stored JSON of a row, or (for a row without it, which the migration never leaves) rendered on the spot.
    static let storedLocationEventJSON = "COALESCE(json, \(locationEventJSONExpression { $0 }))"

    /// Inserts one event with its JSON (parameters 1-10: record id, user, trigger subscription, connection, event
    /// type, occurred at, region type, channel, installation, received at); a known record id bumps the delivery
    /// count and re-renders the JSON in the same statement. Returns the delivery count.
    static let locationEventInsertSQL: String = {
        let parameters = [
            "record_id": "?1", "trigger_subscription_id": "?3", "connection_id": "?4", "event_type": "?5",
            "occurred_at": "?6", "region_type": "?7", "channel_id": "?8", "installation_id": "?9", "deliveries": "1",
        ]
        return """
            INSERT INTO location_events (record_id, user_id, trigger_subscription_id, connection_id, event_type,
                occurred_at, region_type, channel_id, installation_id, deliveries, received_at, json)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1, ?10, \(locationEventJSONExpression { parameters[$0]! }))
            ON CONFLICT(record_id) DO UPDATE SET deliveries = deliveries + 1,
                json = \(locationEventJSONExpression { $0 == "deliveries" ? "deliveries + 1" : $0 })
            RETURNING deliveries
            """
    }()

    /// Adds `location_events.json` and renders it for every stored event. Registered last (after every shipped
    /// migration), so databases written by older sandboxes upgrade in place.
    static func registerLocationEventJSONMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("location-events-v2-rendered-json") { db in
            try db.alter(table: "location_events") { t in t.add(column: "json", .text) }
            try db.execute(sql: "UPDATE location_events SET json = \(locationEventJSONExpression { $0 })")
        }
    }

    /// One page of `userId`'s events (of one trigger subscription when given) after `seq` `after`, as the JSON text
    /// `prefix`, then the stored JSON of each event separated by commas (and preceded by one when `leadingComma`),
    /// in one buffer; and the key to continue after when more follow. No per-event string or array is made.
    func locationEventsJSONBuffer(
        userId: String, triggerSubscriptionId: String?, after: Int64?, limit: Int, prefix: String = "",
        leadingComma: Bool = false
    ) async throws -> (buffer: ByteBuffer, count: Int, nextAfter: Int64?) {
        let read: @Sendable (Database) throws -> (buffer: ByteBuffer, count: Int, nextAfter: Int64?) = { db in
            let statement = try db.cachedStatement(
                sql: triggerSubscriptionId == nil
                    ? "SELECT seq, \(Self.storedLocationEventJSON) FROM location_events "
                        + "WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?"
                    : "SELECT seq, \(Self.storedLocationEventJSON) FROM location_events "
                        + "WHERE user_id = ? AND trigger_subscription_id = ? AND seq > ? ORDER BY seq LIMIT ?")
            var arguments: StatementArguments = [userId]
            if let triggerSubscriptionId { arguments += [triggerSubscriptionId] }
            arguments += [after ?? 0, limit + 1]
            var buffer = ByteBufferAllocator().buffer(capacity: prefix.utf8.count + min(limit, 1_000) * 300 + 64)
            buffer.writeString(prefix)
            var count = 0
            var lastSeq: Int64 = 0
            var more = false
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                guard count < limit else {
                    more = true
                    break
                }
                lastSeq = row[0]
                if count > 0 || leadingComma { buffer.writeInteger(UInt8(ascii: ",")) }
                try row.withUnsafeData(atIndex: 1) { data in
                    if let data { buffer.writeBytes(data) }
                }
                count += 1
            }
            return (buffer, count, more ? lastSeq : nil)
        }
        // On this thread when a reader is free (no hop), else through the pool.
        if let page = try locationEventReaders.read(read) { return page }
        return try await database.read(read)
    }

    /// How many recorded events have no stored JSON: `0` on a healthy store (the migration renders the JSON of events
    /// recorded before the column existed, and every insert renders its own).
    func locationEventsWithoutStoredJSON() async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM location_events WHERE json IS NULL") ?? 0
        }
    }
}
