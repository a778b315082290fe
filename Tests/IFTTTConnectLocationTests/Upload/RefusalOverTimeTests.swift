import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A location API that answers 400 with IFTTT's error envelope naming nothing: to every request once it has
/// accepted `acceptFirst` batches (a server or proxy that starts refusing mid-run), and always to a batch holding one
/// of `bad`. Otherwise 200. It keeps the size of every batch and the record ids it accepted.
final class RefusingAPI: HTTPTransport, Sendable {
    private struct State {
        var acceptFirst: Int?
        var bad: Set<String>
        var sizes: [Int] = []
        var accepted: [String] = []
        var refuseAll = false
    }

    private let state: Locked<State>

    init(acceptFirst: Int? = nil, bad: Set<UUID> = []) {
        state = Locked(State(acceptFirst: acceptFirst, bad: Set(bad.map(\.uuidString))))
    }

    var sizes: [Int] { state.withLock { $0.sizes } }
    var accepted: [String] { state.withLock { $0.accepted } }
    /// Stops refusing everything (the outage is over).
    func recover() { state.withLock { $0.acceptFirst = nil } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let items = (try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [[String: Any]]) ?? []
        let ids = items.map { $0["record_id"] as? String ?? "" }
        return state.withLock { state in
            state.sizes.append(ids.count)
            let outage = state.acceptFirst.map { state.accepted.count >= $0 * 50 } ?? false
            if outage || ids.contains(where: state.bad.contains) {
                return HTTPResponse(
                    statusCode: 400,
                    body: Data(#"{"type":"error","code":"bad_request","message":"Invalid location event"}"#.utf8))
            }
            state.accepted += ids
            return HTTPResponse(statusCode: 200, body: Data("{}".utf8))
        }
    }
}

/// Issue 29, D2 and D3: refusals are judged over time, not per request.
@Suite("Refusals judged over time (issue 29, D2 and D3)")
struct RefusalOverTimeTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refusal-\(UUID().uuidString)")
    let base = URL(string: "https://location.test/v1")!

    func filledStore(_ count: Int, startingAt start: Int = 0) async throws -> (LocationEventStore, [RegionEvent]) {
        let store = try LocationEventStore(directory: directory)
        let events = (start..<start + count).map {
            RegionEvent(
                transition: $0 % 2 == 0 ? .entry : .exit, occurredAt: epoch.addingTimeInterval(Double($0)),
                triggerSubscriptionId: "sub_\($0)")
        }
        for event in events { try await store.append(event) }
        return (store, events)
    }

    func uploader(_ store: LocationEventStore, _ api: RefusingAPI, clock: ManualClock) -> LocationUploader {
        var network = ConnectionNetworkController.Configuration(
            transport: api, locationBaseURL: base, anonymousId: "install-1")
        network.logHandler = nil
        return LocationUploader(
            store: store, configuration: .init(network: network), clock: clock,
            random: { 0.5 })
    }

    /// D2: 200 events in batches of 50; the first batch is accepted, then every request is refused with the
    /// envelope. Before: 150 of 150 dead-lettered in one run after 297 requests without a back-off.
    @Test func refusalsThatStartMidRunBackOffAndKeepEveryEvent() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(200)
        let api = RefusingAPI(acceptFirst: 1)
        let clock = ManualClock(epoch.addingTimeInterval(300))
        let uploader = uploader(store, api, clock: clock)
        var requests: [Int] = []
        for _ in 0..<5 {
            let before = api.sizes.count
            let report = await uploader.uploadPending(userToken: "token")
            requests.append(api.sizes.count - before)
            #expect(report.rejected == 0)
            guard case .retry(let at) = report.next else {
                Issue.record("expected a back-off, got \(report.next)")
                return
            }
            #expect(at > clock.now)
            clock.advance(to: at)
        }
        #expect(requests.allSatisfy { $0 <= 10 }, "\(requests)")
        #expect(try await store.deadLetters().isEmpty)
        #expect(try await store.pending(now: clock.now).map(\.recordId) == events.dropFirst(50).map(\.recordId))
        // The server recovers: every kept event arrives.
        api.recover()
        let report = await uploader.uploadPending(userToken: "token")
        #expect(report.uploaded == 150 && report.rejected == 0)
        #expect(Set(api.accepted) == Set(events.map(\.recordId.uuidString)))
    }

    /// D3: one bad event the envelope does not name, in a backlog of 1 + 1 later good event, 2, 30 or 200 events:
    /// it is isolated and dead-lettered, and every good event delivered, within a day of runs (long before any
    /// event expires after 7 days). Before: a 30-event backlog delivered 0 of 29 good events in 10 rounds.
    @Test(arguments: [2, 30, 200])
    func aBadEventIsIsolatedInABacklogOfAnySize(backlog: Int) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(backlog)
        let bad = events[backlog / 3]
        let api = RefusingAPI(bad: [bad.recordId])
        let clock = ManualClock(epoch.addingTimeInterval(300))
        let uploader = uploader(store, api, clock: clock)
        var rounds = 0
        while try await !store.pending(now: clock.now).isEmpty, rounds < 10 {
            rounds += 1
            if case .retry(let at) = await uploader.uploadPending(userToken: "token").next {
                clock.advance(to: max(at, clock.now))
            }
        }
        #expect(rounds <= 2, "\(rounds) rounds, batches \(api.sizes)")
        #expect(clock.now < epoch.addingTimeInterval(86_400))
        #expect(Set(api.accepted) == Set(events.filter { $0 != bad }.map(\.recordId.uuidString)))
        let letters = try await store.deadLetters()
        #expect(letters.map(\.event.recordId) == [bad.recordId])
        #expect(letters.first?.rejection.reason == "Invalid location event")
    }

    /// A backlog of one bad event: alone, its refusal cannot be told from a server refusing everything, so it is
    /// kept (never dead-lettered for "everything was refused"); the next good event is accepted and isolates it.
    @Test func aLoneBadEventIsKeptUntilAnAcceptanceIsolatesIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(1)
        let api = RefusingAPI(bad: [events[0].recordId])
        let clock = ManualClock(epoch.addingTimeInterval(300))
        let uploader = uploader(store, api, clock: clock)
        for _ in 0..<3 {
            let report = await uploader.uploadPending(userToken: "token")
            #expect(report.rejected == 0)
            if case .retry(let at) = report.next { clock.advance(to: at) }
        }
        #expect(try await store.deadLetters().isEmpty)
        let good = RegionEvent(transition: .exit, occurredAt: epoch + 500, triggerSubscriptionId: "later")
        try await store.append(good)
        let report = await uploader.uploadPending(userToken: "token")
        #expect(report.uploaded == 1 && report.rejected == 1)
        #expect(Set(api.accepted) == [good.recordId.uuidString])  // sent again as the probe, which is harmless
        #expect(try await store.deadLetters().map(\.event.recordId) == [events[0].recordId])
    }

    /// Dead-lettering needs a name or isolation: a run whose every request is refused alike dead-letters nothing,
    /// whatever the backlog's size.
    @Test(arguments: [1, 2, 30, 200])
    func everythingRefusedDeadLettersNothing(backlog: Int) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try await filledStore(backlog)
        let api = RefusingAPI(acceptFirst: 0)
        let clock = ManualClock(epoch.addingTimeInterval(300))
        let uploader = uploader(store, api, clock: clock)
        for _ in 0..<4 {
            let report = await uploader.uploadPending(userToken: "token")
            #expect(report.rejected == 0)
            guard case .retry(let at) = report.next else {
                Issue.record("expected a back-off, got \(report.next)")
                return
            }
            clock.advance(to: at)
        }
        #expect(try await store.deadLetters().isEmpty)
        #expect(try await store.pending(now: clock.now).count == backlog)
    }
}
