import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A location API that refuses requests (400 with IFTTT's error envelope, naming nothing) as `refuses` decides from
/// the request's number (from 0) and its events, accepts the others, and keeps every event it accepted, in order of
/// arrival, once (it de-duplicates by record id, as IFTTT does).
final class ScriptedRefusalAPI: HTTPTransport, Sendable {
    private struct State {
        var requests = 0
        var arrived: [String] = []
        var seen: Set<String> = []
    }

    private let state = Locked(State())
    private let refuses: @Sendable (_ request: Int, _ ids: [String]) -> Bool

    init(refuses: @escaping @Sendable (_ request: Int, _ ids: [String]) -> Bool) { self.refuses = refuses }

    var arrived: [String] { state.withLock { $0.arrived } }
    var requestCount: Int { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let items = (try? JSONSerialization.jsonObject(with: request.body ?? Data()) as? [[String: Any]]) ?? []
        let ids = items.map { $0["record_id"] as? String ?? "" }
        let number = state.withLock { state -> Int in
            state.requests += 1
            return state.requests - 1
        }
        if refuses(number, ids) {
            return HTTPResponse(
                statusCode: 400,
                body: Data(#"{"type":"error","code":"bad_request","message":"Invalid location event"}"#.utf8))
        }
        state.withLock { state in
            for id in ids where state.seen.insert(id).inserted { state.arrived.append(id) }
        }
        return HTTPResponse(statusCode: 200, body: Data("{}".utf8))
    }
}

/// Refusals that name nothing: events arrive in the order they happened, random refusals dead-letter nothing, and a
/// lone bad event holds nothing back for more than one back-off step.
@Suite("Refusals: order, random refusals, a lone bad event")
struct RefusalOrderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
    let base = URL(string: "https://location.test/v1")!

    func events(_ count: Int, from start: Int = 0) -> [RegionEvent] {
        (start..<start + count).map {
            RegionEvent(
                transition: $0 % 2 == 0 ? .entry : .exit, occurredAt: epoch.addingTimeInterval(Double($0)),
                triggerSubscriptionId: "sub_\($0)")
        }
    }

    func uploader(_ store: LocationEventStore, _ api: any HTTPTransport, clock: ManualClock) -> LocationUploader {
        var network = ConnectionNetworkController.Configuration(
            transport: api, locationBaseURL: base, anonymousId: "install-1")
        network.logHandler = nil
        return LocationUploader(
            store: store, configuration: .init(network: network), clock: clock,
            random: { 0.5 })
    }

    /// Runs the uploader until the store holds nothing pending (at most `rounds` calls), moving the clock to each
    /// retry.
    func drain(_ uploader: LocationUploader, _ store: LocationEventStore, _ clock: ManualClock, rounds: Int)
        async throws
    {
        for _ in 0..<rounds {
            if try await store.pending(now: clock.now).isEmpty { return }
            if case .retry(let at) = await uploader.uploadPending(userToken: "token").next { clock.advance(to: at) }
        }
    }

    /// 200 events, only the first request refused: every event reaches the server in the order it happened (before:
    /// 50 of 200 arrived after events that happened later, as the refused batch was sent again after them).
    @Test func eventsArriveInTheOrderTheyHappenedWhenARequestIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let backlog = events(200)
        for event in backlog { try await store.append(event) }
        let api = ScriptedRefusalAPI { number, _ in number == 0 }
        let clock = ManualClock(epoch.addingTimeInterval(300))
        try await drain(uploader(store, api, clock: clock), store, clock, rounds: 5)
        let arrived = api.arrived
        let position = Dictionary(uniqueKeysWithValues: backlog.enumerated().map { ($1.recordId.uuidString, $0) })
        let outOfOrder = arrived.enumerated().filter { index, id in
            let mine = position[id] ?? 0
            return arrived[..<index].contains { (position[$0] ?? 0) > mine }
        }.count
        #expect(outOfOrder == 0, "\(outOfOrder) of \(arrived.count) events arrived after events that happened later")
        #expect(arrived == backlog.map(\.recordId.uuidString))
        #expect(try await store.deadLetters().isEmpty)
    }

    /// A server that refuses half of all requests at random, whatever they hold: 100 backlogs of 6 events and 10 of
    /// 200, each through a new uploader, every good event is delivered and none dead-lettered (before: 22 of 600 and
    /// 7 of 2,000 dead-lettered).
    @Test(arguments: [(6, 100), (200, 10)])
    func randomRefusalsDeadLetterNothing(backlog size: Int, backlogs: Int) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var deadLettered = 0
        var delivered = 0
        let rng = Locked(SplitMix64(seed: UInt64(size)))
        for n in 0..<backlogs {
            let folder = directory.appendingPathComponent("\(n)")
            let store = try LocationEventStore(directory: folder)
            let backlog = events(size, from: n * size)
            for event in backlog { try await store.append(event) }
            let api = ScriptedRefusalAPI { _, _ in rng.withLock { Double.random(in: 0..<1, using: &$0) } < 0.5 }
            let clock = ManualClock(epoch.addingTimeInterval(Double(n * size) + 300))
            try await drain(uploader(store, api, clock: clock), store, clock, rounds: 200)
            deadLettered += try await store.deadLetters().count
            delivered += Set(api.arrived).intersection(backlog.map(\.recordId.uuidString)).count
        }
        #expect(deadLettered == 0, "\(deadLettered) of \(size * backlogs) good events dead-lettered")
        #expect(delivered == size * backlogs)
    }

    /// A lone bad event (refused whenever it is sent), tried in ten runs: the back-off does not grow past one step,
    /// and the next crossing is delivered at the next attempt, which dead-letters the bad event (before: the back-off
    /// doubled at each run, up to an hour, and the next crossing waited for it).
    @Test func aLoneBadEventHoldsTheNextCrossingBackAtMostOneBackOffStep() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LocationEventStore(directory: directory)
        let bad = events(1)[0]
        try await store.append(bad)
        let api = ScriptedRefusalAPI { _, ids in ids.contains(bad.recordId.uuidString) }
        let clock = ManualClock(epoch.addingTimeInterval(300))
        let uploader = uploader(store, api, clock: clock)
        var retry = clock.now
        for _ in 0..<10 {
            clock.advance(to: retry)
            let report = await uploader.uploadPending(userToken: "token")
            #expect(report.rejected == 0)
            guard case .retry(let at) = report.next else {
                Issue.record("expected a retry, got \(report.next)")
                return
            }
            retry = at
        }
        let step = UploadScheduler.Configuration().baseDelay
        #expect(await uploader.schedulerState.consecutiveFailures <= 1)
        let good = RegionEvent(transition: .exit, occurredAt: clock.now, triggerSubscriptionId: "later")
        try await store.append(good)
        #expect(
            retry.timeIntervalSince(clock.now) <= step,
            "the next crossing waits \(Int(retry.timeIntervalSince(clock.now))) s")
        clock.advance(to: max(retry, clock.now))
        let report = await uploader.uploadPending(userToken: "token")
        #expect(report.uploaded == 1 && report.rejected == 1)
        #expect(api.arrived == [good.recordId.uuidString])
        #expect(try await store.deadLetters().map(\.event.recordId) == [bad.recordId])
    }
}
