import Foundation
import Hummingbird

/// `POST /v1/location_events` (the SDK's geofence crossings, spec §4.6) and `GET /v1/location_events` (what was
/// recorded for the token's user, in the order received).
///
/// The upload carries only `Authorization: Bearer <user token>` and `Content-Type: application/json`; its body is a
/// JSON array of events with `record_id` (UUID), `region_type` (`geo`), `occurred_at` (`yyyy-MM-dd'T'HH:mm:ssZ`, or
/// an ISO 8601 date-time with an offset, ``LocationTimestamp``), `event_type` (`entry` or `exit`), `channel_id` (`941030000`),
/// `trigger_subscription_id` (a user feature trigger id of the token's user) and `installation_id`. A malformed
/// event rejects the whole batch with 422 `invalid_parameters` (details as JSON pointers, `/0/record_id`) and nothing
/// is recorded. An event whose `trigger_subscription_id` is not (or no longer) one of the user's is accepted and
/// ignored: IFTTT documents no refusal for it, and a user who reconfigured a Connection leaves such events behind.
/// Events are de-duplicated by `record_id`, so a re-sent batch is harmless; the answer is 200 with the counts
/// (`recorded`, `duplicates`, `ignored`; the body is the sandbox's own, the SDKs read only the status).
///
/// With `--reject-location-events P` (``SandboxConfiguration/rejectLocationEvents``), the opt-in fault, each event
/// is refused with probability P (decided by the seed and its record id, so a refused event stays refused), and so
/// is every event of an unknown trigger subscription: a batch holding one is answered 422 whose details name every
/// refused event as `/index/record_id` (or `/index/trigger_subscription_id`) with the reason, and nothing of the
/// batch is recorded.
struct LocationEventRoutes: SandboxRoutes {
    let env: RouteEnvironment
    var injector: FaultInjector?

    /// The IFTTT Location service's channel id.
    static let channelId = "941030000"

    func register(on router: SandboxRouter) {
        router.post("/v1/location_events") { request, _ in
            var request = request
            // One read of the store's change count serves both cached reads (the token, the trigger subscriptions).
            let generation = env.store.generation
            let user = try await env.authenticator.authenticate(request, policy: .userOnly, generation: generation)
                .requireUser()
            let body = try Self.parseArray(try await request.bodyData())
            let subscriptions = try await env.store.triggerSubscriptions(userId: user.id, generation: generation)
            let refusing = (injector?.rejectLocationEvents ?? 0) > 0
            let (events, ignored) = try Self.validate(
                body, userId: user.id, subscriptions: subscriptions, refuseUnknownSubscriptions: refusing)
            if let injector { try Self.injectRefusals(events, injector: injector, logger: env) }
            let receipt = try await env.store.recordLocationEvents(events)
            env.logger.info(
                "User \(user.id) uploaded \(events.count + ignored) location events (\(receipt.duplicates) duplicates, \(ignored) of unknown trigger subscriptions ignored)"
            )
            var headers = HTTPFields()
            headers[.contentType] = JSONResponse.contentType
            let answer =
                "{\"type\":\"location_events\",\"recorded\":\(receipt.recorded),\"duplicates\":\(receipt.duplicates),\"ignored\":\(ignored)}"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer)))
        }

        router.get("/v1/location_events") { request, _ in
            let user = try await env.authenticator.authenticate(request, policy: .userOnly).requireUser()
            let filter = request.query("trigger_subscription_id").flatMap { $0.isEmpty ? nil : $0 }
            // Cursor pagination (`limit`, `cursor`; see ListPage); without them the whole list, streamed.
            let page = try ListPage(request, kind: "location_events")
            let store = env.store
            // Each event's JSON was rendered when it was recorded (the `json` column); a page is those bytes
            // concatenated into the response buffer.
            guard let limit = page.limit else {
                return try await JSONResponse.streamedChunks { after, first in
                    try await store.locationEventsJSONBuffer(
                        userId: user.id, triggerSubscriptionId: filter, after: after, limit: ListPage.chunkSize,
                        leadingComma: !first)
                }
            }
            let events = try await store.locationEventsJSONBuffer(
                userId: user.id, triggerSubscriptionId: filter, after: page.after, limit: limit,
                prefix: "{\"type\":\"list\",\"data\":[")
            return JSONResponse.page(buffer: events.buffer, next: events.nextAfter, kind: "location_events")
        }
    }

    /// Throws the 422 of `--reject-location-events` when any of `events` is refused.
    static func injectRefusals(_ events: [LocationEventRecord], injector: FaultInjector, logger env: RouteEnvironment)
        throws
    {
        let refused = events.enumerated().filter { injector.rejectsLocationEvent(recordId: $0.element.recordId) }
        guard !refused.isEmpty else { return }
        env.logger.info("Refused \(refused.count) of \(events.count) location events (--reject-location-events)")
        throw APIError.unprocessable(
            "Some location events were refused; none was recorded.",
            details: refused.map {
                .init(
                    parameter: "/\($0.offset)/record_id",
                    message: "event \($0.element.recordId) was refused (the sandbox's --reject-location-events)")
            })
    }

    /// One element of an uploaded array: its string members by name (a member that is not a string is absent), or
    /// `nil` when the element is not an object.
    struct UploadedEvent: Decodable {
        /// The string members; `nil` when the element is not a JSON object.
        var strings: [String: String]?

        /// The members an event may carry.
        static let fields: Set<String> = [
            "record_id", "region_type", "occurred_at", "event_type", "channel_id", "trigger_subscription_id",
            "installation_id",
        ]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { return nil }
        }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: Key.self) else { return }
            var strings: [String: String] = [:]
            for key in container.allKeys where Self.fields.contains(key.stringValue) {
                if let value = try? container.decode(String.self, forKey: key) { strings[key.stringValue] = value }
            }
            self.strings = strings
        }
    }

    /// The body as a JSON array; anything else is 400.
    static func parseArray(_ data: Data) throws -> [UploadedEvent] {
        guard let array = try? JSONDecoder().decode([UploadedEvent].self, from: data) else {
            throw APIError.badRequest("The request body must be a JSON array of location events.")
        }
        return array
    }

    /// Checks every event; throws 422 listing every problem, or returns the records to store and how many events
    /// of unknown trigger subscriptions were left out (refused instead with `refuseUnknownSubscriptions`).
    static func validate(
        _ items: [UploadedEvent], userId: String, subscriptions: [String: String], refuseUnknownSubscriptions: Bool
    ) throws -> (records: [LocationEventRecord], ignored: Int) {
        var details: [APIError.Detail] = []
        var records: [LocationEventRecord] = []
        var ignored = 0
        for (index, item) in items.enumerated() {
            func problem(_ field: String, _ message: String) {
                details.append(.init(parameter: field.isEmpty ? "/\(index)" : "/\(index)/\(field)", message: message))
            }
            guard let members = item.strings else {
                problem("", "must be an object")
                continue
            }
            func string(_ field: String) -> String? {
                guard let value = members[field], !value.isEmpty else {
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
            if let eventType, !["entry", "exit"].contains(eventType) {
                problem("event_type", "must be \"entry\" or \"exit\"")
            }
            let channelId = string("channel_id")
            if let channelId, channelId != Self.channelId { problem("channel_id", "must be \"\(Self.channelId)\"") }
            let subscription = string("trigger_subscription_id")
            let connectionId = subscription.flatMap { subscriptions[$0] }
            if subscription != nil, connectionId == nil, refuseUnknownSubscriptions {
                problem(
                    "trigger_subscription_id",
                    "is not a trigger subscription of this user (refused by the sandbox's --reject-location-events)")
            }
            let installationId = string("installation_id")
            if let recordId, let regionType, let occurredAt, let eventType, let channelId, let subscription,
                let connectionId, let installationId, let uuid = UUID(uuidString: recordId)
            {
                records.append(
                    LocationEventRecord(
                        recordId: uuid.uuidString, userId: userId, triggerSubscriptionId: subscription,
                        connectionId: connectionId, eventType: eventType, occurredAt: occurredAt,
                        regionType: regionType,
                        channelId: channelId, installationId: installationId))
            } else if subscription != nil, connectionId == nil, !refuseUnknownSubscriptions {
                ignored += 1
            }
        }
        guard details.isEmpty else {
            throw APIError.unprocessable("Some location events are invalid; none was recorded.", details: details)
        }
        return (records, ignored)
    }

    /// Parses `occurred_at`, exactly the strings the OpenAPI document's pattern for it admits: a real calendar day of
    /// the years 0001...9999, `T`, then either `HH:mm:ss` with optional fractional seconds (1 to 9 digits) and `Z`,
    /// `±hhmm` or `±hh:mm` (the iOS SDK's `yyyy-MM-dd'T'HH:mm:ssZ`, Android's `yyyy-MM-dd'T'HH:mm:ssXXX`), or `HH:mm`
    /// and a literal `Z` (Android's format before December 2020). `nil` for anything else.
    static func parseTimestamp(_ text: String) -> Date? {
        LocationTimestamp.parse(text)
    }
}

/// The grammar of `occurred_at` (``LocationEventRoutes/parseTimestamp(_:)``), read without a `DateFormatter` (whose
/// leniency differs between platforms and ICU versions) so that the server and the pattern of `LocationEvent`'s
/// `occurred_at` in `openapi.json` accept the same strings; `OpenAPIDocumentTests` holds them to it.
enum LocationTimestamp {
    /// The instant `text` names, or `nil` when it is not in the grammar.
    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for i in at..<(at + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        func byte(_ at: Int, _ c: Character) -> Bool { at < b.count && b[at] == c.asciiValue! }
        guard let year = digits(0, 4), byte(4, "-"), let month = digits(5, 2), byte(7, "-"), let day = digits(8, 2),
            byte(10, "T"), let hour = digits(11, 2), byte(13, ":"), let minute = digits(14, 2)
        else { return nil }
        var i = 16
        var second = 0
        var fraction = 0.0
        var offset = 0
        if byte(i, "Z"), i + 1 == b.count {
            i += 1
        } else {
            guard byte(i, ":"), let seconds = digits(i + 1, 2) else { return nil }
            second = seconds
            i += 3
            if byte(i, ".") {
                var count = 0
                var scale = 1.0
                i += 1
                while let digit = digits(i, 1), count < 9 {
                    scale /= 10
                    fraction += Double(digit) * scale
                    count += 1
                    i += 1
                }
                guard count >= 1 else { return nil }
            }
            if byte(i, "Z") {
                i += 1
            } else if byte(i, "+") || byte(i, "-") {
                let sign = byte(i, "-") ? -1 : 1
                guard let hh = digits(i + 1, 2) else { return nil }
                var mmAt = i + 3
                if byte(mmAt, ":") { mmAt += 1 }
                guard let mm = digits(mmAt, 2), hh <= 23, mm <= 59 else { return nil }
                offset = sign * (hh * 3600 + mm * 60)
                i = mmAt + 2
            } else {
                return nil
            }
        }
        guard i == b.count, year >= 1, (1...12).contains(month), hour <= 23, minute <= 59, second <= 59 else {
            return nil
        }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= monthDays[month - 1] else { return nil }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Date(
            timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction)
    }
}
