import Foundation

/// A geofence that a Connection asks for: one location trigger the user has enabled.
///
/// Its ``identifier`` is `ifttt_<user feature trigger id>`; the part after the literal `ifttt_` prefix is the
/// trigger subscription id that location events report, even when it contains underscores.
@_spi(Sandbox) public struct LocationRegion: Sendable, Hashable, Identifiable {
    /// The prefix of every region identifier the SDK gives its geofences.
    public static let identifierPrefix = "ifttt_"
    /// The `field_id` of the user field that holds a location trigger's place: `location`.
    public static let locationFieldId = "location"

    /// The region identifier, `ifttt_<trigger subscription id>`.
    public let identifier: String
    /// The user feature trigger id (the trigger subscription id).
    public let triggerSubscriptionId: String
    /// The Connection the region belongs to.
    public let connectionId: String
    /// Latitude of the centre in degrees.
    public let latitude: Double
    /// Longitude of the centre in degrees.
    public let longitude: Double
    /// Radius in metres as the user configured it (platform limits are applied when it is monitored).
    public let radius: Double
    /// Which transitions the trigger reports.
    public let transitions: LocationTransitions

    /// The region identifier.
    public var id: String { identifier }

    /// Creates a region for a trigger subscription.
    public init(
        triggerSubscriptionId: String, connectionId: String, latitude: Double, longitude: Double,
        radius: Double, transitions: LocationTransitions
    ) {
        self.identifier = LocationRegion.identifierPrefix + triggerSubscriptionId
        self.triggerSubscriptionId = triggerSubscriptionId
        self.connectionId = connectionId
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.transitions = transitions
    }

    /// The trigger subscription id inside a region identifier: the identifier without its literal leading
    /// `ifttt_`, or `nil` when the identifier is not one of the SDK's (for example a host app's own region).
    public static func triggerSubscriptionId(fromIdentifier identifier: String) -> String? {
        guard identifier.hasPrefix(identifierPrefix), identifier.count > identifierPrefix.count else { return nil }
        return String(identifier.dropFirst(identifierPrefix.count))
    }
}

extension Connection {
    /// The geofences of this Connection, derived as ConnectSDK-iOS 2.8 derives them, with the fixes the
    /// Location article lists:
    ///
    /// - only user features whose `enabled` is the JSON boolean `true` count (missing or `"true"`: none);
    /// - in each of their `user_feature_triggers`, the first field whose `field_id` is `location` and whose value
    ///   has a latitude, a longitude and a radius gives the region; other fields are ignored, whatever their type;
    ///   a location value without a radius gives no region;
    /// - a trigger with an empty `id` gives no region, and the first region of an identifier wins;
    /// - the transitions come from the field type (`LOCATION_ENTER`, `LOCATION_EXIT`,
    ///   `LOCATION_ENTER_AND_EXIT` / `LOCATION_ENTER_OR_EXIT`), read from the user's field or else from the
    ///   feature's definition of that trigger. A missing or unknown type reports both, as 2.8 reports every region.
    @_spi(Sandbox) public var locationRegions: [LocationRegion] {
        guard let userConnection else { return [] }
        var definitions: [String: Connection.Step] = [:]
        for feature in features {
            for trigger in feature.triggers where !trigger.id.isEmpty { definitions[trigger.id] = trigger }
        }
        var seen = Set<String>()
        var regions: [LocationRegion] = []
        for userFeature in userConnection.userFeatures where userFeature.isEnabled {
            for trigger in userFeature.triggers where !trigger.id.isEmpty {
                for field in trigger.userFields where field.fieldId == LocationRegion.locationFieldId {
                    guard let location = field.value.location, let radius = location.radius else { continue }
                    let definedType =
                        trigger.stepId.isEmpty
                        ? nil
                        : definitions[trigger.stepId]?.fields.first(where: { $0.id == field.fieldId })?.type
                    let transitions = (field.fieldType ?? definedType)?.locationTransitions ?? [.enter, .exit]
                    let region = LocationRegion(
                        triggerSubscriptionId: trigger.id, connectionId: id,
                        latitude: location.latitude, longitude: location.longitude,
                        radius: radius, transitions: transitions)
                    if seen.insert(region.identifier).inserted { regions.append(region) }
                    break
                }
            }
        }
        return regions
    }
}

extension Connection.Feature {
    /// The regions of this feature's own location triggers, as ConnectSDK-iOS 2.8 derived a feature's `triggers`:
    /// for each feature trigger with an `id`, its first field, when that field is the `location` field and its
    /// default value has a latitude, a longitude and a radius, gives the region `ifttt_<feature trigger id>`
    /// (the transitions from the field's type, both when it has none). The first region of an identifier wins.
    /// The regions carry no Connection id (a feature does not know its Connection).
    package var defaultLocationRegions: [LocationRegion] {
        var seen = Set<String>()
        var regions: [LocationRegion] = []
        for trigger in triggers where !trigger.id.isEmpty {
            guard let field = trigger.fields.first, field.id == LocationRegion.locationFieldId,
                let location = field.defaultValue?.location, let radius = location.radius
            else { continue }
            let region = LocationRegion(
                triggerSubscriptionId: trigger.id, connectionId: "", latitude: location.latitude,
                longitude: location.longitude, radius: radius,
                transitions: field.type?.locationTransitions ?? [.enter, .exit])
            if seen.insert(region.identifier).inserted { regions.append(region) }
        }
        return regions
    }
}
