import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

let epoch = Date(timeIntervalSince1970: 1_700_000_000)

/// Geofences scattered in a box of about 40 × 40 km around San Francisco.
func randomGeofences(_ count: Int, seed: UInt64, transitions: LocationTransitions = [.enter, .exit]) -> [Geofence] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { i in
        Geofence(
            triggerSubscriptionId: String(format: "g_%05d", i),
            center: Coordinate(
                latitude: 37.6 + Double.random(in: 0..<0.36, using: &rng),
                longitude: -122.6 + Double.random(in: 0..<0.45, using: &rng)),
            radius: Double.random(in: 100..<1500, using: &rng), transitions: transitions)
    }
}

/// The nearest `k` by edge distance, by brute force, ties to the smaller identifier.
func bruteForceNearest(_ fences: [Geofence], to point: Coordinate, k: Int) -> [String] {
    let pairs: [(id: String, d: Double)] = fences.map { fence in
        (id: fence.identifier, d: max(0, fence.center.distance(to: point) - fence.radius))
    }
    let sorted = pairs.sorted { a, b in a.d != b.d ? a.d < b.d : a.id < b.id }
    return sorted.prefix(k).map { $0.id }
}

/// Drives a ``RegionSelector`` against a model of the platform and checks the platform's rules on every effect.
struct SelectorHarness {
    var selector: RegionSelector
    var platform: [String: MonitoredRegion] = [:]
    let hostIds: Set<String>
    var position: LocationFix?
    var recorded: [RegionSelector.Crossing] = []
    var starts = 0
    var peak = 0
    let limit: Int

    init(limit: Int = 20, hostRegions: Int = 0, namedHostRegions: [MonitoredRegion] = []) {
        self.limit = limit
        selector = RegionSelector(configuration: .init(regionLimit: limit))
        var hosts = Set<String>()
        for i in 0..<hostRegions {
            let id = "host_region_\(i)"
            hosts.insert(id)
            platform[id] = MonitoredRegion(
                identifier: id, center: Coordinate(latitude: 10, longitude: Double(i)), radius: 200)
        }
        for region in namedHostRegions {
            hosts.insert(region.identifier)
            platform[region.identifier] = region
        }
        hostIds = hosts
        _ = send(.monitoredRegionsObserved(Array(platform.values)))
    }

    var ownedMonitored: Set<String> { Set(platform.keys).subtracting(hostIds) }
    var monitoredGeofences: Set<String> { ownedMonitored.subtracting([RegionSelector.refreshRegionIdentifier]) }

    @discardableResult
    mutating func send(_ event: RegionSelector.Event, sourceLocation: SourceLocation = #_sourceLocation)
        -> [RegionSelector.Effect]
    {
        var queue = [event]
        var all: [RegionSelector.Effect] = []
        while !queue.isEmpty {
            let effects = selector.handle(queue.removeFirst(), now: position?.timestamp ?? epoch)
            all += effects
            for effect in effects {
                switch effect {
                case .startMonitoring(let region):
                    #expect(
                        !hostIds.contains(region.identifier), "started a host region", sourceLocation: sourceLocation)
                    #expect(
                        platform[region.identifier] != region, "re-added an unchanged region \(region.identifier)",
                        sourceLocation: sourceLocation)
                    platform[region.identifier] = region
                    starts += 1
                    #expect(platform.count <= limit, "over the platform limit", sourceLocation: sourceLocation)
                    peak = max(peak, platform.count)
                case .stopMonitoring(let id):
                    #expect(!hostIds.contains(id), "stopped a host region", sourceLocation: sourceLocation)
                    #expect(
                        platform.removeValue(forKey: id) != nil, "stopped a region that was not monitored",
                        sourceLocation: sourceLocation)
                case .requestState(let id):
                    if let fix = position, let region = platform[id] {
                        queue.append(.stateDetermined(identifier: id, inside: region.contains(fix.coordinate)))
                    }
                case .requestLocation:
                    break  // the tests send fixes explicitly
                case .record(let crossing):
                    recorded.append(crossing)
                }
            }
        }
        return all
    }

    mutating func move(to coordinate: Coordinate, at seconds: TimeInterval = 0) {
        let fix = LocationFix(
            coordinate: coordinate, horizontalAccuracy: 5, timestamp: epoch.addingTimeInterval(seconds))
        let before = position
        position = fix
        // The platform reports crossings of monitored regions first, then the fix arrives.
        for id in platform.keys.sorted() where !hostIds.contains(id) {
            let region = platform[id]!
            let inNow = region.contains(coordinate)
            guard let before, region.contains(before.coordinate) != inNow else { continue }
            if inNow && region.notifyOnEntry { send(.regionCrossed(identifier: id, .entry)) }
            if !inNow && region.notifyOnExit { send(.regionCrossed(identifier: id, .exit)) }
        }
        send(.location(fix))
    }
}
