import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK

/// One analytics event the sandbox received on `POST /v2/sdk/events`; a row of the `sdk_events` table.
public struct SDKEventRecord: Sendable, Equatable, Decodable, FetchableRecord {
    /// The row id, increasing in the order events were received.
    public var id: Int64
    /// The `IFTTT-SDK-Anonymous-Id` header of the request.
    public var anonymousId: String
    /// The `IFTTT-SDK-Version` header, if sent.
    public var sdkVersion: String?
    /// The `IFTTT-SDK-Platform` header, if sent.
    public var platform: String?
    /// The event name, such as `sdk.impression`.
    public var name: String
    /// The event's epoch-milliseconds timestamp string, as sent.
    public var timestamp: String
    /// The event's `properties`, all strings.
    public var properties: [String: String]
    /// Which request (batch) brought the event; events of one request share it.
    public var batch: Int64
    /// When the sandbox received it.
    public var receivedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case anonymousId = "anonymous_id"
        case sdkVersion = "sdk_version"
        case platform, name, timestamp, properties, batch
        case receivedAt = "received_at"
    }

    /// The record as a JSON object for `GET /sandbox/sdk_events`.
    var json: JSONValue {
        let sortedProperties = JSONObject(properties.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        return [
            "id": .number(Double(id)),
            "anonymous_id": .string(anonymousId),
            "sdk_version": .optional(sdkVersion),
            "platform": .optional(platform),
            "name": .string(name),
            "timestamp": .string(timestamp),
            "properties": .object(sortedProperties),
            "batch": .number(Double(batch)),
            "received_at": .string(ISO8601DateFormatter().string(from: receivedAt)),
        ]
    }
}

/// A validated event of a `POST /v2/sdk/events` body, before it is stored.
struct IncomingSDKEvent: Sendable, Equatable {
    var name: String
    var timestamp: String
    var properties: [String: String]
}

extension SandboxStore {
    /// Adds the `sdk_events` table (a separate migration, so older databases are upgraded in place).
    static func registerSDKEventsMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-sdk-events") { db in
            try db.create(table: "sdk_events") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("anonymous_id", .text).notNull().indexed()
                t.column("sdk_version", .text)
                t.column("platform", .text)
                t.column("name", .text).notNull()
                t.column("timestamp", .text).notNull()
                t.column("properties", .jsonText).notNull()
                t.column("batch", .integer).notNull()
                t.column("received_at", .datetime).notNull()
            }
        }
    }

    /// The most events kept: older ones are dropped as new ones arrive (issue 30, hole 8: anyone may post events,
    /// and the table grew without bound).
    static let maximumStoredSDKEvents: Int64 = 20_000

    /// Adds the service an event is about (its `object_id` Connection's service): a service key lists only its own
    /// service's events.
    static func registerSDKEventServiceMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v-sdk-events-service") { db in
            try db.alter(table: "sdk_events") { t in t.add(column: "service_id", .text) }
            try db.execute(
                sql: """
                    UPDATE sdk_events SET service_id = (
                        SELECT primary_service_id FROM connections
                        WHERE connections.id = json_extract(sdk_events.properties, '$.object_id'))
                    """)
            try db.create(index: "sdk_events_service", on: "sdk_events", columns: ["service_id", "id"])
        }
    }

    /// Records the events of one request in one transaction; each is tagged with the service of the Connection its
    /// `object_id` names (none when it names no known Connection). Keeps at most ``maximumStoredSDKEvents``.
    func recordSDKEvents(
        _ events: [IncomingSDKEvent], anonymousId: String, sdkVersion: String?, platform: String?,
        receivedAt: Date? = nil
    ) async throws {
        let receivedAt = receivedAt ?? clock.now
        try await database.write { db in
            let batch = (try Int64.fetchOne(db, sql: "SELECT MAX(batch) FROM sdk_events") ?? 0) + 1
            for event in events {
                var serviceId: String?
                if let connection = event.properties["object_id"] {
                    serviceId = try String.fetchOne(
                        db, sql: "SELECT primary_service_id FROM connections WHERE id = ?", arguments: [connection])
                }
                try db.execute(
                    sql:
                        "INSERT INTO sdk_events (anonymous_id, sdk_version, platform, name, timestamp, properties, batch, received_at, service_id) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        anonymousId, sdkVersion, platform, event.name, event.timestamp,
                        try Self.jsonText(event.properties), batch, receivedAt, serviceId,
                    ])
            }
            let last = db.lastInsertedRowID
            try db.execute(
                sql: "DELETE FROM sdk_events WHERE id <= ?", arguments: [last - Self.maximumStoredSDKEvents])
        }
    }

    /// The recorded analytics events, oldest first, optionally only those of one anonymous id or name.
    ///
    /// - Parameters:
    ///   - anonymousId: Only events sent with this `IFTTT-SDK-Anonymous-Id`.
    ///   - name: Only events with this name, such as `sdk.click`.
    /// - Returns: The events.
    public func sdkEvents(anonymousId: String? = nil, name: String? = nil) async throws -> [SDKEventRecord] {
        var all: [SDKEventRecord] = []
        var after: Int64?
        repeat {
            let page = try await sdkEvents(
                anonymousId: anonymousId, name: name, after: after, limit: ListPage.chunkSize)
            all += page.items
            after = page.nextAfter
        } while after != nil
        return all
    }

    /// At most `limit` recorded events after the one with id `after` (`nil`: from the first), in id order, and the id
    /// to continue after when more follow.
    func sdkEvents(
        anonymousId: String?, name: String?, serviceId: String? = nil, after: Int64?, limit: Int
    ) async throws -> StorePage<SDKEventRecord> {
        try await database.read { db in
            var sql = "SELECT * FROM sdk_events WHERE id > ?"
            var arguments: StatementArguments = [after ?? 0]
            if let serviceId {
                // Events about no known Connection belong to no service: every key sees those.
                sql += " AND (service_id = ? OR service_id IS NULL)"
                arguments += [serviceId]
            }
            if let anonymousId {
                sql += " AND anonymous_id = ?"
                arguments += [anonymousId]
            }
            if let name {
                sql += " AND name = ?"
                arguments += [name]
            }
            sql += " ORDER BY id LIMIT ?"
            arguments += [limit + 1]
            var items = try SDKEventRecord.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
            guard items.count > limit else { return StorePage(items: items, nextAfter: nil) }
            items.removeLast(items.count - limit)
            return StorePage(items: items, nextAfter: items.last?.id)
        }
    }
}
