import Foundation

/// Geofences prepared for nearest-first queries: the ones whose edge is closest to a point.
///
/// Building the index converts every centre to a unit vector once. A query keeps the best `k` candidates
/// seen so far and rejects most others with one dot product: a geofence can only beat the current `k`-th best
/// edge distance `w` if its centre is closer than `w` plus the largest radius, an angle that maps to a minimum
/// dot product. Only the survivors pay for an exact distance.
@_spi(Sandbox) public struct GeofenceIndex: Sendable {
    /// The geofences, sorted by identifier (the tie-breaker of every query).
    public let geofences: [Geofence]
    private let xs: [Double]
    private let ys: [Double]
    private let zs: [Double]
    private let radii: [Double]
    private let maximumRadius: Double

    /// One result of a query.
    public struct Neighbor: Sendable, Hashable {
        /// The geofence.
        public let geofence: Geofence
        /// The distance from the query point to the geofence's edge in metres (zero inside).
        public let edgeDistance: Double
    }

    /// Builds an index; geofences with the same identifier keep the first.
    public init(_ geofences: [Geofence]) {
        var seen = Set<String>()
        let unique = geofences.filter { seen.insert($0.identifier).inserted }.sorted { $0.identifier < $1.identifier }
        self.geofences = unique
        var xs: [Double] = []
        var ys: [Double] = []
        var zs: [Double] = []
        var radii: [Double] = []
        xs.reserveCapacity(unique.count)
        ys.reserveCapacity(unique.count)
        zs.reserveCapacity(unique.count)
        radii.reserveCapacity(unique.count)
        for fence in unique {
            let v = UnitVector(fence.center)
            xs.append(v.x)
            ys.append(v.y)
            zs.append(v.z)
            radii.append(fence.radius)
        }
        self.xs = xs
        self.ys = ys
        self.zs = zs
        self.radii = radii
        self.maximumRadius = radii.max() ?? 0
    }

    /// The number of geofences.
    public var count: Int { geofences.count }

    /// The `k` geofences whose edges are nearest to `point`, nearest first; ties go to the smaller identifier.
    public func nearest(_ k: Int, to point: Coordinate) -> [Neighbor] {
        guard k > 0, !geofences.isEmpty else { return [] }
        let p = UnitVector(point)
        // Best candidates so far, sorted by (edge distance, index); the index order equals identifier order.
        var best: [(distance: Double, index: Int)] = []
        best.reserveCapacity(k + 1)
        var minimumDot = -2.0  // no rejection until `best` is full
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                zs.withUnsafeBufferPointer { zs in
                    radii.withUnsafeBufferPointer { radii in
                        for i in 0..<xs.count {
                            let dot = p.x * xs[i] + p.y * ys[i] + p.z * zs[i]
                            if dot < minimumDot { continue }
                            let dx = p.x - xs[i]
                            let dy = p.y - ys[i]
                            let dz = p.z - zs[i]
                            let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
                            let distance = max(0, 2 * GeoMath.earthRadius * asin(min(1, chord / 2)) - radii[i])
                            if best.count == k {
                                let worst = best[k - 1]
                                if distance > worst.distance || (distance == worst.distance && i > worst.index) {
                                    continue
                                }
                                best.removeLast()
                            }
                            var position = best.count
                            while position > 0, best[position - 1].distance > distance { position -= 1 }
                            best.insert((distance, i), at: position)
                            if best.count == k {
                                let angle = (best[k - 1].distance + maximumRadius) / GeoMath.earthRadius
                                // A small margin keeps rounding from rejecting a candidate at exactly the bound.
                                minimumDot = angle >= .pi ? -2 : cos(angle) - 1e-12
                            }
                        }
                    }
                }
            }
        }
        return best.map { Neighbor(geofence: geofences[$0.index], edgeDistance: $0.distance) }
    }
}
