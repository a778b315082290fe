import Foundation

/// The kind of a region event, as ConnectSDK-iOS 2.8 names it: ``RegionTransition/entry`` or ``RegionTransition/exit``.
public typealias RegionEventKind = RegionTransition

/// One recorded geofence crossing, as it is stored and uploaded (`POST /v1/location_events`).
///
/// Two events are equal when their recorded fields are equal; `rejection` is not part of equality, hashing or
/// the stored form.
public struct RegionEvent: Sendable, Hashable, Codable, Identifiable {
    /// A random id, sent as `record_id`: the server's idempotency key, so a batch may safely be re-sent.
    public let recordId: UUID
    /// Entry or exit, sent as `event_type`.
    @_spi(Sandbox) public let transition: RegionTransition
    /// When the crossing happened, sent as `occurred_at`.
    public let occurredAt: Date
    /// The user feature trigger id (no `ifttt_` prefix), sent as `trigger_subscription_id`.
    public let triggerSubscriptionId: String
    /// Why the server refused this event, on the event of an
    /// ``LocationEvent/uploadFailed(region:error:delay:)`` report for an event moved to the dead-letter area
    /// (see ``LocationEventStore/deadLetters()``); `nil` otherwise.
    @_spi(Sandbox) public internal(set) var rejection: EventRejection?

    /// The record id.
    public var id: UUID { recordId }

    /// Entry or exit (ConnectSDK-iOS 2.8's name).
    public var kind: RegionEventKind { transition }

    /// Creates an event; `recordId` defaults to a new random UUID.
    @_spi(Sandbox) public init(
        recordId: UUID = UUID(), transition: RegionTransition, occurredAt: Date, triggerSubscriptionId: String
    ) {
        self.recordId = recordId
        self.transition = transition
        self.occurredAt = occurredAt
        self.triggerSubscriptionId = triggerSubscriptionId
    }

    private enum CodingKeys: String, CodingKey { case recordId, transition, occurredAt, triggerSubscriptionId }

    /// Equal recorded fields (`rejection` is ignored).
    public static func == (lhs: RegionEvent, rhs: RegionEvent) -> Bool {
        lhs.recordId == rhs.recordId && lhs.transition == rhs.transition && lhs.occurredAt == rhs.occurredAt
            && lhs.triggerSubscriptionId == rhs.triggerSubscriptionId
    }

    /// Hashes the recorded fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordId)
        hasher.combine(transition)
        hasher.combine(occurredAt)
        hasher.combine(triggerSubscriptionId)
    }
}

/// Why the location API refused an event for good (a 4xx that names or implies bad events, such as 422).
///
/// A refused event never blocks the others: it is isolated, moved to the store's dead-letter area with this
/// reason, and never sent again.
@_spi(Sandbox) public struct EventRejection: Sendable, Hashable, Codable {
    /// The HTTP status of the answer that refused it (for example 422).
    public var statusCode: Int
    /// The server's reason: the error envelope's detail for this event, else its message, else the status.
    public var reason: String
    /// When the SDK moved the event to the dead-letter area.
    public var rejectedAt: Date

    /// Creates a rejection.
    public init(statusCode: Int, reason: String, rejectedAt: Date) {
        self.statusCode = statusCode
        self.reason = reason
        self.rejectedAt = rejectedAt
    }
}

/// An event the server refused, kept with its reason in the store's dead-letter area.
@_spi(Sandbox) public struct DeadLetter: Sendable, Hashable {
    /// The event as it was recorded.
    public var event: RegionEvent
    /// Why it was refused.
    public var rejection: EventRejection

    /// Creates a dead letter.
    public init(event: RegionEvent, rejection: EventRejection) {
        self.event = event
        self.rejection = rejection
    }
}
