import Foundation

/// The region-selection engine: decides which geofences to monitor and which crossings to record.
///
/// A pure state machine: ``handle(_:now:)`` takes an ``Event`` and returns ``Effect``s for a shell (such as
/// ``LocationMonitoringSession``) to perform. It never reads a clock or touches CoreLocation, so tests drive
/// it step by step.
///
/// Rules:
/// 1. The platform monitors at most ``Configuration/regionLimit`` regions per app (20 on Apple platforms). The
///    engine uses at most that limit minus the host app's own regions, and never stops or changes a region it
///    did not register itself: it remembers the identifiers it registered (``ownedIdentifiers``, saved across
///    launches) and treats every other region as the host app's, whatever its name (an `ifttt_…` host region
///    included). A host region that is exactly the geofence the engine would register (same identifier,
///    centre and radius, as left by an earlier SDK version) is adopted; one that only shares a geofence's
///    identifier keeps it, and that geofence is not monitored.
/// 2. When every geofence fits, all are monitored. With one free slot, the slot holds the geofence the user is in;
///    outside every geofence, a refresh region that holds the last fix and touches no geofence (centred on the fix,
///    or shifted away from a geofence nearer than the minimum radius), so that no geofence can be entered without
///    leaving it; where no such circle fits, the one that reaches least into a geofence (never a geofence the user
///    is outside of: it would report nothing until the user came back). Every fix (significant change, visit, any
///    crossing, the host app's included) selects again. Otherwise
///    the engine monitors the `N - 1` geofences whose *edges* are nearest to the last fix, plus one refresh
///    region centred on the fix whose radius is the edge distance of the nearest geofence left out. The user
///    cannot reach a left-out geofence without leaving the refresh region, and leaving it (or any region
///    event, significant change or visit) asks for a fix and selects again.
/// 3. Selection is diffed against what is monitored: unchanged regions are never re-added (re-adding re-arms
///    a region and can drop or repeat a crossing).
/// 4. A newly added geofence's state is requested. If the user is already inside, one entry is recorded
///    when the trigger asks for entries; an initial "outside" records nothing.
/// 5. The engine tracks inside/outside per geofence and drops repeated transitions, and records only the
///    transitions a geofence's trigger asks for.
@_spi(Sandbox) public struct RegionSelector: Sendable {
    /// The identifier of the refresh region. It is owned by the SDK, never a geofence, and never uploaded.
    public static let refreshRegionIdentifier = "ifttt-sdk.refresh"

    /// Limits and radii.
    public struct Configuration: Sendable, Hashable {
        /// The number of regions the platform lets one app monitor; 20 on Apple platforms.
        public var regionLimit: Int
        /// The radius limits; the refresh region is clamped to them too.
        public var radiusLimits: RadiusLimits

        /// Creates a configuration.
        public init(regionLimit: Int = 20, radiusLimits: RadiusLimits = RadiusLimits()) {
            self.regionLimit = max(0, regionLimit)
            self.radiusLimits = radiusLimits
        }
    }

    /// Where the user is relative to a geofence, as far as the engine knows.
    public enum Presence: String, Sendable, Hashable, Codable {
        /// Inside the geofence.
        case inside
        /// Outside the geofence.
        case outside
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The set of geofences changed (activation, a Connection update, deactivation with `[]`).
        case geofencesChanged([Geofence])
        /// Every region the app monitors, as the platform reports it (the SDK's and the host app's). Sent at
        /// start and whenever the host app's regions may have changed.
        case monitoredRegionsObserved([MonitoredRegion])
        /// A position: a requested fix, a significant location change or a visit.
        case location(LocationFix)
        /// The platform reported that the device crossed a region's boundary.
        case regionCrossed(identifier: String, RegionTransition)
        /// The platform reported whether the device is inside a region (the answer to ``Effect/requestState(identifier:)``).
        case stateDetermined(identifier: String, inside: Bool)
        /// The platform could not monitor a region (for example because the host app took the last slot).
        case monitoringFailed(identifier: String)
    }

    /// A transition to record and upload.
    public struct Crossing: Sendable, Hashable {
        /// The geofence.
        public let geofence: Geofence
        /// Entry or exit.
        public let transition: RegionTransition
        /// When it happened.
        public let occurredAt: Date
    }

    /// What the shell must do.
    public enum Effect: Sendable, Hashable {
        /// Stop monitoring a region the SDK registered.
        case stopMonitoring(identifier: String)
        /// Start monitoring a region.
        case startMonitoring(MonitoredRegion)
        /// Ask the platform whether the device is inside a region.
        case requestState(identifier: String)
        /// Ask the platform for one position fix.
        case requestLocation
        /// Record a crossing.
        case record(Crossing)
    }

    /// The configuration.
    public let configuration: Configuration
    /// The geofences wanted, indexed for nearest-first queries.
    public private(set) var index: GeofenceIndex
    /// The SDK-owned regions believed to be monitored, by identifier.
    public private(set) var monitored: [String: MonitoredRegion] = [:]
    /// The identifiers of every region the SDK registered and has not seen stopped: a superset of
    /// ``monitored``'s keys. Save it whenever it changes (before the effects that start regions are performed)
    /// and pass it to the next launch's engine: a region whose identifier is not in it is the host app's.
    public private(set) var ownedIdentifiers: Set<String>
    /// The host app's regions, by identifier.
    public private(set) var hostRegions: [String: MonitoredRegion] = [:]
    /// The number of regions the host app monitors.
    public var hostRegionCount: Int { hostRegions.count }
    private var allGeofences: [Geofence] = []
    /// Presence per geofence identifier. Persist it across launches to avoid a repeated entry on relaunch.
    public private(set) var presence: [String: Presence]
    /// The last usable fix.
    public private(set) var lastFix: LocationFix?
    private var geofencesById: [String: Geofence] = [:]
    private var needsSelection = true
    /// Whether a geofence set was given yet. Until then the engine changes nothing: at launch the platform's
    /// regions are observed before the stored geofences are read, and stopping them meanwhile would re-arm every
    /// region (dropping or repeating crossings) on every launch.
    private var geofencesKnown = false
    private var lastRequested: Set<String> = []
    /// Crossings of the SDK's regions reported before the geofences were known (the crossing that launched
    /// the app), replayed once they are.
    private var earlyCrossings: [(identifier: String, transition: RegionTransition, at: Date)] = []
    private var failedSlots = 0

    /// Creates an engine with no geofences; `presence` and `ownedIdentifiers` restore what an earlier run knew.
    public init(
        configuration: Configuration = Configuration(), presence: [String: Presence] = [:],
        ownedIdentifiers: Set<String> = []
    ) {
        self.configuration = configuration
        self.index = GeofenceIndex([])
        self.presence = presence
        self.ownedIdentifiers = ownedIdentifiers
    }

    /// Whether the SDK registered the region with `identifier` (and may therefore stop it).
    public func owns(_ identifier: String) -> Bool { ownedIdentifiers.contains(identifier) }

    /// The number of regions the SDK may use now: the limit minus the host app's regions and failed starts.
    public var budget: Int {
        max(0, configuration.regionLimit - hostRegionCount - failedSlots)
    }

    /// The refresh region, when one is monitored.
    public var refreshRegion: MonitoredRegion? { monitored[Self.refreshRegionIdentifier] }

    /// Handles one event at time `now` and returns the effects to perform, in order.
    public mutating func handle(_ event: Event, now: Date) -> [Effect] {
        switch event {
        case .geofencesChanged(let fences):
            allGeofences = fences
            geofencesKnown = true
            rebuildIndex()
            presence = presence.filter { geofencesById[$0.key] != nil }
            needsSelection = true
            var effects: [Effect] = []
            let early = earlyCrossings
            earlyCrossings = []
            for crossing in early {
                guard let fence = geofencesById[crossing.identifier], monitored[crossing.identifier] != nil else {
                    continue
                }
                effects += observe(
                    fence, now: crossing.at, presence: crossing.transition == .entry ? .inside : .outside,
                    isCrossing: true)
            }
            return effects + select() + settleUnknownPresence()

        case .monitoredRegionsObserved(let regions):
            var owned: [String: MonitoredRegion] = [:]
            var hosts: [String: MonitoredRegion] = [:]
            for region in regions {
                if ownedIdentifiers.contains(region.identifier) {
                    owned[region.identifier] = region
                } else {
                    hosts[region.identifier] = region
                }
            }
            monitored = owned
            hostRegions = hosts
            // Forget identifiers the platform no longer monitors, so a host region that reuses one stays the host's.
            ownedIdentifiers = Set(owned.keys)
            failedSlots = 0
            rebuildIndex()
            needsSelection = true
            guard geofencesKnown else { return [] }
            return select() + settleUnknownPresence()

        case .location(let fix):
            guard fix.isUsable else { return [] }
            lastFix = fix
            if !needsSelection {
                if index.count <= budget { return [] }  // everything fits and is monitored
                if let refresh = refreshRegion,
                    refresh.center.distance(to: fix.coordinate) + fix.horizontalAccuracy <= refresh.radius
                {
                    return []  // still inside the refresh region: no left-out geofence is reachable yet
                }
            }
            return select()

        case .regionCrossed(let id, let transition):
            if id == Self.refreshRegionIdentifier {
                if transition == .exit { needsSelection = true }
                return [.requestLocation]
            }
            if !geofencesKnown, owns(id) {
                earlyCrossings.append((id, transition, now))
                return []
            }
            guard let fence = geofencesById[id], monitored[id] != nil else {
                // A host region (not ours to judge) or a stale one: no record, but the user moved. When not every
                // geofence is monitored, the fix selects again (the platform reports the host app's crossings to
                // every location manager of the app: free wake-ups near the host app's places).
                return owns(id) || (geofencesKnown && budget > 0 && index.count > budget) ? [.requestLocation] : []
            }
            var effects = observe(
                fence, now: now, presence: transition == .entry ? .inside : .outside, isCrossing: true)
            effects.append(.requestLocation)
            return effects

        case .stateDetermined(let id, let inside):
            if id == Self.refreshRegionIdentifier {
                if !inside {
                    needsSelection = true
                    return [.requestLocation]
                }
                return []
            }
            guard let fence = geofencesById[id], monitored[id] != nil else { return [] }
            return observe(fence, now: now, presence: inside ? .inside : .outside, isCrossing: false)

        case .monitoringFailed(let id):
            guard monitored.removeValue(forKey: id) != nil else { return [] }
            ownedIdentifiers.remove(id)
            failedSlots += 1
            needsSelection = true
            return select()
        }
    }

    /// Asks for the state of monitored geofences whose presence is unknown (regions left from an earlier run);
    /// regions started by the last selection already asked.
    private func settleUnknownPresence() -> [Effect] {
        monitored.keys.sorted().filter {
            geofencesById[$0] != nil && presence[$0] == nil && !lastRequested.contains($0)
        }
        .map { .requestState(identifier: $0) }
    }

    /// Indexes the geofences that can be monitored: all but those whose identifier a host region uses. A host
    /// region that is exactly a geofence's region is adopted first (an earlier SDK version registered it).
    private mutating func rebuildIndex() {
        var usable: [Geofence] = []
        usable.reserveCapacity(allGeofences.count)
        for fence in allGeofences {
            if let host = hostRegions[fence.identifier] {
                guard host == fence.monitoredRegion else { continue }
                hostRegions[fence.identifier] = nil
                monitored[fence.identifier] = host
                ownedIdentifiers.insert(fence.identifier)
            }
            usable.append(fence)
        }
        index = GeofenceIndex(usable)
        geofencesById = Dictionary(index.geofences.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Applies an observed presence and returns the crossing to record, if any.
    private mutating func observe(_ fence: Geofence, now: Date, presence new: Presence, isCrossing: Bool) -> [Effect] {
        let old = presence[fence.identifier]
        presence[fence.identifier] = new
        let transition: RegionTransition
        switch (old, new) {
        case (.inside?, .inside), (.outside?, .outside): return []  // duplicate
        case (nil, .outside) where !isCrossing: return []  // initial state: nothing happened
        case (_, .inside): transition = .entry
        case (_, .outside): transition = .exit
        }
        guard fence.records(transition) else { return [] }
        return [.record(Crossing(geofence: fence, transition: transition, occurredAt: now))]
    }

    /// The regions the SDK should monitor now.
    public func desiredRegions() -> [MonitoredRegion] {
        let limit = budget
        guard limit > 0, index.count > 0 else { return [] }
        if index.count <= limit { return index.geofences.map(\.monitoredRegion) }
        guard let fix = lastFix else {
            // No position yet (a relaunch): keep the geofences already monitored and the refresh region, so
            // nothing is re-armed, and fill free geofence slots in identifier order (with one slot, a geofence:
            // a region that can report beats an empty slot). The first fix selects again.
            let slots = max(1, limit - 1)
            var regions: [MonitoredRegion] = []
            var kept = Set<String>()
            for fence in index.geofences
            where regions.count < slots && monitored[fence.identifier] == fence.monitoredRegion {
                regions.append(fence.monitoredRegion)
                kept.insert(fence.identifier)
            }
            for fence in index.geofences where regions.count < slots && !kept.contains(fence.identifier) {
                regions.append(fence.monitoredRegion)
            }
            if limit > 1, let refresh = refreshRegion { regions.append(refresh) }
            return regions
        }
        if limit == 1 { return [singleSlotRegion(at: fix)] }
        let nearest = index.nearest(limit, to: fix.coordinate)
        var regions = nearest.prefix(limit - 1).map(\.geofence.monitoredRegion)
        let refreshRadius = configuration.radiusLimits.clamp(nearest.last?.edgeDistance ?? 0)
        regions.append(
            MonitoredRegion(
                identifier: Self.refreshRegionIdentifier, center: fix.coordinate,
                radius: refreshRadius, notifyOnEntry: false, notifyOnExit: true))
        return regions
    }

    /// With one free slot: the geofence the device is in (so its exit is seen); outside every geofence, a refresh
    /// region that holds the fix and touches no geofence, so that no geofence can be entered without leaving it first
    /// (leaving it asks for a fix, and a fix inside a geofence monitors it: its state is requested, which records the
    /// entry at that fix). The refresh region is centred on the fix when the nearest geofence's edge is at least the
    /// minimum radius away; nearer than that, a circle of the minimum radius is shifted away from the geofences
    /// (`shiftedRefreshRegion(around:away:overlap:)`). Where no such circle fits (between geofences closer than about
    /// 1.5 minimum radii to each other), the circle that reaches least into a geofence: the slot never holds a
    /// geofence the device is outside of, which would report nothing until the device came back to it. With
    /// significant-change reports off, crossings (the host app's included) are the only fixes the SDK gets, and this
    /// keeps one coming before each geofence.
    private func singleSlotRegion(at fix: LocationFix) -> MonitoredRegion {
        let inside = index.geofences.first { presence[$0.identifier] == .inside && monitored[$0.identifier] != nil }
        if let inside { return inside.monitoredRegion }
        guard let nearest = index.nearest(1, to: fix.coordinate).first else {
            return MonitoredRegion(
                identifier: Self.refreshRegionIdentifier, center: fix.coordinate,
                radius: configuration.radiusLimits.clamp(0), notifyOnEntry: false, notifyOnExit: true)
        }
        if nearest.geofence.monitoredRegion.contains(fix.coordinate) { return nearest.geofence.monitoredRegion }
        let radius = configuration.radiusLimits.clamp(nearest.edgeDistance)
        if radius <= nearest.edgeDistance {
            return MonitoredRegion(
                identifier: Self.refreshRegionIdentifier, center: fix.coordinate, radius: radius,
                notifyOnEntry: false, notifyOnExit: true)
        }
        return shiftedRefreshRegion(around: fix.coordinate, away: nearest)
            ?? shiftedRefreshRegion(around: fix.coordinate, away: nearest, overlap: .infinity)
            ?? MonitoredRegion(
                identifier: Self.refreshRegionIdentifier, center: fix.coordinate, radius: radius,
                notifyOnEntry: false, notifyOnExit: true)
    }

    /// A refresh region of the minimum radius that holds `point`, shifted away from the geofence `nearest` (whose
    /// edge is nearer than the minimum radius); `nil` when none fits. Of 32 directions around "straight away" and 20
    /// shifts in each, it keeps the circle whose smaller margin is largest: how deep `point` lies inside it, and how
    /// far it stays from every geofence. That margin is at most half the distance from `point` to `nearest`'s edge.
    /// Where another geofence leaves no room, the circle may reach up to ``refreshOverlapAllowance`` into a geofence:
    /// an entry there is then learnt when the user leaves the circle, at most that far inside.
    private func shiftedRefreshRegion(
        around point: Coordinate, away nearest: GeofenceIndex.Neighbor, overlap: Double = refreshOverlapAllowance
    ) -> MonitoredRegion? {
        let radius = configuration.radiusLimits.clamp(configuration.radiusLimits.minimum)
        let edge = nearest.edgeDistance
        let away = nearest.geofence.center.bearing(to: point)
        let shifts =
            (1..<8).map { radius - edge * Double($0) / 8 }
            + [0.995, 0.99, 0.98, 0.96, 0.93, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.35, 0.2].map { radius * $0 }
        var best: (margin: Double, center: Coordinate)?
        for k in 0..<32 {
            let turn = Double((k + 1) / 2) * (k % 2 == 1 ? 1 : -1)
            let bearing = away + turn * .pi / 16
            for shift in shifts where shift > 0 && shift < radius {
                let center = point.moved(shift, bearing: bearing)
                let depth = radius - center.distance(to: point)
                guard depth >= Self.minimumRefreshDepth else { continue }
                let clearance = (index.nearest(1, to: center).first?.edgeDistance ?? .infinity) - radius
                let margin = min(depth, clearance)
                if margin > (best?.margin ?? -overlap) { best = (margin, center) }
            }
        }
        guard let best else { return nil }
        return MonitoredRegion(
            identifier: Self.refreshRegionIdentifier, center: best.center, radius: radius, notifyOnEntry: false,
            notifyOnExit: true)
    }

    /// How far, in metres, a shifted refresh region may reach into a geofence when no circle fits without: 15 m,
    /// about 10 s at walking speed.
    public static let refreshOverlapAllowance = 15.0
    /// How deep, in metres, a shifted refresh region holds the fix at least.
    static let minimumRefreshDepth = 0.01

    private mutating func select() -> [Effect] {
        guard geofencesKnown else { return [] }
        needsSelection = false
        let desired = Dictionary(desiredRegions().map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var effects: [Effect] = []
        for id in monitored.keys.sorted() where desired[id] != monitored[id] {
            effects.append(.stopMonitoring(identifier: id))
            monitored[id] = nil
            ownedIdentifiers.remove(id)
        }
        var added: [String] = []
        for id in desired.keys.sorted() where monitored[id] == nil && hostRegions[id] == nil {
            effects.append(.startMonitoring(desired[id]!))
            monitored[id] = desired[id]
            ownedIdentifiers.insert(id)
            added.append(id)
        }
        for id in added where id != Self.refreshRegionIdentifier {
            effects.append(.requestState(identifier: id))
        }
        lastRequested = Set(added)
        if lastFix == nil, index.count > budget, budget > 0 { effects.append(.requestLocation) }
        return effects
    }
}
