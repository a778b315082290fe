import Foundation

/// A point on the Earth in degrees (WGS 84).
@_spi(Sandbox) public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Latitude in degrees, -90...90.
    public var latitude: Double
    /// Longitude in degrees, -180...180.
    public var longitude: Double

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and in range.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// The great-circle distance to `other` in metres.
    public func distance(to other: Coordinate) -> Double {
        GeoMath.distance(UnitVector(self), UnitVector(other))
    }

    /// `(latitude, longitude)` with six decimals.
    public var description: String {
        String(format: "(%.6f, %.6f)", latitude, longitude)
    }

    /// The initial great-circle bearing to `other`, in radians clockwise from north.
    func bearing(to other: Coordinate) -> Double {
        let lat1 = latitude * .pi / 180
        let lat2 = other.latitude * .pi / 180
        let dLon = (other.longitude - longitude) * .pi / 180
        return atan2(sin(dLon) * cos(lat2), cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon))
    }

    /// The point `distance` metres away along the great circle that leaves here at `bearing` (radians clockwise
    /// from north).
    func moved(_ distance: Double, bearing: Double) -> Coordinate {
        let angle = distance / GeoMath.earthRadius
        let lat1 = latitude * .pi / 180
        let lon1 = longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(angle) + cos(lat1) * sin(angle) * cos(bearing))
        let lon2 = lon1 + atan2(sin(bearing) * sin(angle) * cos(lat1), cos(angle) - sin(lat1) * sin(lat2))
        var longitude = lon2 * 180 / .pi
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: lat2 * 180 / .pi, longitude: longitude)
    }
}

/// A position report: where the device was, how precisely, and when.
@_spi(Sandbox) public struct LocationFix: Sendable, Hashable, Codable {
    /// The position.
    public var coordinate: Coordinate
    /// The radius of uncertainty in metres; negative means the fix is invalid (as CoreLocation reports it).
    public var horizontalAccuracy: Double
    /// When the position was measured.
    public var timestamp: Date

    /// Creates a fix.
    public init(coordinate: Coordinate, horizontalAccuracy: Double = 10, timestamp: Date) {
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
    }

    /// Creates a fix from degrees.
    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double = 10, timestamp: Date) {
        self.init(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            horizontalAccuracy: horizontalAccuracy, timestamp: timestamp)
    }

    /// Whether the fix can be used: a valid coordinate, not the (0, 0) placeholder some providers report, and
    /// a finite, non-negative accuracy.
    public var isUsable: Bool {
        coordinate.isValid && !(coordinate.latitude == 0 && coordinate.longitude == 0)
            && horizontalAccuracy.isFinite && horizontalAccuracy >= 0
    }
}

/// A point as a unit vector on the sphere: distances then need one square root and one arcsine.
struct UnitVector: Sendable, Hashable {
    var x: Double
    var y: Double
    var z: Double

    init(_ coordinate: Coordinate) {
        let lat = coordinate.latitude * .pi / 180
        let lon = coordinate.longitude * .pi / 180
        let c = cos(lat)
        x = c * cos(lon)
        y = c * sin(lon)
        z = sin(lat)
    }
}

/// Spherical geometry shared by selection, simulation and tests, so that they all agree to the last bit.
enum GeoMath {
    /// The mean Earth radius in metres (IUGG).
    static let earthRadius = 6_371_008.8

    /// Great-circle distance between two unit vectors, in metres (chord formula: exact at short range).
    @inline(__always)
    static func distance(_ a: UnitVector, _ b: UnitVector) -> Double {
        let dx = a.x - b.x
        let dy = a.y - b.y
        let dz = a.z - b.z
        let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
        return 2 * earthRadius * asin(min(1, chord / 2))
    }

    /// The distance from `point` to the edge of a circle: zero inside, otherwise the distance minus the radius.
    @inline(__always)
    static func edgeDistance(from point: UnitVector, center: UnitVector, radius: Double) -> Double {
        max(0, distance(point, center) - radius)
    }
}
