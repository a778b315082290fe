#if canImport(CoreLocation)
import CoreLocation
import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The ``RegionMonitor`` adapter for CoreLocation: a thin layer over one `CLLocationManager`.
///
/// Create it on the main thread early at launch (CoreLocation delivers events that relaunched the app to a
/// manager whose delegate is set before launch finishes). It reports region crossings, region states,
/// requested fixes, significant location changes and (on iOS) visits; the SDK's selection logic lives in
/// ``RegionSelector``, not here. The host app asks for "Always" authorization; region monitoring needs it.
///
/// This file is compiled only where CoreLocation exists and follows Apple's documentation for
/// `CLLocationManager` and `CLLocationManagerDelegate`.
// @unchecked: it wraps a `CLLocationManager` (not Sendable), which is touched only on the main actor.
@_spi(Sandbox)
public final class CoreLocationRegionMonitor: NSObject, RegionMonitor, CLLocationManagerDelegate, @unchecked Sendable {
    private struct State {
        var handler: (@LocationEngineActor @Sendable (RegionMonitorEvent) -> Void)?
        var pump: Task<Void, Never>?
    }

    private let manager: CLLocationManager
    private let events: AsyncStream<RegionMonitorEvent>
    private let continuation: AsyncStream<RegionMonitorEvent>.Continuation
    private let state = Locked(State())
    private let clock: any ConnectClock

    /// Creates the monitor on the system clock; see ``init(clock:)``.
    @MainActor
    public override convenience init() {
        self.init(clock: SystemConnectClock())
    }

    /// Creates the monitor and starts significant-location-change (and, on iOS, visit) monitoring when available.
    ///
    /// - Parameter clock: Stamps the crossings and failures CoreLocation reports without a time.
    @MainActor
    public init(clock: any ConnectClock) {
        self.clock = clock
        manager = CLLocationManager()
        (events, continuation) = AsyncStream.makeStream(of: RegionMonitorEvent.self)
        super.init()
        manager.delegate = self
        if CLLocationManager.significantLocationChangeMonitoringAvailable() {
            manager.startMonitoringSignificantLocationChanges()
        }
        #if os(iOS) || IFTTT_APPLE_STUB_CHECK
        manager.startMonitoringVisits()
        #endif
    }

    deinit {
        continuation.finish()
        state.withLock { $0.pump }?.cancel()
    }

    /// 20, Apple's per-app limit.
    public var maximumRegionCount: Int { 20 }

    /// `CLLocationManager.maximumRegionMonitoringDistance`, or ``RadiusLimits/defaultMaximum`` when unavailable.
    public var maximumRadius: Double {
        get async {
            let distance = await MainActor.run { self.manager.maximumRegionMonitoringDistance }
            return distance > 0 ? distance : RadiusLimits.defaultMaximum
        }
    }

    /// The app's circular regions, the host app's included.
    public func monitoredRegions() async -> [MonitoredRegion] {
        await MainActor.run {
            self.manager.monitoredRegions.compactMap { region -> MonitoredRegion? in
                guard let circle = region as? CLCircularRegion else { return nil }
                return MonitoredRegion(
                    identifier: circle.identifier,
                    center: Coordinate(latitude: circle.center.latitude, longitude: circle.center.longitude),
                    radius: circle.radius, notifyOnEntry: circle.notifyOnEntry, notifyOnExit: circle.notifyOnExit)
            }
        }
    }

    /// `startMonitoring(for:)` with a `CLCircularRegion`, on the main queue (in the order the commands were given).
    public func startMonitoring(_ region: MonitoredRegion) {
        onMain {
            guard CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) else {
                self.continuation.yield(.monitoringFailed(identifier: region.identifier, at: self.clock.now))
                return
            }
            let circle = CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: region.center.latitude, longitude: region.center.longitude),
                radius: region.radius, identifier: region.identifier)
            circle.notifyOnEntry = region.notifyOnEntry
            circle.notifyOnExit = region.notifyOnExit
            self.manager.startMonitoring(for: circle)
        }
    }

    /// `stopMonitoring(for:)` for the region with `identifier`.
    public func stopMonitoring(identifier: String) {
        onMain {
            for region in self.manager.monitoredRegions where region.identifier == identifier {
                self.manager.stopMonitoring(for: region)
            }
        }
    }

    /// `requestState(for:)` for the region with `identifier`.
    public func requestState(for identifier: String) {
        onMain {
            for region in self.manager.monitoredRegions where region.identifier == identifier {
                self.manager.requestState(for: region)
            }
        }
    }

    /// `requestLocation()`.
    public func requestLocation() {
        onMain { self.manager.requestLocation() }
    }

    /// Runs `work` on the main queue, where the manager was created: commands return at once, in order.
    private func onMain(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: work)
    }

    /// Sets the handler; events are delivered to it one at a time, in order, on ``LocationEngineActor``: the one hop of
    /// a region event, from CoreLocation's delegate callback on the main thread to the engine.
    public func setEventHandler(_ handler: @escaping @LocationEngineActor @Sendable (RegionMonitorEvent) -> Void) {
        let events = self.events
        state.withLock { state in
            state.handler = handler
            guard state.pump == nil else { return }
            state.pump = Task { @LocationEngineActor [weak self] in
                for await event in events {
                    guard let handler = self?.currentHandler else { continue }
                    handler(event)
                }
            }
        }
    }

    private var currentHandler: (@LocationEngineActor @Sendable (RegionMonitorEvent) -> Void)? {
        state.withLock { $0.handler }
    }

    // MARK: CLLocationManagerDelegate

    /// Reports an entry.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        continuation.yield(.regionCrossed(identifier: region.identifier, .entry, at: clock.now))
    }

    /// Reports an exit.
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        continuation.yield(.regionCrossed(identifier: region.identifier, .exit, at: clock.now))
    }

    /// Reports a region's state; `unknown` is dropped.
    public func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion
    ) {
        switch state {
        case .inside: continuation.yield(.stateDetermined(identifier: region.identifier, inside: true, at: clock.now))
        case .outside: continuation.yield(.stateDetermined(identifier: region.identifier, inside: false, at: clock.now))
        default: break
        }
    }

    /// Reports the newest fix (requested or a significant change).
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let last = locations.last else { return }
        continuation.yield(
            .location(
                LocationFix(
                    latitude: last.coordinate.latitude, longitude: last.coordinate.longitude,
                    horizontalAccuracy: last.horizontalAccuracy, timestamp: last.timestamp)))
    }

    /// Reports a region the platform could not monitor.
    public func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error
    ) {
        guard let region else { return }
        continuation.yield(.monitoringFailed(identifier: region.identifier, at: clock.now))
    }

    /// Location errors (for example a denied `requestLocation()`) need no action: the next fix will come.
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}

    #if os(iOS) || IFTTT_APPLE_STUB_CHECK
    /// Reports a visit as a fix.
    public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        let time = visit.departureDate == .distantFuture ? visit.arrivalDate : visit.departureDate
        continuation.yield(
            .location(
                LocationFix(
                    latitude: visit.coordinate.latitude, longitude: visit.coordinate.longitude,
                    horizontalAccuracy: visit.horizontalAccuracy, timestamp: time)))
    }
    #endif
}
#endif
