import Foundation
import Testing
import IFTTTConnectTesting
@testable import IFTTTConnectCore

/// A Connect API that knows users by token: `/me` answers each token's login, the Connection answers each
/// token's status. Unknown tokens get 401. Records every request.
final class TokenAwareTransport: HTTPTransport, Sendable {
    struct Account {
        var login: String
        var status: String
        var pending = false
    }

    private struct State {
        var accounts: [String: Account]
        var recorded: [HTTPRequest] = []
    }

    private let state: Locked<State>

    init(_ accounts: [String: Account]) {
        state = Locked(State(accounts: accounts))
    }

    var requests: [HTTPRequest] { state.withLock { $0.recorded } }

    /// How many verification requests (`/me` and the Connection) were made; analytics uploads are not counted.
    var verificationRequests: Int {
        requests.filter { ["/v2/me", "/v2/connections/c1"].contains($0.url.path) }.count
    }

    func set(_ token: String, _ account: Account) {
        state.withLock { $0.accounts[token] = account }
    }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let token = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) }
        let account: Account? = state.withLock { state in
            state.recorded.append(request)
            return token.flatMap { state.accounts[$0] }
        }
        switch request.method + " " + request.url.path {
        case "GET /v2/account/find":
            return HTTPResponse(statusCode: 204)
        case "GET /v2/me":
            guard let account else {
                if token == nil {
                    return HTTPResponse(
                        statusCode: 200, body: Data(#"{"type":"user","authentication_level":"none"}"#.utf8))
                }
                return HTTPResponse(statusCode: 401, body: Data(#"{"errors":[{"message":"Unauthorized"}]}"#.utf8))
            }
            return HTTPResponse(
                statusCode: 200,
                body: Data(#"{"type":"user","user_login":"\#(account.login)","authentication_level":"user"}"#.utf8))
        case "GET /v2/connections/c1":
            guard let account else {
                if token == nil { return HTTPResponse(statusCode: 200, body: ActivationFixtures.connectionJSON()) }
                return HTTPResponse(statusCode: 401)
            }
            var text = String(decoding: ActivationFixtures.connectionJSON(account.status), as: UTF8.self)
            if account.pending {
                text.removeLast()
                text += #","user_connection":{"pending":true,"user_features":[]}}"#
            }
            return HTTPResponse(statusCode: 200, body: Data(text.utf8))
        default:
            return HTTPResponse(statusCode: 404)
        }
    }
}

/// Holds callers until opened; counts the callers it let through.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var released = 0

    func wait() async {
        if !isOpen { await withCheckedContinuation { waiting.append($0) } }
        released += 1
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

/// A delegate that buffers activation results, so a test can wait for one that may already have arrived.
@MainActor
final class ResultRecorder: ConnectButtonControllerDelegate {
    private var buffered: [Result<ConnectionActivation, ConnectButtonControllerError>] = []
    private var waiter: CheckedContinuation<Result<ConnectionActivation, ConnectButtonControllerError>, Never>?

    func next() async -> Result<ConnectionActivation, ConnectButtonControllerError> {
        if !buffered.isEmpty { return buffered.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishActivationWithResult result: Result<ConnectionActivation, ConnectButtonControllerError>
    ) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: result)
        } else {
            buffered.append(result)
        }
    }

    func connectButtonController(
        _ connectButtonController: ConnectButtonController,
        didFinishDeactivationWithResult result: Result<Connection, ConnectButtonControllerError>
    ) {}
}

/// Redirects without `state`: verified with IFTTT before they may finish the waiting flow.
@Suite("Redirect verification without state", .timeLimit(.minutes(1)))
@MainActor
struct ActivationRedirectVerificationTests {
    typealias F = ActivationFixtures
    static let alice = "tok-alice-0123456789"
    static let bob = "tok-bob-0123456789"

    let transport = TokenAwareTransport([
        alice: .init(login: "alice", status: "enabled"),
        bob: .init(login: "bob", status: "enabled"),
    ])
    let registry = RedirectRegistry()
    let web = RecordingWebSession()
    let logs = LogCapture()
    let results = ResultRecorder()

    func makeController(
        userToken: String? = nil, policy: RedirectStatePolicy = .verifyWhenMissing,
        userVerifier: (@Sendable (RedirectedUser) async -> Bool)? = nil
    ) -> ConnectButtonController {
        let network = ConnectionNetworkController(
            configuration: .init(
                transport: transport, connectBaseURL: URL(string: "https://api.test/v2")!, anonymousId: "anon-1",
                callbackQueue: nil, logHandler: logs.handler))
        var configuration = ConnectButtonController.Configuration(
            networkController: network, urlOpener: RecordingURLOpener(), webAuthenticationSession: web,
            clock: ManualClock(),
            timing: .immediate, webActivationBaseURL: URL(string: "https://sandbox.test/access/api")!,
            logHandler: logs.handler)
        configuration.registry = registry
        configuration.analyticsUploaders = AnalyticsUploaderRegistry()
        var config = ConnectionConfiguration(
            connection: F.connection(), suggestedUserEmail: "user@example.com",
            credentialProvider: ConnectionCredentials(oauthCode: "o", userToken: userToken),
            redirectURL: F.redirectURL)
        config.redirectStatePolicy = policy
        config.redirectUserVerifier = userVerifier
        return ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: config,
            locale: Locale(identifier: "en_US"), delegate: results, configuration: configuration)
    }

    /// Starts the flow and returns once the web page is open, with the `state` it sent.
    func startAndWait(_ controller: ConnectButtonController) async throws -> String {
        let opened = AsyncStream<URL>.makeStream()
        web.onStart = { opened.continuation.yield($0) }
        controller.toggle()
        if controller.step == .enterEmail(invalid: false) { controller.confirmEmail("user@example.com") }
        var iterator = opened.stream.makeAsyncIterator()
        let url = try #require(await iterator.next())
        #expect(controller.step == .waitingForRedirect)
        return try #require(F.value("state", in: url))
    }

    /// Submits `query` at the redirect URL and waits for the verdict.
    func submit(_ query: String) async -> (taken: Bool, accepted: Bool) {
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        let url = URL(string: F.redirectURL.absoluteString + "?" + query)!
        let verdict = AsyncStream<Bool>.makeStream()
        let taken = handler.submit(url) { verdict.continuation.yield($0) }
        var iterator = verdict.stream.makeAsyncIterator()
        return (taken, await iterator.next() ?? false)
    }

    /// The next activation result the delegate received (buffered, so it cannot be missed).
    func result(of controller: ConnectButtonController) async -> Result<
        ConnectionActivation, ConnectButtonControllerError
    > {
        await results.next()
    }

    @Test func aVerifiedRedirectWithoutStateCompletesTheFlowOnce() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        async let outcome = result(of: controller)
        let verdict = await submit("next_step=complete&user_token=\(Self.alice)")
        #expect(verdict == (true, true))
        let activation = try await outcome.get()
        #expect(activation.userToken == Self.alice)
        // The same redirect again is refused: the flow no longer waits.
        #expect(await submit("next_step=complete&user_token=\(Self.alice)") == (false, false))
        #expect(!logs.lines.joined().contains(Self.alice))
    }

    @Test func aGarbageTokenIsRefusedAndTheFlowKeepsWaiting() async throws {
        let controller = makeController()
        let state = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=garbage-token") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        #expect(registry.count == 1)
        // The genuine redirect still works.
        async let outcome = result(of: controller)
        #expect(await submit("next_step=complete&user_token=\(Self.alice)&state=\(state)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
        #expect(logs.lines.contains { $0.contains("does not work on /v2/me") })
        #expect(!logs.lines.joined().contains("garbage-token"))
    }

    @Test func anotherUsersTokenIsRefusedWhenTheFlowStartedFromAKnownUser() async throws {
        // Alice's token is in the credential provider: `/me` says "alice", so bob's enabled account cannot finish it.
        let controller = makeController(userToken: Self.alice)
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        #expect(logs.lines.contains { $0.contains("another user") })
        async let outcome = result(of: controller)
        #expect(await submit("next_step=complete&user_token=\(Self.alice)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    @Test func aTokenWhoseUserDoesNotHaveTheConnectionOnIsRefused() async throws {
        transport.set(Self.bob, .init(login: "bob", status: "never_enabled"))
        let controller = makeController()
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        transport.set(Self.bob, .init(login: "bob", status: "disabled"))
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(controller.step == .waitingForRedirect)
        #expect(logs.lines.filter { $0.contains("not on for the token's user") }.count == 2)
    }

    @Test func aPendingUserConnectionAfterSkippingConfigurationPasses() async throws {
        transport.set(Self.alice, .init(login: "alice", status: "never_enabled", pending: true))
        let controller = makeController()
        _ = try await startAndWait(controller)
        async let outcome = result(of: controller)
        #expect(await submit("next_step=complete&user_token=\(Self.alice)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    @Test func theIntegratorsVerifierHasTheLastWord() async throws {
        // Without a known user, bob's real, enabled account passes the SDK's checks: only the app's own check stops it.
        let seen = LogCapture()
        let controller = makeController { redirected in
            seen.handler(redirected.login)
            return redirected.login == "alice"
        }
        _ = try await startAndWait(controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, false))
        #expect(logs.lines.contains { $0.contains("redirectUserVerifier refused") })
        async let outcome = result(of: controller)
        #expect(await submit("next_step=complete&user_token=\(Self.alice)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
        #expect(seen.lines == ["bob", "alice"])
    }

    @Test func withoutAnyCheckAnotherRealEnabledAccountPasses() async throws {
        // The documented limit of the default mode without a known user and without an app verifier.
        let controller = makeController()
        _ = try await startAndWait(controller)
        async let outcome = result(of: controller)
        #expect(await submit("next_step=complete&user_token=\(Self.bob)") == (true, true))
        #expect(try await outcome.get().userToken == Self.bob)
    }

    @Test func requiredStateRefusesEveryRedirectWithoutStateUnverified() async throws {
        let controller = makeController(policy: .required)
        let state = try await startAndWait(controller)
        let before = transport.verificationRequests
        for query in [
            "next_step=complete&user_token=\(Self.alice)", "next_step=error", "next_step=user_cancelled_configuration",
            "next_step=complete",
        ] {
            #expect(await submit(query) == (false, false), "\(query)")
        }
        #expect(transport.verificationRequests == before)
        #expect(controller.step == .waitingForRedirect)
        async let outcome = result(of: controller)
        #expect(await submit("next_step=complete&user_token=\(Self.alice)&state=\(state)") == (true, true))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    @Test func aWrongStateIsRefusedWithoutVerification() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        let before = transport.verificationRequests
        #expect(
            await submit("next_step=complete&user_token=\(Self.alice)&state=ffffffffffffffffffffffffffffffff") == (
                false, false
            ))
        #expect(transport.verificationRequests == before)
        #expect(controller.step == .waitingForRedirect)
    }

    @Test func completeWithoutATokenNeedsTheStartingUsersConnectionOn() async throws {
        let anonymous = makeController()
        _ = try await startAndWait(anonymous)
        #expect(await submit("next_step=complete") == (true, false))
        anonymous.cancelActivation()
        #expect(await results.next() == .failure(.canceled))

        let known = makeController(userToken: Self.alice)
        _ = try await startAndWait(known)
        async let outcome = result(of: known)
        #expect(await submit("next_step=complete") == (true, true))
        #expect(try await outcome.get().userToken == nil)
    }

    @Test func errorsWithoutStateEndTheFlowAsTheServerSays() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        async let outcome = result(of: controller)
        #expect(await submit("next_step=error&error_type=account_creation") == (true, true))
        #expect(await outcome == .failure(.iftttAccountCreationFailed))
        _ = try await startAndWait(controller)
        async let cancelled = result(of: controller)
        #expect(await submit("next_step=user_cancelled_configuration") == (true, true))
        #expect(await cancelled == .failure(.userCancelledConfiguration))
    }

    @Test func aWebSessionCallbackThatFailsVerificationEndsTheFlowWithUnknownRedirect() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        async let outcome = result(of: controller)
        web.end(.callback(URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=garbage")!))
        #expect(await outcome == .failure(.unknownRedirect))
        #expect(registry.count == 0)
    }

    @Test func aWebSessionCallbackWithoutStateThatPassesCompletesTheFlow() async throws {
        let controller = makeController()
        _ = try await startAndWait(controller)
        async let outcome = result(of: controller)
        web.end(.callback(URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=\(Self.alice)")!))
        #expect(try await outcome.get().userToken == Self.alice)
    }

    @Test func aFloodOfForgedRedirectsIsBounded() async throws {
        // The app's verifier holds every verification open until the gate opens, so all of them are in flight.
        let gate = Gate()
        let controller = makeController { _ in
            await gate.wait()
            return false
        }
        _ = try await startAndWait(controller)
        let handler = ConnectionRedirectHandler(redirectURL: F.redirectURL, registry: registry)
        let forged = URL(string: F.redirectURL.absoluteString + "?next_step=complete&user_token=\(Self.bob)")!
        var taken = 0
        for _ in 0..<50 where handler.handleApplicationRedirect(url: forged) { taken += 1 }
        #expect(taken == RedirectRegistry.maximumConcurrentVerifications)
        #expect(logs.lines.contains { $0.contains("too many verifications in progress") })
        await gate.open()
        while await gate.released < taken { await Task.yield() }
        #expect(controller.step == .waitingForRedirect)
    }

    @Test func theVerifiedUserDescriptionHidesTheToken() {
        let user = RedirectedUser(userToken: Self.alice, login: "alice", connectionId: "c1")
        #expect(!user.description.contains(Self.alice))
        var dumped = ""
        dump(user, to: &dumped)
        #expect(!dumped.contains(Self.alice))
    }
}
