import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// One free slot (19 host regions far away, so they wake nothing), significant-change reports off: a walk through two
/// geofences whose edges are 60 m apart (no refresh region fits between them), then past six isolated geofences 400 to
/// 600 m apart, with a 60 s stay in each. Once past the close pair, the free slot must hold a refresh region, never a
/// geofence the walker has left: nothing else would wake the SDK before the next geofence.
@Suite("Crowded device: a close pair, then isolated geofences, significant changes off")
struct ClosePairTests {
    static let origin = Coordinate(latitude: 37.7700, longitude: -122.4400)
    static let radius = 100.0

    static func layout() -> CrowdedGridTests.Layout {
        let hosts = (0..<19).map {
            MonitoredRegion(
                identifier: "host.\($0)", center: origin.offset(north: 8_000, east: Double($0) * 300), radius: 100)
        }
        var fences = [
            Geofence(triggerSubscriptionId: "pair_a", center: origin, radius: radius),
            Geofence(triggerSubscriptionId: "pair_b", center: origin.offset(north: 0, east: 260), radius: radius),
        ]
        var east = 260.0
        for (n, gap) in [400.0, 600, 450, 550, 500, 420].enumerated() {
            east += gap
            fences.append(
                Geofence(
                    triggerSubscriptionId: "alone_\(n)",
                    center: origin.offset(north: n % 2 == 0 ? 40 : -40, east: east),
                    radius: radius))
        }
        return CrowdedGridTests.Layout(hosts: hosts, fences: fences)
    }

    static func walk(_ layout: CrowdedGridTests.Layout) -> [LocationFix] {
        var walker = CrowdedGridTests.Walker(at: origin.offset(north: 0, east: -400))
        for fence in layout.fences {
            walker.walk(to: fence.center)
            walker.stay(seconds: 60)
        }
        walker.walk(to: (layout.fences.last?.center ?? origin).offset(north: 0, east: 400))
        return walker.fixes
    }

    /// Counts the oracle's crossings that were recorded (each at most the dwell time late) and the expected ones.
    static func measure(significantChanges: Bool) async -> (recorded: Int, expected: Int, invented: Int) {
        let layout = layout()
        let fixes = walk(layout)
        let expected = CrowdedGridTests.oracle(layout.fences, fixes)
        let events = await CrowdedGridTests.run(fixes, layout: layout, significantChanges: significantChanges)
        let outcome = CrowdedGridTests.compare(expected: expected, recorded: events)
        let total = expected.values.reduce(0) { $0 + $1.count }
        return (2 * outcome.longStaysRecorded, total, outcome.invented)
    }

    @Test func everyCrossingAfterAClosePairIsRecordedWithSignificantChangesOff() async {
        let off = await Self.measure(significantChanges: false)
        print(
            "close pair, significant changes off: \(off.recorded) of \(off.expected) crossings recorded, \(off.invented) invented"
        )
        #expect(off.expected == 16)
        #expect(off.recorded == off.expected, "\(off.recorded) of \(off.expected) crossings recorded")
        #expect(off.invented == 0)
    }

    @Test func everyCrossingAfterAClosePairIsRecordedWithSignificantChangesOn() async {
        let on = await Self.measure(significantChanges: true)
        print(
            "close pair, significant changes on: \(on.recorded) of \(on.expected) crossings recorded, \(on.invented) invented"
        )
        #expect(on.recorded == on.expected, "\(on.recorded) of \(on.expected) crossings recorded")
        #expect(on.invented == 0)
    }
}
