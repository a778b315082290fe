@testable import ConnectSandbox
import Foundation
import GRDB
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// Cursor pagination of the list endpoints, the WAL database, and the caches that must follow every write.
@Suite("Sandbox: pagination, WAL and caches")
struct SandboxPerformanceTests {
    /// `count` valid location events of alice's arrive trigger, with record ids made from `batch` and the index.
    static func events(batch: Int, count: Int) -> (ids: [String], body: Data) {
        var ids: [String] = []
        var json = "["
        for i in 0..<count {
            let id = String(format: "00000000-0000-4000-8000-%06d%06d", batch, i)
            ids.append(id)
            if i > 0 { json += "," }
            json += "{\"record_id\":\"\(id)\",\"region_type\":\"geo\",\"occurred_at\":\"2026-11-20T10:00:00+0000\","
            json += "\"event_type\":\"\(i % 2 == 0 ? "entry" : "exit")\",\"channel_id\":\"941030000\","
            json += "\"trigger_subscription_id\":\"alice-arrive-trigger-1\",\"installation_id\":\"perf\"}"
        }
        return (ids, Data((json + "]").utf8))
    }

    /// Posts `batches` batches of `size` events as alice; returns the record ids in order.
    static func record(_ client: Client, batches: Int, size: Int, first: Int = 0) async throws -> [String] {
        var all: [String] = []
        for b in first..<(first + batches) {
            let (ids, body) = events(batch: b, count: size)
            let response = try await client.post("/v1/location_events", token: SandboxTest.aliceToken, body: body)
            try #require(response.status == 200, "batch \(b): \(String(decoding: response.data, as: UTF8.self))")
            all += ids
        }
        return all
    }

    /// One page of a list endpoint: its record ids (or ids) and the next cursor.
    static func page(
        _ client: Client, _ path: String, query: [String: String], token: String? = SandboxTest.aliceToken,
        serviceKey: String? = nil, key: String = "record_id"
    ) async throws -> (ids: [String], cursor: String?, hasCursorKey: Bool) {
        let response = try await client.get(path, query: query, token: token, serviceKey: serviceKey)
        try #require(
            response.status == 200, "\(path) \(query): \(String(decoding: response.data.prefix(300), as: UTF8.self))")
        let object = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        let data = try #require(object["data"] as? [[String: Any]])
        let ids = data.map { "\($0[key] ?? "")" }
        return (ids, object["cursor"] as? String, object.keys.contains("cursor"))
    }

    static func withFileSandbox<T>(_ body: (Client, URL) async throws -> T) async throws -> T {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("perf.sqlite")
        return try await SandboxServer.withRunning(SandboxTest.configuration(databasePath: database.path)) { url in
            try await body(Client(base: url), database)
        }
    }

    /// 100,000 events, or `IFTTT_PAGING_EVENTS` (a multiple of 1,000): the default tier of scripts/test.sh runs
    /// 20,000, its full tier (and a plain `swift test`) all 100,000.
    static let pagingEvents = ProcessInfo.processInfo.environment["IFTTT_PAGING_EVENTS"].flatMap(Int.init) ?? 100_000

    @Test func pagingThroughOneHundredThousandEventsSeesEveryOneExactlyOnce() async throws {
        try await Self.withFileSandbox(Self.pagingThroughOneHundredThousandEventsSeesEveryOneExactlyOnceBody)
    }

    static func pagingThroughOneHundredThousandEventsSeesEveryOneExactlyOnceBody(_ client: Client, _ database: URL)
        async throws
    {
        let batches = max(1, pagingEvents / 1_000)
        let recorded = try await Self.record(client, batches: batches, size: 1_000)
        #expect(recorded.count == batches * 1_000)
        var seen: [String] = []
        var counts: [String: Int] = [:]
        var cursor: String?
        var pages = 0
        repeat {
            var query = ["limit": "1000"]
            if let cursor { query["cursor"] = cursor }
            let page = try await Self.page(client, "/v1/location_events", query: query)
            #expect(page.hasCursorKey)
            #expect(page.ids.count <= 1_000)
            for id in page.ids { counts[id, default: 0] += 1 }
            seen += page.ids
            cursor = page.cursor
            pages += 1
        } while cursor != nil && pages < 2 * batches
        #expect(pages == batches)
        #expect(seen.count == batches * 1_000)
        #expect(counts.count == batches * 1_000)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(seen == recorded)  // in the order received
        // A page of 100 from the middle continues exactly where the cursor says.
        let first = try await Self.page(client, "/v1/location_events", query: ["limit": "100"])
        let second = try await Self.page(
            client, "/v1/location_events", query: ["limit": "100", "cursor": try #require(first.cursor)])
        #expect(first.ids + second.ids == Array(recorded.prefix(200)))
        let store = try SandboxStore(path: database.path)
        #expect(try await store.locationEventCount() == batches * 1_000)
        #expect(try await store.integrityCheck() == ["ok"])
    }

    @Test func withoutLimitTheWholeListIsStreamedAsBefore() async throws {
        try await Self.withFileSandbox(Self.withoutLimitTheWholeListIsStreamedAsBeforeBody)
    }

    static func withoutLimitTheWholeListIsStreamedAsBeforeBody(_ client: Client, _ database: URL) async throws {
        let recorded = try await Self.record(client, batches: 5, size: 500)  // 2,500: three chunks of 1,000
        let all = try await Self.page(client, "/v1/location_events", query: [:])
        #expect(!all.hasCursorKey)  // the pre-pagination shape: {"type":"list","data":[...]}
        #expect(all.ids == recorded)
        var paged: [String] = []
        var cursor: String?
        repeat {
            var query = ["limit": "700"]
            if let cursor { query["cursor"] = cursor }
            let page = try await Self.page(client, "/v1/location_events", query: query)
            paged += page.ids
            cursor = page.cursor
        } while cursor != nil
        #expect(paged == recorded)
        // A cursor without a limit gets the default page size.
        let first = try await Self.page(client, "/v1/location_events", query: ["limit": "1"])
        let rest = try await Self.page(client, "/v1/location_events", query: ["cursor": try #require(first.cursor)])
        #expect(rest.ids == Array(recorded[1...ListPage.defaultLimit]))
        // The trigger subscription filter pages too.
        let filtered = try await Self.page(
            client, "/v1/location_events", query: ["limit": "2", "trigger_subscription_id": "alice-arrive-trigger-1"])
        #expect(filtered.ids == Array(recorded.prefix(2)))
    }

    /// A stored event's JSON text as a value (members sorted).
    static func json(_ text: String) throws -> JSONValue { try JSONValue.decodeSorted(from: Data(text.utf8)) }

    /// What the stored JSON of `event` must say: every member of the record (members sorted).
    static func expectedJSON(_ event: LocationEventRecord) -> JSONValue {
        let value: JSONValue = [
            "record_id": .string(event.recordId), "trigger_subscription_id": .string(event.triggerSubscriptionId),
            "connection_id": .string(event.connectionId), "event_type": .string(event.eventType),
            "occurred_at": .string(event.occurredAt), "region_type": .string(event.regionType),
            "channel_id": .string(event.channelId), "installation_id": .string(event.installationId),
            "deliveries": .number(Double(event.deliveries)),
        ]
        return value.sortedByKey()
    }

    @Test func theStoredEventJSONHoldsEveryMemberOfTheRow() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SandboxStore(path: directory.appendingPathComponent("json.sqlite").path)
        try await store.load(try SeedData.demo(), source: SeedData.demoSource)
        let quote = "id \"quoted\" \\ back\nslash ünïcode ✓ \t tab \u{01}\u{08}\u{0C}\r\u{1F} / end"
        func event(_ id: String, installation: String) -> LocationEventRecord {
            LocationEventRecord(
                recordId: id, userId: "alice", triggerSubscriptionId: "alice-arrive-trigger-1",
                connectionId: "gx-arrive-store", eventType: "entry", occurredAt: "2026-11-20T10:00:00+0000",
                regionType: "geo", channelId: "941030000", installationId: installation)
        }
        let resent = UUID().uuidString
        _ = try await store.recordLocationEvents([
            event(UUID().uuidString, installation: quote), event(resent, installation: "plain"),
        ])
        // A re-sent event's stored JSON follows its delivery count.
        let receipt = try await store.recordLocationEvents([event(resent, installation: "plain")])
        #expect(receipt == LocationEventReceipt(recorded: 0, duplicates: 1))
        let records = try await store.locationEvents(userId: "alice", triggerSubscriptionId: nil, after: nil, limit: 10)
        let texts = try await store.locationEventsJSON(
            userId: "alice", triggerSubscriptionId: nil, after: nil, limit: 10)
        #expect(records.items.count == 2)
        #expect(records.items.map(\.deliveries) == [1, 2])
        #expect(try texts.items.map(Self.json) == records.items.map(Self.expectedJSON))
        // The page buffer is the same items, comma-separated, after the prefix.
        let page = try await store.locationEventsJSONBuffer(
            userId: "alice", triggerSubscriptionId: nil, after: nil, limit: 1, prefix: "[")
        #expect(page.count == 1)
        #expect(page.nextAfter != nil)
        #expect(String(buffer: page.buffer) == "[" + texts.items[0])
        let rest = try await store.locationEventsJSONBuffer(
            userId: "alice", triggerSubscriptionId: nil, after: page.nextAfter, limit: 5, leadingComma: true)
        #expect(rest.count == 1)
        #expect(rest.nextAfter == nil)
        #expect(String(buffer: rest.buffer) == "," + texts.items[1])
    }

    /// More concurrent page reads than there are direct readers, while events are recorded: every read completes
    /// (the extra ones go through the pool), sees whole events in order, and the count ends exact.
    @Test func concurrentPageReadsBeyondTheDirectReadersAllComplete() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SandboxStore(path: directory.appendingPathComponent("readers.sqlite").path)
        try await store.load(try SeedData.demo(), source: SeedData.demoSource)
        @Sendable func event(_ batch: Int, _ index: Int) -> LocationEventRecord {
            LocationEventRecord(
                recordId: String(format: "00000000-0000-4000-8000-%06d%06d", batch, index), userId: "alice",
                triggerSubscriptionId: "alice-arrive-trigger-1", connectionId: "gx-arrive-store", eventType: "entry",
                occurredAt: "2026-11-20T10:00:00+0000", regionType: "geo", channelId: "941030000",
                installationId: "readers")
        }
        _ = try await store.recordLocationEvents((0..<500).map { event(0, $0) })
        let readers = LocationEventReaders.maximum * 3
        let pages = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                for batch in 1...20 { _ = try await store.recordLocationEvents((0..<10).map { event(batch, $0) }) }
                return []
            }
            for _ in 0..<readers {
                group.addTask {
                    var ids: [String] = []
                    for _ in 0..<10 {
                        let page = try await store.locationEventsJSONBuffer(
                            userId: "alice", triggerSubscriptionId: nil, after: nil, limit: 100, prefix: "[")
                        var buffer = page.buffer
                        buffer.writeString("]")
                        let items = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))
                        ids = try #require(items as? [[String: Any]]).map { "\($0["record_id"] ?? "")" }
                        #expect(page.count == 100)
                    }
                    return ids
                }
            }
            var pages: [[String]] = []
            for try await ids in group where !ids.isEmpty { pages.append(ids) }
            return pages
        }
        #expect(pages.count == readers)
        #expect(pages.allSatisfy { $0 == (0..<100).map { event(0, $0).recordId } })
        #expect(try await store.locationEventCount(userId: "alice") == 700)
        #expect(try await store.integrityCheck() == ["ok"])
    }

    /// A database written before events kept their JSON gets it rendered by the migration.
    @Test func theMigrationRendersTheJSONOfEventsRecordedBefore() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try SandboxStore.migrator(now: Date()).migrate(queue, upTo: "v-partner-sign-in")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO users (id, login, email) VALUES ('u', 'u', 'u@example.com')")
                for (index, installation) in ["a\"b", "c\\d\n"].enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO location_events (record_id, user_id, trigger_subscription_id, connection_id,
                                event_type, occurred_at, region_type, channel_id, installation_id, deliveries,
                                received_at)
                            VALUES (?, 'u', 't', 'c', 'entry', '2026-11-20T10:00:00+0000', 'geo', '941030000', ?, ?,
                                '2026-11-20 10:00:00')
                            """,
                        arguments: [UUID().uuidString, installation, index + 1])
                }
            }
            try queue.close()
        }
        let store = try SandboxStore(path: path)
        let records = try await store.locationEvents(userId: "u", triggerSubscriptionId: nil, after: nil, limit: 10)
        #expect(try await store.locationEventsWithoutStoredJSON() == 0)
        let stored = try await store.locationEventsJSON(userId: "u", triggerSubscriptionId: nil, after: nil, limit: 10)
        #expect(records.items.count == 2)
        #expect(try stored.items.map(Self.json) == records.items.map(Self.expectedJSON))
        #expect(try await store.integrityCheck() == ["ok"])
    }

    /// `occurred_at` is read by one grammar, without a `DateFormatter`: the shapes both SDKs send (and sent), each as
    /// the instant it names; anything else is refused. The OpenAPI document's pattern admits the same strings
    /// (`OpenAPIDocumentTests`).
    @Test func timestampsAreReadByOneGrammar() {
        let accepted: [(String, Double)] = [
            ("2026-11-20T10:00:00+0000", 1_795_168_800), ("2026-11-20T10:00:00-0830", 1_795_199_400),
            ("2026-11-20T10:00:00Z", 1_795_168_800), ("2026-11-20T10:00:00.250Z", 1_795_168_800.25),
            ("2026-11-20T10:00:00+05:30", 1_795_149_000), ("2026-11-20T10:00:00.999-02:00", 1_795_176_000.999),
            ("2024-02-29T23:59:59+0000", 1_709_251_199), ("2000-01-01T00:00:00.000+0000", 946_684_800),
            ("1970-01-01T00:00:00Z", 0), ("2026-11-20T10:00:00.5Z", 1_795_168_800.5),
            ("0001-01-01T00:00:00Z", -62_135_596_800), ("2026-11-20T10:00Z", 1_795_168_800),
        ]
        for (text, seconds) in accepted {
            let date = LocationEventRoutes.parseTimestamp(text)
            let near = date.map { abs($0.timeIntervalSince1970 - seconds) < 0.000_5 }
            #expect(near == true, "\(text): \(String(describing: date))")
        }
        for text in [
            "2026-02-29T10:00:00+0000", "1900-02-29T10:00:00Z", "0000-01-01T00:00:00Z", "2026-13-01T10:00:00Z",
            "2026-11-31T10:00:00Z", "2026-11-20T24:00:00Z", "2026-11-20T10:60:00Z", "2026-11-20T10:00:60Z",
            "2026-11-20T10:00:00", "2026-11-20 10:00:00Z", "2026-11-20T10:00:00+2400", "2026-11-20T10:00:00.Z",
            "2026-11-20T10:00:00.1234567890Z", "2026-11-20T10:00+0000", "2026-11-20T10:00:00Z\n", "yesterday", "",
        ] {
            #expect(LocationEventRoutes.parseTimestamp(text) == nil, "\(text)")
        }
    }

    @Test func badLimitsAndCursorsAre400() async throws {
        try await SandboxTest.withDemo(Self.badLimitsAndCursorsAre400Body)
    }

    static func badLimitsAndCursorsAre400Body(_ client: Client) async throws {
        for query in [
            ["limit": "0"], ["limit": "1001"], ["limit": "ten"], ["limit": "-5"], ["cursor": "garbage!"],
            ["cursor": ListPage.encode(5, kind: "sdk_events")], ["cursor": ListPage.encode(5, kind: "applets")],
        ] {
            let response = try await client.get("/v1/location_events", query: query, token: SandboxTest.aliceToken)
            #expect(response.status == 400, "\(query)")
            #expect(response.errorCode == "invalid_parameters", "\(query)")
        }
        #expect(
            try await client.get("sandbox/sdk_events", query: ["limit": "0"], serviceKey: SandboxTest.serviceKey).status
                == 400)
        #expect(try await client.get("v1/services/grocery_express/applets", query: ["cursor": "x"]).status == 400)
        #expect(ListPage.decode(ListPage.encode(123_456, kind: "k"), kind: "k") == 123_456)
    }

    @Test func sdkEventsAndLegacyAppletsPage() async throws {
        try await SandboxTest.withDemo(Self.sdkEventsAndLegacyAppletsPageBody)
    }

    static func sdkEventsAndLegacyAppletsPageBody(_ client: Client) async throws {
        for n in 0..<5 {
            let event: JSONValue = [
                "name": "sdk.click", "timestamp": .string("\(1_700_000_000_000 + n)"), "properties": [:],
            ]
            let body = JSONValue.object(["events": [event]]).serializedData()
            let response = try await client.request(
                "POST", "/v2/sdk/events", headers: ["IFTTT-SDK-Anonymous-Id": "perf-anon"], body: body)
            try #require(response.status == 204)
        }
        let all = try await Self.page(
            client, "sandbox/sdk_events", query: ["anonymous_id": "perf-anon"], token: nil,
            serviceKey: SandboxTest.serviceKey, key: "timestamp")
        #expect(all.ids.count == 5)
        #expect(!all.hasCursorKey)
        var paged: [String] = []
        var cursor: String?
        repeat {
            var query = ["anonymous_id": "perf-anon", "limit": "2"]
            if let cursor { query["cursor"] = cursor }
            let page = try await Self.page(
                client, "sandbox/sdk_events", query: query, token: nil, serviceKey: SandboxTest.serviceKey,
                key: "timestamp")
            paged += page.ids
            cursor = page.cursor
        } while cursor != nil
        #expect(paged == all.ids)

        let applets = try await Self.page(client, "v1/services/grocery_express/applets", query: [:], key: "id")
        #expect(!applets.ids.isEmpty)
        var pagedApplets: [String] = []
        cursor = nil
        repeat {
            var query = ["limit": "1"]
            if let cursor { query["cursor"] = cursor }
            let page = try await Self.page(client, "v1/services/grocery_express/applets", query: query, key: "id")
            #expect(page.ids.count == 1)
            pagedApplets += page.ids
            cursor = page.cursor
        } while cursor != nil
        #expect(pagedApplets == applets.ids)
    }

    @Test func theRenderedConnectionFollowsEveryWrite() async throws {
        try await SandboxTest.withDemo(Self.theRenderedConnectionFollowsEveryWriteBody)
    }

    static func theRenderedConnectionFollowsEveryWriteBody(_ client: Client) async throws {
        let path = "/v2/connections/gx-weekly-deals"
        let before = try await client.get(path, token: SandboxTest.aliceToken).json  // now cached
        #expect(before["enabled_count"] == 1)  // alice enabled, bob disabled
        #expect(before["user_status"] == "enabled")
        #expect(try await client.get(path, token: SandboxTest.aliceToken).json == before)  // a hit, same JSON
        // Another user's write changes what alice sees (enabled_count).
        #expect(try await client.post("\(path)/enable", token: SandboxTest.bobToken).status == 200)
        #expect(try await client.get(path, token: SandboxTest.aliceToken).json["enabled_count"] == 2)
        #expect(try await client.get(path).json["enabled_count"] == 2)  // anonymous
        // Her own write changes her status.
        #expect(try await client.post("\(path)/disable", token: SandboxTest.aliceToken).status == 200)
        let after = try await client.get(path, token: SandboxTest.aliceToken).json
        #expect(after["user_status"] == "disabled")
        #expect(after["enabled_count"] == 1)
        // Access is checked on a cache hit too: the invite code is still required.
        let early = "/v2/connections/gx-early-access"
        #expect(try await client.get(early, inviteCode: "gx-invite-2026").status == 200)
        #expect(try await client.get(early, inviteCode: "gx-invite-2026").status == 200)
        #expect(try await client.get(early).status == 403)
        #expect(try await client.get(early, inviteCode: "wrong").status == 403)
    }

    // As when a CLI command's embedded sandbox writes the default database while `ifttt-connect sandbox` runs.
    @Test func aWriteByAnotherConnectionToTheSameFileInvalidatesTheCache() async throws {
        try await Self.withFileSandbox(Self.aWriteByAnotherConnectionToTheSameFileInvalidatesTheCacheBody)
    }

    static func aWriteByAnotherConnectionToTheSameFileInvalidatesTheCacheBody(_ client: Client, _ database: URL)
        async throws
    {
        let path = "/v2/connections/gx-weekly-deals"
        #expect(try await client.get(path, token: SandboxTest.aliceToken).json["user_status"] == "enabled")  // cached
        let other = try SandboxStore(path: database.path)
        #expect(try await other.setStatus(.disabled, userId: "alice", connectionId: "gx-weekly-deals") != nil)
        #expect(try await client.get(path, token: SandboxTest.aliceToken).json["user_status"] == "disabled")
        _ = try await other.mintToken(forUserId: "bob")
        #expect(try await other.setStatus(.enabled, userId: "alice", connectionId: "gx-weekly-deals") != nil)
        #expect(try await client.get(path, token: SandboxTest.aliceToken).json["user_status"] == "enabled")
    }

    /// Events appended, by this process or another, leave the caches valid; any other change, by another connection
    /// too, invalidates them (issue 31: the former `PRAGMA data_version` check counted this process's own event
    /// appends as foreign changes, so under an upload load every request missed every cache).
    @Test func eventAppendsKeepTheCachesAndOtherWritesInvalidateThem() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("generation.sqlite").path
        let store = try SandboxStore(path: path)
        try await store.load(try SeedData.demo(), source: SeedData.demoSource)
        let other = try SandboxStore(path: path)
        func event(_ index: Int) -> LocationEventRecord {
            LocationEventRecord(
                recordId: String(format: "00000000-0000-4000-8000-%012d", index), userId: "alice",
                triggerSubscriptionId: "alice-arrive-trigger-1", connectionId: "gx-arrive-store", eventType: "entry",
                occurredAt: "2026-11-20T10:00:00+0000", regionType: "geo", channelId: "941030000",
                installationId: "generation")
        }
        let before = store.generation
        #expect(try await store.user(forToken: SandboxTest.aliceToken)?.id == "alice")  // cached at `before`
        _ = try await store.recordLocationEvents([event(1)])
        _ = try await other.recordLocationEvents([event(2)])
        #expect(store.generation == before)
        // Another connection's change of a cached table: the next read of the generation sees it.
        #expect(try await other.setStatus(.disabled, userId: "alice", connectionId: "gx-weekly-deals") != nil)
        let afterStatus = store.generation
        #expect(afterStatus != before)
        let token = try await other.mintToken(forUserId: "bob")
        #expect(store.generation != afterStatus)
        #expect(try await store.user(forToken: token)?.id == "bob")
        // This process's own change, too.
        let afterToken = store.generation
        #expect(try await store.setStatus(.enabled, userId: "alice", connectionId: "gx-weekly-deals") != nil)
        #expect(store.generation != afterToken)
    }

    /// A table a later migration adds (here: another connection creates one) is covered at the next open: its
    /// changes raise the shared counter as every cached table's do.
    @Test func aTableAddedLaterInvalidatesTheCachesOnceTheStoreIsOpenedAgain() async throws {
        let directory = try SandboxTest.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("later.sqlite").path
        let store = try SandboxStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE later_feature (id INTEGER PRIMARY KEY)") }
        _ = try SandboxStore(path: path)
        let before = store.generation
        try await queue.write { db in try db.execute(sql: "INSERT INTO later_feature (id) VALUES (1)") }
        #expect(store.generation != before)
        let triggers = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        }
        for table in ["users", "user_tokens", "user_connections", "connections", "services", "later_feature"] {
            for event in ["insert", "update", "delete"] {
                #expect(triggers.contains("store_generation_after_\(event)_on_\(table)"), "\(table) \(event)")
            }
        }
        #expect(!triggers.contains { $0.hasSuffix("_on_location_events") || $0.hasSuffix("_on_sdk_events") })
        try queue.close()
    }

    @Test func aFileDatabaseIsWALAndStaysConsistentUnderConcurrentLoad() async throws {
        try await Self.withFileSandbox(Self.aFileDatabaseIsWALAndStaysConsistentUnderConcurrentLoadBody)
    }

    static func aFileDatabaseIsWALAndStaysConsistentUnderConcurrentLoadBody(_ client: Client, _ database: URL)
        async throws
    {
        let store = try SandboxStore(path: database.path)
        #expect(try await store.journalMode() == "wal")
        let tasks = 8
        let perTask = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    for i in 0..<perTask {
                        let (_, body) = Self.events(batch: 500 + t * perTask + i, count: 1)
                        let response = try await client.post(
                            "/v1/location_events", token: SandboxTest.aliceToken, body: body)
                        #expect(response.status == 200)
                        let action = (t + i) % 2 == 0 ? "enable" : "disable"
                        #expect(
                            try await client.post(
                                "/v2/connections/gx-weekly-deals/\(action)",
                                token: SandboxTest.bobToken
                            ).status == 200)
                        #expect(
                            try await client.get("/v2/connections/gx-arrive-store", token: SandboxTest.aliceToken)
                                .status == 200)
                        #expect(
                            try await client.get(
                                "/v1/location_events", query: ["limit": "10"],
                                token: SandboxTest.aliceToken
                            ).status == 200)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.locationEventCount() == tasks * perTask)
        #expect(try await store.integrityCheck() == ["ok"])
        // The final status of bob is the last write, and the rendered JSON agrees with the database.
        let bob = try await client.get("/v2/connections/gx-weekly-deals", token: SandboxTest.bobToken).json
        let stored = try #require(try await store.snapshot(connectionId: "gx-weekly-deals", userId: "bob"))
        #expect(bob["user_status"] == .string(try #require(stored.userConnection?.status.rawValue)))
        #expect(bob["enabled_count"] == .number(Double(stored.enabledCount)))
    }
}
