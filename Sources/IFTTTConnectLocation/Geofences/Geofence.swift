import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A region crossing: entering or leaving a region. The raw values are the wire names (`event_type`).
public enum RegionTransition: String, Sendable, Hashable, Codable, CaseIterable {
    /// The device entered the region.
    case entry
    /// The device left the region.
    case exit
}

/// A circular region as a ``RegionMonitor`` monitors it.
@_spi(Sandbox) public struct MonitoredRegion: Sendable, Hashable, Codable, Identifiable {
    /// The identifier, unique per app.
    public var identifier: String
    /// The centre.
    public var center: Coordinate
    /// The radius in metres.
    public var radius: Double
    /// Whether the monitor reports entries.
    public var notifyOnEntry: Bool
    /// Whether the monitor reports exits.
    public var notifyOnExit: Bool

    /// The identifier.
    public var id: String { identifier }

    /// Creates a region.
    public init(
        identifier: String, center: Coordinate, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true
    ) {
        self.identifier = identifier
        self.center = center
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    /// Whether `coordinate` lies inside the circle (on the edge counts as inside).
    public func contains(_ coordinate: Coordinate) -> Bool {
        center.distance(to: coordinate) <= radius
    }
}

/// The radii the platform can monitor reliably.
///
/// Radii above ``maximum`` are clamped to it. By default the SDK sets no maximum of its own: a
/// ``LocationMonitoringSession`` lowers it to its monitor's ``RegionMonitor/maximumRadius`` (CoreLocation's
/// `maximumRegionMonitoringDistance` on a device), as ConnectSDK-iOS 2.8 clamped to that value. Radii below
/// ``minimum`` are raised to it: the default, 100 m, is the smallest radius for which region monitoring on phones
/// reports crossings with useful reliability; smaller circles are often missed between Wi-Fi and cell fixes.
@_spi(Sandbox) public struct RadiusLimits: Sendable, Hashable, Codable {
    /// The smallest radius monitored, in metres.
    public var minimum: Double
    /// The largest radius monitored, in metres.
    public var maximum: Double

    /// Creates limits; `maximum` is raised to `minimum` if it is smaller. The default maximum is
    /// ``platformMaximum``: no cap but the platform's.
    public init(minimum: Double = RadiusLimits.defaultMinimum, maximum: Double = RadiusLimits.platformMaximum) {
        self.minimum = max(0, minimum)
        self.maximum = max(self.minimum, maximum)
    }

    /// 100 m.
    public static let defaultMinimum: Double = 100
    /// 200 km: the stand-in for the platform's maximum where the platform does not say (a ``SimulatedRegionMonitor``
    /// by default, or CoreLocation reporting none).
    public static let defaultMaximum: Double = 200_000
    /// No maximum of the SDK's own (the largest finite `Double`): the monitor's ``RegionMonitor/maximumRadius``
    /// applies.
    public static let platformMaximum: Double = .greatestFiniteMagnitude

    /// `radius` raised to ``minimum`` and clamped to ``maximum``; an infinite radius becomes ``maximum`` and NaN
    /// ``minimum``.
    public func clamp(_ radius: Double) -> Double {
        if radius.isNaN { return minimum }
        return min(maximum, max(minimum, radius))
    }
}

/// A geofence the SDK monitors for a location trigger: where, how large, and which transitions to record.
///
/// Build them from Connections with ``Geofence/geofences(for:radiusLimits:)``. The region identifier is
/// `ifttt_<user feature trigger id>`; ``triggerSubscriptionId`` is that id without the literal prefix, so ids
/// that contain `_` keep working.
@_spi(Sandbox) public struct Geofence: Sendable, Hashable, Identifiable {
    /// The region identifier, `ifttt_<trigger subscription id>`.
    public let identifier: String
    /// The user feature trigger id that location events report as `trigger_subscription_id`.
    public let triggerSubscriptionId: String
    /// The Connection the geofence belongs to.
    public let connectionId: String
    /// The centre.
    public let center: Coordinate
    /// The monitored radius in metres, after ``RadiusLimits`` were applied.
    public let radius: Double
    /// The transitions the trigger asks for; others are observed (to know where the user is) but not recorded.
    public let transitions: LocationTransitions

    /// The identifier.
    public var id: String { identifier }

    /// Creates a geofence from a Connection's location region, applying `radiusLimits`.
    public init(_ region: LocationRegion, radiusLimits: RadiusLimits = RadiusLimits()) {
        self.identifier = region.identifier
        self.triggerSubscriptionId = region.triggerSubscriptionId
        self.connectionId = region.connectionId
        self.center = Coordinate(latitude: region.latitude, longitude: region.longitude)
        self.radius = radiusLimits.clamp(region.radius)
        self.transitions = region.transitions
    }

    /// Creates a geofence directly (tests, simulations, manual registration). The radius is used as given.
    public init(
        triggerSubscriptionId: String, connectionId: String = "", center: Coordinate, radius: Double,
        transitions: LocationTransitions = [.enter, .exit]
    ) {
        self.identifier = LocationRegion.identifierPrefix + triggerSubscriptionId
        self.triggerSubscriptionId = triggerSubscriptionId
        self.connectionId = connectionId
        self.center = center
        self.radius = radius
        self.transitions = transitions
    }

    /// Whether the trigger asks for `transition`.
    public func records(_ transition: RegionTransition) -> Bool {
        switch transition {
        case .entry: return transitions.contains(.enter)
        case .exit: return transitions.contains(.exit)
        }
    }

    /// The region handed to the monitor. It always reports both transitions, whatever the trigger asks for:
    /// the SDK must see every crossing to know whether the user is inside, which is what suppresses duplicate
    /// events; transitions the trigger did not ask for are then dropped before they are recorded.
    public var monitoredRegion: MonitoredRegion {
        MonitoredRegion(identifier: identifier, center: center, radius: radius, notifyOnEntry: true, notifyOnExit: true)
    }

    /// The geofences of enabled user features' location triggers in the enabled Connections of `connections`,
    /// one per identifier (the first wins), skipping triggers with an invalid centre or no transitions.
    public static func geofences(for connections: [Connection], radiusLimits: RadiusLimits = RadiusLimits())
        -> [Geofence]
    {
        var seen = Set<String>()
        var result: [Geofence] = []
        for connection in connections where connection.status == .enabled {
            for region in connection.locationRegions where !region.transitions.isEmpty {
                let fence = Geofence(region, radiusLimits: radiusLimits)
                guard fence.center.isValid, !fence.triggerSubscriptionId.isEmpty, seen.insert(fence.identifier).inserted
                else { continue }
                result.append(fence)
            }
        }
        return result
    }
}
