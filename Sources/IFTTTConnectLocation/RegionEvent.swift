import Foundation

/// One recorded geofence crossing, as it is stored and uploaded (`POST /v1/location_events`).
public struct RegionEvent: Sendable, Hashable, Codable, Identifiable {
    /// A random id, sent as `record_id`: the server's idempotency key, so a batch may safely be re-sent.
    public let recordId: UUID
    /// Entry or exit, sent as `event_type`.
    public let transition: RegionTransition
    /// When the crossing happened, sent as `occurred_at`.
    public let occurredAt: Date
    /// The user feature trigger id (no `ifttt_` prefix), sent as `trigger_subscription_id`.
    public let triggerSubscriptionId: String

    /// The record id.
    public var id: UUID { recordId }

    /// Creates an event; `recordId` defaults to a new random UUID.
    public init(recordId: UUID = UUID(), transition: RegionTransition, occurredAt: Date, triggerSubscriptionId: String) {
        self.recordId = recordId
        self.transition = transition
        self.occurredAt = occurredAt
        self.triggerSubscriptionId = triggerSubscriptionId
    }
}
