// Test-only stub of Apple's CoreLocation: only what IFTTTConnectLocation's adapters, the example apps and the seed
// snippets use, with the signatures and optionality of Apple's documentation (page beside each declaration).
// Not Apple's SDK: it proves type-correctness only.
@_exported import Foundation

/// https://developer.apple.com/documentation/corelocation/cllocationdegrees
public typealias CLLocationDegrees = Double
/// https://developer.apple.com/documentation/corelocation/cllocationdistance
public typealias CLLocationDistance = Double
/// https://developer.apple.com/documentation/corelocation/cllocationaccuracy
public typealias CLLocationAccuracy = Double

/// https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d
public struct CLLocationCoordinate2D: Sendable {
    /// https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/latitude
    public var latitude: CLLocationDegrees
    /// https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/longitude
    public var longitude: CLLocationDegrees
    /// https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/init()
    public init() {
        latitude = 0
        longitude = 0
    }
    /// https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/init(latitude:longitude:)
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// https://developer.apple.com/documentation/corelocation/clregionstate
public enum CLRegionState: Int, Sendable {
    case unknown, inside, outside
}

/// https://developer.apple.com/documentation/corelocation/clauthorizationstatus
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined, restricted, denied, authorizedAlways, authorizedWhenInUse
}

/// https://developer.apple.com/documentation/corelocation/clregion
open class CLRegion: NSObject {
    /// https://developer.apple.com/documentation/corelocation/clregion/identifier
    open var identifier: String { storedIdentifier }
    /// https://developer.apple.com/documentation/corelocation/clregion/notifyonentry
    open var notifyOnEntry: Bool = true
    /// https://developer.apple.com/documentation/corelocation/clregion/notifyonexit
    open var notifyOnExit: Bool = true
    let storedIdentifier: String
    init(identifier: String) {
        storedIdentifier = identifier
        super.init()
    }
}

/// https://developer.apple.com/documentation/corelocation/clcircularregion
open class CLCircularRegion: CLRegion {
    /// https://developer.apple.com/documentation/corelocation/clcircularregion/init(center:radius:identifier:)
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }
    /// https://developer.apple.com/documentation/corelocation/clcircularregion/center
    public let center: CLLocationCoordinate2D
    /// https://developer.apple.com/documentation/corelocation/clcircularregion/radius
    public let radius: CLLocationDistance
    /// https://developer.apple.com/documentation/corelocation/clcircularregion/contains(_:)
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool { false }
}

/// https://developer.apple.com/documentation/corelocation/cllocation
open class CLLocation: NSObject {
    /// https://developer.apple.com/documentation/corelocation/cllocation/init(latitude:longitude:)
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        super.init()
    }
    /// https://developer.apple.com/documentation/corelocation/cllocation/coordinate
    public let coordinate: CLLocationCoordinate2D
    /// https://developer.apple.com/documentation/corelocation/cllocation/horizontalaccuracy
    open var horizontalAccuracy: CLLocationAccuracy { 0 }
    /// https://developer.apple.com/documentation/corelocation/cllocation/timestamp
    open var timestamp: Date { Date() }
}

/// https://developer.apple.com/documentation/corelocation/clvisit (iOS 8+)
open class CLVisit: NSObject {
    /// https://developer.apple.com/documentation/corelocation/clvisit/arrivaldate
    open var arrivalDate: Date { .distantPast }
    /// https://developer.apple.com/documentation/corelocation/clvisit/departuredate
    open var departureDate: Date { .distantFuture }
    /// https://developer.apple.com/documentation/corelocation/clvisit/coordinate
    open var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D() }
    /// https://developer.apple.com/documentation/corelocation/clvisit/horizontalaccuracy
    open var horizontalAccuracy: CLLocationAccuracy { 0 }
}

/// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate
/// Every method is optional in Objective-C; the stub gives each a default below.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didenterregion:)
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didexitregion:)
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:diddeterminestate:for:)
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didupdatelocations:)
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:monitoringdidfailfor:witherror:)
    func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didfailwitherror:)
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didvisit:)
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
    /// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanagerdidchangeauthorization(_:)
    /// (iOS 14+)
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
}

extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
    public func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion
    ) {}
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error
    ) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {}
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

/// https://developer.apple.com/documentation/corelocation/cllocationmanager
open class CLLocationManager: NSObject {
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/init()
    public override init() { super.init() }
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/delegate
    open weak var delegate: (any CLLocationManagerDelegate)?
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/authorizationstatus-swift.property (iOS 14+)
    open var authorizationStatus: CLAuthorizationStatus { .notDetermined }
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/monitoredregions
    open var monitoredRegions: Set<CLRegion> { [] }
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/maximumregionmonitoringdistance
    open var maximumRegionMonitoringDistance: CLLocationDistance { 0 }
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/allowsbackgroundlocationupdates (iOS 9+)
    open var allowsBackgroundLocationUpdates: Bool = false
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/significantlocationchangemonitoringavailable()
    open class func significantLocationChangeMonitoringAvailable() -> Bool { false }
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/ismonitoringavailable(for:)
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool { false }
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoringsignificantlocationchanges()
    open func startMonitoringSignificantLocationChanges() {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoringvisits() (iOS 8+)
    open func startMonitoringVisits() {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoring(for:)
    open func startMonitoring(for region: CLRegion) {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/stopmonitoring(for:)
    open func stopMonitoring(for region: CLRegion) {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/requeststate(for:)
    open func requestState(for region: CLRegion) {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/requestlocation()
    open func requestLocation() {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/requestalwaysauthorization()
    open func requestAlwaysAuthorization() {}
    /// https://developer.apple.com/documentation/corelocation/cllocationmanager/requestwheninuseauthorization()
    open func requestWhenInUseAuthorization() {}
}
