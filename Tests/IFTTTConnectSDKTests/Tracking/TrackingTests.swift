import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
import TestSupport

/// A transport that answers at once with a fixed status, fails, or holds each request until the test
/// releases it.
final class FakeAnalyticsTransport: HTTPTransport, Sendable {
    enum Mode {
        case answer(Int)
        case fail(ConnectAPIError)
        case gated
    }

    private struct State {
        var recorded: [HTTPRequest] = []
        var waiting: [CheckedContinuation<HTTPResponse, Never>] = []
    }

    private let state = Locked(State())
    private let mode: Mode
    let arrivals: AsyncStream<HTTPRequest>
    private let arrivalSink: AsyncStream<HTTPRequest>.Continuation

    init(_ mode: Mode) {
        self.mode = mode
        (arrivals, arrivalSink) = AsyncStream.makeStream()
    }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        state.withLock { $0.recorded.append(request) }
        switch mode {
        case .answer(let status): return HTTPResponse(statusCode: status)
        case .fail(let error): throw error
        case .gated:
            return await withCheckedContinuation { continuation in
                state.withLock { $0.waiting.append(continuation) }
                arrivalSink.yield(request)
            }
        }
    }

    func release(status: Int) {
        let continuation = state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
        continuation?.resume(returning: HTTPResponse(statusCode: status))
    }
}

@Suite("Analytics queue (pure engine)")
struct AnalyticsQueueTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func event(_ n: Int) -> AnalyticsEvent {
        .click(.aboutButton("b\(n)"), connectionId: "c1", at: t0.addingTimeInterval(Double(n)))
    }

    func batch(_ effects: [AnalyticsQueue.Effect]) -> AnalyticsQueue.Batch? {
        if case .send(let batch)? = effects.first { return batch }
        return nil
    }

    @Test func sendsOnceFiveEventsWait() {
        var queue = AnalyticsQueue()
        for n in 0..<4 { #expect(queue.track(event(n), now: t0).isEmpty) }
        let sent = batch(queue.track(event(4), now: t0))
        #expect(sent?.events == (0..<5).map(event))
        #expect(queue.inFlight == sent)
    }

    @Test func batchesHoldAtMostTenEvents() {
        var queue = AnalyticsQueue(configuration: .init(flushThreshold: 50))
        for n in 0..<15 { _ = queue.track(event(n), now: t0) }
        #expect(batch(queue.flush(now: t0))?.events.count == 10)
    }

    @Test func dropsTheOldestBeyondTheCapacity() {
        var queue = AnalyticsQueue(configuration: .init(flushThreshold: 1000))
        for n in 0..<105 { _ = queue.track(event(n), now: t0) }
        #expect(queue.pendingEvents.count == 100)
        #expect(queue.pendingEvents.first == event(5))
        #expect(queue.overflowCount == 5)
    }

    @Test func onlyOneBatchIsInFlight() {
        var queue = AnalyticsQueue()
        for n in 0..<5 { _ = queue.track(event(n), now: t0) }
        for n in 5..<12 { #expect(queue.track(event(n), now: t0).isEmpty) }
        #expect(queue.flush(now: t0).isEmpty)
        #expect(queue.tick(now: t0.addingTimeInterval(3600)).isEmpty)
    }

    @Test func successRemovesOnlyTheSentEventsAndContinues() throws {
        var queue = AnalyticsQueue()
        for n in 0..<5 { _ = queue.track(event(n), now: t0) }
        let first = try #require(queue.inFlight)
        for n in 5..<11 { _ = queue.track(event(n), now: t0) }
        let next = batch(queue.batchFinished(first.id, succeeded: true, now: t0))
        #expect(next?.events == (5..<11).map(event))
        #expect(queue.pendingEvents == (5..<11).map(event))
    }

    @Test func failureKeepsTheEventsForTheNextAttempt() throws {
        var queue = AnalyticsQueue()
        for n in 0..<5 { _ = queue.track(event(n), now: t0) }
        let first = try #require(queue.inFlight)
        #expect(queue.batchFinished(first.id, succeeded: false, now: t0).isEmpty)
        #expect(queue.inFlight == nil)
        #expect(queue.pendingEvents.count == 5)
        #expect(batch(queue.flush(now: t0))?.events.count == 5)
    }

    @Test func theTimerFlushesEveryThirtySeconds() throws {
        var queue = AnalyticsQueue()
        _ = queue.track(event(0), now: t0)
        #expect(queue.nextFlushDate == .distantPast)  // never sent: due at once
        let first = try #require(batch(queue.tick(now: t0)))
        _ = queue.batchFinished(first.id, succeeded: true, now: t0)
        _ = queue.track(event(1), now: t0.addingTimeInterval(1))
        #expect(queue.nextFlushDate == t0.addingTimeInterval(30))
        #expect(queue.tick(now: t0.addingTimeInterval(29.9)).isEmpty)
        #expect(batch(queue.tick(now: t0.addingTimeInterval(30)))?.events == [event(1)])
    }

    @Test func optOutDropsQueuedEventsAndCancelsTheBatchInFlight() throws {
        var queue = AnalyticsQueue()
        for n in 0..<7 { _ = queue.track(event(n), now: t0) }
        let inFlight = try #require(queue.inFlight)
        #expect(queue.setEnabled(false) == [.cancel(batchID: inFlight.id)])
        #expect(queue.pendingEvents.isEmpty)
        #expect(queue.track(event(8), now: t0).isEmpty)
        #expect(queue.pendingEvents.isEmpty)
        #expect(queue.batchFinished(inFlight.id, succeeded: false, now: t0).isEmpty)  // late outcome ignored
        #expect(queue.flush(now: t0).isEmpty)
        #expect(queue.nextFlushDate == nil)
        _ = queue.setEnabled(true)
        _ = queue.track(event(9), now: t0)
        #expect(queue.pendingEvents == [event(9)])
    }

    @Test func eventsUseTheWireFormat() throws {
        let connection = ButtonFixtures.standard
        let event = AnalyticsEvent.impression(
            of: connection, hostName: "Grocery Express",
            at: Date(timeIntervalSince1970: 1_700_000_000.1234))
        #expect(
            event.jsonValue.serialized() == """
                {"name":"sdk.impression","timestamp":"1700000000123","properties":{"object_status":"never_enabled",\
                "location_type":"connect_button","location_id":"Grocery Express","object_type":"connection","object_id":"gx-weather"}}
                """)
        let change = AnalyticsEvent.stateChange(of: connection, to: .created, at: t0)
        #expect(change.jsonValue["properties"]?["state"]?.stringValue == "created")
        #expect(change.jsonValue["properties"]?["location_type"] == nil)
        let email = AnalyticsEvent.click(.connectionEmail, connectionId: "c1", at: t0)
        #expect(email.jsonValue["properties"]?["object_id"] == nil)
        #expect(AnalyticsEvent.pageView(connectionId: "c1", at: t0).jsonValue["name"]?.stringValue == "sdk.pageviewed")
    }
}

@Suite("Analytics uploader (shell) with a fake transport", .timeLimit(.minutes(1)))
struct AnalyticsUploaderTests {
    let clock = ManualClock()
    let analyticsSwitch = AnalyticsSwitch()

    func uploader(_ transport: FakeAnalyticsTransport) -> AnalyticsUploader {
        AnalyticsUploader(
            network: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-7",
                callbackQueue: nil),
            analyticsSwitch: analyticsSwitch, clock: clock)
    }

    func event(_ n: Int) -> AnalyticsEvent {
        .click(.aboutButton("b\(n)"), connectionId: "c1", at: Date(timeIntervalSince1970: 1_700_000_000 + Double(n)))
    }

    @Test func anInjectedClockStampsTheBatches() async throws {
        let transport = FakeAnalyticsTransport(.answer(204))
        let clock = self.clock
        let uploader = AnalyticsUploader(
            network: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-7",
                callbackQueue: nil),
            analyticsSwitch: analyticsSwitch, clock: clock)
        await uploader.track(event(0))
        await uploader.tick()
        await uploader.waitUntilIdle()
        #expect(transport.requests.count == 1)
        await uploader.track(event(1))
        clock.advance(10)
        await uploader.tick()
        #expect(transport.requests.count == 1)
        clock.advance(20)
        await uploader.tick()
        await uploader.waitUntilIdle()
        #expect(transport.requests.count == 2)
    }

    @Test func postsBatchesToTheEventsEndpoint() async throws {
        let transport = FakeAnalyticsTransport(.answer(204))
        let uploader = uploader(transport)
        for n in 0..<5 { await uploader.track(event(n)) }
        await uploader.waitUntilIdle()
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.test/v2/sdk/events")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["IFTTT-SDK-Anonymous-Id"] == "anon-7")
        #expect(request.headers["IFTTT-SDK-Platform"] == SDKInfo.platform)
        #expect(request.headers["IFTTT-SDK-Version"] == SDKInfo.version)
        #expect(request.headers["Authorization"] == nil)
        let body = try JSONParser().parse(try #require(request.body))
        #expect(body["events"].flatMap { if case .array(let a) = $0 { a.count } else { nil } } == 5)
        #expect(await uploader.pendingEvents.isEmpty)
        #expect(await uploader.acceptedBatchCount == 1)
    }

    /// Analytics takes the SDK's one network path: the same headers as any Connect API request, the same status
    /// mapping (a 401 is refused like any other call's) and the same log line, from the network configuration.
    @Test func analyticsTakesTheSDKsOneNetworkPath() async throws {
        let lines = Locked<[String]>([])
        let transport = FakeAnalyticsTransport(.answer(401))
        let network = ConnectionNetworkController.Configuration(
            transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-7",
            callbackQueue: nil, logHandler: { line in lines.withLock { $0.append(line) } })
        let uploader = AnalyticsUploader(network: network, analyticsSwitch: analyticsSwitch, clock: clock)
        await uploader.track(event(0))
        await uploader.flush()
        await uploader.waitUntilIdle()
        #expect(await uploader.lastError == .rejected(statusCode: 401))
        #expect(lines.withLock { $0 } == ["POST /sdk/events -> 401"])

        _ = try? await ConnectionNetworkController(configuration: network).lookUpAccount(email: "a@example.com")
        let requests = transport.requests
        try #require(requests.count == 2)
        var analyticsHeaders = requests[0].headers
        #expect(analyticsHeaders.removeValue(forKey: "Content-Type") == "application/json")
        #expect(analyticsHeaders == requests[1].headers)
    }

    @Test func rejectedAndFailedBatchesStayQueued() async {
        let rejecting = FakeAnalyticsTransport(.answer(503))
        let first = uploader(rejecting)
        for n in 0..<5 { await first.track(event(n)) }
        await first.waitUntilIdle()
        #expect(await first.pendingEvents.count == 5)
        #expect(await first.lastError == .rejected(statusCode: 503))

        let offline = FakeAnalyticsTransport(.fail(.transport(code: -1009, description: "offline")))
        let second = uploader(offline)
        for n in 0..<5 { await second.track(event(n)) }
        await second.waitUntilIdle()
        #expect(await second.pendingEvents.count == 5)
        #expect(await second.lastError == .transport(.transport(code: -1009, description: "offline")))
    }

    @Test func theTimerSendsWhatWaits() async {
        let transport = FakeAnalyticsTransport(.answer(200))
        let uploader = uploader(transport)
        await uploader.track(event(0))
        await uploader.tick()
        await uploader.waitUntilIdle()
        #expect(transport.requests.count == 1)
        await uploader.track(event(1))
        clock.advance(10)
        await uploader.tick()
        #expect(transport.requests.count == 1)
        clock.advance(20)
        await uploader.tick()
        await uploader.waitUntilIdle()
        #expect(transport.requests.count == 2)
    }

    @Test func optOutDropsQueuedEventsAtOnce() async {
        // W-14: the original still sent events queued before the opt-out.
        let transport = FakeAnalyticsTransport(.answer(200))
        let uploader = uploader(transport)
        for n in 0..<3 { await uploader.track(event(n)) }
        #expect(await uploader.pendingEvents.count == 3)
        analyticsSwitch.isEnabled = false
        #expect(await uploader.pendingEvents.isEmpty)
        await uploader.track(event(4))
        await uploader.flush()
        await uploader.tick()
        await uploader.waitUntilIdle()
        #expect(transport.requests.isEmpty)
    }

    @Test func optOutCancelsTheBatchInFlightAndNeverSendsTheRest() async {
        let transport = FakeAnalyticsTransport(.gated)
        let uploader = uploader(transport)
        for n in 0..<5 { await uploader.track(event(n)) }
        var arrivals = transport.arrivals.makeAsyncIterator()
        _ = await arrivals.next()  // the first batch reached the network
        for n in 5..<8 { await uploader.track(event(n)) }
        analyticsSwitch.isEnabled = false
        #expect(await uploader.pendingEvents.isEmpty)
        transport.release(status: 200)
        await uploader.waitUntilIdle()
        await uploader.flush()
        await uploader.waitUntilIdle()
        #expect(transport.requests.count == 1)
        #expect(await uploader.acceptedBatchCount == 0)
        #expect(await uploader.pendingEvents.isEmpty)
        // Turning analytics back on collects new events only.
        analyticsSwitch.isEnabled = true
        await uploader.track(event(9))
        #expect(await uploader.pendingEvents == [event(9)])
    }
}

@Suite("Privacy manifest")
struct PrivacyManifestTests {
    @Test func declaresWhatTheSDKCollects() throws {
        let url = Repository.url("Sources/IFTTTConnectCore/PrivacyInfo.xcprivacy")
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        let collected = try #require(plist["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        let types = Set(collected.compactMap { $0["NSPrivacyCollectedDataType"] as? String })
        #expect(
            types == [
                "NSPrivacyCollectedDataTypeEmailAddress", "NSPrivacyCollectedDataTypeUserID",
                "NSPrivacyCollectedDataTypeProductInteraction", "NSPrivacyCollectedDataTypeDeviceID",
            ])
        for entry in collected {
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
            #expect((entry["NSPrivacyCollectedDataTypePurposes"] as? [String])?.isEmpty == false)
        }
        #expect(plist["NSPrivacyAccessedAPITypes"] is [Any])
    }
}
