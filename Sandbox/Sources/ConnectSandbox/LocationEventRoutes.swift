import Foundation
import Hummingbird

/// `POST /v1/location_events` (the SDK's geofence crossings, spec §4.6) and `GET /v1/location_events` (what was
/// recorded for the token's user, in the order received).
///
/// The upload carries only `Authorization: Bearer <user token>` and `Content-Type: application/json`; its body is a
/// JSON array of events with `record_id` (UUID), `region_type` (`geo`), `occurred_at` (`yyyy-MM-dd'T'HH:mm:ssZ`, or
/// any ISO 8601 date-time with an offset), `event_type` (`entry` or `exit`), `channel_id` (`941030000`),
/// `trigger_subscription_id` (a user feature trigger id of the token's user) and `installation_id`. Any invalid
/// event rejects the whole batch with 422 `invalid_parameters` and nothing is recorded. Events are de-duplicated by
/// `record_id`, so a re-sent batch is harmless; the answer is 200 with the counts.
struct LocationEventRoutes: SandboxRoutes {
    let env: RouteEnvironment

    /// The IFTTT Location service's channel id.
    static let channelId = "941030000"

    func register(on router: SandboxRouter) {
        router.post("/v1/location_events") { request, _ in
            var request = request
            let user = try await env.authenticator.authenticate(request, policy: .userOnly).requireUser()
            let body = try Self.parseArray(try await request.bodyData())
            let subscriptions = try await env.store.triggerSubscriptions(userId: user.id)
            let events = try Self.validate(body, userId: user.id, subscriptions: subscriptions)
            let receipt = try await env.store.recordLocationEvents(events)
            env.logger.info("User \(user.id) uploaded \(events.count) location events (\(receipt.duplicates) duplicates)")
            return JSONResponse.make(.object([
                .init("type", "location_events"),
                .init("recorded", .number(Double(receipt.recorded))),
                .init("duplicates", .number(Double(receipt.duplicates))),
            ]))
        }

        router.get("/v1/location_events") { request, _ in
            let user = try await env.authenticator.authenticate(request, policy: .userOnly).requireUser()
            let filter = request.query("trigger_subscription_id").flatMap { $0.isEmpty ? nil : $0 }
            // Cursor pagination (`limit`, `cursor`; see ListPage); without them the whole list, streamed.
            let page = try ListPage(request, kind: "location_events")
            let store = env.store
            guard let limit = page.limit else {
                return try await JSONResponse.streamedList(
                    fetch: { after in
                        try await store.locationEvents(
                            userId: user.id, triggerSubscriptionId: filter, after: after, limit: ListPage.chunkSize)
                    },
                    render: { Self.render($0) })
            }
            let events = try await store.locationEvents(
                userId: user.id, triggerSubscriptionId: filter, after: page.after, limit: limit)
            return JSONResponse.page(events.items.map(Self.render), next: events.nextAfter, kind: "location_events", paged: true)
        }
    }

    /// The JSON of one recorded event.
    static func render(_ event: LocationEventRecord) -> SandboxJSON {
        .object([
            .init("record_id", .string(event.recordId)),
            .init("trigger_subscription_id", .string(event.triggerSubscriptionId)),
            .init("connection_id", .string(event.connectionId)),
            .init("event_type", .string(event.eventType)),
            .init("occurred_at", .string(event.occurredAt)),
            .init("region_type", .string(event.regionType)),
            .init("channel_id", .string(event.channelId)),
            .init("installation_id", .string(event.installationId)),
            .init("deliveries", .number(Double(event.deliveries))),
        ])
    }

    /// The body as a JSON array; anything else is 400.
    static func parseArray(_ data: Data) throws -> [SandboxJSON] {
        guard let json = try? JSONDecoder().decode(SandboxJSON.self, from: data), let array = json.arrayValue else {
            throw APIError.badRequest("The request body must be a JSON array of location events.")
        }
        return array
    }

    /// Checks every event; throws 422 listing every problem, or returns the records to store.
    static func validate(_ items: [SandboxJSON], userId: String, subscriptions: [String: String]) throws
        -> [LocationEventRecord]
    {
        var details: [APIError.Detail] = []
        var records: [LocationEventRecord] = []
        for (index, item) in items.enumerated() {
            func problem(_ field: String, _ message: String) {
                details.append(.init(parameter: "[\(index)].\(field)", message: message))
            }
            guard case .object = item else {
                problem("", "must be an object")
                continue
            }
            func string(_ field: String) -> String? {
                guard let value = item[field]?.stringValue, !value.isEmpty else {
                    problem(field, "is required and must be a non-empty string")
                    return nil
                }
                return value
            }
            let recordId = string("record_id")
            if let recordId, UUID(uuidString: recordId) == nil { problem("record_id", "must be a UUID") }
            let regionType = string("region_type")
            if let regionType, regionType != "geo" { problem("region_type", "must be \"geo\"") }
            let occurredAt = string("occurred_at")
            if let occurredAt, parseTimestamp(occurredAt) == nil {
                problem("occurred_at", "must be an ISO 8601 date-time such as 2021-10-25T18:03:20+0000")
            }
            let eventType = string("event_type")
            if let eventType, !["entry", "exit"].contains(eventType) { problem("event_type", "must be \"entry\" or \"exit\"") }
            let channelId = string("channel_id")
            if let channelId, channelId != Self.channelId { problem("channel_id", "must be \"\(Self.channelId)\"") }
            let subscription = string("trigger_subscription_id")
            let connectionId = subscription.flatMap { subscriptions[$0] }
            if subscription != nil, connectionId == nil {
                problem("trigger_subscription_id", "is not a trigger subscription of this user")
            }
            let installationId = string("installation_id")
            if let recordId, let regionType, let occurredAt, let eventType, let channelId, let subscription,
               let connectionId, let installationId, let uuid = UUID(uuidString: recordId) {
                records.append(LocationEventRecord(
                    recordId: uuid.uuidString, userId: userId, triggerSubscriptionId: subscription,
                    connectionId: connectionId, eventType: eventType, occurredAt: occurredAt, regionType: regionType,
                    channelId: channelId, installationId: installationId))
            }
        }
        guard details.isEmpty else {
            throw APIError.unprocessable("Some location events are invalid; none was recorded.", details: details)
        }
        return records
    }

    /// Parses `occurred_at`: the iOS SDK's `yyyy-MM-dd'T'HH:mm:ssZ` (`+0000`), ISO 8601 with `Z` or `+hh:mm` and
    /// optional fractional seconds, or Android's `yyyy-MM-dd'T'HH:mm'Z'`.
    static func parseTimestamp(_ text: String) -> Date? {
        TimestampFormatters.shared.parse(text)
    }
}

/// The formatters of ``LocationEventRoutes/parseTimestamp(_:)``, made once (creating a `DateFormatter` costs far more
/// than parsing with one) and used under a lock.
final class TimestampFormatters: @unchecked Sendable {
    static let shared = TimestampFormatters()

    private let lock = NSLock()
    private let formatters: [DateFormatter]

    private init() {
        formatters = ["yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ssXXXXX",
                      "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm'Z'"].map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.isLenient = false
            formatter.dateFormat = format
            return formatter
        }
    }

    /// The first formatter's reading of `text`, in order.
    func parse(_ text: String) -> Date? {
        lock.withLock {
            for formatter in formatters {
                if let date = formatter.date(from: text) { return date }
            }
            return nil
        }
    }
}
