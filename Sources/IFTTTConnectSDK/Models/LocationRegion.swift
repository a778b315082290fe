import Foundation

/// A geofence that a Connection asks for: one location trigger the user has enabled.
///
/// Its ``identifier`` is `ifttt_<user feature trigger id>`; the part after the literal `ifttt_` prefix is the
/// trigger subscription id that location events report, even when it contains underscores.
public struct LocationRegion: Sendable, Hashable, Identifiable {
    /// The prefix of every region identifier the SDK owns.
    public static let identifierPrefix = "ifttt_"

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
    public init(triggerSubscriptionId: String, connectionId: String, latitude: Double, longitude: Double,
                radius: Double, transitions: LocationTransitions) {
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

    /// The default radius in metres when a location value has none.
    public static let defaultRadius: Double = 100
}

extension Connection {
    /// The geofences of this Connection: one per location trigger of each enabled user feature.
    ///
    /// The transitions come from the field type (`LOCATION_ENTER`, `LOCATION_EXIT`,
    /// `LOCATION_ENTER_AND_EXIT` / `LOCATION_ENTER_OR_EXIT`), read from the user's field or else from the
    /// feature's definition of that trigger; a field named `location` whose type is unknown reports both.
    public var locationRegions: [LocationRegion] {
        guard let userConnection else { return [] }
        var definitions: [String: Connection.Step] = [:]
        for feature in features {
            for trigger in feature.triggers { definitions[trigger.id] = trigger }
        }
        var regions: [LocationRegion] = []
        for userFeature in userConnection.userFeatures where userFeature.isEnabled {
            for trigger in userFeature.triggers {
                for field in trigger.userFields {
                    guard let location = field.value.location else { continue }
                    let definedType = definitions[trigger.stepId]?.fields.first(where: { $0.id == field.fieldId })?.type
                    let transitions: LocationTransitions
                    if let type = field.fieldType ?? definedType {
                        guard let fromType = type.locationTransitions else { continue }
                        transitions = fromType
                    } else if field.fieldId == "location" {
                        transitions = [.enter, .exit]
                    } else {
                        continue
                    }
                    regions.append(LocationRegion(
                        triggerSubscriptionId: trigger.id, connectionId: id,
                        latitude: location.latitude, longitude: location.longitude,
                        radius: location.radius ?? LocationRegion.defaultRadius, transitions: transitions))
                    break
                }
            }
        }
        return regions
    }
}
