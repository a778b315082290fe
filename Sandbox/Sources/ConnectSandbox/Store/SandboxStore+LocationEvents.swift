import Foundation
import GRDB
import NIOConcurrencyHelpers
@_spi(Sandbox) import IFTTTConnectSDK

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
    /// Cached per generation (any change of a user connection invalidates it).
    func triggerSubscriptions(userId: String) async throws -> [String: String] {
        try await triggerSubscriptions(userId: userId, generation: generation)
    }

    /// The trigger subscriptions of `userId` at `generation`, a ``generation`` the request read before (see
    /// ``user(forToken:generation:)``).
    func triggerSubscriptions(userId: String, generation: UInt64) async throws -> [String: String] {
        if let cached = caches.triggerSubscriptions.value(for: userId, generation: generation) { return cached }
        let result = try await database.read { db in
            var result: [String: String] = [:]
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM user_connections WHERE user_id = ?"), arguments: [userId])
            for row in rows {
                let userConnection = try Self.userConnection(row)
                for feature in userConnection.userFeatures {
                    for trigger in feature.userSteps(.trigger) {
                        if let id = trigger.id { result[id] = userConnection.connectionId }
                    }
                }
            }
            return result
        }
        caches.triggerSubscriptions.store(result, for: userId, generation: generation)
        return result
    }

    /// Records `events` in one transaction, in order. An event whose record id is already stored is not recorded
    /// again; its delivery count goes up.
    ///
    /// Concurrent calls share one write transaction (``LocationEventWriter``'s group commit), each batch in a savepoint
    /// of its own: a batch is recorded whole or not at all, whatever the others do, and the call returns after the
    /// commit that made it durable.
    func recordLocationEvents(_ events: [LocationEventRecord]) async throws -> LocationEventReceipt {
        try await locationEventWriter.record(events) { batches in
            let receivedAt = self.clock.now
            return try await self.database.write { db in
                batches.map { events in
                    var receipt = LocationEventReceipt(recorded: 0, duplicates: 0)
                    do {
                        try db.inSavepoint {
                            receipt = try Self.insertLocationEvents(events, receivedAt: receivedAt, in: db)
                            return .commit
                        }
                        return .success(receipt)
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
    }

    /// Inserts one batch with one prepared statement; RETURNING gives the delivery count without a second read. The
    /// event's JSON is rendered here, once (see locationEventJSONExpression), and kept up to date when a re-sent event
    /// bumps its delivery count, so a page read only concatenates stored bytes.
    private static func insertLocationEvents(_ events: [LocationEventRecord], receivedAt: Date, in db: Database) throws
        -> LocationEventReceipt
    {
        var receipt = LocationEventReceipt(recorded: 0, duplicates: 0)
        let insert = try db.cachedStatement(sql: Self.locationEventInsertSQL)
        for event in events {
            let deliveries =
                try Int.fetchOne(
                    insert,
                    arguments: [
                        event.recordId, event.userId, event.triggerSubscriptionId, event.connectionId,
                        event.eventType, event.occurredAt, event.regionType, event.channelId,
                        event.installationId, receivedAt,
                    ]) ?? 1
            if deliveries == 1 { receipt.recorded += 1 } else { receipt.duplicates += 1 }
        }
        return receipt
    }

    /// The events recorded for `userId` in the order they were received, optionally of one trigger subscription.
    /// Reads everything at once: for long lists use ``locationEvents(userId:triggerSubscriptionId:after:limit:)``.
    func locationEvents(userId: String, triggerSubscriptionId: String? = nil) async throws -> [LocationEventRecord] {
        var all: [LocationEventRecord] = []
        var after: Int64?
        repeat {
            let page = try await locationEvents(
                userId: userId, triggerSubscriptionId: triggerSubscriptionId, after: after, limit: ListPage.chunkSize)
            all += page.items
            after = page.nextAfter
        } while after != nil
        return all
    }

    /// At most `limit` events of `userId` received after the event with key `after` (`nil`: from the first), in the
    /// order received, and the key to continue after when more follow. The key is the event's `seq`.
    func locationEvents(userId: String, triggerSubscriptionId: String?, after: Int64?, limit: Int) async throws
        -> StorePage<LocationEventRecord>
    {
        try await locationEventPage(
            selecting: Self.locationEventColumns, userId: userId,
            triggerSubscriptionId: triggerSubscriptionId, after: after, limit: limit
        ) { row in
            // By index, in the order of locationEventColumns (a lookup by name compares every column's name).
            LocationEventRecord(
                recordId: row[1], userId: row[2], triggerSubscriptionId: row[3], connectionId: row[4],
                eventType: row[5], occurredAt: row[6], regionType: row[7], channelId: row[8], installationId: row[9],
                deliveries: row[10])
        }
    }

    /// Like ``locationEvents(userId:triggerSubscriptionId:after:limit:)``, but each event as its JSON text: the
    /// `json` column, rendered by SQLite (`json_object`, members in the order of `locationEventJSONExpression`) when
    /// the event was recorded.
    func locationEventsJSON(userId: String, triggerSubscriptionId: String?, after: Int64?, limit: Int) async throws
        -> StorePage<String>
    {
        try await locationEventPage(
            selecting: "seq, \(Self.storedLocationEventJSON)", userId: userId,
            triggerSubscriptionId: triggerSubscriptionId, after: after, limit: limit
        ) { row in
            row[1]
        }
    }

    /// One page of `userId`'s events (of one trigger subscription when given) after `seq` `after`, in the order
    /// received: `columns` are selected (the first must be `seq`) and each row becomes an item with `item`.
    private func locationEventPage<Item: Sendable>(
        selecting columns: String, userId: String, triggerSubscriptionId: String?, after: Int64?, limit: Int,
        item: @escaping @Sendable (Row) -> Item
    ) async throws -> StorePage<Item> {
        try await database.read { db in
            let statement = try db.cachedStatement(
                sql: triggerSubscriptionId == nil
                    ? "SELECT \(columns) FROM location_events WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?"
                    : "SELECT \(columns) FROM location_events WHERE user_id = ? AND trigger_subscription_id = ? "
                        + "AND seq > ? ORDER BY seq LIMIT ?")
            var arguments: StatementArguments = [userId]
            if let triggerSubscriptionId { arguments += [triggerSubscriptionId] }
            arguments += [after ?? 0, limit + 1]
            var items: [Item] = []
            items.reserveCapacity(min(limit, ListPage.chunkSize))
            var lastSeq: Int64 = 0
            var more = false
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                guard items.count < limit else {
                    more = true
                    break
                }
                lastSeq = row[0]
                items.append(item(row))
            }
            return StorePage(items: items, nextAfter: more ? lastSeq : nil)
        }
    }

    /// The columns of a page read, in the order the reader takes them by index.
    static let locationEventColumns =
        "seq, record_id, user_id, trigger_subscription_id, connection_id, event_type, "
        + "occurred_at, region_type, channel_id, installation_id, deliveries"

    /// How many events are recorded for `userId` (all users when `nil`).
    func locationEventCount(userId: String? = nil) async throws -> Int {
        try await database.read { db in
            if let userId {
                return try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM location_events WHERE user_id = ?", arguments: [userId]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM location_events") ?? 0
        }
    }
}

/// Group commit for `POST /v1/location_events`: uploads that arrive while a write is running wait for the next one and
/// share it, so many small uploads cost one transaction (one WAL append of the pages they touch) instead of one each.
///
/// The first caller with no write running starts the drain; each round takes every waiting batch, writes them in one
/// call of `write` and resumes each caller with its own result. The queue's state changes only under its lock, never
/// across an `await`.
final class LocationEventWriter: Sendable {
    /// Writes a group of batches in one transaction and returns each batch's result, in order.
    typealias GroupWrite = @Sendable ([[LocationEventRecord]]) async throws -> [Result<LocationEventReceipt, any Error>]

    private struct Waiting {
        var events: [LocationEventRecord]
        var continuation: CheckedContinuation<LocationEventReceipt, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var draining = false
    }

    private let state = NIOLockedValueBox(State())

    /// Queues `events` for the next group write and returns their receipt once it committed.
    func record(_ events: [LocationEventRecord], write: @escaping GroupWrite) async throws -> LocationEventReceipt {
        try await withCheckedThrowingContinuation { continuation in
            let startsDrain = state.withLockedValue { state -> Bool in
                state.waiting.append(Waiting(events: events, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startsDrain { Task { await self.drain(write) } }
        }
    }

    /// Writes groups until none waits.
    private func drain(_ write: GroupWrite) async {
        while true {
            let group = state.withLockedValue { state -> [Waiting] in
                let group = state.waiting
                state.waiting = []
                if group.isEmpty { state.draining = false }
                return group
            }
            guard !group.isEmpty else { return }
            let results: [Result<LocationEventReceipt, any Error>]
            do {
                results = try await write(group.map(\.events))
            } catch {
                results = group.map { _ in .failure(error) }
            }
            // Every caller is resumed exactly once, even if the write answered for fewer batches than it was given.
            for (index, waiting) in group.enumerated() {
                waiting.continuation.resume(
                    with: index < results.count ? results[index] : .failure(LocationEventWriterError.noResult))
            }
        }
    }
}

/// The group write returned no result for a batch (a bug of the write, reported instead of a caller left waiting).
enum LocationEventWriterError: Error {
    case noResult
}
