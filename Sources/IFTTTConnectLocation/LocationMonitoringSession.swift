import Foundation
import IFTTTConnectSDK

/// Runs geofencing: feeds a ``RegionMonitor``'s events to a ``RegionSelector``, performs its effects, and
/// records crossings in a ``LocationEventStore``.
///
/// This is the shell the synchronization API sits on: `initialize` creates a session and calls ``start()``
/// (so crossings are captured from launch), `activate` and Connection updates call ``update(connections:)``,
/// `deactivate` calls ``stop()``.
///
/// ```swift
/// let session = LocationMonitoringSession(monitor: monitor, store: try LocationEventStore())
/// await session.start()
/// await session.update(connections: [connection])
/// ```
public actor LocationMonitoringSession {
    private let monitor: any RegionMonitor
    private let store: LocationEventStore?
    private let now: @Sendable () -> Date
    private let onEvent: (@Sendable (RegionEvent) -> Void)?
    private let onError: (@Sendable (LocationError) -> Void)?
    private let ownership: RegionOwnershipFile?
    private var selector: RegionSelector
    private var radiusLimits: RadiusLimits
    private var started = false
    /// Every event recorded by this session, in order (also appended to the store).
    public private(set) var recordedEvents: [RegionEvent] = []

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - monitor: the platform's region monitoring (or a ``SimulatedRegionMonitor``).
    ///   - store: where crossings are recorded; `nil` keeps them only in ``recordedEvents``.
    ///   - configuration: region limit and radii; the limit is lowered to the monitor's when ``start()`` runs.
    ///   - presence: inside/outside per geofence saved from an earlier launch (see ``presence``).
    ///   - now: the clock for events whose platform report carries no time.
    ///   - onEvent: called for each recorded crossing, after it is stored.
    ///   - onError: called when a crossing cannot be stored.
    ///   - ownership: where the identifiers of the regions the SDK registered are kept across launches; `nil`
    ///     keeps them in memory (then, after a relaunch, the earlier regions count as the host app's).
    public init(monitor: any RegionMonitor, store: LocationEventStore?,
                configuration: RegionSelector.Configuration = RegionSelector.Configuration(),
                presence: [String: RegionSelector.Presence] = [:],
                now: @escaping @Sendable () -> Date = { Date() },
                onEvent: (@Sendable (RegionEvent) -> Void)? = nil,
                onError: (@Sendable (LocationError) -> Void)? = nil,
                ownership: RegionOwnershipFile? = nil) {
        self.monitor = monitor
        self.store = store
        self.now = now
        self.onEvent = onEvent
        self.onError = onError
        self.ownership = ownership
        self.selector = RegionSelector(configuration: configuration, presence: presence,
                                       ownedIdentifiers: ownership?.load() ?? [])
        self.radiusLimits = configuration.radiusLimits
    }

    /// Inside/outside per geofence; save it and pass it to the next launch's session.
    public var presence: [String: RegionSelector.Presence] { selector.presence }
    /// The SDK-owned regions monitored now.
    public var monitoredRegions: [MonitoredRegion] { selector.monitored.values.sorted { $0.identifier < $1.identifier } }
    /// The engine's state, for inspection.
    public var regionSelector: RegionSelector { selector }

    /// Subscribes to the monitor's events and adopts the regions it already monitors (from an earlier
    /// launch, and the host app's). Call it early at launch; calling it again does nothing.
    public func start() async {
        guard !started else { return }
        started = true
        let limit = await monitor.maximumRegionCount
        let maximumRadius = await monitor.maximumRadius
        radiusLimits = RadiusLimits(minimum: radiusLimits.minimum, maximum: min(radiusLimits.maximum, maximumRadius))
        let configuration = RegionSelector.Configuration(regionLimit: min(selector.configuration.regionLimit, limit),
                                                         radiusLimits: radiusLimits)
        selector = RegionSelector(configuration: configuration, presence: selector.presence,
                                  ownedIdentifiers: selector.ownedIdentifiers)
        await monitor.setEventHandler { [weak self] event in await self?.handle(event) }
        await process(.monitoredRegionsObserved(await monitor.monitoredRegions()), at: now())
    }

    /// Monitors the geofences of `connections` (enabled Connections, enabled user features only).
    public func update(connections: [Connection]) async {
        await update(geofences: Geofence.geofences(for: connections, radiusLimits: radiusLimits))
    }

    /// Monitors `geofences`.
    public func update(geofences: [Geofence]) async {
        await process(.geofencesChanged(geofences), at: now())
    }

    /// Stops every region the SDK owns; the host app's regions stay. Recorded events stay in the store.
    public func stop() async {
        await update(geofences: [])
    }

    /// Handles one monitor event. The monitor's handler calls this; tests may call it directly.
    public func handle(_ event: RegionMonitorEvent) async {
        switch event {
        case .regionCrossed(let id, let transition, let at):
            await process(.regionCrossed(identifier: id, transition), at: at)
        case .stateDetermined(let id, let inside, let at):
            await process(.stateDetermined(identifier: id, inside: inside), at: at)
        case .location(let fix):
            await process(.location(fix), at: fix.timestamp)
        case .monitoringFailed(let id, let at):
            await process(.monitoringFailed(identifier: id), at: at)
        }
    }

    private var queue: [(RegionSelector.Event, Date)] = []
    private var processing = false

    /// Runs events one at a time: an event that arrives while effects are being performed (the monitor may
    /// answer during a call) waits until they are done, so the engine and the platform never disagree.
    private func process(_ event: RegionSelector.Event, at time: Date) async {
        queue.append((event, time))
        guard !processing else { return }
        processing = true
        while !queue.isEmpty {
            let (next, time) = queue.removeFirst()
            let ownedBefore = selector.ownedIdentifiers
            let effects = selector.handle(next, now: time)
            let ownedAfter = selector.ownedIdentifiers
            // Saved before a region starts and after it stops, so the file never misses a region the SDK holds.
            if ownedAfter != ownedBefore { ownership?.save(ownedBefore.union(ownedAfter)) }
            await apply(effects)
            if ownedAfter != ownedBefore, !ownedAfter.isSuperset(of: ownedBefore) { ownership?.save(ownedAfter) }
        }
        processing = false
    }

    private func apply(_ effects: [RegionSelector.Effect]) async {
        for effect in effects {
            switch effect {
            case .stopMonitoring(let id):
                await monitor.stopMonitoring(identifier: id)
            case .startMonitoring(let region):
                await monitor.startMonitoring(region)
            case .requestState(let id):
                await monitor.requestState(for: id)
            case .requestLocation:
                await monitor.requestLocation()
            case .record(let crossing):
                let event = RegionEvent(transition: crossing.transition, occurredAt: crossing.occurredAt,
                                        triggerSubscriptionId: crossing.geofence.triggerSubscriptionId)
                do throws(LocationError) {
                    try await store?.append(event)
                    recordedEvents.append(event)
                    onEvent?(event)
                } catch {
                    onError?(error)
                }
            }
        }
    }
}
