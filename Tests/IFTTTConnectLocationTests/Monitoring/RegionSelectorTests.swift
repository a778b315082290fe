import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

@Suite("Region selection")
struct RegionSelectorTests {
    @Test(arguments: [1, 2, 16, 17, 18, 20, 21, 100, 1000, 10_000])
    func movingUserWithHostRegions(count: Int) throws {
        // Given 3 host regions and `count` geofences
        var h = SelectorHarness(hostRegions: 3)
        let fences = randomGeofences(count, seed: UInt64(count))
        h.send(.geofencesChanged(fences))
        let budget = 20 - 3
        // When the user walks across the area in 60 steps
        var rng = SplitMix64(seed: 99)
        var point = Coordinate(latitude: 37.62, longitude: -122.58)
        for step in 0..<60 {
            point.latitude += Double.random(in: 0..<0.01, using: &rng)
            point.longitude += Double.random(in: 0..<0.01, using: &rng)
            h.move(to: point, at: Double(step) * 60)
            // Then the platform never holds more than 20 regions, the host regions are intact
            #expect(h.platform.count <= 20)
            #expect(Set(h.platform.keys).isSuperset(of: h.hostIds))
            #expect(h.ownedMonitored.count <= budget)
            if count <= budget {
                #expect(h.monitoredGeofences.count == count)
                #expect(h.selector.refreshRegion == nil)
            } else {
                // the nearest budget-1 geofences from the refresh centre are monitored, plus the refresh region
                let refresh = try #require(h.selector.refreshRegion)
                #expect(h.monitoredGeofences == Set(bruteForceNearest(fences, to: refresh.center, k: budget - 1)))
                #expect(refresh.contains(point) || refresh.radius == RadiusLimits.defaultMinimum)
                // and every geofence the user is inside is monitored
                let containing = fences.filter { $0.monitoredRegion.contains(point) }.map(\.identifier)
                if containing.count < budget { #expect(h.monitoredGeofences.isSuperset(of: containing)) }
            }
        }
        #expect(h.peak <= 20)
    }

    @Test func nearestIsByEdgeNotCentre() throws {
        var h = SelectorHarness(limit: 2)
        let big = Geofence(
            triggerSubscriptionId: "big", center: Coordinate(latitude: 37.0, longitude: -122.009), radius: 700)
        let small = Geofence(
            triggerSubscriptionId: "small", center: Coordinate(latitude: 37.0, longitude: -122.0045), radius: 100)
        let far = Geofence(
            triggerSubscriptionId: "far", center: Coordinate(latitude: 38.0, longitude: -122.0), radius: 100)
        h.send(.geofencesChanged([small, big, far]))
        h.move(to: Coordinate(latitude: 37.0, longitude: -122.0))
        // big's centre is ~800 m away (edge ~100 m); small's centre is ~400 m away (edge ~300 m)
        #expect(h.monitoredGeofences == ["ifttt_big"])
        let refresh = try #require(h.selector.refreshRegion)
        #expect(abs(refresh.radius - (small.center.distance(to: refresh.center) - 100)) < 0.001)
    }

    @Test func unchangedRegionsAreNeverReAdded() throws {
        var h = SelectorHarness()
        h.send(.geofencesChanged(randomGeofences(5, seed: 1)))
        let starts = h.starts
        h.send(.geofencesChanged(randomGeofences(5, seed: 1)))
        h.move(to: Coordinate(latitude: 37.7, longitude: -122.4))
        h.move(to: Coordinate(latitude: 37.71, longitude: -122.41))
        #expect(h.starts == starts)
        // A changed radius is replaced (stop, then start).
        var changed = randomGeofences(5, seed: 1)
        changed[0] = Geofence(
            triggerSubscriptionId: changed[0].triggerSubscriptionId, center: changed[0].center, radius: 999)
        let effects = h.send(.geofencesChanged(changed))
        let expected: [RegionSelector.Effect] = [
            .stopMonitoring(identifier: changed[0].identifier), .startMonitoring(changed[0].monitoredRegion),
        ]
        #expect(Array(effects.prefix(2)) == expected)
    }

    @Test func staysPutInsideTheRefreshRegion() throws {
        var h = SelectorHarness()
        h.send(.geofencesChanged(randomGeofences(100, seed: 7)))
        h.move(to: Coordinate(latitude: 37.8, longitude: -122.4))
        let refresh = try #require(h.selector.refreshRegion)
        let starts = h.starts
        h.move(to: Coordinate(latitude: 37.8, longitude: -122.4001))  // ~9 m away
        #expect(h.starts == starts)
        #expect(h.selector.refreshRegion == refresh)
    }

    @Test func aUserAlreadyInsideGetsOneEntryWhenTheTriggerAsksForIt() throws {
        var h = SelectorHarness()
        let here = Coordinate(latitude: 37.0, longitude: -122.0)
        h.position = LocationFix(coordinate: here, timestamp: epoch)
        let fences = [
            Geofence(triggerSubscriptionId: "enter", center: here, radius: 200, transitions: .enter),
            Geofence(triggerSubscriptionId: "exit", center: here, radius: 200, transitions: .exit),
            Geofence(triggerSubscriptionId: "far", center: Coordinate(latitude: 38, longitude: -122), radius: 200),
        ]
        h.send(.geofencesChanged(fences))
        #expect(h.recorded.map(\.geofence.triggerSubscriptionId) == ["enter"])
        #expect(h.recorded.map(\.transition) == [.entry])
        // Asking again changes nothing; the platform repeating the entry changes nothing.
        h.send(.stateDetermined(identifier: "ifttt_enter", inside: true))
        h.send(.regionCrossed(identifier: "ifttt_enter", .entry))
        #expect(h.recorded.count == 1)
        // Leaving records the exit only for the exit trigger.
        h.move(to: Coordinate(latitude: 37.01, longitude: -122.0))
        #expect(h.recorded.map(\.geofence.triggerSubscriptionId) == ["enter", "exit"])
        #expect(h.recorded.last?.transition == .exit)
    }

    @Test func duplicateTransitionsAreSuppressed() throws {
        var h = SelectorHarness()
        let fence = Geofence(triggerSubscriptionId: "g", center: Coordinate(latitude: 37, longitude: -122), radius: 200)
        h.send(.geofencesChanged([fence]))
        for _ in 0..<3 { h.send(.regionCrossed(identifier: fence.identifier, .entry)) }
        for _ in 0..<3 { h.send(.regionCrossed(identifier: fence.identifier, .exit)) }
        #expect(h.recorded.map(\.transition) == [.entry, .exit])
    }

    @Test func hostRegionEventsAreIgnored() throws {
        var h = SelectorHarness(hostRegions: 2)
        h.send(.geofencesChanged(randomGeofences(3, seed: 3)))
        let effects = h.send(.regionCrossed(identifier: "host_region_0", .entry))
        #expect(effects.isEmpty)
        #expect(h.recorded.isEmpty)
    }

    @Test func aHostAppFillingTheSlotsShrinksTheBudget() throws {
        var h = SelectorHarness(hostRegions: 19)
        let fences = randomGeofences(50, seed: 5)
        h.send(.geofencesChanged(fences))
        let point = Coordinate(latitude: 37.7, longitude: -122.4)
        h.move(to: point)
        // Outside every geofence, the one free slot holds a refresh region that reaches the nearest geofence's edge.
        let nearest = try #require(fences.first { $0.identifier == bruteForceNearest(fences, to: point, k: 1)[0] })
        #expect(h.ownedMonitored == [RegionSelector.refreshRegionIdentifier])
        #expect(h.selector.refreshRegion?.center == point)
        #expect(
            h.selector.refreshRegion?.radius
                == RadiusLimits().clamp(nearest.center.distance(to: point) - nearest.radius))
        var full = SelectorHarness(hostRegions: 20)
        full.send(.geofencesChanged(randomGeofences(50, seed: 5)))
        full.move(to: Coordinate(latitude: 37.7, longitude: -122.4))
        #expect(full.ownedMonitored.isEmpty)
    }

    @Test func aFailedStartLowersTheBudget() throws {
        var h = SelectorHarness()
        h.send(.geofencesChanged(randomGeofences(40, seed: 11)))
        h.move(to: Coordinate(latitude: 37.7, longitude: -122.4))
        #expect(h.ownedMonitored.count == 20)
        let victim = h.monitoredGeofences.sorted()[0]
        h.platform[victim] = nil
        h.send(.monitoringFailed(identifier: victim))
        #expect(h.ownedMonitored.count == 19)
        #expect(h.selector.budget == 19)
    }

    @Test func restoredPresenceAvoidsARepeatedEntryAfterRelaunch() throws {
        let here = Coordinate(latitude: 37.0, longitude: -122.0)
        let fence = Geofence(triggerSubscriptionId: "home", center: here, radius: 200)
        var first = SelectorHarness()
        first.position = LocationFix(coordinate: here, timestamp: epoch)
        first.send(.geofencesChanged([fence]))
        #expect(first.recorded.count == 1)
        // Relaunch: the platform still monitors the region; the saved presence comes back.
        var second = RegionSelector(
            presence: first.selector.presence, ownedIdentifiers: first.selector.ownedIdentifiers)
        _ = second.handle(.geofencesChanged([fence]), now: epoch)
        let effects = second.handle(.monitoredRegionsObserved([fence.monitoredRegion]), now: epoch)
        #expect(!effects.contains { if case .startMonitoring = $0 { return true } else { return false } })
        #expect(second.handle(.stateDetermined(identifier: fence.identifier, inside: true), now: epoch).isEmpty)
    }

    @Test func nineteenHostRegionsStillGetEveryCrossingOfTheNearestGeofence() throws {
        // Given a host app monitoring 19 of the 20 regions and 30 geofences along a street
        var h = SelectorHarness(hostRegions: 19)
        let fences = (0..<30).map { i in
            Geofence(
                triggerSubscriptionId: String(format: "shop_%02d", i),
                center: Coordinate(latitude: 37.0, longitude: -122.0 + Double(i) * 0.01), radius: 150)
        }
        h.position = LocationFix(coordinate: Coordinate(latitude: 37.0, longitude: -122.0), timestamp: epoch)
        h.send(.geofencesChanged(fences))
        // When the user walks the street
        var visited: [String] = []
        for step in 0...290 {
            let point = Coordinate(latitude: 37.0, longitude: -122.0 + Double(step) * 0.001)
            h.move(to: point, at: Double(step) * 30)
            // Then the free slot holds the geofence the user is in, else a refresh region (at least the minimum
            // radius) that holds the user and touches no geofence: no shop can be entered without leaving it first
            if let inside = fences.first(where: { $0.monitoredRegion.contains(point) }) {
                #expect(h.ownedMonitored == [inside.identifier])
            } else {
                #expect(h.ownedMonitored == [RegionSelector.refreshRegionIdentifier])
                let refresh = try #require(h.selector.refreshRegion)
                #expect(refresh.contains(point))
                #expect(refresh.radius >= RadiusLimits.defaultMinimum)
                for fence in fences {
                    #expect(refresh.center.distance(to: fence.center) >= fence.radius + refresh.radius - 0.001)
                }
                // centred on the user where the nearest shop's edge is at least the minimum radius away
                let nearest = try #require(
                    fences.first { $0.identifier == bruteForceNearest(fences, to: refresh.center, k: 1)[0] })
                let edge = nearest.center.distance(to: refresh.center) - nearest.radius
                if abs(edge - refresh.radius) > 0.001 { #expect(refresh.radius == RadiusLimits.defaultMinimum) }
            }
            #expect(h.platform.count == 20)
            if step % 50 == 0 { visited.append(String(format: "ifttt_shop_%02d", step / 10)) }
        }
        // and every shop entered is recorded (entry on arrival, exit on leaving)
        let entries = Set(h.recorded.filter { $0.transition == .entry }.map(\.geofence.identifier))
        #expect(entries.isSuperset(of: visited))
        #expect(entries.count == 30)  // the walk passes through every shop
        #expect(h.recorded.filter { $0.transition == .exit }.count >= 29)
    }

    @Test func justOutsideAGeofenceTheOneFreeSlotHoldsAShiftedRefreshRegionThatTouchesNoGeofence() throws {
        // Given one free slot and two geofences 400 m apart
        var h = SelectorHarness(hostRegions: 19)
        let west = Geofence(
            triggerSubscriptionId: "west", center: Coordinate(latitude: 37, longitude: -122), radius: 100)
        let east = Geofence(
            triggerSubscriptionId: "east", center: west.center.moved(400, bearing: .pi / 2), radius: 100)
        h.send(.geofencesChanged([west, east]))
        // When the user stands 10 m east of the west geofence's edge (nearer than the refresh region's 100 m minimum)
        let point = west.center.moved(110, bearing: .pi / 2)
        h.move(to: point)
        // Then the slot holds a 100 m refresh region shifted away from it: it holds the user and touches neither
        // geofence, so stepping back in is seen (the refresh region is left, a fix asked for, the entry recorded)
        let refresh = try #require(h.selector.refreshRegion)
        #expect(h.ownedMonitored == [RegionSelector.refreshRegionIdentifier])
        #expect(refresh.radius == RadiusLimits.defaultMinimum)
        #expect(refresh.contains(point))
        for fence in [west, east] {
            #expect(refresh.center.distance(to: fence.center) >= fence.radius + refresh.radius)
        }
        h.move(to: west.center.moved(95, bearing: .pi / 2), at: 10)
        #expect(h.ownedMonitored == [west.identifier])
        #expect(h.recorded.map(\.geofence.identifier) == [west.identifier])
        #expect(h.recorded.first?.occurredAt == epoch.addingTimeInterval(10))
    }

    @Test func betweenGeofencesTooCloseForARefreshRegionTheSlotHoldsACircleAroundTheUser() throws {
        // Given one free slot and two geofences whose edges are 20 m apart
        var h = SelectorHarness(hostRegions: 19)
        let west = Geofence(
            triggerSubscriptionId: "west", center: Coordinate(latitude: 37, longitude: -122), radius: 100)
        let east = Geofence(
            triggerSubscriptionId: "east", center: west.center.moved(220, bearing: .pi / 2), radius: 100)
        h.send(.geofencesChanged([west, east]))
        // When the user stands in the gap, 5 m from the east geofence
        let user = west.center.moved(115, bearing: .pi / 2)
        h.move(to: user)
        // Then no 100 m circle holds the user without touching a geofence, and the slot still never holds a geofence
        // the user is outside of (it would report nothing until the user came back): it holds the 100 m circle that
        // holds the user and reaches least into a geofence, so leaving it asks for a fix
        #expect(h.ownedMonitored == [RegionSelector.refreshRegionIdentifier])
        let refresh = try #require(h.selector.refreshRegion)
        #expect(refresh.contains(user))
        #expect(refresh.radius == RadiusLimits.defaultMinimum)
        #expect(refresh.notifyOnExit)
        // Walking into the east geofence and out of the circle: the fix selects again and the entry is recorded
        h.move(to: east.center, at: 60)
        #expect(h.ownedMonitored == [east.identifier])
        #expect(h.recorded.map(\.geofence.identifier) == [east.identifier])
    }

    @Test func aHostRegionCrossingAsksForAFixOnlyWhenTheGeofencesDoNotAllFit() throws {
        let fences = randomGeofences(3, seed: 3)
        var crowded = SelectorHarness(hostRegions: 19)
        crowded.send(.geofencesChanged(fences))
        #expect(crowded.send(.regionCrossed(identifier: "host_region_0", .entry)) == [.requestLocation])
        #expect(crowded.recorded.isEmpty)
        var roomy = SelectorHarness(hostRegions: 17)
        roomy.send(.geofencesChanged(fences))
        #expect(roomy.send(.regionCrossed(identifier: "host_region_0", .entry)).isEmpty)
    }

    @Test func anIFTTTNamedHostRegionIsNeverStopped() throws {
        // Given host regions named like the SDK's: one unrelated, one sharing a geofence's identifier
        let unrelated = MonitoredRegion(
            identifier: "ifttt_host_office", center: Coordinate(latitude: 37.7, longitude: -122.4), radius: 300)
        let fences = randomGeofences(40, seed: 8)
        let clash = MonitoredRegion(
            identifier: fences[0].identifier, center: Coordinate(latitude: 1, longitude: 1), radius: 500)
        var h = SelectorHarness(namedHostRegions: [unrelated, clash])
        #expect(!h.selector.owns(unrelated.identifier))
        // When the SDK monitors geofences, the user moves, and the geofences go away
        h.send(.geofencesChanged(fences))
        for step in 0..<20 {
            h.move(to: Coordinate(latitude: 37.6 + Double(step) * 0.02, longitude: -122.4), at: Double(step) * 60)
        }
        #expect(h.platform[clash.identifier] == clash)  // never replaced by the SDK's geofence
        #expect(!h.recorded.contains { $0.geofence.identifier == clash.identifier })
        // a crossing of the host region records nothing and touches no region: with more geofences than free slots it
        // only asks for a fix (a free wake-up to select again)
        #expect(h.send(.regionCrossed(identifier: unrelated.identifier, .entry)) == [.requestLocation])
        h.send(.geofencesChanged([]))
        // Then both host regions are still monitored, unchanged (the harness also fails on any stop of them)
        #expect(h.platform[unrelated.identifier] == unrelated)
        #expect(h.platform[clash.identifier] == clash)
        #expect(Set(h.platform.keys) == h.hostIds)
    }

    @Test func aRegionLeftByAnEarlierVersionIsAdoptedOnlyWhenItIsExactlyTheGeofence() throws {
        let fence = Geofence(
            triggerSubscriptionId: "home", center: Coordinate(latitude: 37, longitude: -122), radius: 200)
        var selector = RegionSelector()
        _ = selector.handle(.monitoredRegionsObserved([fence.monitoredRegion]), now: epoch)
        #expect(!selector.owns(fence.identifier))
        let effects = selector.handle(.geofencesChanged([fence]), now: epoch)
        #expect(selector.owns(fence.identifier))
        #expect(!effects.contains { if case .startMonitoring = $0 { return true } else { return false } })
        #expect(selector.handle(.geofencesChanged([]), now: epoch) == [.stopMonitoring(identifier: fence.identifier)])
    }

    @Test func removingGeofencesStopsOnlyOwnedRegions() throws {
        var h = SelectorHarness(hostRegions: 4)
        h.send(.geofencesChanged(randomGeofences(30, seed: 2)))
        h.move(to: Coordinate(latitude: 37.7, longitude: -122.4))
        h.send(.geofencesChanged([]))
        #expect(Set(h.platform.keys) == h.hostIds)
    }

    @Test func indexMatchesBruteForce() throws {
        let fences = randomGeofences(5000, seed: 42)
        let index = GeofenceIndex(fences)
        var rng = SplitMix64(seed: 4)
        for _ in 0..<50 {
            let p = Coordinate(
                latitude: Double.random(in: 37.5..<38.1, using: &rng),
                longitude: Double.random(in: -122.7..<(-122.0), using: &rng))
            #expect(index.nearest(19, to: p).map(\.geofence.identifier) == bruteForceNearest(fences, to: p, k: 19))
        }
        // Far away from everything still works (no rejection bound may hide a result).
        let antipode = Coordinate(latitude: -37.8, longitude: 57.6)
        #expect(
            index.nearest(5, to: antipode).map(\.geofence.identifier) == bruteForceNearest(fences, to: antipode, k: 5))
    }
}
