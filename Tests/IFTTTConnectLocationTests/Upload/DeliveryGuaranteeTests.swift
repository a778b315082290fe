import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A location API that refuses batches holding certain record ids with 422, in one of the plausible styles of
/// IFTTT's error envelope, and records what it accepted.
final class RefusingLocationAPI: HTTPTransport, Sendable {
    enum Style { case namesRecordIds, namesIndexes, namesNothing }
    private struct State {
        var accepted: [String: Int] = [:]
        var count = 0
    }

    private let state = Locked(State())
    private let refused: Set<String>
    private let style: Style

    init(refusing ids: Set<UUID>, style: Style) {
        refused = Set(ids.map(\.uuidString))
        self.style = style
    }

    var requests: Int { state.withLock { $0.count } }
    var acceptedIds: [String: Int] { state.withLock { $0.accepted } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let items = (try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [[String: Any]]) ?? []
        let ids = items.map { $0["record_id"] as? String ?? "" }
        let bad = ids.enumerated().filter { refused.contains($0.element) }
        return state.withLock { state in
            state.count += 1
            guard !bad.isEmpty else {
                for id in ids { state.accepted[id, default: 0] += 1 }
                return HTTPResponse(statusCode: 200, body: Data("{}".utf8))
            }
            let details: String
            switch style {
            case .namesRecordIds:
                details = bad.map {
                    #"{"parameter":"record_id","message":"\#($0.element) is not accepted: trigger subscription removed"}"#
                }.joined(separator: ",")
            case .namesIndexes:
                details = bad.map {
                    #"{"parameter":"[\#($0.offset)].trigger_subscription_id","message":"is not a trigger subscription of this user"}"#
                }.joined(separator: ",")
            case .namesNothing:
                details = ""
            }
            return HTTPResponse(
                statusCode: 422,
                body: Data(
                    #"{"type":"error","code":"invalid_parameters","message":"Some location events are invalid; none was recorded.","details":[\#(details)]}"#
                        .utf8))
        }
    }
}

@Suite("Delivery guarantees: refused events, exact counts, storage failures, presence, dwell")
struct DeliveryGuaranteeTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID().uuidString)")
    let base = URL(string: "https://location.test/v1")!

    func events(_ count: Int) -> [RegionEvent] {
        (0..<count).map {
            RegionEvent(
                transition: $0 % 2 == 0 ? .entry : .exit, occurredAt: epoch.addingTimeInterval(Double($0)),
                triggerSubscriptionId: "sub_\($0)")
        }
    }

    func uploader(
        _ store: LocationEventStore, _ transport: any HTTPTransport, log: Recorder<String>? = nil
    ) -> LocationUploader {
        var network = ConnectionNetworkController.Configuration(
            transport: transport, locationBaseURL: base, anonymousId: "install-1")
        if let log {
            network.logHandler = { @Sendable line in log.append(line) }
        } else {
            network.logHandler = nil
        }
        return LocationUploader(
            store: store, configuration: .init(network: network),
            clock: ManualClock(epoch.addingTimeInterval(100)), random: { 0.5 })
    }

    // MARK: 1. A refused event never blocks the others

    @Test(arguments: [RefusingLocationAPI.Style.namesRecordIds, .namesIndexes, .namesNothing])
    func aRefusedEventIsDeadLetteredAndTheRestIsDelivered(style: RefusingLocationAPI.Style) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Given 120 pending events, of which the server refuses the one at position 3 and the one at 77
        let store = try LocationEventStore(directory: directory)
        let all = events(120)
        for event in all { try await store.append(event) }
        let bad = Set([all[3].recordId, all[77].recordId])
        let api = RefusingLocationAPI(refusing: bad, style: style)
        let log = Recorder<String>()

        // When one upload run happens
        let report = await uploader(store, api, log: log).uploadPending(userToken: "token")

        // Then every acceptable event was acknowledged exactly once, the refused ones are dead letters with the
        // server's reason, and none is stuck
        #expect(report.next == .done)
        #expect(report.uploaded == 118)
        #expect(report.rejected == 2)
        #expect(api.acceptedIds.count == 118)
        // Once each, but for the probes: with nothing named, an accepted event is sent again between the tries of
        // a refused one alone (harmless: the server de-duplicates by record id)
        let resent = api.acceptedIds.filter { $0.value > 1 }
        #expect(resent.count <= (style == .namesNothing ? 2 : 0), "\(resent)")
        #expect(Set(api.acceptedIds.keys) == Set(all.map(\.recordId.uuidString)).subtracting(bad.map(\.uuidString)))
        #expect(try await store.pending(now: epoch).isEmpty)
        #expect(await store.pendingCount == 0)
        let letters = try await store.deadLetters()
        #expect(Set(letters.map(\.event.recordId)) == bad)
        #expect(letters.allSatisfy { $0.rejection.statusCode == 422 && !$0.rejection.reason.isEmpty })
        if style == .namesIndexes {
            #expect(letters.allSatisfy { $0.rejection.reason.contains("is not a trigger subscription of this user") })
        }
        if style == .namesRecordIds {
            #expect(letters.allSatisfy { $0.rejection.reason.contains("trigger subscription removed") })
        }
        let refusedReports = report.progress.compactMap { if case .rejected(let letters) = $0 { letters } else { nil } }
            .flatMap { $0 }
        #expect(Set(refusedReports.map(\.event.recordId)) == bad)
        #expect(log.values.filter { $0.contains("dead-letter") }.count == 2)
        // Dead letters survive compaction and reopening; the next run sends nothing
        try await store.compact(now: epoch)
        #expect(Set(try await LocationEventStore(directory: directory).deadLetters().map(\.event.recordId)) == bad)
        let before = api.requests
        #expect(await uploader(store, api).uploadPending(userToken: "token").uploaded == 0)
        #expect(api.requests == before)
    }

    /// A proxy (or a failing server) that answers 400 to every request: with its own page, or with an error
    /// envelope that names no event. Nothing is dead-lettered, the uploader backs off, and once it recovers every
    /// event arrives.
    @Test(arguments: [false, true])
    func aRefusalOfEverythingIsAServerFailureNotAVerdictOnEachEvent(envelope: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let all = events(200)
        for event in all { try await store.append(event) }
        let proxy = RefuseEverything(envelope: envelope)
        let clock = ManualClock(epoch.addingTimeInterval(100))
        var progress: [LocationUploader.Progress] = []
        let uploader = LocationUploader(
            store: store,
            configuration: .init(network: .init(transport: proxy, locationBaseURL: base, anonymousId: "install-1")),
            clock: clock, random: { 0.5 })

        // While everything is refused: a few requests per run, a growing backoff, nothing dead-lettered
        var requests: [Int] = []
        var waits: [TimeInterval] = []
        for _ in 0..<3 {
            let before = proxy.requests
            let report = await uploader.uploadPending(userToken: "token")
            requests.append(proxy.requests - before)
            progress += report.progress
            #expect(report.rejected == 0)
            #expect(report.error?.code == .uploadFailed)
            guard case .retry(let at) = report.next else {
                Issue.record("expected a retry, got \(report.next)")
                return
            }
            waits.append(at.timeIntervalSince(clock.now))
            clock.advance(to: at)
        }
        // Without an envelope the first refusal says enough; with one, the first batch is halved down to its first
        // event, which is tried alone between probes (the next event alone: nothing was accepted yet) until nine
        // requests in a row were refused; no later batch is sent before it is settled.
        #expect(requests == (envelope ? [9, 9, 9] : [1, 1, 1]))
        #expect(waits == [1.5, 3, 6])
        #expect(try await store.deadLetters().isEmpty)
        #expect(try await store.pending(now: clock.now) == all)
        #expect(!progress.contains { if case .rejected = $0 { true } else { false } })

        // Recovered: every event is delivered, none lost, none dead-lettered
        proxy.recovered = true
        let report = await uploader.uploadPending(userToken: "token")
        #expect(report.uploaded == 200 && report.next == .done && report.error == nil)
        #expect(proxy.accepted == all.map(\.recordId.uuidString))
        #expect(try await store.deadLetters().isEmpty)
    }

    @Test func refusalReportsUseThe28ShapesWithTheReasonBeside() async throws {
        let event = RegionEvent(transition: .exit, occurredAt: epoch, triggerSubscriptionId: "abc")
        var refused = event
        refused.rejection = EventRejection(statusCode: 422, reason: "gone", rejectedAt: epoch)
        let report = LocationEvent.uploadFailed(region: refused, error: .networkError, delay: 1)
        #expect(report.rejection?.reason == "gone")
        #expect(report.regionEvent == event)  // the reason is not part of the event's identity
        #expect(LocationEvent.uploadFailed(region: event, error: .networkError, delay: 1).rejection == nil)
        #expect(event.kind == .exit)
        // 2.8's exhaustive switches compile
        func describe(_ e: LocationEvent) -> String {
            switch e {
            case .reported(let region): return "reported \(region.kind.rawValue)"
            case .uploadAttempted(let region, let delay): return "attempted \(region.kind.rawValue) \(delay)"
            case .uploadSuccessful(let region, let delay): return "ok \(region.kind.rawValue) \(delay)"
            case .uploadFailed(let region, let error, let delay):
                switch error {
                case .crossedSanityThreshold: return "dropped \(region.kind.rawValue) \(delay)"
                case .networkError: return "failed \(region.kind.rawValue) \(delay)"
                }
            }
        }
        #expect(describe(report) == "failed exit 1.0")
        let closure: LocationEventsClosure = { _ in }
        closure([report])
        let kind: RegionEventKind = .entry
        #expect(kind.rawValue == "entry")
    }

    /// The example of the Synchronization article's "Event reports" section.
    @Test func theEventReportsExampleCompiles() {
        let printed = Recorder<String>()
        @Sendable func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        let closure: LocationEventsClosure = { events in
            for event in events {
                switch event {
                case .reported(let region):
                    print("recorded", region.kind)
                case .uploadAttempted(let region, _):
                    print("sending", region.kind)
                case .uploadSuccessful(let region, let delay):
                    print("delivered", region.kind, "after", delay, "s")
                case .uploadFailed(let region, let error, _):
                    if let rejection = event.rejection {
                        print("refused for good:", region.kind, rejection.reason)
                    } else {
                        print("will retry:", region.kind, error)
                    }
                }
            }
        }
        var refused = RegionEvent(transition: .entry, occurredAt: epoch, triggerSubscriptionId: "a")
        refused.rejection = EventRejection(statusCode: 422, reason: "unknown trigger", rejectedAt: epoch)
        closure([.reported(region: refused), .uploadFailed(region: refused, error: .networkError, delay: 2)])
        #expect(printed.values == ["recorded entry", "refused for good: entry unknown trigger"])
    }

    // MARK: 6. Exact counts, one scan per run, skipped bytes

    @Test func anIdAcknowledgedTwiceDoesNotDriftAndTheCapHolds() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory, policy: .init(maximumPendingCount: 5))
        let all = events(5)
        for event in all { try await store.append(event) }
        try await store.acknowledge([all[0].recordId])
        try await store.acknowledge([all[0].recordId])  // a re-sent batch acknowledged again
        try await store.acknowledge([all[0].recordId, all[0].recordId])
        #expect(await store.pendingCount == 4)
        try await store.append(events(6)[5])
        #expect(await store.pendingCount == 5)
        // The cap holds: the sixth unacknowledged event is refused
        await #expect(throws: LocationError.self) {
            try await store.append(
                RegionEvent(transition: .entry, occurredAt: epoch.addingTimeInterval(50), triggerSubscriptionId: "x"))
        }
        #expect(try await store.pending(now: epoch).count == 5)
    }

    @Test func anUploadRunScansTheJournalOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        for event in events(1_000) { try await store.append(event) }
        let api = RefusingLocationAPI(refusing: [], style: .namesNothing)
        let scans = await store.statistics.journalScans
        let report = await uploader(store, api).uploadPending(userToken: "token")
        #expect(report.uploaded == 1_000)
        #expect(api.requests == 20)
        #expect(await store.statistics.journalScans - scans == 1)
        // The next run compacts with its single scan
        _ = await uploader(store, api).uploadPending(userToken: "token")
        #expect(await store.statistics.journalScans - scans == 2)
        let size =
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("events.journal").path)[
                .size] as? Int
        #expect(size == 0)
    }

    @Test func skippedBytesAreCountedAndLogged() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        for event in events(3) { try await store.append(event) }
        let journal = directory.appendingPathComponent("events.journal")
        var bytes = try Data(contentsOf: journal)
        bytes.insert(contentsOf: Data(repeating: 0x41, count: 17), at: bytes.count / 2 + 3)
        try bytes.write(to: journal)
        let log = Recorder<String>()
        let reopened = try LocationEventStore(directory: directory, logHandler: { log.append($0) })
        #expect(await reopened.statistics.skippedBytes > 0)
        #expect(await reopened.statistics.damagedScans == 1)
        #expect(log.values.count == 1)
        #expect(log.values.first?.contains("damaged bytes") == true)
    }

    @Test func aRunStartedWhileAStoppedOneStillUploadsWaitsForIt() async throws {
        // The uploader keeps no busy flag: the synchronizer never lets two runs (so two uploads) overlap. The gate
        // holds uploads and ignores cancellation, as a request already on the wire does.
        let gate = UploadGate()
        let h = SyncHarness(adjust: { $0.transport = gate })
        defer { h.cleanUp() }
        gate.inner = h.api
        h.api.setConnection("gx", triggers: [SynchronizerTests.home])
        await h.synchronizer.setup(with: SynchronizerTests.credentials)
        await h.synchronizer.activate(connections: ["gx"])
        await h.synchronizer.waitUntilIdle()
        let store = try #require(await h.synchronizer.eventStore)
        try await store.append(events(1)[0])
        gate.hold = true
        let first = Task { await h.synchronizer.synchronize(source: .regionEvent) }
        await gate.waitForHeld()
        await h.synchronizer.stopCurrentSynchronization()
        #expect(await first.value == .failed)
        let second = Recorder<SynchronizationResult>()
        await h.synchronizer.synchronize(source: .regionEvent) { second.append($0) }
        // Anything the second run does before waiting has happened once this call, enqueued after it, returns.
        _ = await h.synchronizer.storedConnections
        gate.release()
        await h.synchronizer.waitUntilIdle()
        #expect(gate.mostInFlight == 1)
        #expect(gate.uploads == 1)
        #expect(second.values == [.noData])
        #expect(try await store.pending(now: epoch.addingTimeInterval(100)).isEmpty)
    }
}

/// A transport that forwards to `inner`, holding location uploads while `hold` is set whatever their task's
/// cancellation, and counting how many were in flight at once.
final class UploadGate: HTTPTransport, Sendable {
    private struct State {
        var inner: FakeIFTTT?
        var hold = false
        var held: [CheckedContinuation<Void, Never>] = []
        var heldWaiter: CheckedContinuation<Void, Never>?
        var inFlight = 0
        var mostInFlight = 0
        var uploads = 0
    }
    private let state = Locked(State())
    var inner: FakeIFTTT? {
        get { state.withLock { $0.inner } }
        set { state.withLock { $0.inner = newValue } }
    }
    var hold: Bool {
        get { state.withLock { $0.hold } }
        set { state.withLock { $0.hold = newValue } }
    }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    var uploads: Int { state.withLock { $0.uploads } }

    /// Waits until an upload is held.
    func waitForHeld() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if !state.held.isEmpty { return true }
                state.heldWaiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Stops holding and lets the held uploads go on.
    func release() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.hold = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        guard request.url.path.hasSuffix("/location_events") else {
            return try await state.withLock { $0.inner }!.send(request)
        }
        let hold = state.withLock { state -> Bool in
            state.uploads += 1
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            return state.hold
        }
        if hold {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.held.append(continuation)
                    defer { state.heldWaiter = nil }
                    return state.heldWaiter
                }
                waiter?.resume()
            }
        }
        state.withLock { $0.inFlight -= 1 }
        return HTTPResponse(statusCode: 200)
    }
}

final class RefuseEverything: HTTPTransport, Sendable {
    private struct State {
        var requests = 0
        var recovered = false
        var accepted: [String] = []
    }

    private let state = Locked(State())
    let envelope: Bool

    init(envelope: Bool) { self.envelope = envelope }

    var requests: Int { state.withLock { $0.requests } }
    var accepted: [String] { state.withLock { $0.accepted } }
    var recovered: Bool {
        get { state.withLock { $0.recovered } }
        set { state.withLock { $0.recovered = newValue } }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let items = (try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [[String: Any]]) ?? []
        return state.withLock { state in
            state.requests += 1
            if state.recovered {
                state.accepted += items.map { $0["record_id"] as? String ?? "" }
                return HTTPResponse(statusCode: 200, body: Data("{}".utf8))
            }
            let body =
                envelope
                ? #"{"type":"error","code":"bad_request","message":"Bad request"}"#
                : "<html><body><h1>400 Bad Request</h1>Request Header Or Cookie Too Large</body></html>"
            return HTTPResponse(statusCode: 400, body: Data(body.utf8))
        }
    }
}
