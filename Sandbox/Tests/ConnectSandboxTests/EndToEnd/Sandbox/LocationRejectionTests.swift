@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectLocation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTConnectTesting
import NIOConcurrencyHelpers
import Testing

@Suite("Refused location events never block: --reject-location-events end to end")
struct LocationRejectionTests {
    /// `Sandbox/Examples/jittery-boundary.gpx`.
    static var jitteryGPX: URL {
        LocationTest.storeTripGPX.deletingLastPathComponent().appendingPathComponent("jittery-boundary.gpx")
    }

    /// A record id that is the same in every run, so two runs with one seed can be compared.
    static func recordId(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", 0xA11CE000 + n))!
    }

    struct Run {
        var acknowledged: [String: Int] = [:]  // record id -> deliveries at the server
        var deadLetters: [DeadLetter] = []
        var pending = 0
        var requests = 0
        var failures = 0
    }

    /// Uploads `count` events through a sandbox that refuses events with probability `p` (and fails `failRate` of
    /// requests with 503), on an injected clock, until the uploader is done.
    func upload(count: Int, p: Double, failRate: Double = 0, seed: UInt64) async throws -> Run {
        var configuration = SandboxTest.configuration(failRate: failRate, randomSeed: seed)
        configuration.rejectLocationEvents = p
        return try await SandboxServer.withRunning(configuration) { root in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try LocationEventStore(directory: directory)
            let start = Date()
            for n in 0..<count {
                try await store.append(
                    RegionEvent(
                        recordId: Self.recordId(n), transition: n % 2 == 0 ? .entry : .exit,
                        occurredAt: start.addingTimeInterval(Double(n)), triggerSubscriptionId: "alice-arrive-trigger-1"
                    ))
            }
            let clock = ManualClock(start)
            let counter = RequestCounter()
            let uploader = LocationUploader(
                store: store,
                configuration: .init(
                    network: .sandbox(root), scheduler: .init(batchSize: 50, baseDelay: 2, maximumDelay: 60)),
                clock: ReadingClock { clock.now }, random: { 0.5 })
            var rounds = 0
            upload: while rounds < 500 {
                rounds += 1
                let report = await uploader.uploadPending(userToken: SandboxTest.aliceToken)
                for progress in report.progress {
                    switch progress {
                    case .attempted: await counter.increment()
                    case .failed: await counter.fail()
                    default: break
                    }
                }
                switch report.next {
                case .done: break upload
                case .retry(let at): clock.advance(to: at)
                case .paused:
                    Issue.record("unexpected \(report.next)")
                    break upload
                }
            }
            var run = Run()
            for event in try await LocationTest.serverEvents(root: root) {
                run.acknowledged[event.record_id] = event.deliveries
            }
            run.deadLetters = try await store.deadLetters()
            run.pending = try await store.pending(now: clock.now).count
            run.requests = await counter.value
            run.failures = await counter.failures
            return run
        }
    }

    @Test func everyAcceptableEventIsAcknowledgedOnceAndEveryRefusedOneIsDeadLetteredWithItsReason() async throws {
        let all = Set((0..<120).map { Self.recordId($0).uuidString })
        let run = try await upload(count: 120, p: 0.1, failRate: 0.3, seed: 3)
        #expect(run.failures > 0, "the sandbox injected no 503")

        let refused = Set(run.deadLetters.map(\.event.recordId.uuidString))
        #expect(!refused.isEmpty, "the sandbox refused nothing")
        #expect(refused.count < 40)
        #expect(refused.union(run.acknowledged.keys) == all)  // nothing lost
        #expect(refused.isDisjoint(with: run.acknowledged.keys))  // a refused event is not recorded
        #expect(run.acknowledged.values.allSatisfy { $0 == 1 })  // acknowledged exactly once
        #expect(run.pending == 0)  // none stuck
        for letter in run.deadLetters {
            #expect(letter.rejection.statusCode == 422)
            #expect(letter.rejection.reason.contains(letter.event.recordId.uuidString))
            #expect(letter.rejection.reason.contains("--reject-location-events"))
        }
        print(
            "reject-location-events 0.1 + fail-rate 0.3: \(run.acknowledged.count) acknowledged once, \(refused.count) dead-lettered, \(run.requests) requests (\(run.failures) failed with 503)"
        )
    }

    @Test func theSameSeedRefusesTheSameEvents() async throws {
        let first = try await upload(count: 60, p: 0.25, seed: 7)
        let second = try await upload(count: 60, p: 0.25, seed: 7)
        let other = try await upload(count: 60, p: 0.25, seed: 8)
        #expect(Set(first.deadLetters.map(\.event.recordId)) == Set(second.deadLetters.map(\.event.recordId)))
        #expect(Set(first.deadLetters.map(\.event.recordId)) != Set(other.deadLetters.map(\.event.recordId)))
        #expect(first.pending == 0 && second.pending == 0 && other.pending == 0)
    }

    /// The SDK's synchronization over real HTTP: alice's gx-arrive-store geofence, 12 arrivals, a sandbox that
    /// refuses half the events. Every reported crossing ends either acknowledged once or reported refused with the
    /// server's reason; nothing is left pending.
    @Test func theSynchronizerReportsEveryRefusalAndDeliversTheRest() async throws {
        var configuration = SandboxTest.configuration(randomSeed: 12)
        configuration.rejectLocationEvents = 0.5
        try await SandboxServer.withRunning(configuration) { root in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let monitor = SimulatedRegionMonitor()
            let clock = ManualClock(Date())
            var setup = Synchronizer.Configuration(
                regionMonitor: monitor, storageDirectory: directory, anonymousId: "install-e2e",
                secureStore: FileSecureStore(directory: directory), clock: ReadingClock { clock.now }, random: { 0.5 })
            setup.useServer(at: root)
            let synchronizer = Synchronizer(configuration: setup)
            let reports = ReportLog()
            synchronizer.setLocationEventReportedClosure { reports.add($0) }
            await synchronizer.setup(with: ConnectionCredentials(userToken: SandboxTest.aliceToken))
            await synchronizer.activate(connections: ["gx-arrive-store"])
            await synchronizer.waitUntilIdle()
            #expect(await synchronizer.monitoredRegions.map(\.identifier) == ["ifttt_alice-arrive-trigger-1"])
            // 12 arrivals, each 120 s long (past the 30 s dwell time); the last move, outside, lets the 12th settle.
            for n in 0..<25 {
                clock.advance(to: clock.now.addingTimeInterval(120))
                let latitude = n % 2 == 0 ? 37.7880 : 37.7840  // outside, then inside the 150 m circle
                await monitor.move(
                    to: LocationFix(
                        latitude: latitude, longitude: -122.4075, horizontalAccuracy: 5, timestamp: clock.now))
                await synchronizer.waitUntilIdle()
            }
            #expect(await synchronizer.synchronize(source: .forceUpdate) != .failed)
            let events = reports.all
            let reported = events.compactMap {
                if case .reported(let region) = $0 { region.recordId.uuidString } else { nil }
            }
            let refused = events.compactMap { event -> String? in
                event.rejection.map { _ in event.regionEvent.recordId.uuidString }
            }
            let delivered = events.compactMap {
                if case .uploadSuccessful(let region, _) = $0 { region.recordId.uuidString } else { nil }
            }
            #expect(reported.count == 12)
            #expect(!refused.isEmpty && !delivered.isEmpty)
            #expect(Set(refused).union(delivered) == Set(reported))
            #expect(Set(refused).isDisjoint(with: delivered))
            #expect(events.compactMap(\.rejection).allSatisfy { $0.statusCode == 422 && $0.reason.contains("refused") })
            let server = try await LocationTest.serverEvents(root: root)
            #expect(Set(server.map(\.record_id)) == Set(delivered))
            #expect(server.allSatisfy { $0.deliveries == 1 })
            let store = try #require(await synchronizer.eventStore)
            #expect(try await store.pending(now: clock.now).isEmpty)
            #expect(Set(try await store.deadLetters().map(\.event.recordId.uuidString)) == Set(refused))
        }
    }

    @Test func theSimulateCommandListsRejectedEventsBesideAcknowledgedOnes() async throws {
        let executable = try LocationTest.executable()
        var configuration = SandboxTest.configuration(randomSeed: 5)
        configuration.rejectLocationEvents = 0.7
        try await SandboxServer.withRunning(configuration) { root in
            let child = try ChildProcess(
                executable: executable,
                arguments: [
                    "location", "simulate", "--gpx", Self.jitteryGPX.path, "--connection", "gx-arrive-store",
                    "--api", root.absoluteString, "--json", "--dwell", "0",
                ])
            let (status, _) = await child.finish()
            #expect(status == 0)
            let output = child.lines.joined(separator: "\n")
            // Without the dwell filter, an entry-only trigger: 10 jitter blips, the arrival and the re-entry after
            // the blip out
            #expect(output.contains("Events recorded (12):"))
            #expect(output.contains("refused by the server and dead-lettered"))
            let last = try #require(child.lines.last)
            let listing = try JSONDecoder().decode([LocationTrip.ServerEvent].self, from: Data(last.utf8))
            #expect(listing.count == 12)
            let rejected = listing.filter { $0.status == "rejected" }
            let acknowledged = listing.filter { $0.status == "acknowledged" }
            #expect(!rejected.isEmpty)
            #expect(rejected.count + acknowledged.count == 12)
            #expect(rejected.allSatisfy { $0.statusCode == 422 && ($0.reason ?? "").contains($0.recordId) })
            let server = try await LocationTest.serverEvents(root: root)
            #expect(Set(server.map(\.record_id)) == Set(acknowledged.map(\.recordId)))
            #expect(server.allSatisfy { $0.deliveries == 1 })
        }
    }

    /// A misconfigured proxy in front of the sandbox answers 400 to every request (its own HTML page), then is
    /// fixed. Every run sends one request and backs off; nothing is dead-lettered; after the fix all 200 events
    /// reach the sandbox once each.
    @Test func aProxyAnswering400ToEverythingLosesNothingOnceItRecovers() async throws {
        try await SandboxServer.withRunning(SandboxTest.configuration()) { root in
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try LocationEventStore(directory: directory)
            let start = Date()
            for n in 0..<200 {
                try await store.append(
                    RegionEvent(
                        recordId: Self.recordId(n), transition: n % 2 == 0 ? .entry : .exit,
                        occurredAt: start.addingTimeInterval(Double(n)), triggerSubscriptionId: "alice-arrive-trigger-1"
                    ))
            }
            let proxy = MisconfiguredProxy()
            let clock = ManualClock(start)
            let uploader = LocationUploader(
                store: store, configuration: .init(network: .sandbox(root, transport: proxy)),
                clock: ReadingClock { clock.now }, random: { 0.5 })
            var runs = 0
            while runs < 5 {
                runs += 1
                let report = await uploader.uploadPending(userToken: SandboxTest.aliceToken)
                #expect(report.rejected == 0 && report.uploaded == 0)
                guard case .retry(let at) = report.next else {
                    Issue.record("expected a backoff, got \(report.next)")
                    return
                }
                clock.advance(to: at)
            }
            #expect(proxy.refused == 5)  // one request per run
            #expect(try await store.deadLetters().isEmpty)
            #expect(try await store.pending(now: clock.now).count == 200)
            #expect(try await LocationTest.serverEvents(root: root).isEmpty)

            proxy.fixed = true
            let report = await uploader.uploadPending(userToken: SandboxTest.aliceToken)
            #expect(report.uploaded == 200 && report.next == .done && report.rejected == 0)
            let server = try await LocationTest.serverEvents(root: root)
            #expect(server.map(\.record_id) == (0..<200).map { Self.recordId($0).uuidString })
            #expect(server.allSatisfy { $0.deliveries == 1 })
            print(
                "400-to-everything proxy: \(runs) runs, \(proxy.refused) refused requests, 0 dead letters, 200 of 200 delivered after the fix"
            )
        }
    }

    /// `location simulate` with the SDK's defaults (no --dwell): one arrival from the jittery trip.
    @Test func theSimulateCommandRecordsOneArrivalFromAJitteryTripWithTheDefaults() async throws {
        let executable = try LocationTest.executable()
        try await SandboxServer.withRunning(SandboxTest.configuration()) { root in
            let child = try ChildProcess(
                executable: executable,
                arguments: [
                    "location", "simulate", "--gpx", Self.jitteryGPX.path, "--connection", "gx-arrive-store",
                    "--api", root.absoluteString, "--json",
                ])
            let (status, _) = await child.finish()
            #expect(status == 0)
            let listing = try JSONDecoder().decode(
                [LocationTrip.ServerEvent].self, from: Data(try #require(child.lines.last).utf8))
            #expect(listing.map { "\($0.eventType) \($0.status ?? "")" } == ["entry acknowledged"])
            #expect(child.lines.contains("  ifttt_alice-arrive-trigger-1: 1 entries, 0 exits"))
        }
    }

    @Test func theSimulateCommandsDwellFilterRecordsOneArrivalFromAJitteryTrip() async throws {
        let executable = try LocationTest.executable()
        try await SandboxServer.withRunning(SandboxTest.configuration()) { root in
            let child = try ChildProcess(
                executable: executable,
                arguments: [
                    "location", "simulate", "--gpx", Self.jitteryGPX.path, "--connection", "gx-arrive-store",
                    "--api", root.absoluteString, "--dwell", "60", "--json",
                ])
            let (status, _) = await child.finish()
            #expect(status == 0)
            let listing = try JSONDecoder().decode(
                [LocationTrip.ServerEvent].self, from: Data(try #require(child.lines.last).utf8))
            #expect(
                listing.map { "\($0.eventType) \($0.occurredAt) \($0.status ?? "")" } == [
                    "entry 2026-05-01T10:04:20+0000 acknowledged"
                ])
        }
    }
}

/// The location events a synchronization reported, from whichever thread reports them.
final class ReportLog: Sendable {
    private let stored = NIOLockedValueBox<[LocationEvent]>([])
    func add(_ events: [LocationEvent]) { stored.withLockedValue { $0 += events } }
    var all: [LocationEvent] { stored.withLockedValue { $0 } }
}

/// A proxy that answers 400 with its own HTML page to everything until it is fixed, then forwards to the sandbox.
final class MisconfiguredProxy: HTTPTransport, Sendable {
    private let state = NIOLockedValueBox((fixed: false, refused: 0))
    private let upstream = URLSessionTransport()

    var fixed: Bool {
        get { state.withLockedValue { $0.fixed } }
        set { state.withLockedValue { $0.fixed = newValue } }
    }
    var refused: Int { state.withLockedValue { $0.refused } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let forward = state.withLockedValue { state -> Bool in
            if !state.fixed { state.refused += 1 }
            return state.fixed
        }
        guard forward else {
            return HTTPResponse(
                statusCode: 400, headers: ["content-type": "text/html"],
                body: Data("<html><body><h1>400 Bad Request</h1><p>proxy</p></body></html>".utf8))
        }
        return try await upstream.send(request)
    }
}

actor RequestCounter {
    private(set) var value = 0
    private(set) var failures = 0
    func increment() { value += 1 }
    func fail() { failures += 1 }
}
