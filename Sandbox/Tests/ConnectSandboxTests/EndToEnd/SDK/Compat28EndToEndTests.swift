import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ConnectSDK-iOS 2.8's networking shapes over real HTTP on loopback: the `URLSessionDataTask` forms of
/// `start(...)` and `JSONNetworkController.json(...)`, against the sandbox, with the SDK's default transport.
@Suite("2.8 data tasks against the sandbox", .timeLimit(.minutes(2)))
struct Compat28EndToEndTests {
    /// What a 2.8 completion saw, copied out of the main actor.
    struct Outcome: Sendable {
        let statusCode: Int
        let connectionId: String?
        let error: ConnectAPIError?
    }

    /// Starts `request` as 2.8 code does (the result stored as a `URLSessionDataTask?`) and waits for the
    /// completion; `cancel` cancels the data task right after it starts.
    @MainActor
    static func start(
        _ controller: ConnectionNetworkController, _ request: Connection.Request, cancel: Bool = false
    ) async -> (Outcome, Bool) {
        var task: URLSessionDataTask?
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            task = controller.start(request: request) { response in
                let error: ConnectAPIError?
                if case .failure(let failure) = response.result { error = failure.apiError } else { error = nil }
                continuation.resume(
                    returning: Outcome(
                        statusCode: response.statusCode, connectionId: try? response.result.get().id, error: error))
            }
            if cancel { task?.cancel() }
        }
        return (outcome, task != nil)
    }

    @Test func aDataTaskFetchesTheConnection() async throws {
        try await withSandbox { _, controller in
            let (outcome, hadTask) = await Self.start(
                controller, .fetchConnection(for: "gx-arrive-store", credentialProvider: Demo.alice))
            #expect(hadTask)
            #expect(outcome.statusCode == 200)
            #expect(outcome.connectionId == "gx-arrive-store")
            #expect(outcome.error == nil)
        }
    }

    @Test func aRejectedTokenIsATypedFailureWithItsStatus() async throws {
        try await withSandbox { _, controller in
            let mallory = ConnectionCredentials(userToken: "sandbox-user-token-mallory")
            let (outcome, hadTask) = await Self.start(
                controller, .fetchConnection(for: "gx-arrive-store", credentialProvider: mallory))
            #expect(hadTask)
            #expect(outcome.statusCode == 401)
            guard case .authenticationFailure(let payload) = outcome.error else {
                Issue.record("expected an authentication failure, got \(String(describing: outcome.error))")
                return
            }
            #expect(payload?.code == "unauthorized")
        }
    }

    @Test func cancellingTheDataTaskCompletesWithCancelled() async throws {
        // Every answer waits 3 s, so the cancellation always comes first.
        try await withSandbox(latency: 3000) { _, controller in
            let (outcome, hadTask) = await Self.start(
                controller, .fetchConnection(for: "gx-arrive-store", credentialProvider: Demo.alice), cancel: true)
            #expect(hadTask)
            #expect(outcome.statusCode == -1)
            #expect(outcome.error == .cancelled)
        }
    }

    @Test func jsonHandsBackTheAnswerWhateverItsStatus() async throws {
        try await withSandbox { url, controller in
            var me = URLRequest(url: url.appendingPathComponent("v2/me"))
            me.setValue("Bearer sandbox-user-token-alice", forHTTPHeaderField: "Authorization")
            let network = JSONNetworkController(configuration: controller.configuration)
            let alice = try await network.json(urlRequest: me)
            #expect(alice.statusCode == 200)
            #expect(alice.json?["user_login"]?.stringValue == "alice")
            #expect(alice.headers["content-type"]?.hasPrefix("application/json") == true)

            me.setValue("Bearer sandbox-user-token-mallory", forHTTPHeaderField: "Authorization")
            let (status, rejected, hadTask) = await { @MainActor in
                var task: URLSessionDataTask?
                let (status, rejected) = await withCheckedContinuation {
                    (continuation: CheckedContinuation<(Int, Bool), Never>) in
                    task = controller.json(urlRequest: me) { result in
                        let response = try? result.get()
                        continuation.resume(
                            returning: (response?.statusCode ?? -1, response?.isAuthenticationFailure ?? false))
                    }
                }
                return (status, rejected, task != nil)
            }()
            #expect(hadTask)
            #expect(status == 401)
            #expect(rejected)
        }
    }
}
