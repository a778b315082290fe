import Foundation

/// A portable ``RegionMonitor`` that replays a route with the platform's rules, for tests, demos and the CLI.
///
/// Like CoreLocation it refuses more than ``Configuration/maximumRegionCount`` regions per app (the failure
/// is reported as an event), clamps radii, and reports an entry or exit only when a fix crosses a boundary:
/// a region added while the device is inside reports nothing until it is asked with ``requestState(for:)``.
/// It also reports a fix as a significant location change when the device moved far enough.
///
/// Events are delivered one at a time, in order, synchronously on ``LocationEngineActor``; calls the handler makes back
/// into the monitor queue their answers behind the current event, so a replay is deterministic.
///
/// ```swift
/// let monitor = SimulatedRegionMonitor()
/// let session = LocationMonitoringSession(monitor: monitor, store: store)
/// await session.start()
/// await session.update(geofences: fences)
/// try await monitor.replay(Route(gpx: data))
/// ```
@_spi(Sandbox) @LocationEngineActor public final class SimulatedRegionMonitor: RegionMonitor {
    /// The platform rules to simulate.
    public struct Configuration: Sendable, Hashable {
        /// The most regions one app can monitor.
        public var maximumRegionCount: Int
        /// The largest radius monitored, in metres.
        public var maximumRadius: Double
        /// The distance in metres after which a fix is reported as a significant location change; `nil`
        /// turns significant-change reports off. The first fix is always reported.
        public var significantChangeDistance: Double?

        /// Creates a configuration with Apple's defaults: 20 regions and significant changes after 500 m.
        public init(
            maximumRegionCount: Int = 20, maximumRadius: Double = RadiusLimits.defaultMaximum,
            significantChangeDistance: Double? = 500
        ) {
            self.maximumRegionCount = maximumRegionCount
            self.maximumRadius = maximumRadius
            self.significantChangeDistance = significantChangeDistance
        }
    }

    /// One call the monitor received, for tests to inspect.
    public enum Operation: Sendable, Hashable {
        /// ``startMonitoring(_:)``.
        case start(String)
        /// ``stopMonitoring(identifier:)``.
        case stop(String)
        /// ``requestState(for:)``.
        case requestState(String)
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    private var regions: [String: MonitoredRegion] = [:]
    private var inside: [String: Bool] = [:]
    private var handler: (@LocationEngineActor @Sendable (RegionMonitorEvent) -> Void)?
    private var queue: [RegionMonitorEvent] = []
    private var draining = false
    private var lastReportedFix: LocationFix?
    /// A ``requestLocation()`` made before the first fix, answered by it.
    private var locationRequested = false
    /// The current fix, if the route has started.
    public private(set) var currentFix: LocationFix?
    /// Every operation received, in order.
    public private(set) var operations: [Operation] = []
    /// The largest number of regions monitored at any time.
    public private(set) var peakRegionCount = 0

    /// Creates a monitor.
    public nonisolated init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The configured region limit.
    public nonisolated var maximumRegionCount: Int { configuration.maximumRegionCount }
    /// The configured radius limit.
    public nonisolated var maximumRadius: Double { configuration.maximumRadius }

    /// Every monitored region, sorted by identifier.
    public func monitoredRegions() -> [MonitoredRegion] {
        regions.values.sorted { $0.identifier < $1.identifier }
    }

    /// Starts monitoring; beyond the limit the region is refused and a failure event is queued.
    public func startMonitoring(_ region: MonitoredRegion) {
        operations.append(.start(region.identifier))
        guard regions[region.identifier] != nil || regions.count < configuration.maximumRegionCount else {
            queue.append(
                .monitoringFailed(
                    identifier: region.identifier, at: currentFix?.timestamp ?? Date(timeIntervalSince1970: 0)))
            drain()
            return
        }
        var clamped = region
        clamped.radius = min(region.radius, configuration.maximumRadius)
        regions[region.identifier] = clamped
        inside[region.identifier] = currentFix.map { clamped.contains($0.coordinate) }
        peakRegionCount = max(peakRegionCount, regions.count)
    }

    /// Stops monitoring.
    public func stopMonitoring(identifier: String) {
        operations.append(.stop(identifier))
        regions[identifier] = nil
        inside[identifier] = nil
    }

    /// Queues the region's state, when the region is monitored and a fix is known.
    public func requestState(for identifier: String) {
        operations.append(.requestState(identifier))
        guard let region = regions[identifier], let fix = currentFix else { return }
        queue.append(
            .stateDetermined(identifier: identifier, inside: region.contains(fix.coordinate), at: fix.timestamp))
        drain()
    }

    /// Queues the current fix; before the route has started, the first fix answers (as CoreLocation answers
    /// `requestLocation()` once it has a fix).
    public func requestLocation() {
        guard let fix = currentFix else {
            locationRequested = true
            return
        }
        queue.append(.location(fix))
        drain()
    }

    /// Sets the event handler.
    public func setEventHandler(_ handler: @escaping @LocationEngineActor @Sendable (RegionMonitorEvent) -> Void) {
        self.handler = handler
    }

    /// Adds a region on behalf of the host app (it counts against the limit like any other).
    public func addHostRegion(_ region: MonitoredRegion) {
        startMonitoring(region)
    }

    /// Moves the device to `fix` and delivers the crossings it causes (in identifier order), then the fix
    /// itself if it is a significant location change or answers a ``requestLocation()`` made before the first fix.
    /// Unusable fixes are ignored.
    public func move(to fix: LocationFix) {
        guard fix.isUsable else { return }
        currentFix = fix
        for id in regions.keys.sorted() {
            let region = regions[id]!
            let now = region.contains(fix.coordinate)
            defer { inside[id] = now }
            guard let before = inside[id], before != now else { continue }
            if now, region.notifyOnEntry { queue.append(.regionCrossed(identifier: id, .entry, at: fix.timestamp)) }
            if !now, region.notifyOnExit { queue.append(.regionCrossed(identifier: id, .exit, at: fix.timestamp)) }
        }
        var reported = false
        if let distance = configuration.significantChangeDistance {
            if lastReportedFix.map({ $0.coordinate.distance(to: fix.coordinate) >= distance }) ?? true {
                lastReportedFix = fix
                queue.append(.location(fix))
                reported = true
            }
        }
        if locationRequested {
            locationRequested = false
            if !reported { queue.append(.location(fix)) }
        }
        drain()
    }

    /// Moves through every fix of `route` in order.
    public func replay(_ route: Route) {
        for fix in route.fixes { move(to: fix) }
    }

    private func drain() {
        guard !draining else { return }
        draining = true
        while !queue.isEmpty {
            let event = queue.removeFirst()
            handler?(event)
        }
        draining = false
    }
}
