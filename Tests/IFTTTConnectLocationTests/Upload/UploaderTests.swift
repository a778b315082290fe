import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation

/// A transport that records requests and answers from a script of statuses (then 200).
final class ScriptedTransport: HTTPTransport, Sendable {
    private struct State {
        var script: [Result<Int, ConnectAPIError>]
        var recorded: [HTTPRequest] = []
    }

    private let state: Locked<State>

    init(_ script: [Result<Int, ConnectAPIError>] = []) { state = Locked(State(script: script)) }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let next: Result<Int, ConnectAPIError> = state.withLock {
            $0.recorded.append(request)
            return $0.script.isEmpty ? .success(200) : $0.script.removeFirst()
        }
        switch next {
        case .success(let status):
            return HTTPResponse(statusCode: status, headers: status == 503 ? ["retry-after": "120"] : [:])
        case .failure(let error): throw error
        }
    }
}

final class Counter: Sendable {
    private let value = Locked(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

@Suite("Upload: payload, batches, backoff, 401")
struct UploaderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
    let clock = ManualClock(epoch)
    let base = URL(string: "https://location.test/v1")!

    let token = "secret-user-token"

    func uploader(
        _ store: LocationEventStore, _ transport: any HTTPTransport, random: Double = 0.5
    ) -> LocationUploader {
        var network = ConnectionNetworkController.Configuration(
            transport: transport, locationBaseURL: base, anonymousId: "install-1")
        network.logHandler = nil
        let clock = self.clock
        return LocationUploader(
            store: store, configuration: .init(network: network), clock: clock, random: { random })
    }

    func filledStore(_ count: Int) async throws -> (LocationEventStore, [RegionEvent]) {
        let store = try LocationEventStore(directory: directory)
        let events = (0..<count).map {
            RegionEvent(
                transition: $0 % 2 == 0 ? .entry : .exit, occurredAt: epoch.addingTimeInterval(Double($0)),
                triggerSubscriptionId: "sub_\($0)_x")
        }
        for e in events { try await store.append(e) }
        return (store, events)
    }

    @Test func payloadIsExactlyTheSpecifiedShape() throws {
        let id = UUID(uuidString: "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9")!
        let event = RegionEvent(
            recordId: id, transition: .entry,
            occurredAt: ISO8601DateFormatter().date(from: "2021-10-25T18:03:20Z")!.addingTimeInterval(0.75),
            triggerSubscriptionId: "abc_def")
        let body = LocationEventPayload.encode([event], installationId: "install-1")
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"[{"channel_id":"941030000","event_type":"entry","installation_id":"install-1","occurred_at":"2021-10-25T18:03:20+0000","record_id":"0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9","region_type":"geo","trigger_subscription_id":"abc_def"}]"#
        )
    }

    @Test func uploadsInBatchesOfFiftyAndAcknowledges() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(120)
        let transport = ScriptedTransport()
        let report = await uploader(store, transport).uploadPending(userToken: token)
        #expect(report.uploaded == 120 && report.next == .done && report.error == nil)
        let requests = transport.requests
        #expect(requests.count == 3)
        #expect(
            requests.allSatisfy {
                $0.method == "POST" && $0.url.absoluteString == "https://location.test/v1/location_events"
            })
        #expect(requests[0].headers["Authorization"] == "Bearer secret-user-token")
        #expect(requests[0].headers["Content-Type"] == "application/json")
        #expect(Set(requests[0].headers.keys) == ["Authorization", "Content-Type"])  // spec §1.3: nothing else
        let sizes = try requests.map {
            try #require(JSONSerialization.jsonObject(with: $0.body ?? Data()) as? [[String: String]]).count
        }
        #expect(sizes == [50, 50, 20])
        let sentIds = try requests.flatMap {
            try #require(JSONSerialization.jsonObject(with: $0.body ?? Data()) as? [[String: String]]).map {
                $0["record_id"]!
            }
        }
        #expect(sentIds == events.map(\.recordId.uuidString))
        #expect(try await store.pending(now: epoch).isEmpty)
    }

    @Test func failuresBackOffExponentiallyWithJitterAndTheScheduleSurvivesARelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try await filledStore(3)
        let transport = ScriptedTransport([.success(500), .failure(.timedOut), .success(502)])
        let first = uploader(store, transport, random: 0.5)
        // 1st failure: 2 s × (0.5 + 0.5 × 0.5) = 1.5 s
        var report = await first.uploadPending(userToken: token)
        #expect(report.next == .retry(at: epoch.addingTimeInterval(1.5)))
        #expect(report.error?.code == .uploadFailed)
        // Too early: nothing is sent.
        report = await first.uploadPending(userToken: token)
        #expect(transport.requests.count == 1)
        #expect(report.next == .retry(at: epoch.addingTimeInterval(1.5)))
        // 2nd failure (timeout): 4 s × 0.75 = 3 s
        clock.advance(1.5)
        report = await first.uploadPending(userToken: token)
        #expect(report.next == .retry(at: clock.now.addingTimeInterval(3)))
        // Relaunch: a new uploader reads the saved schedule and waits too.
        let relaunched = uploader(store, transport, random: 0.0)
        report = await relaunched.uploadPending(userToken: token)
        #expect(transport.requests.count == 2)
        #expect(report.next == .retry(at: clock.now.addingTimeInterval(3)))
        // 3rd failure: 8 s × 0.5 = 4 s; then success resets the schedule and empties the store.
        clock.advance(3)
        report = await relaunched.uploadPending(userToken: token)
        #expect(report.next == .retry(at: clock.now.addingTimeInterval(4)))
        #expect(await relaunched.schedulerState.consecutiveFailures == 3)
        clock.advance(4)
        report = await relaunched.uploadPending(userToken: token)
        #expect(report.uploaded == 3 && report.next == .done && report.error == nil)
        #expect(await relaunched.schedulerState == UploadScheduler.State())
    }

    @Test func retryAfterIsHonoured() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try await filledStore(1)
        let report = await uploader(store, ScriptedTransport([.success(503)])).uploadPending(userToken: token)
        #expect(report.next == .retry(at: epoch.addingTimeInterval(120)))
    }

    @Test func a401PausesKeepsEveryEventAndCallsTheHandlerOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(70)
        let transport = ScriptedTransport([.success(200), .success(401)])
        let up = uploader(store, transport)
        var report = await up.uploadPending(userToken: token)
        #expect(report.uploaded == 50)
        #expect(report.next == .paused)
        #expect(report.error?.code == .authenticationFailure)
        #expect(report.authenticationFailed)  // the time to ask for new credentials, said once
        #expect(try await store.pending(now: epoch) == Array(events.suffix(20)))
        // Paused: nothing is sent, even after a relaunch, until resume().
        report = await uploader(store, transport).uploadPending(userToken: token)
        #expect(report.next == .paused && transport.requests.count == 2 && !report.authenticationFailed)
        // The token never appears in errors.
        #expect(!String(describing: report).contains("secret-user-token"))
        await up.resume()
        report = await up.uploadPending(userToken: token)
        #expect(report.uploaded == 20 && report.next == .done && report.error == nil)
    }

    /// The uploader calls nothing back: each batch's progress comes back in the report, in order, with the 401
    /// that paused uploading.
    @Test func theReportReturnsEachBatchsProgressInOrder() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(70)
        let transport = ScriptedTransport([.success(200), .success(500)])
        let report = await uploader(store, transport).uploadPending(userToken: token)
        let first = Array(events.prefix(50))
        let rest = Array(events.suffix(20))
        func describe(_ progress: LocationUploader.Progress) -> String {
            switch progress {
            case .attempted(let batch): return "attempted \(batch == first ? "first" : "\(batch.count)")"
            case .succeeded(let batch): return "succeeded \(batch == first ? "first" : "\(batch.count)")"
            case .failed(let batch, let error):
                return "failed \(batch == rest ? "rest" : "\(batch.count)") \(error.code)"
            case .rejected(let letters): return "rejected \(letters.count)"
            }
        }
        #expect(
            report.progress.map(describe) == [
                "attempted first", "succeeded first", "attempted 20", "failed rest uploadFailed",
            ])
        #expect(report.uploaded == 50 && report.error?.code == .uploadFailed && !report.authenticationFailed)

        // A 401: the report says so, once; the call that finds uploading paused sends nothing and says nothing new
        clock.advance(60)  // past the back-off
        let paused = await uploader(store, ScriptedTransport([.success(401)])).uploadPending(userToken: token)
        #expect(paused.authenticationFailed && paused.next == .paused)
        #expect(paused.progress.map(describe) == ["attempted 20", "failed rest authenticationFailure"])
        let again = await uploader(store, ScriptedTransport()).uploadPending(userToken: token)
        #expect(!again.authenticationFailed && again.next == .paused && again.progress.isEmpty)
    }

    @Test func noTokenSendsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = try await filledStore(2)
        let transport = ScriptedTransport()
        let report = await uploader(store, transport).uploadPending(userToken: nil)
        #expect(report.error?.code == .missingCredentials)
        #expect(transport.requests.isEmpty)
        #expect(try await store.pending(now: epoch).count == 2)
    }

    @Test func schedulerCapsTheDelay() {
        var scheduler = UploadScheduler(configuration: .init(baseDelay: 2, maximumDelay: 60))
        var last: UploadScheduler.Decision = .idle
        for _ in 0..<100 { last = scheduler.handle(.failed(random: 0.999, retryAfter: nil), now: epoch) }
        guard case .wait(let until) = last else {
            Issue.record("expected a wait")
            return
        }
        #expect(until.timeIntervalSince(epoch) <= 60 && until.timeIntervalSince(epoch) > 59)
        #expect(scheduler.handle(.wake(pending: 500), now: epoch.addingTimeInterval(61)) == .send(count: 50))
    }
}
