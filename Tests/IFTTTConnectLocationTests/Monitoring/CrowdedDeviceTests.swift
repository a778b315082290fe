import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A device whose host app already monitors 19 of its 20 regions: simulated walks through a grid of geofences,
/// with and without significant-change reports, every crossing compared with the route's own.
@Suite("Crowded devices: 19 host regions, geofences 400 m apart, significant changes off")
struct CrowdedDeviceTests {
    static let start = ISO8601DateFormatter().date(from: "2026-05-03T09:00:00Z")!
    static let origin = Coordinate(latitude: 37.7700, longitude: -122.4400)

    /// A 5 x 5 grid of geofences (radius 100 m), `spacing` metres apart.
    static func grid(spacing: Double) -> [Geofence] {
        (0..<25).map { n in
            Geofence(
                triggerSubscriptionId: String(format: "grid_%02d", n),
                center: origin.offset(north: Double(n / 5) * spacing, east: Double(n % 5) * spacing), radius: 100)
        }
    }

    /// A walk at 1.4 m/s, a fix every 10 s: from west of the grid along its middle row and back along the next
    /// one, passing through 10 geofences, with a detour between rows.
    static func route(spacing: Double) -> [LocationFix] {
        let waypoints = [
            origin.offset(north: 2 * spacing, east: -spacing), origin.offset(north: 2 * spacing, east: 5 * spacing),
            origin.offset(north: 3 * spacing, east: 5 * spacing), origin.offset(north: 3 * spacing, east: -spacing),
        ]
        var fixes: [LocationFix] = []
        var time = start
        for (from, to) in zip(waypoints, waypoints.dropFirst()) {
            let steps = max(1, Int(from.distance(to: to) / 14))
            for step in 0...steps where !(step == 0 && !fixes.isEmpty) {
                let f = Double(step) / Double(steps)
                let point = Coordinate(
                    latitude: from.latitude + (to.latitude - from.latitude) * f,
                    longitude: from.longitude + (to.longitude - from.longitude) * f)
                fixes.append(LocationFix(coordinate: point, horizontalAccuracy: 5, timestamp: time))
                time = time.addingTimeInterval(10)
            }
        }
        return fixes
    }

    /// The crossings the route makes, fix by fix: `identifier transition` and the fix's time.
    static func groundTruth(_ fences: [Geofence], _ fixes: [LocationFix]) -> [(String, Date)] {
        var inside = Set<String>()
        var result: [(String, Date)] = []
        for fix in fixes {
            for fence in fences {
                let now = fence.monitoredRegion.contains(fix.coordinate)
                if now, inside.insert(fence.identifier).inserted {
                    result.append(("\(fence.identifier) entry", fix.timestamp))
                }
                if !now, inside.remove(fence.identifier) != nil {
                    result.append(("\(fence.identifier) exit", fix.timestamp))
                }
            }
        }
        return result
    }

    struct Outcome: CustomStringConvertible {
        var expected: Int
        var recorded: Int
        var matched: Int
        /// The most a recorded crossing's time trails the route's, in seconds (when the sequences are equal).
        var latest: Int
        var description: String { "\(matched) of \(expected) (\(recorded) recorded, at most \(latest) s late)" }
    }

    /// Walks the route with `hostRegions` host regions; returns how many of the route's crossings were recorded.
    static func walk(spacing: Double, hostRegions: Int, significantChanges: Bool) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crowded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let monitor = SimulatedRegionMonitor(
            configuration: .init(significantChangeDistance: significantChanges ? 500 : nil))
        for n in 0..<hostRegions {
            await monitor.addHostRegion(
                MonitoredRegion(
                    identifier: "host.\(n)", center: Coordinate(latitude: 48.85, longitude: 2.35 + Double(n) / 10),
                    radius: 200))
        }
        let fences = grid(spacing: spacing)
        let fixes = route(spacing: spacing)
        let session = LocationMonitoringSession(
            monitor: monitor, store: try LocationEventStore(directory: directory), clock: ManualClock(start))
        await session.start()
        await session.update(geofences: fences)
        for fix in fixes { await monitor.move(to: fix) }
        await session.releaseHeldCrossings(now: fixes.last!.timestamp.addingTimeInterval(3600))
        let truth = groundTruth(fences, fixes)
        let events = await session.recordedEvents
        let recorded = events.map { "ifttt_\($0.triggerSubscriptionId) \($0.transition.rawValue)" }
        let late =
            recorded == truth.map(\.0)
            ? zip(events, truth).map { Int($0.occurredAt.timeIntervalSince($1.1).rounded()) }.max() ?? 0 : -1
        // Matched: the recorded sequence's longest common subsequence with the route's crossings.
        return Outcome(
            expected: truth.count, recorded: recorded.count, matched: commonSubsequence(truth.map(\.0), recorded),
            latest: late)
    }

    static func commonSubsequence(_ a: [String], _ b: [String]) -> Int {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 1...max(1, a.count) where i <= a.count {
            for j in 1...max(1, b.count) where j <= b.count {
                table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
            }
        }
        return table[a.count][b.count]
    }

    /// The figures of the "Geofences" article: crossings recorded of the route's, for each spacing, host region
    /// count and significant-change setting. Every crossing is recorded, none invented.
    @Test func everyCrossingIsRecordedWithOneFreeSlotWithOrWithoutSignificantChanges() async throws {
        var lines: [String] = []
        for spacing in [400.0, 1500.0] {
            for hosts in [19, 18, 0] {
                for significant in [true, false] {
                    let outcome = try await Self.walk(
                        spacing: spacing, hostRegions: hosts, significantChanges: significant)
                    lines.append(
                        "spacing \(Int(spacing)) m, \(hosts) host regions, significant changes \(significant ? "on" : "off"): \(outcome)"
                    )
                    #expect(outcome.expected >= 20)
                    #expect(outcome.matched == outcome.expected, "\(lines.last!)")
                    #expect(outcome.recorded == outcome.expected, "\(lines.last!)")
                }
            }
        }
        print("crowded devices:\n" + lines.joined(separator: "\n"))
    }
}

extension Coordinate {
    /// The point `north` and `east` metres away (flat-earth approximation, fine over a few kilometres).
    func offset(north: Double, east: Double) -> Coordinate {
        let metresPerDegree = 111_320.0
        return Coordinate(
            latitude: latitude + north / metresPerDegree,
            longitude: longitude + east / (metresPerDegree * cos(latitude * .pi / 180)))
    }
}
