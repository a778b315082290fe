import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// A region monitor that is created on the main actor, soon after this wrapper (or on its first use, whichever
/// comes first), so that a synchronizer can be created on any thread without waiting for the main thread.
///
/// `CoreLocationRegionMonitor` must be created on the main thread; when the shared synchronizer is first used
/// from another thread, it gets this wrapper instead of blocking that thread on `DispatchQueue.main.sync` (which
/// deadlocks when the main thread waits for that thread).
final class MainActorRegionMonitor: RegionMonitor {
    private let make: @MainActor @Sendable () -> any RegionMonitor
    private let monitor = Locked<(any RegionMonitor)?>(nil)

    /// Creates the wrapper and queues the monitor's creation on the main queue.
    ///
    /// - Parameter make: Creates the monitor; called once, on the main actor.
    init(_ make: @escaping @MainActor @Sendable () -> any RegionMonitor) {
        self.make = make
        DispatchQueue.main.async { [self] in MainActor.assumeIsolated { _ = self.created() } }
    }

    /// The monitor, created now if it was not yet.
    @MainActor private func created() -> any RegionMonitor {
        if let existing = monitor.withLock({ $0 }) { return existing }
        let created = make()
        monitor.withLock { $0 = created }
        return created
    }

    /// The monitor, waiting for the main actor to create it if it was not yet.
    private func resolved() async -> any RegionMonitor {
        if let existing = monitor.withLock({ $0 }) { return existing }
        return await MainActor.run { created() }
    }

    /// The monitor's limit.
    var maximumRegionCount: Int { get async { await resolved().maximumRegionCount } }

    /// The monitor's largest radius.
    var maximumRadius: Double { get async { await resolved().maximumRadius } }

    /// The monitor's regions.
    func monitoredRegions() async -> [MonitoredRegion] { await resolved().monitoredRegions() }

    /// Starts monitoring `region` on the monitor.
    @LocationEngineActor func startMonitoring(_ region: MonitoredRegion) { forward { $0.startMonitoring(region) } }

    /// Stops monitoring the region `identifier` on the monitor.
    @LocationEngineActor func stopMonitoring(identifier: String) {
        forward { $0.stopMonitoring(identifier: identifier) }
    }

    /// Asks the monitor for the state of the region `identifier`.
    @LocationEngineActor func requestState(for identifier: String) { forward { $0.requestState(for: identifier) } }

    /// Asks the monitor for one location fix.
    @LocationEngineActor func requestLocation() { forward { $0.requestLocation() } }

    /// Sets the monitor's event handler.
    @LocationEngineActor func setEventHandler(
        _ handler: @escaping @LocationEngineActor @Sendable (RegionMonitorEvent) -> Void
    ) {
        forward { $0.setEventHandler(handler) }
    }

    /// Runs `command` on the monitor: at once once it exists (the session reads the monitor's limits, which creates
    /// it, before its first command), otherwise once the main actor has created it.
    @LocationEngineActor private func forward(
        _ command: @escaping @LocationEngineActor @Sendable (any RegionMonitor) -> Void
    ) {
        if let existing = monitor.withLock({ $0 }) { return command(existing) }
        Task { @LocationEngineActor in command(await self.resolved()) }
    }
}
