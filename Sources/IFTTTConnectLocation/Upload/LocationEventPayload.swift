import Foundation

/// The body of `POST /v1/location_events`: a JSON array with one object per event and exactly the keys
/// `record_id`, `region_type`, `occurred_at`, `event_type`, `channel_id`, `trigger_subscription_id` and
/// `installation_id` (spec §4.6).
@_spi(Sandbox) public enum LocationEventPayload {
    private struct Item: Encodable {
        let record_id: String
        let region_type: String
        let occurred_at: String
        let event_type: String
        let channel_id: String
        let trigger_subscription_id: String
        let installation_id: String
    }

    /// The JSON body for `events` (keys sorted, so equal input gives equal bytes).
    public static func encode(_ events: [RegionEvent], installationId: String) -> Data {
        let items = events.map {
            Item(
                record_id: $0.recordId.uuidString, region_type: "geo", occurred_at: timestamp($0.occurredAt),
                event_type: $0.transition.rawValue, channel_id: LocationUploader.locationChannelId,
                trigger_subscription_id: $0.triggerSubscriptionId, installation_id: installationId)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(items)) ?? Data("[]".utf8)
    }

    /// `yyyy-MM-dd'T'HH:mm:ss+0000` in UTC, whole seconds, as the iOS SDK sends it.
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let seconds = (date.timeIntervalSince1970).rounded(.down)
        let c = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d+0000", c.year ?? 0, c.month ?? 0, c.day ?? 0,
            c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
