import Foundation

/// What the SDK knows about one geofence across launches: where the device is, and the crossings it observed
/// that are not recorded yet. The event store saves a geofence's whole track in one journal record, so a
/// crossing is durable (with its dwell deadline) in the same step as the presence it changes.
struct GeofenceTrack: Sendable, Hashable, Codable {
    /// Inside or outside, as the platform last said; `nil` when unknown.
    var presence: RegionSelector.Presence?
    /// Crossings observed but not recorded yet, oldest first. Each one reverses the one before it, and the last
    /// one leads to ``presence``.
    var pending: [PendingCrossing] = []

    private enum CodingKeys: String, CodingKey {
        case presence = "p"
        case pending = "q"
    }

    init(presence: RegionSelector.Presence? = nil, pending: [PendingCrossing] = []) {
        self.presence = presence
        self.pending = pending
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        presence = try container.decodeIfPresent(RegionSelector.Presence.self, forKey: .presence)
        pending = try container.decodeIfPresent([PendingCrossing].self, forKey: .pending) ?? []
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(presence, forKey: .presence)
        if !pending.isEmpty { try container.encode(pending, forKey: .pending) }
    }
}

/// A crossing waiting for its dwell time (or for the store to take it).
struct PendingCrossing: Sendable, Hashable, Codable {
    /// Entry or exit.
    var transition: RegionTransition
    /// When the platform reported it.
    var occurredAt: Date
    /// When it is recorded if nothing reversed it: `occurredAt` plus the dwell time.
    var deadline: Date
    /// The event to record; `nil` for a transition the geofence's trigger does not ask for (it is tracked only
    /// so that its reversal within the dwell time records nothing either).
    var event: RegionEvent?

    private enum CodingKeys: String, CodingKey {
        case transition = "k"
        case occurredAt = "at"
        case deadline = "due"
        case event = "e"
    }

    /// Whether it is recorded at `now` (its dwell time has passed).
    func isDue(at now: Date) -> Bool { deadline <= now }
}
