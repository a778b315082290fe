import Foundation

/// What a ``RegionMonitor`` reports.
@_spi(Sandbox) public enum RegionMonitorEvent: Sendable, Hashable {
    /// The device crossed the boundary of a monitored region.
    case regionCrossed(identifier: String, RegionTransition, at: Date)
    /// The answer to ``RegionMonitor/requestState(for:)``.
    case stateDetermined(identifier: String, inside: Bool, at: Date)
    /// A position: the answer to ``RegionMonitor/requestLocation()``, a significant location change or a visit.
    case location(LocationFix)
    /// The platform could not monitor a region.
    case monitoringFailed(identifier: String, at: Date)
}

/// The region-monitoring port: the platform's geofencing, as the SDK needs it.
///
/// Adapters: ``SimulatedRegionMonitor`` (portable, replays routes) and, on Apple platforms,
/// `CoreLocationRegionMonitor`. Region monitoring is app-wide: ``monitoredRegions()`` includes the host app's
/// regions, and events for them may arrive; the SDK leaves them alone.
///
/// Commands (``startMonitoring(_:)``, ``stopMonitoring(identifier:)``, ``requestState(for:)``,
/// ``requestLocation()``) are called on ``LocationEngineActor`` and return at once: the platform answers with events.
/// Events must be delivered one at a time, in order, to the handler set with ``setEventHandler(_:)``, on
/// ``LocationEngineActor``.
@_spi(Sandbox) public protocol RegionMonitor: Sendable {
    /// The most regions one app can monitor (20 on Apple platforms).
    var maximumRegionCount: Int { get async }
    /// The largest radius the platform monitors, in metres.
    var maximumRadius: Double { get async }
    /// Every region the app monitors, the host app's included.
    func monitoredRegions() async -> [MonitoredRegion]
    /// Starts monitoring `region`, replacing a region with the same identifier. Failures arrive as
    /// ``RegionMonitorEvent/monitoringFailed(identifier:at:)``.
    @LocationEngineActor func startMonitoring(_ region: MonitoredRegion)
    /// Stops monitoring the region with `identifier`.
    @LocationEngineActor func stopMonitoring(identifier: String)
    /// Asks whether the device is inside the region; the answer arrives as ``RegionMonitorEvent/stateDetermined(identifier:inside:at:)``.
    @LocationEngineActor func requestState(for identifier: String)
    /// Asks for one position fix; it arrives as ``RegionMonitorEvent/location(_:)``.
    @LocationEngineActor func requestLocation()
    /// Sets the handler that receives events, replacing any earlier one.
    @LocationEngineActor func setEventHandler(
        _ handler: @escaping @LocationEngineActor @Sendable (RegionMonitorEvent) -> Void)
}
