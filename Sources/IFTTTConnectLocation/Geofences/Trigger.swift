#if canImport(CoreLocation)
import CoreLocation
import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A native trigger of a Connection's feature, as ConnectSDK-iOS 2.8 named it: a geofence, the only kind there is.
///
/// ```swift
/// for case .location(let region) in connection.features.flatMap(\.locationTriggers) {
///     print(region.identifier, region.center, region.radius)   // ifttt_<feature trigger id>
/// }
/// ```
///
/// Two triggers are equal when their identifiers are, as in 2.8. Compiled only where CoreLocation exists.
public enum Trigger: Hashable {
    /// A location trigger: entering and/or leaving `region` (its `notifyOnEntry` and `notifyOnExit`).
    case location(region: CLCircularRegion)

    /// The trigger's identifier: the region's, `ifttt_<feature trigger id>`.
    public var identifier: String {
        switch self {
        case .location(let region): return region.identifier
        }
    }

    /// Creates the location trigger of a region the SDK derived (``Connection/locationRegions`` or a feature's
    /// triggers); the radius is the one the user configured, not yet limited to what the device can monitor.
    ///
    /// - Parameter region: The region.
    @_spi(Sandbox) public init(_ region: LocationRegion) {
        let circle = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: region.latitude, longitude: region.longitude),
            radius: region.radius, identifier: region.identifier)
        circle.notifyOnEntry = region.transitions.contains(.enter)
        circle.notifyOnExit = region.transitions.contains(.exit)
        self = .location(region: circle)
    }

    /// Hashes the identifier.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    /// Whether two triggers have the same identifier.
    public static func == (lhs: Trigger, rhs: Trigger) -> Bool {
        lhs.identifier == rhs.identifier
    }
}

extension Connection.Feature {
    /// The feature's location triggers, from the default values of its `location` fields: what 2.8 called
    /// `Feature.triggers` (here `triggers` is the feature's trigger steps, `[Connection.Step]`, and a property
    /// cannot have two types); see ``Trigger``.
    public var locationTriggers: Set<Trigger> {
        Set(defaultLocationRegions.map(Trigger.init))
    }
}
#endif
